package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/ccindex/ccindextest"
	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/reduce/reducetest"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// hostRows is every committed row of table tb whose host keep accepts, as
// sorted JSON with its crawl: a multiset, as schematest.TableRows.
func hostRows[T schema.Row](t *testing.T, root string, tb schema.TableName, keep func(string) bool) []string {
	t.Helper()
	files, err := schema.TableFiles(root, tb)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		rows, err := parquet.ReadFile[T](f.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			b, _ := json.Marshal(r)
			var m map[string]any
			json.Unmarshal(b, &m)
			if h, _ := m["Host"].(string); keep(h) {
				out = append(out, f.Crawl+"\t"+string(b))
			}
		}
	}
	slices.Sort(out)
	return out
}

// panelTables is every table a panel writes, restricted to the hosts keep
// accepts.
func panelTables(t *testing.T, root string, keep func(string) bool) map[schema.TableName][]string {
	return map[schema.TableName][]string{
		schema.Captures:    hostRows[schema.CaptureRow](t, root, schema.Captures, keep),
		schema.Groups:      hostRows[schema.GroupRow](t, root, schema.Groups, keep),
		schema.Agents:      hostRows[schema.AgentRow](t, root, schema.Agents, keep),
		schema.Directives:  hostRows[schema.DirectiveRow](t, root, schema.Directives, keep),
		schema.Signals:     hostRows[schema.SignalRow](t, root, schema.Signals, keep),
		schema.Verdicts:    hostRows[schema.VerdictsRow](t, root, schema.Verdicts, keep),
		schema.Sites:       hostRows[schema.SiteRow](t, root, schema.Sites, keep),
		schema.SiteBots:    hostRows[schema.SiteBotRow](t, root, schema.SiteBots, keep),
		schema.SiteHistory: hostRows[schema.SiteHistoryRow](t, root, schema.SiteHistory, keep),
	}
}

