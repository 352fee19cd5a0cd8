package pipeline

import (
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

	"github.com/robotstat/robotstat/ccindex"
	"github.com/robotstat/robotstat/ccindex/ccindextest"
	"github.com/robotstat/robotstat/internal/weburl"
	"github.com/robotstat/robotstat/record"
)

const panelCrawl = "CC-MAIN-2024-22"

// panelCaptures are the test crawl's fetches, spread over three files:
// listed hosts with http, https, port and path variants, www. and
// subdomain neighbours that are not listed, redirects on the host, to
// other hosts, in a chain past the limit and in a loop, to an uncaptured
// URL and relatively, and filler hosts around them.
func panelCaptures() [][]ccindextest.Capture {
	robots := func(h string) string { return "https://" + h + "/robots.txt" }
	ok := func(u string) ccindextest.Capture {
		return ccindextest.Capture{URL: u, Status: 200, Body: "User-agent: *\nDisallow: /" + weburl.Host(u) + "\n"}
	}
	moved := func(u, to string) ccindextest.Capture { return ccindextest.Capture{URL: u, Status: 301, Location: to} }
	files := [][]ccindextest.Capture{
		{ok(robots("a.example")), moved("http://a.example/robots.txt", robots("a.example")), ok("https://a.example/"),
			ok(robots("www.a.example")), ok(robots("blog.a.example")), {URL: "http://a.example:8080/robots.txt", Status: 404, Body: "no"},
			moved(robots("b.example"), robots("target.example")), {URL: robots("target.example"), Status: 302, Location: "https://target2.example/r.txt"}},
		{ok("https://target2.example/r.txt"), moved(robots("c.example"), robots("c1.example")), moved(robots("d.example"), "/new/robots.txt"),
			ok("https://d.example/new/robots.txt"), moved(robots("e.example"), robots("gone.example")), ok(robots("g.example"))},
		{moved(robots("loop.example"), robots("loop2.example")), moved(robots("loop2.example"), robots("loop.example")), ok(robots("g.example")),
			{URL: "http://g.example/robots.txt", Status: 503, Body: "busy"}},
	}
	for i := 1; i <= 6; i++ {
		files[i%3] = append(files[i%3], moved(robots(fmt.Sprintf("c%d.example", i)), robots(fmt.Sprintf("c%d.example", i+1))))
	}
	for i := range 300 {
		files[i%3] = append(files[i%3], ok(robots(fmt.Sprintf("filler%03d.example", i))))
	}
	return files
}

var panelListed = []string{"a.example", "b.example", "c.example", "d.example", "e.example", "f.example", "g.example", "loop.example"}

