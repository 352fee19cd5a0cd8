package main

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/wayback/waybacktest"
)

func wbAt(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

// waybackArchive fills a stand-in with two years of three sites:
// open.example blocks GPTBot from 2024-07 on (one capture a month, the
// body changing once), moved.example redirects http to https every
// month, and gone.example answers 404 then 503.
func waybackArchive(srv *waybacktest.Server) {
	open := "User-agent: *\nAllow: /\n"
	closed := "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
	for m := range 24 {
		d := wbAt("2024-01-05").AddDate(0, m, 0)
		body := open
		if m >= 6 {
			body = closed
		}
		srv.Add(waybacktest.Robots("https://open.example/robots.txt", d, body))
		if m%2 == 0 {
			srv.Add(waybacktest.Redirect("http://moved.example/robots.txt", d.Add(time.Hour), 301, "https://moved.example/robots.txt"),
				waybacktest.Robots("https://moved.example/robots.txt", d.Add(2*time.Hour), closed))
		}
	}
	srv.Add(waybacktest.Capture{URL: "http://gone.example/robots.txt", Time: wbAt("2024-02-10"), Status: 404, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("not found")},
		waybacktest.Capture{URL: "http://gone.example/robots.txt", Time: wbAt("2024-03-10"), Status: 503, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("down")})
}

// waybackPanelSetup starts the stand-in archive with waybackArchive's
// captures (closed at the end of the test), writes the site list hosts
// and returns both with the panel's --out folder.
func waybackPanelSetup(t *testing.T, hosts string) (srv *waybacktest.Server, sites, out string) {
	t.Helper()
	srv = waybacktest.NewServer()
	t.Cleanup(srv.Close)
	waybackArchive(srv)
	sites = filepath.Join(t.TempDir(), "sites.txt")
	if err := os.WriteFile(sites, []byte(hosts), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, sites, filepath.Join(t.TempDir(), "out")
}

func TestPanelWayback(t *testing.T) {
	t.Parallel()
	srv, sites, out := waybackPanelSetup(t, "open.example\nmoved.example\ngone.example\nnever.example\n")
	srv.Fail("cdx", waybacktest.Fault429, waybacktest.Fault503)
	stdout, stderr, code := run(t, "", "panel", "--quiet", "--json", "--rate", "-1", "--wayback-base", srv.Base(), "--out", out, sites, "wayback:2024-01..2025-12")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "429") || !strings.Contains(stderr, "503") {
		t.Errorf("stderr says nothing of the retried 429 and 503:\n%s", stderr)
	}
	var caps []string
	for _, r := range readTable[schema.CaptureRow](t, out, schema.Captures) {
		caps = append(caps, fmt.Sprintf("%s %s %d %s", r.Crawl, r.URL, r.HTTPStatus, r.FetchTime.UTC().Format("2006-01-02")))
	}
	slices.Sort(caps)
	// open: 24 months; moved: 12 months of 2 captures; gone: 2.
	if len(caps) != 24+24+2 {
		t.Errorf("%d captures, want 50:\n%s", len(caps), strings.Join(caps, "\n"))
	}
	for _, want := range []string{
		"wayback-2024-01 https://open.example/robots.txt 200 2024-01-05",
		"wayback-2025-12 https://open.example/robots.txt 200 2025-12-05",
		"wayback-2024-03 http://moved.example/robots.txt 301 2024-03-05",
		"wayback-2024-03 https://moved.example/robots.txt 200 2024-03-05",
		"wayback-2024-02 http://gone.example/robots.txt 404 2024-02-10",
		"wayback-2024-03 http://gone.example/robots.txt 503 2024-03-10",
	} {
		if !slices.Contains(caps, want) {
			t.Errorf("no capture %q in\n%s", want, strings.Join(caps, "\n"))
		}
	}
	var siteRows []string
	for _, r := range readTable[schema.SiteRow](t, out, schema.Sites) {
		if r.Crawl == "wayback-2024-03" || r.Crawl == "wayback-2024-02" {
			siteRows = append(siteRows, fmt.Sprintf("%s %s %s %s %s", r.Crawl, schema.DaysDate(r.CrawlDate).Format("2006-01-02"), r.Host, r.Outcome, r.FinalURL))
		}
	}
	slices.Sort(siteRows)
	wantSites := []string{
		"wayback-2024-02 2024-02-01 gone.example unavailable http://gone.example/robots.txt",
		"wayback-2024-02 2024-02-01 open.example parsed https://open.example/robots.txt",
		"wayback-2024-03 2024-03-01 gone.example unreachable http://gone.example/robots.txt",
		"wayback-2024-03 2024-03-01 moved.example parsed https://moved.example/robots.txt",
		"wayback-2024-03 2024-03-01 open.example parsed https://open.example/robots.txt",
	}
	if !slices.Equal(siteRows, wantSites) {
		t.Errorf("sites:\n%s\nwant:\n%s", strings.Join(siteRows, "\n"), strings.Join(wantSites, "\n"))
	}
	var hist []string
	for _, r := range readTable[schema.SiteHistoryRow](t, out, schema.SiteHistory) {
		if r.Bot == "GPTBot" && r.FirstFullCrawl != nil {
			hist = append(hist, r.Host+" "+*r.FirstFullCrawl)
		}
	}
	slices.Sort(hist)
	if want := []string{"moved.example wayback-2024-01", "open.example wayback-2024-07"}; !slices.Equal(hist, want) {
		t.Errorf("GPTBot first blocked: %q, want %q", hist, want)
	}
	if e := readTable[schema.ErrorRow](t, out, schema.Errors); len(e) > 0 {
		t.Errorf("errors: %v", e)
	}
	var res analyzeResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	w := res.Panel.Wayback
	if w == nil {
		t.Fatalf("no wayback in %s", stdout)
	}
	if w.Sites != 4 || w.Found != 3 || w.NotCaptured != 1 || w.Failed != 0 || len(w.Months) != 24 || w.Captures != 50 || w.Reused != 33 {
		t.Errorf("coverage %+v", *w)
	}
	if m := w.Months[2]; m.Crawl != "wayback-2024-03" || m.Found != 3 || m.NotCaptured != 1 || m.Listed != 4 {
		t.Errorf("2024-03: %+v", m)
	}
	// Digest reuse: open.example has 2 bodies, moved.example 1 body and 1
	// redirect replayed per month; gone.example 2.
	if w.CDXRequests != 4 || w.Replays != 2+12+1+2 {
		t.Errorf("%d CDX and %d replay requests, want 4 and 17", w.CDXRequests, w.Replays)
	}
	// Every answer is archived, a replay dated its capture.
	files, _ := filepath.Glob(filepath.Join(out, "warc", "wayback", "open.example", "*.warc.gz"))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f)[:min(len(filepath.Base(f)), 14)])
	}
	if len(names) != 3 || !strings.HasPrefix(names[0], "20240105000000") || !strings.HasPrefix(names[1], "20240705000000") || !strings.HasPrefix(names[2], "cdx-") {
		t.Errorf("archive of open.example: %q, want the 2024-01 and 2024-07 replays and the CDX answer", names)
	} else if b, err := gunzipFile(files[1]); err != nil || !strings.Contains(string(b), "WARC-Date: 2024-07-05T00:00:00Z\r\n") || !strings.Contains(string(b), "GPTBot") {
		t.Errorf("%s: %v\n%s", files[1], err, b)
	}
	// robotstat status says each month's coverage, summed over the sites.
	stdout, stderr, code = run(t, "", "status", "--json", out)
	var st struct {
		Months []pipeline.MonthCoverage `json:"wayback_months"`
	}
	if err := json.Unmarshal([]byte(stdout), &st); err != nil || code != 0 {
		t.Fatalf("status: %v, exit %d\n%s", err, code, stderr)
	}
	if len(st.Months) != 24 || st.Months[2].Crawl != "wayback-2024-03" || st.Months[2].Found != 3 || st.Months[2].NotCaptured != 1 || st.Months[2].Listed != 4 {
		t.Errorf("status months: %+v", st.Months)
	}
	// The report says each month's coverage too.
	stdout, stderr, code = run(t, "", "report", out)
	if code != 0 || !strings.Contains(stdout, "robotstat panel of 4 listed hosts") || !strings.Contains(stdout, "wayback-2024-03 3 found, 1 not captured, 0 failed") {
		t.Errorf("report: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if srv.Requests("cdx") != 6 {
		t.Errorf("%d CDX requests served, want 4 + the 429 and the 503", srv.Requests("cdx"))
	}
	// The same rows with one worker (a fresh --out: fetched again).
	one := filepath.Join(t.TempDir(), "one")
	if _, stderr, code := run(t, "", "panel", "--quiet", "--rate", "-1", "--workers", "1", "--wayback-base", srv.Base(), "--out", one, sites, "wayback:2024-01..2025-12"); code != 0 {
		t.Fatalf("--workers 1: exit %d\n%s", code, stderr)
	}
	all := func(string) bool { return true }
	want, got := panelTables(t, out, all), panelTables(t, one, all)
	for tb, w := range want {
		if !slices.Equal(got[tb], w) {
			t.Errorf("--workers 1: %s: %s", tb, testkit.FirstDiff(got[tb], w))
		}
	}
}