// panelMirror lays out two crawls with their URL indexes under a new
// folder: the sites fixture as CC-MAIN-2025-05 (one host per rule of the
// site resolution) and 600 generated captures as CC-MAIN-2024-22 and the
// extra crawls (http
// and https, 404s, 5xx, redirects on the host and to others, bodies with
// named bots, wildcards and Content-Signal lines). It returns some of the
// generated hosts.
func panelMirror(t *testing.T, extra ...string) (base string, generated []string) {
	t.Helper()
	base = t.TempDir()
	fixture, _ := filepath.Glob(filepath.Join(sitesFixture, "*.warc.gz"))
	if _, err := ccindextest.Build(base, reducetest.Crawl, 2, fixture, ccindextest.Options{Files: 2, RowGroupRows: 8, PageBytes: 512, DictBytes: 1024}); err != nil {
		t.Fatal(err)
	}
	bodies := []string{
		"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		"User-agent: *\nDisallow: /private/\nDisallow: /*?q=\nSitemap: https://example.com/sitemap.xml\n",
		"User-agent: *\nContent-Signal: ai-train=no, search=yes\nAllow: /\n",
		"User-agent: CCBot\nUser-agent: ClaudeBot\nDisallow: /\nCrawl-delay: 5\n",
		"<html><body>not a robots.txt</body></html>\n",
	}
	dir := t.TempDir()
	var warcs []string
	files := make([][]ccindextest.Capture, 2)
	for i := range 600 {
		h := fmt.Sprintf("site%03d.example", i/2)
		u := "https://" + h + "/robots.txt"
		if i%2 == 1 {
			u = "http://" + h + "/robots.txt"
		}
		c := ccindextest.Capture{URL: u, Status: 200, Body: bodies[i%len(bodies)]}
		switch i % 13 {
		case 3:
			c.Status, c.Body = 404, bodies[4]
		case 5:
			c.Status = 503
		case 7:
			c.Status, c.Location = 301, "https://"+h+"/robots.txt"
		case 9:
			c.Status, c.Location = 302, fmt.Sprintf("https://cdn%d.example/robots.txt", i%5)
		}
		files[i%2] = append(files[i%2], c)
	}
	for i := range 5 {
		files[1] = append(files[1], ccindextest.Capture{URL: fmt.Sprintf("https://cdn%d.example/robots.txt", i), Status: 200, Body: bodies[i]})
	}
	for i, caps := range files {
		p := filepath.Join(dir, fmt.Sprintf("CC-MAIN-20240518000000-20240518030000-%05d.warc.gz", i))
		if err := ccindextest.WriteWARC(p, "CC-MAIN-2024-22", caps); err != nil {
			t.Fatal(err)
		}
		warcs = append(warcs, p)
	}
	for _, crawl := range append([]string{"CC-MAIN-2024-22"}, extra...) {
		if _, err := ccindextest.Build(base, crawl, 2, warcs, ccindextest.Options{Files: 3, RowGroupRows: 100, PageBytes: 2048, DictBytes: 4096}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 300; i += 7 {
		generated = append(generated, fmt.Sprintf("site%03d.example", i))
	}
	return base, generated
}

// TestPanelCommand: a panel of a Tranco list over two crawls, read over
// HTTP from a server that answers a SlowDown and a 403, gives every listed
// host exactly the rows (captures, groups, agents, directives, signals,
// verdicts, sites, site_bots, site_history) a whole-crawl analyze of the
// same crawls with the same list gives it, and no site for a redirect
// target it is not listing; the summary and status count the hosts found,
// not captured and failed per crawl; a rerun skips both crawls; a line
// that is not a host is named.
func TestPanelCommand(t *testing.T) {
	t.Parallel()
	base, generated := panelMirror(t)
	var listed []string
	for _, s := range reducetest.Sites {
		if s.Host != "cdn.other.example" { // cross-host.example redirects to it
			listed = append(listed, s.Host)
		}
	}
	listed = append(listed, generated...)
	listed = append(listed, "not-captured.example")
	var list strings.Builder
	list.WriteString("rank,domain\n")
	for i, h := range listed {
		fmt.Fprintf(&list, "%d,%s\n", i+1, h)
	}
	fmt.Fprintf(&list, "%d,https://not-a-host.example/\n", len(listed)+1)
	sites := filepath.Join(t.TempDir(), "tranco.csv")
	if err := os.WriteFile(sites, []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	crawls := []string{reducetest.Crawl, "CC-MAIN-2024-22"}

	full := filepath.Join(t.TempDir(), "full")
	if _, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--cc-base", base, "--sites", sites, "--out", full}, crawls...)...); code != 0 {
		t.Fatalf("analyze: exit %d\n%s", code, stderr)
	}
	srv := ccindextest.NewServer(base)
	defer srv.Close()
	srv.Fail("crawl-data/"+reducetest.Crawl+"/cc-index-table.paths.gz", ccindextest.FaultSlowDown)
	srv.Fail("crawl-data/CC-MAIN-2024-22/cc-index-table.paths.gz", ccindextest.Fault403)
	out := filepath.Join(t.TempDir(), "panel")
	args := append([]string{"panel", "--quiet", "--json", "--rate", "-1", "--workers", "2", "--cc-base", srv.Base(), "--out", out, sites}, crawls...)
	stdout, stderr, code := run(t, "", args...)
	if code != 0 {
		t.Fatalf("panel: exit %d\n%s", code, stderr)
	}
	isListed := func(h string) bool { return slices.Contains(listed, h) }
	want, got := panelTables(t, full, isListed), panelTables(t, out, isListed)
	for tb, w := range want {
		if len(w) == 0 && tb != schema.Signals {
			t.Errorf("%s: no rows of the listed hosts in the whole-crawl run", tb)
		}
		if !slices.Equal(got[tb], w) {
			t.Errorf("%s: %d rows of listed hosts, want %d: first difference %s", tb, len(got[tb]), len(w), testkit.FirstDiff(got[tb], w))
		}
	}
	if e := schematest.TableRows(t, out, schema.Errors); len(e) > 0 {
		t.Errorf("errors: %q", e)
	}
	if extra := hostRows[schema.SiteRow](t, out, schema.Sites, func(h string) bool { return !isListed(h) }); len(extra) > 0 {
		t.Errorf("sites of hosts not listed: %q", extra)
	}
	if n := len(hostRows[schema.CaptureRow](t, out, schema.Captures, func(h string) bool { return h == "cdn.other.example" })); n != 1 {
		t.Errorf("%d captures of the redirect target cdn.other.example, want its 1", n)
	}

	var res analyzeResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	p := res.Panel
	if p == nil || p.Hosts != len(listed) || p.Entries != len(listed)+1 || p.Skipped != 1 || !strings.Contains(p.SkippedExamples[0], "line "+itoa(len(listed)+2)) || len(p.Crawls) != 2 {
		t.Fatalf("panel summary %+v", p)
	}
	for _, c := range p.Crawls {
		if c.Failed != 0 || c.Found+c.NotCaptured != c.Listed || c.NotCaptured < 1 || c.IndexRequests == 0 || c.RecordRequests == 0 {
			t.Errorf("%s: %+v", c.Crawl, c)
		}
	}
	if !strings.Contains(stderr, "robotstat: panel CC-MAIN-2024-22: ") || !strings.Contains(stderr, "entry is not a host name, skipped: line") || !strings.Contains(stderr, "retrying") {
		t.Errorf("summary:\n%s", stderr)
	}

	status, _, code := run(t, "", "status", "--json", out)
	var st runs.Status
	if err := json.Unmarshal([]byte(status), &st); err != nil || code != 0 {
		t.Fatalf("status: %v\n%s", err, status)
	}
	n := 0
	for _, in := range st.Inputs {
		if in.Panel != nil {
			n++
			if in.Panel.Listed != len(listed) || in.State != schema.RecordDone {
				t.Errorf("status of %s: %+v", in.Input, in.Panel)
			}
		}
	}
	if n != 2 {
		t.Errorf("status lists %d panel inputs:\n%s", n, status)
	}
	text, _, _ := run(t, "", "status", out)
	if !strings.Contains(text, "panel    CC-MAIN-2024-22: ") {
		t.Errorf("status text:\n%s", text)
	}

	report, _, code := run(t, "", "report", out)
	if code != 0 || !strings.Contains(report, "list:    robotstat panel of "+itoa(len(listed))+" listed hosts") || !strings.Contains(report, "CC-MAIN-2024-22 ") {
		t.Errorf("report preamble:\n%s", report[:min(len(report), 2000)])
	}

	stdout, stderr, code = run(t, "", args...)
	if code != 0 || !strings.Contains(stdout, `"inputs_skipped": 2`) {
		t.Errorf("rerun: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestPanelUnknownCrawl: a crawl whose index list is not there fails with
// a message that says so; the other crawl is read; exit code 5.
func TestPanelUnknownCrawl(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	fixture, _ := filepath.Glob(filepath.Join(sitesFixture, "*.warc.gz"))
	if _, err := ccindextest.Build(base, reducetest.Crawl, 1, fixture, ccindextest.Options{}); err != nil {
		t.Fatal(err)
	}
	sites := filepath.Join(t.TempDir(), "sites.txt")
	os.WriteFile(sites, []byte("five.example\nloop.example\n"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := run(t, "", "panel", "--quiet", "--cc-base", base, "--out", out, sites, "CC-MAIN-2099-01", reducetest.Crawl)
	if code != ExitInputsFailed || !strings.Contains(stderr, "crawl CC-MAIN-2099-01: no URL index list at") || !strings.Contains(stderr, "robotstat: panel "+reducetest.Crawl+": 2 found") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if _, stderr, code := run(t, "", "panel", "--out", out, sites, "robots.txt"); code != ExitUsage || !strings.Contains(stderr, "not a Common Crawl crawl name") {
		t.Errorf("a file as a crawl: exit %d\n%s", code, stderr)
	}
}

// TestPanelKilled kills a real robotstat panel (SIGKILL) at random moments
// of a run over four crawls, then reruns it to the end: every table's rows
// are those of a run never interrupted, and no file is left that no record
// names.
func TestPanelKilled(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills robotstat processes")
	}
	base, generated := panelMirror(t, "CC-MAIN-2024-26", "CC-MAIN-2024-30")
	sites := filepath.Join(t.TempDir(), "sites.txt")
	os.WriteFile(sites, []byte(strings.Join(append(generated, "five.example", "cross-host.example", "loop.example"), "\n")), 0o644)
	panel := func(out string) *exec.Cmd {
		return robotstatCmd(t, "panel", "--quiet", "--workers", "2", "--cc-base", base, "--out", out, sites,
			reducetest.Crawl, "CC-MAIN-2024-22", "CC-MAIN-2024-26", "CC-MAIN-2024-30")
	}
	whole := filepath.Join(t.TempDir(), "whole")
	start := time.Now()
	if out, err := panel(whole).CombinedOutput(); err != nil {
		t.Fatalf("whole run: %v\n%s", err, out)
	}
	took := time.Since(start)
	all := func(string) bool { return true }
	want := panelTables(t, whole, all)
	r := rand.New(rand.NewPCG(3, 5))
	for i := range 3 {
		out := filepath.Join(t.TempDir(), "killed")
		killedPanel(t, i, 1+i%2, r, took, panel, out, want)
		ix, err := schema.ReadIndex(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range parquetFiles(t, out) {
			if !ix.Committed(filepath.Join(out, f)) {
				t.Errorf("round %d: %s belongs to no record", i, f)
			}
		}
	}
}

// TestPanelS3: a panel from --cc-base s3://commoncrawl/ (ranged GetObjects,
// suffix ranges for index footers, on an in-process S3-compatible server)
// gives the rows of the same panel from a mirror folder.
func TestPanelS3(t *testing.T) {
	t.Parallel()
	base, generated := panelMirror(t)
	backend := s3mem.New()
	if err := backend.CreateBucket("commoncrawl"); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = backend.PutObject("commoncrawl", filepath.ToSlash(rel), map[string]string{}, bytes.NewReader(data), int64(len(data)), nil)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	faults := &s3Faults{next: gofakes3.New(backend).Server(), slowdown: map[string]bool{}, cut: map[string]bool{}}
	srv := httptest.NewServer(faults)
	defer srv.Close()
	sites := filepath.Join(t.TempDir(), "sites.txt")
	os.WriteFile(sites, []byte(strings.Join(append(generated, "five.example", "cross-host.example", "relative.example"), "\n")), 0o644)
	crawls := []string{reducetest.Crawl, "CC-MAIN-2024-22"}
	local := filepath.Join(t.TempDir(), "local")
	if _, stderr, code := run(t, "", append([]string{"panel", "--quiet", "--cc-base", base, "--out", local, sites}, crawls...)...); code != 0 {
		t.Fatalf("mirror: exit %d\n%s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "s3")
	args := append([]string{"panel", "--quiet", "--rate", "-1", "--cc-base", "s3://commoncrawl/", "--s3-endpoint", srv.URL, "--s3-credentials", "anonymous", "--out", out, sites}, crawls...)
	if _, stderr, code := run(t, "", args...); code != 0 {
		t.Fatalf("s3: exit %d\n%s", code, stderr)
	}
	all := func(string) bool { return true }
	want, got := panelTables(t, local, all), panelTables(t, out, all)
	for tb, w := range want {
		if !slices.Equal(got[tb], w) {
			t.Errorf("%s: %d rows from S3, %d from the mirror: %s", tb, len(got[tb]), len(w), testkit.FirstDiff(got[tb], w))
		}
	}
	faults.mu.Lock()
	defer faults.mu.Unlock()
	suffix := false
	for _, r := range faults.ranges {
		suffix = suffix || strings.Contains(r, "bytes=-")
	}
	if !suffix || len(want[schema.Captures]) == 0 {
		t.Errorf("ranges asked %v", faults.ranges)
	}
}

// TestReadmePanelExample runs the README's worked panel example (the
// mirror scripts/ccmirror writes, with its defaults) and compares the
// summary lines it shows.
func TestReadmePanelExample(t *testing.T) {
	t.Parallel()
	doc := readme(t)
	var shown []string
	for _, l := range strings.Split(doc, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "robotstat: panel ") {
			shown = append(shown, l)
		}
	}
	if len(shown) != 2 || !strings.Contains(doc, "go run ./scripts/ccmirror -crawl CC-MAIN-2025-05 -out /tmp/cc testdata/sites") {
		t.Fatalf("the README's panel example: %q", shown)
	}
	base := t.TempDir()
	fixture, _ := filepath.Glob(filepath.Join(sitesFixture, "*.warc.gz"))
	slices.Sort(fixture)
	if _, err := ccindextest.Build(base, "CC-MAIN-2025-05", 2, fixture, ccindextest.Options{Files: 2}); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join("..", "..", "scripts", "verify", "testdata", "panel-sites.csv")
	_, stderr, code := run(t, "", "panel", "--quiet", "--cc-base", base, "--out", filepath.Join(t.TempDir(), "panel"), list, "CC-MAIN-2025-05")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	stderr = strings.ReplaceAll(stderr, list, "scripts/verify/testdata/panel-sites.csv")
	for _, l := range shown {
		if !strings.Contains(stderr, l+"\n") {
			t.Errorf("the README shows\n%s\nthe panel prints\n%s", l, stderr)
		}
	}
}

// killedPanel is round i of a panel kill test (killAndRerun), then checks
// that every table has the rows of the whole run, want.
func killedPanel(t *testing.T, i, kills int, r *rand.Rand, took time.Duration, panel func(string) *exec.Cmd, out string, want map[schema.TableName][]string) {
	t.Helper()
	killAndRerun(t, i, kills, r, took, panel, out)
	got := panelTables(t, out, func(string) bool { return true })
	for tb, w := range want {
		if !slices.Equal(got[tb], w) {
			t.Errorf("round %d: %s: %d rows, want the %d of the whole run: %s", i, tb, len(got[tb]), len(w), testkit.FirstDiff(got[tb], w))
		}
	}
}

// killAndRerun is round i of a kill test: it starts the command start
// makes for out kills times, each killed (SIGKILL) at a random moment of
// took (how long a whole run takes), then reruns it to the end.
func killAndRerun(t *testing.T, i, kills int, r *rand.Rand, took time.Duration, start func(string) *exec.Cmd, out string) {
	t.Helper()
	for k := range kills {
		cmd := start(out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		at := time.Duration(r.Int64N(int64(took)))
		time.Sleep(at)
		err := testkit.Kill(cmd)
		t.Logf("round %d kill %d at %v of %v: %v", i, k, at.Round(time.Millisecond), took.Round(time.Millisecond), err)
	}
	if msg, err := start(out).CombinedOutput(); err != nil {
		t.Fatalf("round %d: rerun: %v\n%s", i, err, msg)
	}
}
