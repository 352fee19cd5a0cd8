package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSameFileTwice (issue 26.2): one file named twice, as itself and
// through a symbolic link, a hard link or another spelling of its path, is
// read once, and the summary names what was left out and why. Before, a
// link to x.warc named beside it gave its captures twice (20 rows, 10
// capture ids).
func TestSameFileTwice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var recs [][]byte
	for i := range 10 {
		recs = append(recs, robotsResp("h"+strconv.Itoa(i)+".example", robotsBody))
	}
	x := filepath.Join(dir, "x.warc.gz")
	if err := os.WriteFile(x, gzipMembers(recs...), 0o644); err != nil {
		t.Fatal(err)
	}
	sym := filepath.Join(dir, "xlink.warc.gz")
	hard := filepath.Join(dir, "xhard.warc.gz")
	if err := os.Symlink("x.warc.gz", sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(x, hard); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.warc.gz")
	if err := os.WriteFile(other, gzipMembers(recs[:3]...), 0o644); err != nil {
		t.Fatal(err)
	}
	dot := dir + string(filepath.Separator) + "." + string(filepath.Separator) + "x.warc.gz" // ./x.warc.gz beside x.warc.gz
	caps, sum, err := collect(t, Config{Workers: 2}, x, sym, hard, dot, other)
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != 13 || sum.Files != 2 {
		t.Fatalf("%d captures from %d files, want 13 from 2 (x.warc.gz once, other.warc.gz)", len(caps), sum.Files)
	}
	if sum.Duplicates != 3 || len(sum.DuplicateExamples) != 3 {
		t.Fatalf("duplicates %d %q, want 3 named", sum.Duplicates, sum.DuplicateExamples)
	}
	for _, ex := range sum.DuplicateExamples {
		if !strings.HasSuffix(ex, "(the same file as "+x+")") {
			t.Errorf("duplicate %q does not name the file it repeats", ex)
		}
	}
	// A link to the file, named first, is the one read.
	if _, sum, _ := collect(t, Config{}, sym, x); sum.Duplicates != 1 || sum.DuplicateExamples[0] != x+" (the same file as "+sym+")" {
		t.Errorf("link first: %d %q", sum.Duplicates, sum.DuplicateExamples)
	}
}

// TestOutputFolderNotInput (issue 26.2, 25.4): a robotstat output folder
// (one with _robotstat/) inside an input folder is not walked into, and
// is counted and named; one named as an input is refused. Before, an
// --out inside the input folder had its completion records read as JSON
// Lines dumps, more of them on every run.
func TestOutputFolderNotInput(t *testing.T) {
	t.Parallel()
	in := t.TempDir()
	files := map[string]string{
		"a.example/robots.txt":                  robotsBody,
		"b.example.txt":                         robotsBody,
		"out/_robotstat/inputs/run.json":        `{"run_id":"run","state":"done"}`,
		"out/captures/crawl=x/part-run.parquet": "PAR1",
		"out/c.example.txt":                     robotsBody, // inside the output: not read either
		"deeper/out2/_robotstat/lock":           "",
		"deeper/d.example.txt":                  robotsBody,
	}
	for name, body := range files {
		p := filepath.Join(in, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	caps, sum, err := collect(t, Config{}, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != 3 || sum.HadErrors() || sum.NotHosts != 0 {
		t.Errorf("%d captures, errors %v, not hosts %v; want 3, none, none", len(caps), sum.Diagnostics, sum.NotHostExamples)
	}
	if sum.OutputDirs != 2 || strings.Join(sum.OutputDirExamples, " ") != "deeper/out2 out" {
		t.Errorf("output folders %d %q, want 2: deeper/out2 out", sum.OutputDirs, sum.OutputDirExamples)
	}
	_, _, err = collect(t, Config{}, filepath.Join(in, "out"))
	if !errors.Is(err, ErrOutputDir) || !strings.Contains(err.Error(), filepath.Join(in, "out")) {
		t.Errorf("an output folder as input: %v", err)
	}
	// Its own files named as inputs (issue 25.4): a table's folder, a
	// Parquet file, its records; a folder of data beside its tables is
	// read.
	out := filepath.Join(in, "out")
	for name, body := range map[string]string{
		"captures/crawl=c/part-1.parquet": "PAR1",
		"_robotstat/inputs/r.json":        "{}",
		"data/a.example.txt":              "User-agent: *\nDisallow: /\n",
	} {
		p := filepath.Join(out, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"captures", "captures/crawl=c", "captures/crawl=c/part-1.parquet", "_robotstat/inputs", "_robotstat/inputs/r.json"} {
		_, _, err := collect(t, Config{}, filepath.Join(out, filepath.FromSlash(p)))
		if !errors.Is(err, ErrOutputDir) || !strings.Contains(err.Error(), "is inside "+out+", which is a robotstat output folder") {
			t.Errorf("%s of an output folder as input: %v", p, err)
		}
	}
	if caps, _, err := collect(t, Config{}, filepath.Join(out, "data")); err != nil || len(caps) != 1 {
		t.Errorf("data beside an output's tables: %d captures, %v", len(caps), err)
	}
}
