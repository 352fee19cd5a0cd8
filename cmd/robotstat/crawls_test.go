package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/runs"
)

// ccMirror lays files out under dir as Common Crawl lays out a crawl's
// robotstxt subset, over segs segments, with the crawl's
// robotstxt.paths.gz listing them; it returns the listed paths.
func ccMirror(t *testing.T, dir, crawl string, segs int, files []string) []string {
	t.Helper()
	var rels []string
	for i, f := range files {
		rel := fmt.Sprintf("crawl-data/%s/segments/17226403536%02d.%d/robotstxt/%s", crawl, i%segs, i%segs, filepath.Base(f))
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(strings.Join(rels, "\n") + "\n"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "crawl-data", crawl, "robotstxt.paths.gz"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return rels
}

// ccServer serves a mirror folder on 127.0.0.1 with Common Crawl's faults
// injected per path: 503 SlowDown, bursts of 403, a connection cut a third
// into the body (resumed with Range, which http.FileServer honours). It
// records when each request arrived.
type ccServer struct {
	dir string

	mu     sync.Mutex
	faults map[string][]string // path -> the faults of its next requests, in order
	times  []time.Time
}

func (s *ccServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.times = append(s.times, time.Now())
	var fault string
	if f := s.faults[r.URL.Path]; len(f) > 0 {
		fault, s.faults[r.URL.Path] = f[0], f[1:]
	}
	s.mu.Unlock()
	switch fault {
	case "slowdown":
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`))
	case "403":
		http.Error(w, "Forbidden", http.StatusForbidden)
	case "cut":
		data, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(r.URL.Path)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data[:len(data)/3])
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	default:
		http.FileServer(http.Dir(s.dir)).ServeHTTP(w, r)
	}
}

// TestAnalyzeCrawls: two crawls by name from an HTTP mirror that answers
// 503 SlowDown, a 403 burst and a cut connection give exactly the rows of
// the same files read from disk with --crawl, one partition per crawl, one
// unit per WARC; every wait is said on stderr; requests keep to --rate.
func TestAnalyzeCrawls(t *testing.T) {
	t.Parallel()
	files := genCorpus(t, 600, 100)
	fixture, _ := filepath.Glob(filepath.Join(sitesFixture, "*.warc.gz"))
	dir := t.TempDir()
	rels := ccMirror(t, dir, "CC-MAIN-2024-33", 3, files)
	ccMirror(t, dir, "CC-MAIN-2025-03", 1, fixture)

	ref := filepath.Join(t.TempDir(), "ref")
	for crawl, in := range map[string][]string{"CC-MAIN-2024-33": files, "CC-MAIN-2025-03": fixture} {
		if _, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--crawl", crawl, "--out", ref}, in...)...); code != 0 {
			t.Fatalf("reference run: exit %d\n%s", code, stderr)
		}
	}

	srv := &ccServer{dir: dir, faults: map[string][]string{
		"/" + rels[0]: {"slowdown"},
		"/" + rels[1]: {"403", "403"},
		"/" + rels[2]: {"cut"},
	}}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := run(t, "", "analyze", "--quiet", "--json", "--out", out, "--cc-base", hs.URL, "--rate", "10", "--retries", "4",
		"CC-MAIN-2024-33", "CC-MAIN-2025-03")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"robotstat: retrying " + hs.URL + "/" + rels[0] + " in 1ms (try 2 of 4): 503 Service Unavailable SlowDown: Please reduce your request rate.",
		"robotstat: retrying " + hs.URL + "/" + rels[1] + " in 1ms (try 2 of 4): 403 Forbidden",
		"robotstat: retrying " + hs.URL + "/" + rels[1] + " in 2ms (try 3 of 4): 403 Forbidden",
		"robotstat: retrying " + hs.URL + "/" + rels[2] + " in 1ms (try 1 of 4, resuming at byte ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, `"inputs_committed": 8`) {
		t.Errorf("want one unit per WARC (6 + 2):\n%s", stdout)
	}
	got, want := sortedCaptures(t, out), sortedCaptures(t, ref)
	if len(got) != len(want) || len(got) < 600 {
		t.Fatalf("%d captures over HTTP, %d from disk", len(got), len(want))
	}
	// source is the path below what was named: the manifest line of a
	// crawl, the file's name given alone.
	for i := range got {
		if !strings.HasPrefix(got[i].Source, "crawl-data/CC-MAIN-") {
			t.Fatalf("capture %d: source %q, want the crawl's path", i, got[i].Source)
		}
		got[i].Source = path.Base(got[i].Source)
	}
	if !reflect.DeepEqual(got, want) {
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("capture %d differs:\nhttp %+v\ndisk %+v", i, got[i], want[i])
			}
		}
	}
	parts, _ := filepath.Glob(filepath.Join(out, "captures", "crawl=*"))
	for i := range parts {
		parts[i] = filepath.Base(parts[i])
	}
	if !reflect.DeepEqual(parts, []string{"crawl=CC-MAIN-2024-33", "crawl=CC-MAIN-2025-03"}) {
		t.Errorf("partitions %v", parts)
	}
	// The budget: 10 requests/s is one per 100 ms. The server sees each
	// request some latency after its turn, so two neighbours may arrive
	// closer than that; but requests k apart are at least k-2 intervals
	// apart unless the latencies differ by two whole intervals (a loaded
	// CI machine has delayed one by more than one), which an unpaced run
	// (four downloads starting together) misses by far.
	srv.mu.Lock()
	checkPacing(t, srv.times, 100*time.Millisecond)
	srv.mu.Unlock()

	// A rerun reads nothing; status with the same inputs says all done.
	stdout, stderr, code = run(t, "", "analyze", "--quiet", "--json", "--out", out, "--cc-base", hs.URL, "CC-MAIN-2024-33", "CC-MAIN-2025-03")
	if code != 0 || !strings.Contains(stdout, `"inputs_skipped": 8`) {
		t.Errorf("rerun: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The same crawl from another base (a mirror folder) is the same
	// inputs: nothing read twice, no row filed twice.
	stdout, stderr, code = run(t, "", "analyze", "--quiet", "--json", "--out", out, "--cc-base", dir, "CC-MAIN-2024-33", "CC-MAIN-2025-03")
	if code != 0 || !strings.Contains(stdout, `"inputs_skipped": 8`) {
		t.Errorf("the crawls from a mirror after the crawls over HTTP: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// Renaming a crawl given by name is refused.
	if _, stderr, code := run(t, "", "analyze", "--out", out, "--crawl", "x", "CC-MAIN-2024-33"); code != ExitUsage || !strings.Contains(stderr, "--crawl x") {
		t.Errorf("--crawl with a crawl name: exit %d\n%s", code, stderr)
	}
}

// TestAnalyzeCrawlSample: --sample reads the same files every time, a larger
// sample reads only the files the smaller one did not, status takes the
// same flags and lists what is left, and --shard splits the sample.
func TestAnalyzeCrawlSample(t *testing.T) {
	t.Parallel()
	files := genCorpus(t, 600, 100)
	dir := t.TempDir()
	ccMirror(t, dir, "CC-MAIN-2024-33", 3, files)
	status := func(out string, flags ...string) runs.Status {
		t.Helper()
		stdout, stderr, code := run(t, "", append(append([]string{"status", "--json", "--cc-base", dir}, flags...), out, "CC-MAIN-2024-33")...)
		if code != 0 {
			t.Fatalf("status: exit %d\n%s", code, stderr)
		}
		var rep runs.Status
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	inputs := func(out string) []string {
		var in []string
		for _, r := range unitRecords(t, out) {
			in = append(in, r.Input)
		}
		sort.Strings(in)
		return in
	}
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, out := range []string{a, b} {
		if _, stderr, code := run(t, "", "analyze", "--quiet", "--out", out, "--cc-base", dir, "--sample", "2", "CC-MAIN-2024-33"); code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
	}
	if ia, ib := inputs(a), inputs(b); len(ia) != 2 || !reflect.DeepEqual(ia, ib) {
		t.Errorf("two runs of --sample 2 read %v and %v", ia, ib)
	}
	if rep := status(a, "--sample", "4"); rep.Counts["done"] != 2 || rep.Counts["left"] != 2 {
		t.Errorf("status --sample 4 after --sample 2: %v", rep.Counts)
	}
	stdout, stderr, code := run(t, "", "analyze", "--quiet", "--json", "--out", a, "--cc-base", dir, "--sample", "4", "CC-MAIN-2024-33")
	if code != 0 || !strings.Contains(stdout, `"inputs_skipped": 2`) || !strings.Contains(stdout, `"inputs_committed": 2`) {
		t.Errorf("--sample 4 after --sample 2: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if rep := status(a, "--sample", "4"); rep.Counts["done"] != 4 || rep.Counts["left"] != 0 {
		t.Errorf("status --sample 4: %v", rep.Counts)
	}
	// The shards of a sample are the sample.
	c, d := filepath.Join(t.TempDir(), "c"), filepath.Join(t.TempDir(), "d")
	for i := range 2 {
		if _, stderr, code := run(t, "", "analyze", "--quiet", "--out", c, "--cc-base", dir, "--sample", "3", "--shard", strconv.Itoa(i)+"/2", "CC-MAIN-2024-33"); code != 0 {
			t.Fatalf("shard %d: exit %d\n%s", i, code, stderr)
		}
	}
	if _, stderr, code := run(t, "", "analyze", "--quiet", "--out", d, "--cc-base", dir, "--sample", "3", "CC-MAIN-2024-33"); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if ic, id := inputs(c), inputs(d); len(ic) != 3 || !reflect.DeepEqual(ic, id) {
		t.Errorf("the shards of --sample 3 read %v, the sample is %v", ic, id)
	}
	if !reflect.DeepEqual(sortedCaptures(t, c), sortedCaptures(t, d)) {
		t.Errorf("the shards of --sample 3 have other rows than the sample")
	}
	// Segments: only those files; an id no crawl lists is an error.
	seg := "1722640353601.1"
	e := filepath.Join(t.TempDir(), "e")
	if _, stderr, code := run(t, "", "analyze", "--quiet", "--out", e, "--cc-base", dir, "--segments", seg, "CC-MAIN-2024-33"); code != 0 {
		t.Fatalf("--segments: exit %d\n%s", code, stderr)
	}
	if ie := inputs(e); len(ie) != 2 || !strings.Contains(ie[0], "/segments/"+seg+"/") || !strings.Contains(ie[1], "/segments/"+seg+"/") {
		t.Errorf("--segments %s read %v", seg, ie)
	}
	if _, stderr, code := run(t, "", "analyze", "--quiet", "--out", filepath.Join(t.TempDir(), "f"), "--cc-base", dir, "--segments", "99.9", "CC-MAIN-2024-33"); code != 2 || !strings.Contains(stderr, "segments 99.9: in none of the crawls") {
		t.Errorf("unknown segment: exit %d\n%s", code, stderr)
	}
}

// TestAnalyzeRefused: an endpoint that refuses every download: a few are
// recorded as failed with a final word that says so (exit 5); once 8 in a
// row were refused the run stops (exit 2), keeping what it committed.
func TestAnalyzeRefused(t *testing.T) {
	t.Parallel()
	files := genCorpus(t, 1000, 100)
	dir := t.TempDir()
	rels := ccMirror(t, dir, "CC-MAIN-2024-33", 2, files)
	srv := &ccServer{dir: dir, faults: map[string][]string{}}
	for _, r := range rels[:3] {
		srv.faults["/"+r] = []string{"403"}
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := run(t, "", "analyze", "--quiet", "--out", out, "--cc-base", hs.URL, "--retries", "1", "--rate", "-1", "CC-MAIN-2024-33")
	if code != ExitInputsFailed || !strings.Contains(stderr, "robotstat: the server kept refusing 3 downloads (403, 429 or 5xx on every try)") {
		t.Errorf("three refused: exit %d\n%s", code, stderr)
	}
	for _, r := range rels {
		srv.faults["/"+r] = []string{"403", "403"}
	}
	out = filepath.Join(t.TempDir(), "out2")
	_, stderr, code = run(t, "", "analyze", "--quiet", "--workers", "1", "--out", out, "--cc-base", hs.URL, "--retries", "1", "--rate", "-1", "CC-MAIN-2024-33")
	if code != 2 || !strings.Contains(stderr, "stopped: the endpoint keeps refusing: the last 8 downloads gave up") || !strings.Contains(stderr, "0 inputs read before are kept and 7 recorded as failed") || !strings.Contains(stderr, "run the same command again") {
		t.Errorf("all refused: exit %d\n%s", code, stderr)
	}
	if n := len(unitRecords(t, out)); n > 8 {
		t.Errorf("%d inputs recorded: the run went on after 8 refusals in a row", n)
	}
}

// checkPacing asserts that requests j-i apart (three or more) arrived at
// least j-i-2 intervals apart: a request budget seen from the server, with
// two intervals of margin for the latency between a turn and its arrival.
func checkPacing(t *testing.T, times []time.Time, interval time.Duration) {
	t.Helper()
	for i := range times {
		for j := i + 3; j < len(times); j++ {
			if d, want := times[j].Sub(times[i]), time.Duration(j-i-2)*interval; d < want {
				t.Errorf("requests %d and %d %v apart, want at least %v (one per %v)", i, j, d, want, interval)
				return
			}
		}
	}
}

// TestRetryDelaysDefault: the tests run with testRetryDelays, so this says
// what a real run waits between tries: the pipeline's defaults (1 s
// doubling up to a minute, as --retries's help says), with only MaxTries
// from the flag; and the test delays replace the two delays alone.
func TestRetryDelaysDefault(t *testing.T) {
	t.Parallel()
	parse := func(m *Main, args ...string) pipeline.Config {
		t.Helper()
		fs := cli.NewFlagSet("analyze")
		var f analyzeFlags
		f.register(fs)
		f.crawls = &crawlFlags{}
		f.crawls.register(fs)
		inputs, err := parseFlags(fs, append(args, "--out", t.TempDir(), "in.warc.gz"), io.Discard, analyzeUsage)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := m.analyzeConfig(&f, inputs)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Pipeline
	}
	pc := parse(&Main{}, "--retries", "3")
	if pc.Retry != (pipeline.RetryPolicy{MaxTries: 3}) {
		t.Errorf("analyze's retry policy %+v, want MaxTries 3 and the pipeline's delays", pc.Retry)
	}
	if d := pipeline.DefaultConfig().Retry; d.BaseDelay != time.Second || d.MaxDelay != time.Minute {
		t.Errorf("the pipeline's default delays %+v, want 1s and 1m as --retries's help says", d)
	}
	pc = parse(&Main{retryDelays: testRetryDelays})
	if want := (pipeline.RetryPolicy{MaxTries: pipeline.DefaultRetries, BaseDelay: time.Millisecond, MaxDelay: 8 * time.Millisecond}); pc.Retry != want {
		t.Errorf("test retry policy %+v, want %+v", pc.Retry, want)
	}
}

// TestAnalyzeCrawlFolders (issue 25.1): three folders of a mirror named
// crawl-data/CC-MAIN-YYYY-WW whose WARCs all say isPartOf CC-MAIN-2024-22
// (scripts/gencorpus's default) were filed as that one crawl, the trend
// gone without a word. The path wins: three crawls in the captures table,
// and each WARC whose header disagrees is counted in the summary and is a
// row of class crawl in the errors table, located at its warcinfo (exit 3:
// the output is written, some inputs had errors). --crawl for a path that
// names another crawl is refused.
func TestAnalyzeCrawlFolders(t *testing.T) {
	files := genCorpus(t, 300, 100) // 3 files of CC-MAIN-2024-22
	mirror := t.TempDir()
	crawls := []string{"CC-MAIN-2023-06", "CC-MAIN-2024-33", "CC-MAIN-2025-38"}
	var inputs []string
	for _, c := range crawls {
		dir := filepath.Join(mirror, "crawl-data", c)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, "robotstxt"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "robotstxt", filepath.Base(f)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		inputs = append(inputs, dir)
	}
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--out", out}, inputs...)...)
	if code != ExitInputErrors {
		t.Fatalf("exit %d, want %d\n%s", code, ExitInputErrors, stderr)
	}
	if !strings.Contains(stderr, "9 errors (crawl 9)") || !strings.Contains(stderr, "9 WARC files name another crawl in their warcinfo (isPartOf) than their path") {
		t.Errorf("summary does not count the disagreements:\n%s", stderr)
	}
	per := map[string]int{}
	for _, c := range readCaptures(t, out) {
		per[c.Crawl]++
	}
	if want := map[string]int{crawls[0]: 300, crawls[1]: 300, crawls[2]: 300}; !reflect.DeepEqual(per, want) {
		t.Errorf("captures per crawl %v, want %v", per, want)
	}
	errs := readErrors(t, out)
	if len(errs) != 9 {
		t.Fatalf("%d error rows, want 9: %v", len(errs), errs)
	}
	for _, e := range errs {
		if e.class != "crawl" || e.offset != 0 || e.record != 0 || !slices.Contains(crawls, e.crawl) ||
			!strings.Contains(e.message, "the path names "+e.crawl) || !strings.Contains(e.message, `isPartOf "CC-MAIN-2024-22"`) {
			t.Errorf("error row %+v", e)
		}
	}

	// The same files where no path names a crawl: the header's, no error.
	out2 := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := run(t, "", "analyze", "--quiet", "--out", out2, files[0]); code != 0 || !strings.Contains(stderr, "0 errors") {
		t.Errorf("no crawl in the path: exit %d\n%s", code, stderr)
	}
	if rows := readCaptures(t, out2); len(rows) == 0 || rows[0].Crawl != "CC-MAIN-2024-22" {
		t.Errorf("no crawl in the path: %d rows, crawl %q", len(rows), rows[0].Crawl)
	}
	// --crawl names the crawl of inputs whose path names none; for one
	// that names another it is refused, and a name that is almost a
	// crawl name is told what one looks like.
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"path_names_another", []string{"--crawl", "CC-MAIN-2024-01", inputs[0]}, "names the crawl CC-MAIN-2023-06"},
		{"typo_digits", []string{"--crawl", "CC-MAIN-2024-333", files[0]}, "a crawl name is CC-MAIN-YYYY-WW"},
		{"typo_case", []string{"--crawl", "cc-main-2024-33", files[0]}, "a crawl name is CC-MAIN-YYYY-WW"},
		{"input_typo", []string{"CC-MAIN-2024-333"}, "CC-MAIN-2024-333 is neither a file nor a crawl name: a crawl name is CC-MAIN-YYYY-WW"},
		{"input_case", []string{"cc-main-2024-33"}, "cc-main-2024-33 is neither a file nor a crawl name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--out", filepath.Join(t.TempDir(), "o")}, tc.args...)...)
			if code != ExitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d and %q:\n%s", code, ExitUsage, tc.want, stderr)
			}
		})
	}
}

// TestAnalyzeNoSuchCrawl (issue 25.4): a well-formed crawl name the base
// does not have fails at once, one request, with "no such crawl at BASE",
// from an http(s) mirror (a real server on 127.0.0.1 answering 404) and
// from a folder alike; it is no network fault to retry.
func TestAnalyzeNoSuchCrawl(t *testing.T) {
	dir := t.TempDir()
	ccMirror(t, dir, "CC-MAIN-2024-33", 1, genCorpus(t, 10, 10))
	var requests []string
	var mu sync.Mutex
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests = append(requests, r.URL.Path)
		mu.Unlock()
		http.FileServer(http.Dir(dir)).ServeHTTP(w, r)
	}))
	defer hs.Close()
	for _, base := range []string{hs.URL + "/", dir} {
		start := time.Now()
		_, stderr, code := run(t, "", "analyze", "--quiet", "--out", filepath.Join(t.TempDir(), "out"), "--cc-base", base, "CC-MAIN-2024-99")
		if code != ExitUsage || !strings.Contains(stderr, "crawl CC-MAIN-2024-99: no such crawl at "+base) ||
			!strings.Contains(stderr, "crawl-data/CC-MAIN-2024-99/robotstxt.paths.gz is not there") || strings.Contains(stderr, "retrying") {
			t.Errorf("--cc-base %s: exit %d\n%s", base, code, stderr)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("--cc-base %s: took %s", base, took)
		}
	}
	if len(requests) != 1 {
		t.Errorf("requests %v, want the one list", requests)
	}
}

// TestAnalyzeWorkersWarning (issue 25.4): --workers far above the cores
// (more than 4 a core) is said on stderr; the run goes on.
func TestAnalyzeWorkersWarning(t *testing.T) {
	for _, tc := range []struct {
		workers int
		warn    bool
	}{{runtime.NumCPU(), false}, {4 * runtime.NumCPU(), false}, {4*runtime.NumCPU() + 1, true}} {
		_, stderr, code := run(t, "", "analyze", "--quiet", "--workers", strconv.Itoa(tc.workers), "--out", filepath.Join(t.TempDir(), "out"))
		warned := strings.Contains(stderr, fmt.Sprintf("warning: --workers %d is far above the %d cores", tc.workers, runtime.NumCPU()))
		if code != 0 || warned != tc.warn {
			t.Errorf("--workers %d: exit %d, warned %v, want %v\n%s", tc.workers, code, warned, tc.warn, stderr)
		}
	}
}
