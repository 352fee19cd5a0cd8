package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/stats"
)

func TestBots(t *testing.T) {
	dir := t.TempDir()
	extra := filepath.Join(dir, "bots.csv")
	if err := os.WriteFile(extra, []byte("token,operator,category\nNewBot,New,other\nGPTBot,OpenAI,ai-search\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("token,operator,category\nX,Y,nonsense\n"), 0o644)
	n := stats.DefaultCatalog().Len()
	cases := []struct {
		name     string
		args     []string
		lines    int // CSV lines after the comment and header
		contains []string
		code     int
	}{
		{"embedded", []string{"bots"}, n, []string{"# robotstat bot catalog " + stats.DefaultCatalog().Version(), "GPTBot,OpenAI,ai-training"}, 0},
		{"extend", []string{"bots", "--bots", extra}, n + 1, []string{"GPTBot,OpenAI,ai-search", "NewBot,New,other", "+custom"}, 0},
		{"replace", []string{"bots", "--bots", extra, "--replace"}, 2, []string{"NewBot,New,other"}, 0},
		{"replace_without_file", []string{"bots", "--replace"}, -1, nil, ExitUsage},
		{"bad_category", []string{"bots", "--bots", bad}, -1, nil, ExitUsage},
		{"missing_file", []string{"bots", "--bots", filepath.Join(dir, "nope")}, -1, nil, ExitUsage},
		{"argument", []string{"bots", "x"}, -1, nil, ExitUsage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := run(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, errOut)
			}
			if tc.lines >= 0 {
				lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
				if got := len(lines) - 2; got != tc.lines {
					t.Errorf("%d bot lines, want %d", got, tc.lines)
				}
			}
			for _, s := range tc.contains {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q", s)
				}
			}
		})
	}
}
