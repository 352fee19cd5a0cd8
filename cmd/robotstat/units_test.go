package main

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
)

// genCorpus writes n generated captures in WARC files of per captures
// under a new folder (scripts/gencorpus) and returns the files.
func genCorpus(t *testing.T, n, per int) []string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "run", "./scripts/gencorpus", "-n", itoa(n), "-per-file", itoa(per), "-out", dir)
	cmd.Dir = filepath.Join("..", "..") // the module root, where its default bodies are
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gencorpus: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "robotstxt", "*.warc.gz"))
	if len(files) != (n+per-1)/per {
		t.Fatalf("gencorpus wrote %d files", len(files))
	}
	return files
}

// unitRecords returns, per run id but the reduce step's, its record's state
// and input.
func unitRecords(t *testing.T, root string) map[string]*schema.Record {
	t.Helper()
	ix, err := schema.ReadIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*schema.Record{}
	for id, r := range ix.Runs {
		if id != "sites" {
			out[id] = r
		}
	}
	return out
}

// sortedCaptures is every committed captures row, sorted by capture id.
func sortedCaptures(t *testing.T, root string) []schema.CaptureRow {
	t.Helper()
	rows := readTable[schema.CaptureRow](t, root, schema.Captures)
	sort.Slice(rows, func(i, j int) bool { return rows[i].CaptureID < rows[j].CaptureID })
	return rows
}

