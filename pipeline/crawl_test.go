package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// ccMirror lays out a Common Crawl crawl under dir: segments segs, files
// per segment, each WARC of per captures with a warcinfo that names
// another crawl (so that a test sees the crawl name win), and the crawl's
// robotstxt.paths.gz listing them relative to the base. It returns the
// listed paths.
func ccMirror(t *testing.T, dir, crawl string, segs, files, per int) []string {
	t.Helper()
	var lines []string
	for s := range segs {
		seg := fmt.Sprintf("17226403536%02d.%d", s, s%3)
		for f := range files {
			rel := fmt.Sprintf("crawl-data/%s/segments/%s/robotstxt/%s-%05d.warc.gz", crawl, seg, crawl, s*files+f)
			recs := [][]byte{warcRecord("warcinfo", "", []byte("isPartOf: not-"+crawl+"\r\n"))}
			for i := range per {
				recs = append(recs, robotsResp(fmt.Sprintf("s%df%dh%d.example", s, f, i), robotsBody))
			}
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, gzipMembers(recs...), 0o644); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, rel)
		}
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "crawl-data", crawl, "robotstxt.paths.gz"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestIsCrawlName(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"CC-MAIN-2024-33": true, "CC-MAIN-2008-01": true,
		"CC-MAIN-2024-3": false, "CC-MAIN-2024_33": false, "cc-main-2024-33": false,
		"CC-MAIN-2024-33.warc.gz": false, "CC-MAIN-20240802234508-20240803024508-00000": false, "CC-MAIN-24a1-33": false,
	} {
		if IsCrawlName(s) != want {
			t.Errorf("IsCrawlName(%q) = %v", s, !want)
		}
	}
}

