package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/runs"
)

// TestDamagedOutput: a committed file emptied after its commit is named by
// status, with what to run, and report and sites refuse the folder (exit
// 2) instead of reading the rest (issue 26.3: status said "done, sites up
// to date" and report and sites exited 0); analyze --redo makes it whole.
func TestDamagedOutput(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := run(t, "", "analyze", "--quiet", "--out", out); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(out, "captures", "*", "*.parquet"))
	if len(files) == 0 {
		t.Fatal("no captures file")
	}
	if err := os.Truncate(files[0], 0); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(out, files[0])
	stdout, _, code := run(t, "", "status", out)
	if code != 0 || !strings.Contains(stdout, "0 inputs done, 0 failed, 0 partial, 0 left, 1 damaged") ||
		!strings.Contains(stdout, "damaged  "+filepath.ToSlash(rel)+": 0 bytes, its record says") || !strings.Contains(stdout, "robotstat analyze --redo --out "+out) {
		t.Errorf("status: exit %d:\n%s", code, stdout)
	}
	stdout, _, _ = run(t, "", "status", "--json", out)
	var rep runs.Status
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Damaged) != 1 || rep.Counts[runs.StateDamaged] != 1 {
		t.Errorf("status --json: %v %+v", err, rep)
	}
	for _, cmd := range []string{"report", "sites"} {
		if _, stderr, code := run(t, "", cmd, out); code != 2 || !strings.Contains(stderr, "damaged") || !strings.Contains(stderr, filepath.ToSlash(rel)) {
			t.Errorf("%s: exit %d: %s", cmd, code, stderr)
		}
	}
	if _, stderr, code := run(t, "", "analyze", "--quiet", "--redo", "--out", out); code != 0 {
		t.Fatalf("analyze --redo: exit %d: %s", code, stderr)
	}
	if stdout, _, _ := run(t, "", "status", out); !strings.Contains(stdout, "1 inputs done, 0 failed, 0 partial, 0 left; sites") || strings.Contains(stdout, "damaged") {
		t.Errorf("after --redo: %s", stdout)
	}
	if _, stderr, code := run(t, "", "report", out); code != 0 {
		t.Errorf("report after --redo: exit %d: %s", code, stderr)
	}
}