// TestAnalyzeResume: a rerun skips every input --out holds from a run with
// the same options and leaves its files as they are; another option
// replaces the inputs' rows (never a second copy); --redo reads them again.
func TestAnalyzeResume(t *testing.T) {
	t.Parallel()
	inputs := append(genCorpus(t, 3000, 1000), filepath.Join(sitesFixture, "CC-MAIN-20250115000000-20250115030000-00000.robotstxt.warc.gz"))
	out := filepath.Join(t.TempDir(), "out")
	args := append([]string{"analyze", "--quiet", "--json", "--out", out}, inputs...)
	stdout, stderr, code := run(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, `"inputs_committed": 4`) {
		t.Errorf("first run: %s", stdout)
	}
	first := parquetFiles(t, out)
	caps := sortedCaptures(t, out)
	if len(caps) <= 3000 {
		t.Fatalf("%d captures, want the 3000 generated and the fixture's", len(caps))
	}

	// The same again: nothing read, nothing rewritten.
	stdout, stderr, code = run(t, "", args...)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, `"inputs_skipped": 4`) || !strings.Contains(stdout, `"captures": 0`) || !strings.Contains(stderr, "4 inputs already in") {
		t.Errorf("rerun read again:\n%s\n%s", stdout, stderr)
	}
	if again := parquetFiles(t, out); !slices.Equal(again, first) {
		t.Errorf("a rerun with nothing to do changed the files:\n%v\n%v", first, again)
	}
	if !strings.Contains(stderr, "sites: up to date") {
		t.Errorf("a rerun with nothing to do rebuilt the sites:\n%s", stderr)
	}

	// Another parse limit shapes the numbers: every input read again and
	// replaced, said so, no second copy.
	_, stderr, code = run(t, "", append([]string{"analyze", "--quiet", "--parse-limit", "600000", "--out", out}, inputs...)...)
	if code != 0 {
		t.Fatalf("other option: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "4 inputs in "+out+" had been analysed with other options (parse_limit \"512000\", now \"600000\")") {
		t.Errorf("no word of the replaced inputs:\n%s", stderr)
	}
	if got := sortedCaptures(t, out); len(got) != len(caps) {
		t.Errorf("after a rerun with another option %d captures, want %d", len(got), len(caps))
	}
	if n := len(parquetFiles(t, filepath.Join(out, "captures"))); n != 4 {
		t.Errorf("%d captures files, want one per input", n)
	}
	if n := len(unitRecords(t, out)); n != 4 {
		t.Errorf("%d records, want one per input", n)
	}

	// dir/./x and dir/x are the same input.
	variant := filepath.Dir(inputs[0]) + string(filepath.Separator) + "." + string(filepath.Separator) + filepath.Base(inputs[0])
	stdout, stderr, code = run(t, "", "analyze", "--quiet", "--json", "--parse-limit", "600000", "--out", out, variant)
	if code != 0 || !strings.Contains(stdout, `"inputs_skipped": 1`) {
		t.Errorf("%s is not taken for %s: exit %d\n%s\n%s", variant, inputs[0], code, stdout, stderr)
	}

	// --redo reads every input again.
	stdout, stderr, code = run(t, "", append([]string{"analyze", "--quiet", "--json", "--redo", "--parse-limit", "600000", "--out", out}, inputs...)...)
	if code != 0 || !strings.Contains(stdout, `"inputs_committed": 4`) {
		t.Errorf("--redo: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if got := sortedCaptures(t, out); !reflect.DeepEqual(got, sortedCaptures(t, out)) || len(got) != len(caps) {
		t.Errorf("after --redo %d captures, want %d", len(got), len(caps))
	}
}

// TestAnalyzeKeepGoing: an input the server keeps refusing (403 after
// every retry) fails alone: the others are committed, the run says which
// input failed and why, exits 5, and its record says failed; once the
// server answers, a rerun reads only that input.
func TestAnalyzeKeepGoing(t *testing.T) {
	t.Parallel()
	files := genCorpus(t, 300, 100)
	ref := filepath.Join(t.TempDir(), "ref")
	if _, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--out", ref}, files...)...); code != 0 {
		t.Fatalf("reference run: exit %d\n%s", code, stderr)
	}
	perFile := map[string]int{}
	all := sortedCaptures(t, ref)
	for _, c := range all {
		perFile[c.Source]++
	}
	urls, refuse, srv := refusingServer(t, files, files[1])
	out := filepath.Join(t.TempDir(), "out")
	args := append([]string{"analyze", "--quiet", "--retries", "2", "--out", out}, urls...) // 403 is retried: once, 1 s later
	_, stderr, code := run(t, "", args...)
	if code != ExitInputsFailed {
		t.Fatalf("exit %d, want %d\n%s", code, ExitInputsFailed, stderr)
	}
	if !strings.Contains(stderr, "input failed: "+urls[1]+": ") || !strings.Contains(stderr, "403") {
		t.Errorf("the failure is not named:\n%s", stderr)
	}
	if !strings.Contains(stderr, ": 3 inputs, 1 of them failed (rows:") {
		t.Errorf("the summary does not say that one of the inputs written failed:\n%s", stderr)
	}
	recs := unitRecords(t, out)
	states := map[string]string{}
	for _, r := range recs {
		states[r.Input] = r.State
	}
	want := map[string]string{urls[0]: schema.RecordDone, urls[1]: schema.RecordFailed, urls[2]: schema.RecordDone}
	if !reflect.DeepEqual(states, want) {
		t.Errorf("records %v, want %v", states, want)
	}
	if n, want := len(sortedCaptures(t, out)), len(all)-perFile[filepath.Base(files[1])]; n != want || perFile[filepath.Base(files[1])] == 0 {
		t.Errorf("%d captures committed, want the %d of the two inputs read (sources %v)", n, want, perFile)
	}

	// status names the failed input, and with the inputs given, the one
	// never read.
	extra := srv.URL + "/crawl-data/robotstxt/never.warc.gz"
	stdout, stderr, code := run(t, "", append([]string{"status", "--json", out}, append(urls, extra)...)...)
	if code != 0 {
		t.Fatalf("status: exit %d\n%s", code, stderr)
	}
	var rep runs.Status
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("status --json: %v\n%s", err, stdout)
	}
	got := map[string]string{}
	for _, in := range rep.Inputs {
		got[in.Input] = in.State
		if in.State == schema.RecordFailed && !strings.Contains(in.Error, "403") {
			t.Errorf("status: %s failed with %q, want the 403", in.Input, in.Error)
		}
	}
	if want := map[string]string{urls[0]: "done", urls[1]: "failed", urls[2]: "done", extra: "left"}; !reflect.DeepEqual(got, want) {
		t.Errorf("status says %v, want %v", got, want)
	}
	if rep.Counts["done"] != 2 || rep.Counts["failed"] != 1 || rep.Counts["left"] != 1 || rep.Sites != "up to date" {
		t.Errorf("status counts %v, sites %q", rep.Counts, rep.Sites)
	}
	stdout, _, _ = run(t, "", "status", out)
	if !strings.Contains(stdout, "2 inputs done, 1 failed, 0 partial, 0 left") || !strings.Contains(stdout, "failed   "+urls[1]+": ") {
		t.Errorf("status text:\n%s", stdout)
	}

	refuse.Store(false)
	stdout, stderr, code = run(t, "", append([]string{"analyze", "--quiet", "--json", "--out", out}, urls...)...)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, `"inputs_committed": 1`) || !strings.Contains(stdout, `"inputs_skipped": 2`) {
		t.Errorf("the rerun did not read just the failed input:\n%s", stdout)
	}
	if n := len(sortedCaptures(t, out)); n != len(all) {
		t.Errorf("%d captures after the rerun, want %d", n, len(all))
	}
}

