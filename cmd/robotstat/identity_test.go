package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyzeSameFileTwice (issue 26.2): x.warc and a symbolic link to it
// named together gave every capture twice (20 rows, 10 capture ids); a
// hard link did too. Each file is read once and the summary says which
// name was left out.
func TestAnalyzeSameFileTwice(t *testing.T) {
	t.Parallel()
	x := genCorpus(t, 10, 10)[0]
	dir := filepath.Dir(x)
	link := filepath.Join(dir, "xlink.warc.gz")
	hard := filepath.Join(dir, "xhard.warc.gz")
	if err := os.Symlink(filepath.Base(x), link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(x, hard); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := run(t, "", "analyze", "--quiet", "--out", out, x, link, hard)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	ids := map[string]bool{}
	rows := readCaptures(t, out)
	for _, r := range rows {
		ids[r.CaptureID] = true
	}
	if len(rows) != 10 || len(ids) != 10 {
		t.Errorf("%d captures rows, %d capture ids; want 10 and 10", len(rows), len(ids))
	}
	if !strings.Contains(stderr, "2 inputs named twice, read once: ") || !strings.Contains(stderr, link+" (the same file as "+x+")") {
		t.Errorf("the summary does not name the duplicates:\n%s", stderr)
	}
}

// TestAnalyzeOutInsideInput (issue 26.2): with --out inside the input
// folder, each later run read the completion records under
// --out/_robotstat/inputs as JSON Lines dumps (174, then 375 invented
// errors and inputs, growing each run). Folder walks skip an output
// folder, count it and name it, and an output folder named as the input is
// refused with what to give instead.
func TestAnalyzeOutInsideInput(t *testing.T) {
	t.Parallel()
	in := t.TempDir()
	for _, h := range []string{"a.example", "b.example", "c.example"} {
		if err := os.WriteFile(filepath.Join(in, h+".txt"), []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(in, "out")
	for i := range 3 {
		_, stderr, code := run(t, "", "analyze", "--quiet", "--redo", "--crawl", "c", "--out", out, in)
		if code != 0 {
			t.Fatalf("run %d: exit %d\n%s", i, code, stderr)
		}
		if !strings.Contains(stderr, "1 robotstat output folder inside the input folders not read: out") || !strings.Contains(stderr, "0 errors") {
			t.Errorf("run %d:\n%s", i, stderr)
		}
		if rows := readCaptures(t, out); len(rows) != 3 {
			t.Errorf("run %d: %d captures, want 3", i, len(rows))
		}
		if recs := unitRecords(t, out); len(recs) != 1 {
			t.Errorf("run %d: %d inputs recorded, want the folder's 1", i, len(recs))
		}
	}
	_, stderr, code := run(t, "", "analyze", "--quiet", "--out", filepath.Join(t.TempDir(), "o2"), out)
	if code != ExitUsage || !strings.Contains(stderr, "is a robotstat output folder (it has _robotstat/), not input") {
		t.Errorf("an output folder as input: exit %d\n%s", code, stderr)
	}
}