// buildPanelCrawl writes the test crawl as a mirror under a new folder.
func buildPanelCrawl(t *testing.T, o ccindextest.Options) (string, ccindextest.Crawl) {
	t.Helper()
	dir := t.TempDir()
	var warcs []string
	for i, caps := range panelCaptures() {
		p := filepath.Join(dir, fmt.Sprintf("CC-MAIN-20240518000000-20240518030000-%05d.warc.gz", i))
		if err := ccindextest.WriteWARC(p, panelCrawl, caps); err != nil {
			t.Fatal(err)
		}
		warcs = append(warcs, p)
	}
	base := filepath.Join(dir, "mirror")
	c, err := ccindextest.Build(base, panelCrawl, 2, warcs, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warcs {
		os.Remove(w)
	}
	return base, c
}

// captureSet runs cfg over inputs and returns every capture, described,
// by host, and the units' results.
func captureSet(t *testing.T, cfg Config, inputs ...string) (map[string][]string, []UnitResult, Summary, error) {
	t.Helper()
	var mu sync.Mutex
	out := map[string][]string{}
	var units []UnitResult
	cfg.UnitDone = func(u UnitResult) error {
		mu.Lock()
		units = append(units, u)
		mu.Unlock()
		return nil
	}
	cfg.testSleep = func(context.Context, time.Duration) error { return nil }
	sum, err := Run(context.Background(), cfg, inputs, func(_ int, c *record.Capture) error {
		d := fmt.Sprintf("%s@%d %s %s %s %d %q %q %d %q", c.Path, c.Offset, c.Crawl, c.URL, c.RecordID, c.Status, c.Location, c.Body, c.BodyLen, c.FetchTime)
		mu.Lock()
		h := weburl.Host(c.URL)
		out[h] = append(out[h], d)
		mu.Unlock()
		return nil
	})
	for _, v := range out {
		slices.Sort(v)
	}
	return out, units, sum, err
}

// listedOnly keeps the captures of listed hosts.
func listedOnly(m map[string][]string, hosts []string) map[string][]string {
	out := map[string][]string{}
	for _, h := range hosts {
		if len(m[h]) > 0 {
			out[h] = m[h]
		}
	}
	return out
}

func equalSets(t *testing.T, what string, got, want map[string][]string) {
	t.Helper()
	for h, w := range want {
		if !slices.Equal(got[h], w) {
			t.Errorf("%s: %s: got\n%s\nwant\n%s", what, h, strings.Join(got[h], "\n"), strings.Join(w, "\n"))
		}
	}
	for h := range got {
		if _, ok := want[h]; !ok {
			t.Errorf("%s: captures of %s, which it should not have: %q", what, h, got[h])
		}
	}
}

// TestPanel: a panel of the crawl through its index gives every listed
// host exactly the captures a whole-crawl read gives it (offsets, sources,
// record ids, bodies), whatever the index's layout; it reads the redirect
// targets up to the fifth hop and no further; www. and subdomain
// neighbours are not read as listed hosts; coverage counts the listed host
// the crawl did not capture.
func TestPanel(t *testing.T) {
	t.Parallel()
	hosts, _ := SiteList(panelListed, false)
	for _, tc := range []struct {
		name string
		o    ccindextest.Options
	}{
		{"one_file", ccindextest.Options{}},
		{"files_row_groups_pages", ccindextest.Options{Files: 3, RowGroupRows: 40, PageBytes: 512, DictBytes: 1024}},
		{"no_statistics_no_page_index", ccindextest.Options{Files: 2, RowGroupRows: 50, NoStatistics: true, NoPageIndex: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, _ := buildPanelCrawl(t, tc.o)
			full, _, _, err := captureSet(t, Config{CCBase: base, Workers: 2}, panelCrawl)
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 3} {
				got, units, sum, err := captureSet(t, Config{CCBase: base, Workers: workers, Panel: &Panel{Hosts: hosts}}, panelCrawl)
				if err != nil {
					t.Fatal(err)
				}
				equalSets(t, "listed hosts", listedOnly(got, hosts), listedOnly(full, hosts))
				// Targets: b's chain, c's up to the fifth hop, the loop's other end.
				targets := []string{"target.example", "target2.example", "c1.example", "c2.example", "c3.example", "c4.example", "c5.example", "loop2.example"}
				for _, h := range targets {
					if !slices.Equal(got[h], full[h]) {
						t.Errorf("redirect target %s: got %q, want %q", h, got[h], full[h])
					}
				}
				for _, h := range []string{"c6.example", "c7.example", "www.a.example", "blog.a.example", "filler001.example"} {
					if len(got[h]) > 0 {
						t.Errorf("read %s, which no listed host's answer needs", h)
					}
				}
				if len(units) != 1 || units[0].Coverage == nil || units[0].Err != nil {
					t.Fatalf("units %+v", units)
				}
				cov := units[0].Coverage
				if cov.Listed != 8 || cov.Found != 7 || cov.NotCaptured != 1 || cov.Failed != 0 || cov.Crawl != panelCrawl {
					t.Errorf("coverage %+v", cov)
				}
				if cov.Records != sum.Captures || cov.RecordRequests >= cov.Records || sum.ErrorCount() != 0 {
					t.Errorf("%d captures, coverage %+v, %d errors: want one record a capture, fewer requests than records", sum.Captures, cov, sum.ErrorCount())
				}
			}
		})
	}
}

