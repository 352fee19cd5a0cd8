package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// datasetRows is every default table's rows and the sites tables'.
func datasetRows(t *testing.T, root string) map[schema.TableName][]string {
	t.Helper()
	return map[schema.TableName][]string{
		schema.Captures:   schematest.TableRows(t, root, schema.Captures),
		schema.Groups:     schematest.TableRows(t, root, schema.Groups),
		schema.Agents:     schematest.TableRows(t, root, schema.Agents),
		schema.Directives: schematest.TableRows(t, root, schema.Directives),
		schema.Signals:    schematest.TableRows(t, root, schema.Signals),
		schema.Verdicts:   schematest.TableRows(t, root, schema.Verdicts),
		schema.Errors:     schematest.TableRows(t, root, schema.Errors),
		schema.Sites:      schematest.TableRows(t, root, schema.Sites),
		schema.SiteBots:   schematest.TableRows(t, root, schema.SiteBots),
	}
}

func compareRows(t *testing.T, what string, got, want map[schema.TableName][]string) {
	t.Helper()
	for tb, w := range want {
		if !slices.Equal(got[tb], w) {
			t.Errorf("%s: %s holds %d rows, want the %d of before (or other rows)", what, tb, len(got[tb]), len(w))
		}
	}
}

// TestCompactCommand: 14 inputs over two crawls analysed, then compacted
// with a target of a few inputs' files: several merged files per table
// and crawl, every row of every table exactly once, and robotstat sites,
// report and status say exactly what they said before. Reruns with the
// same options skip every input; with other options or --redo analyze
// refuses, naming the inputs.
func TestCompactCommand(t *testing.T) {
	t.Parallel()
	inputs := append(genCorpus(t, 2400, 200), filepath.Join(sitesFixture, "CC-MAIN-20250115000000-20250115030000-00000.robotstxt.warc.gz"),
		filepath.Join(sitesFixture, "CC-MAIN-20250115000000-20250115030000-00001.robotstxt.warc.gz"))
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--out", out}, inputs...)...); code != 0 {
		t.Fatalf("analyze: exit %d\n%s", code, stderr)
	}
	before := datasetRows(t, out)
	report, stderr, code := run(t, "", "report", out)
	if code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	status, _, _ := run(t, "", append([]string{"status", "--json", out}, inputs...)...)
	statusText, _, _ := run(t, "", "status", out)
	files, _ := schema.TableFiles(out, schema.Captures)
	if len(files) < 14 {
		t.Fatalf("%d captures files before, want one per input at least", len(files))
	}
	st, _ := os.Stat(files[0].Path)

	stdout, stderr, code := run(t, "", "compact", "--json", "--target-size", itoa(int(3*st.Size())), out)
	if code != 0 {
		t.Fatalf("compact: exit %d\n%s", code, stderr)
	}
	var sum schema.CompactSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("compact --json: %v\n%s", err, stdout)
	}
	if sum.Runs != len(inputs) || !strings.Contains(stderr, "robotstat: compact: captures") || !strings.Contains(stderr, itoa(len(inputs))+" inputs,") {
		t.Errorf("compact: %+v\n%s", sum, stderr)
	}
	after, _ := schema.TableFiles(out, schema.Captures)
	if len(after) < 3 || len(after) >= len(files) {
		t.Errorf("%d captures files after compact, want several, fewer than the %d before", len(after), len(files))
	}
	compareRows(t, "after compact", datasetRows(t, out), before)
	if got, _, _ := run(t, "", "report", out); got != report {
		t.Errorf("report differs after compact:\n%s\nbefore:\n%s", got, report)
	}
	if got, _, _ := run(t, "", append([]string{"status", "--json", out}, inputs...)...); got != status {
		t.Errorf("status --json differs after compact:\n%s\nbefore:\n%s", got, status)
	}
	if got, _, _ := run(t, "", "status", out); got != statusText || !strings.Contains(got, "sites up to date") {
		t.Errorf("status differs after compact:\n%s\nbefore:\n%s", got, statusText)
	}
	// sites rebuilt from the merged files: the same rows, the same report.
	if _, stderr, code := run(t, "", "sites", out); code != 0 {
		t.Fatalf("sites: exit %d\n%s", code, stderr)
	}
	compareRows(t, "after compact and sites", datasetRows(t, out), before)
	if got, _, _ := run(t, "", "report", out); got != report {
		t.Errorf("report differs after compact and sites:\n%s\nbefore:\n%s", got, report)
	}

	// Resume: the same command skips every input.
	stdout, stderr, code = run(t, "", append([]string{"analyze", "--quiet", "--json", "--out", out}, inputs...)...)
	if code != 0 || !strings.Contains(stdout, `"inputs_skipped": `+itoa(len(inputs))) {
		t.Errorf("rerun after compact: exit %d\n%s\n%s", code, stdout, stderr)
	}
	compareRows(t, "after a rerun", datasetRows(t, out), before)
	// Another option, or --redo, would leave the merged rows next to the
	// new ones: refused, nothing written.
	for _, extra := range [][]string{{"--parse-limit", "600000"}, {"--redo"}} {
		args := append(append([]string{"analyze", "--quiet", "--out", out}, extra...), inputs...)
		_, stderr, code := run(t, "", args...)
		if code != ExitUsage || !strings.Contains(stderr, "robotstat compact merged their rows") || !strings.Contains(stderr, "fresh --out") || !strings.Contains(stderr, inputs[0]) {
			t.Errorf("analyze %v after compact: exit %d\n%s", extra, code, stderr)
		}
		compareRows(t, "after a refused rerun", datasetRows(t, out), before)
	}
	// A fresh --out takes them.
	fresh := filepath.Join(t.TempDir(), "fresh")
	if _, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--redo", "--out", fresh}, inputs...)...); code != 0 {
		t.Errorf("fresh --out: exit %d\n%s", code, stderr)
	}
	// Nothing more to merge.
	if _, stderr, code := run(t, "", "compact", out); code != 0 || !strings.Contains(stderr, "nothing to merge") {
		t.Errorf("second compact: exit %d\n%s", code, stderr)
	}
}

