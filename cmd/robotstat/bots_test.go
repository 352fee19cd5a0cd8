package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/stats"
)

func TestBots(t *testing.T) {
	t.Parallel()
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
		{"embedded", []string{"bots"}, n, []string{"# robotstat bot catalog " + stats.DefaultCatalog().Version(),
			"token,operator,category,source,checked\n",
			"GPTBot,OpenAI,ai-training,https://developers.openai.com/api/docs/bots,2026-12-01",
			"Scrapy,Zyte (open-source framework),generic-tool,https://docs.scrapy.org/",
			"PetalBot,Huawei,search-dual-use,https://aspiegel.com/petalbot,2026-12-01",
			"KimiBot,Moonshot AI (Kimi),ai-training,https://www.kimi.com/policies/kimi-crawlers,2026-12-01"}, 0},
		{"extend", []string{"bots", "--bots", extra}, n + 1, []string{"GPTBot,OpenAI,ai-search,,\n", "NewBot,New,other,,\n", "+custom"}, 0},
		{"replace", []string{"bots", "--bots", extra, "--bots-replace"}, 2, []string{"NewBot,New,other"}, 0},
		{"replace_without_file", []string{"bots", "--bots-replace"}, -1, nil, ExitUsage},
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

// TestBotsRoundTrip: what robotstat bots prints, in either form, is a --bots
// FILE that gives the same catalog back (analyze reads --bots through the
// same loader, loadCatalog).
func TestBotsRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, form := range []struct{ name, flag string }{{"csv", ""}, {"json", "--json"}} {
		t.Run(form.name, func(t *testing.T) {
			args := []string{"bots"}
			if form.flag != "" {
				args = append(args, form.flag)
			}
			first, errOut, code := run(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			file := filepath.Join(dir, "catalog."+form.name)
			if err := os.WriteFile(file, []byte(first), 0o644); err != nil {
				t.Fatal(err)
			}
			again, errOut, code := run(t, "", append(args, "--bots", file, "--bots-replace")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if form.name == "json" {
				// The JSON form keeps the version; CSV reads back as "custom".
				if again != first {
					t.Errorf("JSON round trip differs:\n%s", testkit.FirstLineDiff(first, again))
				}
				return
			}
			_, body, _ := strings.Cut(first, "\n")
			_, bodyAgain, _ := strings.Cut(again, "\n")
			if body != bodyAgain {
				t.Errorf("CSV round trip differs:\n%s", testkit.FirstLineDiff(body, bodyAgain))
			}
		})
	}
	// A three-column file from before source and checked existed still works.
	old := filepath.Join(dir, "old.csv")
	os.WriteFile(old, []byte("# robotstat bot catalog 2026.11.1: 1 bots\ntoken,operator,category\nGPTBot,OpenAI,ai-training\n"), 0o644)
	out, errOut, code := run(t, "", "bots", "--bots", old, "--bots-replace")
	if code != 0 || !strings.Contains(out, "GPTBot,OpenAI,ai-training,,\n") {
		t.Errorf("old file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