// TestPanelSiteList: entries are normalised, deduplicated and sorted,
// --www adds www. variants of names, and entries that are not hosts are
// named.
func TestPanelSiteList(t *testing.T) {
	t.Parallel()
	hosts, skipped := SiteList([]string{"Example.COM", "b.example.", "https://c.example/", "example.com", "192.0.2.1", "www.d.example", "", "bücher.example"}, true)
	want := []string{"192.0.2.1", "b.example", "example.com", "www.b.example", "www.d.example", "www.example.com", "www.xn--bcher-kva.example", "xn--bcher-kva.example"}
	if !slices.Equal(hosts, want) {
		t.Errorf("hosts %q, want %q", hosts, want)
	}
	if len(skipped) != 2 || !strings.Contains(skipped[0].Error(), "https://c.example/") || skipped[0].Index != 2 || skipped[1].Index != 6 {
		t.Errorf("skipped %v", skipped)
	}
	if err := (Config{Panel: &Panel{Hosts: []string{"Upper.example"}}}).Validate(); err == nil {
		t.Error("a host not normalised is accepted")
	}
}

// TestPanelHTTPFaults: over HTTP, with 503 SlowDown on the index list, a
// 403 burst on an index file, a cut connection on a record and a 500 on
// another, the panel gives the rows it gives from disk; each retry is an
// event; the subset=warc and subset=crawldiagnostics files are never
// requested; index and record requests are counted apart.
func TestPanelHTTPFaults(t *testing.T) {
	t.Parallel()
	hosts, _ := SiteList(panelListed, false)
	base, c := buildPanelCrawl(t, ccindextest.Options{Files: 2, RowGroupRows: 60, PageBytes: 1024})
	want, _, _, err := captureSet(t, Config{CCBase: base, Workers: 2, Panel: &Panel{Hosts: hosts}}, panelCrawl)
	if err != nil {
		t.Fatal(err)
	}
	srv := ccindextest.NewServer(base)
	defer srv.Close()
	srv.Fail("crawl-data/"+panelCrawl+"/cc-index-table.paths.gz", ccindextest.FaultSlowDown)
	srv.Fail(c.Index[0], ccindextest.Fault403, ccindextest.Fault403)
	srv.Fail(c.WARCs[0], ccindextest.FaultCut, ccindextest.Fault500)
	var mu sync.Mutex
	var retries []RetryEvent
	cfg := Config{CCBase: srv.Base(), Workers: 2, Rate: -1, Panel: &Panel{Hosts: hosts}, OnRetry: func(e RetryEvent) {
		mu.Lock()
		retries = append(retries, e)
		mu.Unlock()
	}}
	got, units, _, err := captureSet(t, cfg, panelCrawl)
	if err != nil {
		t.Fatal(err)
	}
	equalSets(t, "over HTTP with faults", got, want)
	if len(retries) != 5 {
		t.Errorf("%d retries, want 5 (a SlowDown, two 403, a cut, a 500): %+v", len(retries), retries)
	}
	for _, subset := range []string{"warc", "crawldiagnostics"} {
		if n, _ := srv.Total("subset=" + subset + "/"); n != 0 {
			t.Errorf("%d requests of subset=%s", n, subset)
		}
	}
	cov := units[0].Coverage
	idxReq, idxBytes := srv.Total("subset=robotstxt/")
	warcReq, _ := srv.Total("/robotstxt/CC-MAIN-")
	if int64(idxReq) != cov.IndexRequests+2 || cov.IndexBytes > idxBytes || int64(warcReq) != cov.RecordRequests+2 {
		t.Errorf("server saw %d index requests (%d bytes), %d record requests; coverage %+v", idxReq, idxBytes, warcReq, cov)
	}
	for _, l := range srv.Log() {
		if strings.Contains(l, "/robotstxt/CC-MAIN-") && !strings.Contains(l, " bytes=") {
			t.Errorf("a record request without a range: %s", l)
		}
	}
}