// TestCompactFailedInput: an input that failed is not merged, so the rerun
// that reads it again replaces its files as ever; once it is done, a
// second compaction merges it too.
func TestCompactFailedInput(t *testing.T) {
	t.Parallel()
	files := genCorpus(t, 300, 100)
	ref := filepath.Join(t.TempDir(), "ref")
	if _, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--out", ref}, files...)...); code != 0 {
		t.Fatalf("reference run: exit %d\n%s", code, stderr)
	}
	urls, refuse, _ := refusingServer(t, files, files[1])
	out := filepath.Join(t.TempDir(), "out")
	args := append([]string{"analyze", "--quiet", "--out", out}, urls...)
	if _, stderr, code := run(t, "", args...); code != ExitInputsFailed {
		t.Fatalf("exit %d, want %d\n%s", code, ExitInputsFailed, stderr)
	}
	_, stderr, code := run(t, "", "compact", out)
	if code != 0 || !strings.Contains(stderr, "2 inputs,") || !strings.Contains(stderr, "1 failed") {
		t.Fatalf("compact: exit %d\n%s", code, stderr)
	}
	refuse.Store(false)
	if _, stderr, code := run(t, "", args...); code != 0 {
		t.Fatalf("retry after compact: exit %d\n%s", code, stderr)
	}
	want := sortedCaptures(t, ref)
	if got := sortedCaptures(t, out); len(got) != len(want) {
		t.Errorf("%d captures after the retry, want %d", len(got), len(want))
	}
	if _, stderr, code := run(t, "", "compact", out); code != 0 || !strings.Contains(stderr, "1 inputs,") {
		t.Fatalf("second compact: exit %d\n%s", code, stderr)
	}
	if got := sortedCaptures(t, out); len(got) != len(want) {
		t.Errorf("%d captures after the second compact, want %d", len(got), len(want))
	}
	compareRows(t, "after the second compact", map[schema.TableName][]string{schema.Captures: schematest.TableRows(t, out, schema.Captures)},
		map[schema.TableName][]string{schema.Captures: schematest.TableRows(t, ref, schema.Captures)})
}

