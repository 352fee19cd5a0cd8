package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFullStdout: a command whose data on stdout cannot be written (a full
// disk: /dev/full) fails, exit 2, instead of exiting 0 with the data lost
// (issue 26.7: status > full-disk-file exited 0).
func TestFullStdout(t *testing.T) {
	t.Parallel()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := run(t, "", "analyze", "--quiet", "--out", out); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{
		{"status", out}, {"status", "--json", out}, {"report", out}, {"bots"},
		{"help"}, {"version"}, {"status", "--help"},
	} {
		var errb bytes.Buffer
		m := &Main{Stdout: full, Stderr: &errb, Getenv: func(string) string { return "" }, retryDelays: testRetryDelays}
		err := m.Run(context.Background(), args)
		if code := ExitCode(err); code != 2 || !bytes.Contains([]byte(err.Error()), []byte("no space left")) {
			t.Errorf("%v: exit %d, err %v; want 2 naming the full disk", args, code, err)
		}
	}
}