// TestPanelWaybackBadInput: a replay whose digest disagrees with its CDX
// row, a cut replay and a CDX answer that is not JSON are located errors
// and no row of their month (site).
func TestPanelWaybackBadInput(t *testing.T) {
	t.Parallel()
	srv, sites, out := waybackPanelSetup(t, "open.example\n")
	srv.Fail("replay", waybacktest.FaultDigest, waybacktest.FaultCut)
	stdout, stderr, code := run(t, "", "panel", "--quiet", "--json", "--rate", "-1", "--wayback-base", srv.Base(), "--out", out, sites, "wayback:2024-01..2024-12")
	if code != ExitInputErrors {
		t.Fatalf("exit %d, want %d\n%s", code, ExitInputErrors, stderr)
	}
	var msgs []string
	for _, e := range readTable[schema.ErrorRow](t, out, schema.Errors) {
		msgs = append(msgs, e.Class+": "+e.Message)
	}
	if len(msgs) != 2 || !strings.Contains(msgs[0]+msgs[1], "digest disagrees") || !strings.Contains(msgs[0]+msgs[1], "body cut") ||
		!strings.Contains(msgs[0]+msgs[1], "(open.example, 2024-01)") || !strings.Contains(msgs[0]+msgs[1], "(open.example, 2024-02)") {
		t.Errorf("errors: %q", msgs)
	}
	var crawls []string
	for _, r := range readTable[schema.CaptureRow](t, out, schema.Captures) {
		crawls = append(crawls, r.Crawl)
	}
	if len(crawls) != 10 || slices.Contains(crawls, "wayback-2024-01") || slices.Contains(crawls, "wayback-2024-02") {
		t.Errorf("captures of %q, want 2024-03..12", crawls)
	}
	var res analyzeResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if w := res.Panel.Wayback; w == nil || w.Failed != 1 || w.Months[0].Failed != 1 || w.Months[1].Failed != 1 || w.Months[2].Found != 1 {
		t.Errorf("coverage %+v", w)
	}

	// The errors of a site without captures are written under the crawl
	// of another's (runs: no partition without a crawl).
	srv.Fail("url=open.example", waybacktest.FaultNotJSON)
	os.WriteFile(sites, []byte("open.example\ngone.example\n"), 0o644)
	out2 := filepath.Join(t.TempDir(), "out2")
	_, stderr, code = run(t, "", "panel", "--quiet", "--rate", "-1", "--wayback-base", srv.Base(), "--out", out2, sites, "wayback:2024-01..2024-12")
	if code != ExitInputErrors {
		t.Fatalf("exit %d, want %d\n%s", code, ExitInputErrors, stderr)
	}
	e := readTable[schema.ErrorRow](t, out2, schema.Errors)
	if len(e) != 1 || !strings.Contains(e[0].Message, "not the JSON described") || !strings.Contains(e[0].Source, "cdx/search/cdx?url=open.example") {
		t.Errorf("errors: %+v", e)
	}
	if n := len(readTable[schema.CaptureRow](t, out2, schema.Captures)); n != 2 {
		t.Errorf("%d captures", n)
	}
}