// TestCompactConflictStatus: an input committed again behind compact's
// back (here by schema directly: analyze refuses) has rows in two places;
// status says so, and report and compact refuse rather than count them
// twice.
func TestCompactConflictStatus(t *testing.T) {
	t.Parallel()
	files := genCorpus(t, 200, 100)
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--out", out}, files...)...); code != 0 {
		t.Fatalf("analyze: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := run(t, "", "compact", out); code != 0 {
		t.Fatalf("compact: exit %d\n%s", code, stderr)
	}
	id := runs.UnitID(runs.CanonicalInput(files[0]))
	ds, err := schema.Create(schema.Options{Dir: out, RunID: id, Input: runs.CanonicalInput(files[0]), Version: Version})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	stdout, _, code := run(t, "", "status", out)
	if code != 0 || !strings.Contains(stdout, "conflict: 1 run committed again after robotstat compact") || !strings.Contains(stdout, id) {
		t.Errorf("status: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := run(t, "", "report", out); code == 0 || !strings.Contains(stderr, id) {
		t.Errorf("report on a conflict: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := run(t, "", "compact", out); code == 0 || !strings.Contains(stderr, id) {
		t.Errorf("compact on a conflict: exit %d\n%s", code, stderr)
	}
}

// TestCompactKilledCommand kills a real robotstat compact (SIGKILL) at
// random moments over 40 inputs: after each kill the dataset reads every
// row exactly once and report prints what it printed before; a second
// compact finishes and leaves only committed files.
func TestCompactKilledCommand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills robotstat processes")
	}
	// 40 inputs of 50 captures, merged about five inputs to a file (8
	// captures files, 7 groups, 6 agents): the files and steps of a
	// compaction of 8000 captures at --target-size 200000, which this test
	// read until issue 24.6, with a quarter of the rows to compare.
	inputs := genCorpus(t, 2000, 50)
	base := filepath.Join(t.TempDir(), "base")
	if out, err := robotstatCmd(t, append([]string{"analyze", "--quiet", "--out", base}, inputs...)...).CombinedOutput(); err != nil {
		t.Fatalf("analyze: %v\n%s", err, out)
	}
	want := datasetRows(t, base)
	report, _, _ := run(t, "", "report", base)
	compact := func(dir string) *exec.Cmd {
		return robotstatCmd(t, "compact", "--target-size", "100000", dir)
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if err := os.CopyFS(whole, os.DirFS(base)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if out, err := compact(whole).CombinedOutput(); err != nil {
		t.Fatalf("compact: %v\n%s", err, out)
	}
	took := time.Since(start)
	r := rand.New(rand.NewPCG(5, 8))
	for i := range 5 {
		dir := filepath.Join(t.TempDir(), "killed")
		if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		cmd := compact(dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		at := time.Duration(r.Int64N(int64(took)))
		time.Sleep(at)
		err := testkit.Kill(cmd)
		t.Logf("kill %d at %v of %v: %v", i, at.Round(time.Millisecond), took.Round(time.Millisecond), err)
		compareRows(t, fmt.Sprintf("kill %d", i), datasetRows(t, dir), want)
		if got, _, _ := run(t, "", "report", dir); strings.ReplaceAll(got, dir, base) != report {
			t.Errorf("kill %d: report differs:\n%s", i, got)
		}
		if out, err := compact(dir).CombinedOutput(); err != nil {
			t.Fatalf("kill %d: compact again: %v\n%s", i, err, out)
		}
		compareRows(t, fmt.Sprintf("kill %d, compacted again", i), datasetRows(t, dir), want)
		ix, err := schema.ReadIndex(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range parquetFiles(t, dir) {
			if !ix.Committed(filepath.Join(dir, f)) {
				t.Errorf("kill %d: %s left behind", i, f)
			}
		}
	}
}