// TestAnalyzeKilled kills a real robotstat process with SIGKILL at random
// moments of a run over many inputs, then reruns it to the end: the rows
// must be exactly those of a run never interrupted (captures, every column;
// sites), with no input twice and no file left that no record names.
func TestAnalyzeKilled(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills robotstat processes")
	}
	// 16 inputs (units), as many as ever; 250 captures each, not the
	// 1000 of before issue 24.6: a kill lands among the same units, with a
	// quarter of the rows to analyse and compare each round.
	inputs := genCorpus(t, 4000, 250)
	analyze := func(out string) *exec.Cmd {
		return robotstatCmd(t, append([]string{"analyze", "--quiet", "--workers", "2", "--out", out}, inputs...)...)
	}
	whole := filepath.Join(t.TempDir(), "whole")
	start := time.Now()
	if out, err := analyze(whole).CombinedOutput(); err != nil {
		t.Fatalf("whole run: %v\n%s", err, out)
	}
	took := time.Since(start)
	wantCaps := sortedCaptures(t, whole)
	wantSites := readTable[schema.SiteRow](t, whole, schema.Sites)
	sort.Slice(wantSites, func(i, j int) bool { return wantSites[i].Host < wantSites[j].Host })

	r := rand.New(rand.NewPCG(7, 9))
	for i := range 5 {
		out := filepath.Join(t.TempDir(), "killed")
		killAndRerun(t, i, 1+i%3, r, took, analyze, out) // killed 1..3 times, then to the end
		if got := sortedCaptures(t, out); !reflect.DeepEqual(got, wantCaps) {
			t.Fatalf("round %d: %d captures after kills and a rerun, %d in the whole run (or other rows)", i, len(got), len(wantCaps))
		}
		sites := readTable[schema.SiteRow](t, out, schema.Sites)
		sort.Slice(sites, func(i, j int) bool { return sites[i].Host < sites[j].Host })
		if !reflect.DeepEqual(sites, wantSites) {
			t.Fatalf("round %d: sites differ from the whole run's", i)
		}
		// every *.parquet is named by a record
		ix, err := schema.ReadIndex(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range parquetFiles(t, out) {
			if !ix.Committed(filepath.Join(out, f)) {
				t.Errorf("round %d: %s belongs to no record", i, f)
			}
		}
		if n := len(unitRecords(t, out)); n != len(inputs) {
			t.Errorf("round %d: %d records, want %d", i, n, len(inputs))
		}
		// inputs/ and the writers' lock (schema.LockFile), no spill folder
		if entries, _ := os.ReadDir(filepath.Join(out, "_robotstat")); len(entries) != 2 || entries[0].Name() != "inputs" || entries[1].Name() != "lock" {
			t.Errorf("round %d: _robotstat holds %d entries, want inputs/ and lock alone: %v", i, len(entries), entries)
		}
	}
}

// refusingServer serves files (all in one folder) on 127.0.0.1 under
// robotstxt paths, as Common Crawl names them, and answers 403 for refused
// while refuse holds (it starts true). It returns the files' URLs in order.
func refusingServer(t *testing.T, files []string, refused string) ([]string, *atomic.Bool, *httptest.Server) {
	t.Helper()
	refuse := &atomic.Bool{}
	refuse.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := filepath.Base(r.URL.Path)
		if name == filepath.Base(refused) && refuse.Load() {
			http.Error(w, "rate limited", http.StatusForbidden)
			return
		}
		http.ServeFile(w, r, filepath.Join(filepath.Dir(files[0]), name))
	}))
	t.Cleanup(srv.Close)
	var urls []string
	for _, f := range files {
		urls = append(urls, srv.URL+"/crawl-data/robotstxt/"+filepath.Base(f))
	}
	return urls, refuse, srv
}