// TestPanelWaybackKilled: a panel killed (SIGKILL) and run again gives
// the rows of an uninterrupted run, and a rerun fetches again only what
// was in flight when it was killed: every answer is archived as it comes.
func TestPanelWaybackKilled(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills robotstat processes")
	}
	srv := waybacktest.NewServer()
	defer srv.Close()
	waybackArchive(srv)
	var list []string
	for i := range 12 {
		h := fmt.Sprintf("s%02d.example", i)
		list = append(list, h)
		for m := range 24 {
			d := wbAt("2024-01-03").AddDate(0, m, i)
			srv.Add(waybacktest.Robots("https://"+h+"/robots.txt", d, fmt.Sprintf("User-agent: *\nDisallow: /v%d/\n", m/(i+1))))
		}
	}
	list = append(list, "open.example", "moved.example", "gone.example")
	sites := filepath.Join(t.TempDir(), "sites.txt")
	os.WriteFile(sites, []byte(strings.Join(list, "\n")), 0o644)
	panel := func(out string) *exec.Cmd {
		return robotstatCmd(t, "panel", "--quiet", "--rate", "200", "--wayback-base", srv.Base(), "--out", out, sites, "wayback:2024-01..2025-12")
	}
	whole := filepath.Join(t.TempDir(), "whole")
	start := time.Now()
	if out, err := panel(whole).CombinedOutput(); err != nil {
		t.Fatalf("whole run: %v\n%s", err, out)
	}
	took := time.Since(start)
	wholeRequests := len(srv.Log())
	all := func(string) bool { return true }
	want := panelTables(t, whole, all)
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 2 {
		before := len(srv.Log())
		out := filepath.Join(t.TempDir(), "killed")
		kills := 1 + i%2
		killedPanel(t, i, kills, r, took, panel, out, want)
		// Each kill loses at most the requests then in flight: one per
		// site being read, at most --downloads (4) at once.
		log := srv.Log()[before:]
		if extra := len(log) - wholeRequests; extra < 0 || extra > kills*4 {
			t.Errorf("round %d: %d requests over %d kills, the whole run made %d", i, len(log), kills, wholeRequests)
		}
	}
}