// TestCrawlInputs: a crawl name is read as a crawl unless a path of that
// name exists; a name almost a crawl name, and not a file name or a path
// on disk, is told apart so that a caller can say what a crawl name is.
func TestCrawlInputs(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("CC-MAIN-2024-22", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("cc-main-2024-22", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		input         string
		crawl, almost bool
	}{
		{"CC-MAIN-2024-33", true, false},
		{"CC-MAIN-2024-22", false, false}, // a file of that name
		{"CC-MAIN-2024-333", false, true},
		{"cc-main-2024-33", false, true},
		{"cc-main-2024-22", false, false}, // a file of that name
		{"CC-MAIN-20240802234508-00000.warc.gz", false, false},
		{"crawls/CC-MAIN-2024-3", false, false},
		{"CC-MAIN", false, true},
		{"CC-MAI", false, false},
	} {
		if got := IsCrawlInput(tc.input); got != tc.crawl {
			t.Errorf("IsCrawlInput(%q) = %v", tc.input, got)
		}
		if got := AlmostCrawlInput(tc.input); got != tc.almost {
			t.Errorf("AlmostCrawlInput(%q) = %v", tc.input, got)
		}
	}
}

// TestUnitCrawl: the crawl a unit is listed by wins over Config.Crawl,
// which wins over the crawl its path names.
func TestUnitCrawl(t *testing.T) {
	t.Parallel()
	path := "https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-22/segments/1/robotstxt/a.warc.gz"
	for _, tc := range []struct {
		name, listed, configured, path string
		crawl                          string
		byPath                         bool
	}{
		{"listed_wins", "CC-MAIN-2024-33", "mine", path, "CC-MAIN-2024-33", false},
		{"configured_over_path", "", "mine", path, "mine", false},
		{"path", "", "", path, "CC-MAIN-2024-22", true},
		{"none", "", "", "a.warc.gz", "", false},
	} {
		if crawl, byPath := UnitCrawl(tc.listed, tc.configured, tc.path); crawl != tc.crawl || byPath != tc.byPath {
			t.Errorf("%s: %q %v, want %q %v", tc.name, crawl, byPath, tc.crawl, tc.byPath)
		}
	}
}

// TestRetryEventString: the line robotstat prints for each retry.
func TestRetryEventString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    RetryEvent
		want string
	}{
		{RetryEvent{URL: "https://x/a", Try: 2, MaxTries: 5, Wait: 1500 * time.Millisecond, Err: errors.New("503 Service Unavailable")},
			"retrying https://x/a in 1.5s (try 2 of 5): 503 Service Unavailable"},
		{RetryEvent{URL: "s3://b/k", Try: 1, MaxTries: 5, Wait: 2*time.Second + 400*time.Microsecond, Err: fmt.Errorf("%w: SlowDown: Please reduce your request rate", ErrSlowDown), Resumed: true, Got: 4096},
			"retrying s3://b/k in 2s (try 1 of 5, resuming at byte 4096): SlowDown: Please reduce your request rate"},
		{RetryEvent{URL: "u", Try: 3, MaxTries: 3}, "retrying u in 0s (try 3 of 3): failed"},
	} {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// TestCrawlByName: a crawl name reads the crawl's robotstxt.paths.gz and
// every WARC it lists from CCBase, a folder or an HTTP mirror alike, one
// unit per WARC, every capture of the crawl's name whatever warcinfo says;
// two crawls give two crawls' captures.
func TestCrawlByName(t *testing.T) {
	// Not parallel: a subtest changes the working directory (t.Chdir), which
	// would move every parallel test's relative paths under it.
	dir := t.TempDir()
	lines := ccMirror(t, dir, "CC-MAIN-2024-33", 3, 2, 5)
	ccMirror(t, dir, "CC-MAIN-2024-38", 1, 2, 5)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	for _, base := range []string{dir, srv.URL + "/"} {
		t.Run(map[bool]string{true: "http", false: "folder"}[isURL(base)], func(t *testing.T) {
			cfg := Config{Workers: 2, CCBase: base, Rate: -1}
			caps, sum, err := collect(t, cfg, "CC-MAIN-2024-33", "CC-MAIN-2024-38")
			if err != nil || sum.HadErrors() {
				t.Fatalf("err %v, errors %v", err, sum.Diagnostics)
			}
			byCrawl := map[string]int{}
			for _, c := range caps {
				byCrawl[c.Crawl]++
			}
			if want := map[string]int{"CC-MAIN-2024-33": 30, "CC-MAIN-2024-38": 10}; !equalMaps(byCrawl, want) {
				t.Errorf("captures by crawl %v, want %v", byCrawl, want)
			}
			units, err := Units(context.Background(), cfg, []string{"CC-MAIN-2024-33"})
			if err != nil || len(units) != len(lines) {
				t.Fatalf("units %v, err %v", units, err)
			}
			for i, u := range units {
				if u.Crawl != "CC-MAIN-2024-33" || !strings.HasSuffix(filepath.ToSlash(u.Name), lines[i]) || !strings.HasPrefix(u.Name, strings.TrimSuffix(base, "/")) {
					t.Errorf("unit %d: %+v, want %s under %s", i, u, lines[i], base)
				}
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		_, _, err := collect(t, Config{CCBase: dir}, "CC-MAIN-1999-01")
		if err == nil || !strings.Contains(err.Error(), "crawl CC-MAIN-1999-01") {
			t.Errorf("err %v, want the crawl named", err)
		}
	})
	t.Run("a_file_of_that_name_wins", func(t *testing.T) {
		tmp := t.TempDir()
		t.Chdir(tmp)
		writeWARC(t, filepath.Join(tmp, "CC-MAIN-2024-33", "a.warc.gz"), "local", 3) // a folder of that name
		caps, _, err := collect(t, Config{CCBase: dir}, "CC-MAIN-2024-33")
		if err != nil || len(caps) != 3 || caps[0].Crawl != "" {
			t.Errorf("err %v, %d captures, want the file's 3", err, len(caps))
		}
	})
}

func equalMaps[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestSample: --sample is deterministic, takes files from as many segments
// as it can, grows by adding files (the sample of n is in the sample of
// n+1), is the same for every base, and composes with Segments and Shard.
func TestSample(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ccMirror(t, dir, "CC-MAIN-2024-33", 4, 3, 1)
	units := func(cfg Config) []string {
		t.Helper()
		cfg.CCBase = dir
		us, err := Units(context.Background(), cfg, []string{"CC-MAIN-2024-33"})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, u := range us {
			rel, _ := filepath.Rel(dir, u.Name)
			out = append(out, filepath.ToSlash(rel))
		}
		return out
	}
	all := units(Config{})
	if len(all) != 12 {
		t.Fatalf("%d units, want 12", len(all))
	}
	prev := []string{}
	for n := 1; n <= 13; n++ {
		got := units(Config{Sample: n})
		if again := units(Config{Sample: n}); !slices.Equal(got, again) {
			t.Fatalf("sample %d not deterministic: %v, %v", n, got, again)
		}
		if len(got) != min(n, 12) {
			t.Fatalf("sample %d: %d files", n, len(got))
		}
		for _, p := range prev {
			if !slices.Contains(got, p) {
				t.Errorf("sample %d lacks %s of sample %d", n, p, n-1)
			}
		}
		// Listed order is kept.
		if !slices.IsSortedFunc(got, func(a, b string) int { return slices.Index(all, a) - slices.Index(all, b) }) {
			t.Errorf("sample %d out of listed order: %v", n, got)
		}
		segs := map[string]int{}
		for _, p := range got {
			segs[segmentOf(p)]++
		}
		lo, hi := n, 0
		for _, c := range segs {
			lo, hi = min(lo, c), max(hi, c)
		}
		if len(segs) != min(n, 4) || hi-lo > 1 {
			t.Errorf("sample %d not spread over the segments: %v", n, segs)
		}
		prev = got
	}

	// The same files from an HTTP mirror.
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	us, err := Units(context.Background(), Config{CCBase: srv.URL, Sample: 5}, []string{"CC-MAIN-2024-33"})
	if err != nil {
		t.Fatal(err)
	}
	want := units(Config{Sample: 5})
	for i, u := range us {
		if !strings.HasSuffix(u.Name, "/"+want[i]) {
			t.Errorf("http mirror sample %d: %s, want %s", i, u.Name, want[i])
		}
	}

	// Segments first, then the sample, then the shards of the sample.
	seg := segmentOf(all[0])
	got := units(Config{Segments: []string{seg}})
	if len(got) != 3 || segmentOf(got[0]) != seg {
		t.Errorf("segments %s: %v", seg, got)
	}
	if got := units(Config{Segments: []string{seg}, Sample: 2}); len(got) != 2 || segmentOf(got[1]) != seg {
		t.Errorf("segments + sample: %v", got)
	}
	sample := units(Config{Sample: 7})
	var union []string
	for i := range 3 {
		union = append(union, units(Config{Sample: 7, Shard: Shard{Index: i, Count: 3}})...)
	}
	slices.SortFunc(union, func(a, b string) int { return slices.Index(all, a) - slices.Index(all, b) })
	if !slices.Equal(union, sample) {
		t.Errorf("the shards of the sample: %v, want %v", union, sample)
	}
	_, err = Units(context.Background(), Config{CCBase: dir, Segments: []string{seg, "1234.5"}}, []string{"CC-MAIN-2024-33"})
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "1234.5") || strings.Contains(err.Error(), seg) {
		t.Errorf("unknown segment: %v", err)
	}
}

// TestPoliteDownloads: never more than Downloads bodies open at once,
// requests of every download spaced by the Rate budget, 403 bursts
// retried with a notice per wait, and an endpoint that keeps refusing
// given up as ErrRefused.
func TestPoliteDownloads(t *testing.T) {
	dir := t.TempDir()
	lines := ccMirror(t, dir, "CC-MAIN-2024-33", 2, 4, 20)
	var mu sync.Mutex
	var open, maxOpen int
	var times []time.Time
	refused := map[string]int{} // path -> 403s left to send
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		open++
		maxOpen = max(maxOpen, open)
		left := refused[r.URL.Path]
		if left > 0 {
			refused[r.URL.Path]--
		}
		mu.Unlock()
		defer func() { mu.Lock(); open--; mu.Unlock() }()
		if left != 0 {
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		time.Sleep(250 * time.Millisecond) // a body that takes a while: three would overlap at the rate alone
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	refused["/"+lines[1]] = 2
	refused["/"+lines[5]] = -1 // always
	var notices []RetryEvent
	cfg := Config{
		Workers: 8, Downloads: 2, Rate: 5, CCBase: srv.URL, KeepGoing: true,
		Retry: RetryPolicy{MaxTries: 3, BaseDelay: 10 * time.Millisecond, MaxDelay: time.Second},
		OnRetry: func(n RetryEvent) {
			mu.Lock()
			notices = append(notices, n)
			mu.Unlock()
		},
	}
	var failed []UnitResult
	cfg.UnitDone = func(r UnitResult) error {
		if r.Err != nil {
			mu.Lock()
			failed = append(failed, r)
			mu.Unlock()
		}
		return nil
	}
	caps, _, err := collect(t, cfg, "CC-MAIN-2024-33")
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != 7*20 {
		t.Errorf("%d captures, want the 140 of the 7 files served", len(caps))
	}
	if maxOpen > 2 {
		t.Errorf("%d requests at once, want at most --downloads 2", maxOpen)
	}
	// 1 manifest + 8 files + 2 retries of one + 2 of the other.
	if len(times) != 13 {
		t.Errorf("%d requests, want 13", len(times))
	}
	// The budget: 5/s is one request per 200 ms. The server sees each
	// request some latency after its turn, so neighbours may arrive
	// closer; requests k apart are at least k-1 intervals apart unless
	// latencies differ by a whole interval, which an unpaced run (the two
	// downloads' requests within a millisecond of each other) misses by
	// far.
	for i := range times {
		for j := i + 2; j < len(times); j++ {
			if d, want := times[j].Sub(times[i]), time.Duration(j-i-1)*200*time.Millisecond; d < want {
				t.Fatalf("requests %d and %d %v apart, want at least %v (rate 5/s)", i, j, d, want)
			}
		}
	}
	if len(notices) != 4 {
		t.Fatalf("notices %+v, want 4", notices)
	}
	for _, n := range notices {
		if n.Status != 403 || n.MaxTries != 3 || n.Try < 2 || n.Try > 3 || n.Wait < 10*time.Millisecond || !strings.Contains(n.URL, "/segments/") {
			t.Errorf("notice %+v", n)
		}
	}
	if len(failed) != 1 || !errors.Is(failed[0].Err, ErrRefused) || !errors.Is(failed[0].Err, ErrGaveUp) || !strings.Contains(failed[0].Err.Error(), "403") {
		t.Errorf("failures %v, want the file always refused, as ErrRefused", failed)
	}
}

// TestRetryFloor: a Retry-After of 0 does not make the next try come
// sooner than BaseDelay.
func TestRetryFloor(t *testing.T) {
	t.Parallel()
	var n int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		if k == 1 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.Write(gzipMembers(robotsResp("a.example", robotsBody)))
	}))
	defer srv.Close()
	var delays []time.Duration
	cfg := Config{Rate: -1, Retry: RetryPolicy{MaxTries: 2, BaseDelay: time.Second, MaxDelay: time.Minute},
		testSleep: func(ctx context.Context, d time.Duration) error { delays = append(delays, d); return nil }}
	if _, _, err := collect(t, cfg, srv.URL+"/x.warc.gz"); err != nil {
		t.Fatal(err)
	}
	if len(delays) != 1 || delays[0] != time.Second {
		t.Errorf("delays %v, want [1s]", delays)
	}
}

// TestStopAfterRefused: an endpoint that refuses every try of every
// download stops the run once StopAfterRefused downloads in a row gave
// up, even under KeepGoing, instead of spending the retries of every file
// left.
func TestStopAfterRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ccMirror(t, dir, "CC-MAIN-2024-33", 4, 5, 1)
	var mu sync.Mutex
	requests := 0
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".paths.gz") {
			files.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		requests++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`))
	}))
	defer srv.Close()
	var failed []UnitResult
	cfg := Config{Workers: 2, Downloads: 2, Rate: -1, CCBase: srv.URL, KeepGoing: true, StopAfterRefused: 3,
		Retry:    RetryPolicy{MaxTries: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond},
		UnitDone: func(r UnitResult) error { mu.Lock(); failed = append(failed, r); mu.Unlock(); return nil }}
	_, _, err := collect(t, cfg, "CC-MAIN-2024-33")
	// The other download may give up while the third does: the count is
	// 3, or 4 when both were in flight.
	if !errors.Is(err, ErrStopped) || !errors.Is(err, ErrSlowDown) ||
		!strings.Contains(err.Error(), "the last 3 downloads") && !strings.Contains(err.Error(), "the last 4 downloads") {
		t.Fatalf("err %v, want ErrStopped naming the SlowDown", err)
	}
	// Three give-ups, and at most the other download's tries besides.
	if requests > 3*2+2 || len(failed) > 3 {
		t.Errorf("%d requests, %d units failed: the run went on after the endpoint refused 3 in a row", requests, len(failed))
	}
}

// TestCrawlOfPath: the crawl a path or URL names by Common Crawl's layout
// (issue 25.1), the last crawl-data/CC-MAIN-YYYY-WW of it.
func TestCrawlOfPath(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"mirror/crawl-data/CC-MAIN-2023-06/segments/1.0/robotstxt/a.warc.gz", "CC-MAIN-2023-06"},
		{"mirror/crawl-data/CC-MAIN-2023-06", "CC-MAIN-2023-06"},
		{"crawl-data/CC-MAIN-2024-33/", "CC-MAIN-2024-33"},
		{"https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-33/segments/x/robotstxt/y.warc.gz", "CC-MAIN-2024-33"},
		{"s3://commoncrawl/crawl-data/CC-MAIN-2025-38/robotstxt.paths.gz", "CC-MAIN-2025-38"},
		{"a/crawl-data/CC-MAIN-2023-06/b/crawl-data/CC-MAIN-2024-33/c.warc", "CC-MAIN-2024-33"},
		{"a/crawl-data/CC-MAIN-2023-06/b/crawl-data/notes/c.warc", "CC-MAIN-2023-06"},
		{"mirror/crawl-data/CC-MAIN-2024-333/a.warc.gz", ""},
		{"mirror/crawl-data/cc-main-2024-33/a.warc.gz", ""},
		{"mirror/my-crawl-data/CC-MAIN-2024-33/a.warc.gz", ""},
		{"mirror/CC-MAIN-2024-33/a.warc.gz", ""},
		{"CC-MAIN-20240518000000-20240518030000-00000.warc.gz", ""},
		{"", ""},
	} {
		if got := CrawlOfPath(tc.path); got != tc.want {
			t.Errorf("CrawlOfPath(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