// TestPanelBadData: a record the file cuts, a record that is not the URL
// its row names and an index file that is not Parquet are located errors
// in their files, never captures; the hosts whose answers depend on them
// are failed in the coverage; the rest reads as before.
func TestPanelBadData(t *testing.T) {
	t.Parallel()
	hosts, _ := SiteList(panelListed, false)
	base, c := buildPanelCrawl(t, ccindextest.Options{Files: 2, RowGroupRows: 60})
	clean, _, _, err := captureSet(t, Config{CCBase: base, Workers: 2, Panel: &Panel{Hosts: hosts}}, panelCrawl)
	if err != nil {
		t.Fatal(err)
	}
	rows := slices.Clone(c.Rows)
	var gRow, cutFile string
	for i, r := range rows {
		if r.URL == "https://www.a.example/robots.txt" {
			// The row says a.example; the record is www.a.example's.
			rows[i].URL = "https://a.example/other.txt"
			rows[i].URLSurtKey = ccindex.SURT(rows[i].URL)
		}
		if r.URL == "http://g.example/robots.txt" {
			gRow, cutFile = fmt.Sprint(r.WARCRecordOffset), r.WARCFilename
			p := filepath.Join(base, filepath.FromSlash(r.WARCFilename))
			if err := os.Truncate(p, int64(r.WARCRecordOffset+r.WARCRecordLength/2)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := ccindextest.WriteIndex(base, panelCrawl, rows, ccindextest.Options{Files: 2, RowGroupRows: 60}); err != nil {
		t.Fatal(err)
	}
	got, units, sum, err := captureSet(t, Config{CCBase: base, Workers: 2, Panel: &Panel{Hosts: hosts}, KeepGoing: true}, panelCrawl)
	if err != nil {
		t.Fatal(err)
	}
	cov := units[0].Coverage
	// c.example's chain goes through records after the cut.
	if cov.Failed != 3 || !slices.Equal(cov.FailedHosts, []string{"a.example", "c.example", "g.example"}) || units[0].Err != nil {
		t.Errorf("coverage %+v, unit error %v", cov, units[0].Err)
	}
	var classes []string
	for _, e := range units[0].Errors {
		classes = append(classes, e.Class.String()+" "+e.Path+"@"+fmt.Sprint(e.Offset)+" "+e.Err.Error())
	}
	joined := strings.Join(classes, "\n")
	if !strings.Contains(joined, "index "+cutFile+"@"+gRow+" "+ErrIndexCut.Error()) || !strings.Contains(joined, ErrIndexMismatch.Error()) || sum.Errors[ClassIndex] < 2 {
		t.Errorf("errors:\n%s", joined)
	}
	for _, h := range []string{"b.example", "c.example", "d.example", "loop.example"} {
		if !slices.Equal(got[h], clean[h]) {
			t.Errorf("%s changed", h)
		}
	}
	if len(got["g.example"]) != len(clean["g.example"])-1 || len(got["www.a.example"]) != 0 {
		t.Errorf("g.example %q, www.a.example %q", got["g.example"], got["www.a.example"])
	}

	// An index file that is not Parquet: every host it could hold fails.
	if err := os.WriteFile(filepath.Join(base, filepath.FromSlash(c.Index[1])), []byte("<html>no such key</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, units, _, err = captureSet(t, Config{CCBase: base, Workers: 2, Panel: &Panel{Hosts: hosts}, KeepGoing: true}, panelCrawl)
	if err != nil {
		t.Fatal(err)
	}
	cov = units[0].Coverage
	if cov.IndexFilesFailed != 1 || cov.Failed < 3 || cov.Found+cov.NotCaptured+cov.Failed != cov.Listed {
		t.Errorf("after a broken index file: %+v", cov)
	}
	found := false
	for _, e := range units[0].Errors {
		found = found || (e.Class == ClassIndex && e.Path == c.Index[1] && errors.Is(e.Err, ErrIndexFile))
	}
	if !found {
		t.Errorf("no located error for %s: %v", c.Index[1], units[0].Errors)
	}
}

// TestPanelUnknownCrawl: a crawl without an index list fails its unit with
// a message that says so, and the other crawl is read.
func TestPanelUnknownCrawl(t *testing.T) {
	t.Parallel()
	hosts, _ := SiteList(panelListed, false)
	base, _ := buildPanelCrawl(t, ccindextest.Options{})
	srv := ccindextest.NewServer(base)
	defer srv.Close()
	for _, b := range []string{base, srv.Base()} {
		got, units, sum, err := captureSet(t, Config{CCBase: b, Rate: -1, Panel: &Panel{Hosts: hosts}, KeepGoing: true}, "CC-MAIN-2099-01", panelCrawl)
		if err != nil {
			t.Fatal(err)
		}
		if len(units) != 2 || sum.FailedUnits != 1 || len(got["a.example"]) == 0 {
			t.Fatalf("%s: units %+v, summary %+v", b, units, sum)
		}
		for _, u := range units {
			if u.Crawl == "CC-MAIN-2099-01" && (u.Err == nil || !strings.Contains(u.Err.Error(), "crawl CC-MAIN-2099-01: no URL index list at") || u.Coverage.Failed != len(hosts)) {
				t.Errorf("%s: unknown crawl: %v, %+v", b, u.Err, u.Coverage)
			}
		}
	}
}

// TestRangeFetch: a ranged download asks for exactly its bytes, resumes a
// cut answer from where it broke, copes with a server that ignores Range,
// gives fewer bytes where the file ends first, the last n bytes of a file
// (with its size) for a suffix, and ErrFetch for a range past the end.
func TestRangeFetch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := make([]byte, 100000)
	for i := range data {
		data[i] = byte(i * 31)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := ccindextest.NewServer(dir)
	defer srv.Close()
	r := &runner{cfg: Config{Rate: -1}}
	r.cfg.fill()
	r.fetch = newFetcher(&r.cfg)
	r.fetch.sleep = func(context.Context, time.Duration) error { return nil }
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		fault     string
		off, n    int64
		want      []byte
		wantTotal int64
	}{
		{"range", "", 1000, 5000, data[1000:6000], 100000},
		{"cut_then_resumed", ccindextest.FaultCut, 20000, 9000, data[20000:29000], 100000},
		{"past_the_end_shortened", "", 99000, 5000, data[99000:], 100000},
		{"suffix", "", -1, 4096, data[100000-4096:], 100000},
		{"suffix_cut", ccindextest.FaultCut, -1, 4096, data[100000-4096:], 100000},
	} {
		for _, name := range []string{srv.Base() + "f", filepath.Join(dir, "f")} {
			if tc.fault != "" {
				if !isURL(name) {
					continue
				}
				srv.Fail("f", tc.fault)
			}
			got, total, err := r.readRange(ctx, name, tc.off, tc.n)
			if err != nil || !slices.Equal(got, tc.want) || total != tc.wantTotal {
				t.Errorf("%s %s: %d bytes, total %d, %v", tc.name, name, len(got), total, err)
			}
		}
	}
	if _, _, err := r.readRange(ctx, srv.Base()+"f", 200000, 10); !errors.Is(err, ErrFetch) {
		t.Errorf("range past the end over HTTP: %v", err)
	}
	if _, _, err := r.readRange(ctx, filepath.Join(dir, "f"), 200000, 10); !errors.Is(err, ErrFetch) {
		t.Errorf("range past the end of a file: %v", err)
	}
	// A server that ignores Range.
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.Write(data)
	}))
	defer plain.Close()
	for _, tc := range []struct{ off, n int64 }{{70000, 100}, {-1, 300}} {
		got, _, err := r.readRange(ctx, plain.URL+"/f", tc.off, tc.n)
		lo := tc.off
		if lo < 0 {
			lo = int64(len(data)) - tc.n
		}
		if err != nil || !slices.Equal(got, data[lo:lo+tc.n]) {
			t.Errorf("server ignoring Range, %d+%d: %d bytes, %v", tc.off, tc.n, len(got), err)
		}
	}
	for _, l := range srv.Log() {
		if !strings.Contains(l, "bytes=") {
			t.Errorf("request without Range: %s", l)
		}
	}
}