func gunzipFile(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// TestPanelWaybackRefused: an archive that keeps refusing (503 without
// Memento-Datetime on every try) fails the sites' input, which a rerun
// reads; an archived 503 (with Memento-Datetime) is a capture, not a
// refusal (TestPanelWayback's gone.example).
func TestPanelWaybackRefused(t *testing.T) {
	t.Parallel()
	srv, sites, out := waybackPanelSetup(t, "open.example\n")
	srv.Fail("cdx", waybacktest.Fault503, waybacktest.Fault503)
	args := []string{"panel", "--quiet", "--rate", "-1", "--retries", "2", "--wayback-base", srv.Base(), "--out", out, sites, "wayback:2024-01..2024-12"}
	_, stderr, code := run(t, "", args...)
	if code != ExitInputsFailed || !strings.Contains(stderr, "503") {
		t.Fatalf("exit %d, want %d\n%s", code, ExitInputsFailed, stderr)
	}
	if srv.Requests("cdx") != 2 || srv.Requests("replay") != 0 {
		t.Errorf("%d CDX and %d replay requests, want the 2 tries", srv.Requests("cdx"), srv.Requests("replay"))
	}
	_, stderr, code = run(t, "", args...)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s", code, stderr)
	}
	if n := len(readTable[schema.CaptureRow](t, out, schema.Captures)); n != 12 {
		t.Errorf("rerun: %d captures, want 12", n)
	}
}

// TestPanelWaybackMixed: one panel reads a Common Crawl crawl through its
// URL index and Wayback months; each source's rows are under its crawls,
// dated by their names.
func TestPanelWaybackMixed(t *testing.T) {
	t.Parallel()
	base, generated := panelMirror(t)
	srv, sites, out := waybackPanelSetup(t, strings.Join([]string{generated[0], "open.example"}, "\n"))
	_, stderr, code := run(t, "", "panel", "--quiet", "--rate", "-1", "--cc-base", base, "--wayback-base", srv.Base(), "--out", out, sites,
		"CC-MAIN-2024-22", "wayback:2024-05..2024-06")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var got []string
	for _, r := range readTable[schema.SiteRow](t, out, schema.Sites) {
		got = append(got, fmt.Sprintf("%s %s %s", r.Crawl, schema.DaysDate(r.CrawlDate).Format("2006-01-02"), r.Host))
	}
	slices.Sort(got)
	want := []string{"CC-MAIN-2024-22 2024-05-27 " + generated[0], "wayback-2024-05 2024-05-01 open.example", "wayback-2024-06 2024-06-01 open.example"}
	if !slices.Equal(got, want) {
		t.Errorf("sites %q, want %q", got, want)
	}
}
