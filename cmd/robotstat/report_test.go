package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// reportSite is one capture of a hand-built dataset.
type reportSite struct {
	crawl, url string
	status     int
	body       string
	rank       int64
}

// writeSites runs the sites through the real Analyzer and Dataset writer.
func writeSites(t *testing.T, sites []reportSite) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	so := stats.DefaultOptions()
	a, err := stats.NewAnalyzer(so)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := schema.Create(schema.Options{Dir: dir, RunID: "test", Version: Version, Metadata: so.Metadata()})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Abort()
	var rows schema.Batch
	for i, s := range sites {
		u, err := url.Parse(s.url)
		if err != nil {
			t.Fatal(err)
		}
		c := &pipeline.Capture{Source: "t.warc.gz", Offset: int64(i), Crawl: s.crawl, URL: s.url, RobotsPath: u.Path == "/robots.txt",
			Status: s.status, Body: []byte(s.body), BodyLen: int64(len(s.body))}
		before := len(rows.Captures)
		a.Analyze(c, &rows)
		rows.Captures[before].Rank = s.rank
	}
	writeRows(t, ds, &rows)
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeRows hands the rows to ds, as analyze does.
func writeRows(t testing.TB, ds *schema.Dataset, rows *schema.Batch) {
	t.Helper()
	if err := ds.Sink().Write(rows); err != nil {
		t.Fatal(err)
	}
}

// squash collapses runs of spaces, so expectations do not depend on column
// widths.
func squash(s string) string { return regexp.MustCompile(` +`).ReplaceAllString(s, " ") }

// section returns the lines of the text report's table with the given
// title, up to the next blank line after its rows.
func section(t *testing.T, out, title string) string {
	t.Helper()
	i := strings.Index(out, "== "+title+" ==")
	if i < 0 {
		t.Fatalf("no section %q in\n%s", title, out)
	}
	rest := out[i:]
	if j := strings.Index(rest, "\n\n== "); j >= 0 {
		rest = rest[:j]
	}
	return squash(rest)
}

// The brief's example, end to end through Parquet: three parsed sites, one
// blocks GPTBot by name, one everything by *, one nothing; a 404; a repeat
// capture of the first host that says the opposite; a redirect target at
// another path. Every number below is counted by hand from these bodies.
func TestReportThreeSites(t *testing.T) {
	dir := writeSites(t, []reportSite{
		{"CC-MAIN-2024-33", "https://a.example/robots.txt", 200, "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 5\n", 0},
		{"CC-MAIN-2024-33", "https://b.example/robots.txt", 200, "User-agent: *\nDisallow: /\n", 0},
		{"CC-MAIN-2024-33", "https://c.example/robots.txt", 200, "User-agent: *\nDisallow:\n", 0},
		{"CC-MAIN-2024-33", "https://d.example/robots.txt", 404, "<html>gone</html>", 0},
		{"CC-MAIN-2024-33", "http://a.example/robots.txt", 200, "User-agent: *\nDisallow:\n", 0},
		{"CC-MAIN-2024-33", "https://e.example/other/robots.txt", 200, "User-agent: *\nDisallow: /\n", 0},
	})
	out, errOut, code := run(t, "", "report", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := map[string][]string{
		"Captures and sites": {
			"% of captures read: 6",
			"captures read 6 100.0%",
			"not a site: URL path is not /robots.txt, or no host 1 16.7%",
			"not a site: another capture of a host already counted 1 16.7%",
			"sites 4 66.7%",
		},
		"robots.txt adoption": {
			"% of sites: 4",
			"robots.txt with at least one group 3 75.0%",
			"no robots.txt: 4xx, everything allowed 1 25.0%",
		},
		"AI bots: sites that block them fully (robotstat verdict)": {
			"% of parsed robots.txt: 3",
			"bot operator category full by name by * partial none",
			// a by name, b by *, c not at all
			"GPTBot OpenAI ai-training 2 66.7% 1 33.3% 1 33.3% 0 0.0% 1 33.3%",
			// a's * group keeps it out of /private/ only
			"ClaudeBot Anthropic ai-training 1 33.3% 0 0.0% 1 33.3% 1 33.3% 1 33.3%",
		},
		"Every catalog bot under each definition": {
			"GPTBot ai-training verdict 2 66.7% 1 33.3% 1 33.3% 0 0.0% 1 33.3%",
			"somesite 2 66.7% 1 33.3% 1 33.3% 0 0.0% 1 33.3%",
			"cic 2 66.7% 1 33.3% 1 33.3% 0 0.0% 1 33.3%",
			"cc_class 2 66.7% 1 33.3% 1 33.3% 0 0.0% 1 33.3%",
		},
		"Top named agents: sites whose robots.txt names the product token": {
			"* - - 3 100.0%",
			"gptbot GPTBot ai-training 1 33.3%",
		},
		"Non-standard directives: sites whose robots.txt has the key": {
			"crawl-delay extension crawl-delay 1 33.3%",
		},
		"What parsed robots.txt contain": {
			"* disallows / 1 33.3%",
			"crawl-delay line 1 33.3%",
		},
	}
	for title, lines := range want {
		sec := section(t, out, title)
		have := map[string]bool{}
		for _, l := range strings.Split(sec, "\n") {
			have[strings.TrimSpace(l)] = true
		}
		for _, l := range lines {
			if !have[l] {
				t.Errorf("section %q lacks line %q:\n%s", title, l, sec)
			}
		}
	}
	if !strings.Contains(errOut, "robotstat: read ") {
		t.Errorf("no summary on stderr: %q", errOut)
	}
}

func TestReportErrors(t *testing.T) {
	empty := t.TempDir()
	noParquet := t.TempDir()
	if err := os.MkdirAll(filepath.Join(noParquet, "captures", "crawl=x"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	unranked := writeSites(t, []reportSite{{"c", "https://a.example/robots.txt", 200, "User-agent: *\nDisallow: /\n", 0}})
	try := "Try: robotstat report --help"
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"no_out_dir", []string{"report"}, 2, []string{"need one OUT_DIR", try}},
		{"two_dirs", []string{"report", empty, empty}, 2, []string{"need one OUT_DIR", try}},
		{"missing_dir", []string{"report", filepath.Join(empty, "nope")}, 2, []string{"does not exist; write it with robotstat analyze --out", try}},
		{"a_file", []string{"report", file}, 2, []string{"is not a folder", try}},
		{"not_robotstat_output", []string{"report", empty}, 2, []string{"is not a robotstat output: it has no captures folder", try}},
		{"no_parquet", []string{"report", noParquet}, 2, []string{"holds no Parquet file", try}},
		{"bad_by", []string{"report", unranked, "--by", "host"}, 2, []string{"--by must be crawl or rank", try}},
		{"by_rank_without_ranks", []string{"report", "--by", "rank", unranked}, 2, []string{"no site in", "--sites FILE", try}},
		{"unknown_flag", []string{"report", unranked, "--pdf", "x"}, 2, []string{"-pdf", try}},
		{"html_unwritable", []string{"report", unranked, "--html", filepath.Join(empty, "no", "such", "dir", "r.html")}, 2, []string{"--html"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, code := run(t, "", c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr %q", code, c.code, errOut)
			}
			for _, s := range c.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr %q lacks %q", errOut, s)
				}
			}
		})
	}
}

func TestReportHelp(t *testing.T) {
	out, _, code := run(t, "", "report", "--help")
	if code != 0 || !strings.Contains(out, "robotstat report [flags] OUT_DIR") || !strings.Contains(out, "Exit codes:") || !strings.Contains(out, "-html FILE") {
		t.Errorf("help (exit %d):\n%s", code, out)
	}
	out, _, _ = run(t, "", "help")
	if !strings.Contains(out, "report ") {
		t.Errorf("report missing from robotstat help:\n%s", out)
	}
}

// fixtureDir writes the report fixture once per test binary (it takes
// about a second) into a folder TestMain removes.
var reportFixture struct {
	sync.Mutex
	dir string
}

func fixtureDir(t *testing.T) string {
	t.Helper()
	reportFixture.Lock()
	defer reportFixture.Unlock()
	if reportFixture.dir == "" {
		d, err := os.MkdirTemp("", "robotstat-report-fixture-")
		if err != nil {
			t.Fatal(err)
		}
		writeReportFixture(t, d)
		reportFixture.dir = d
	}
	return reportFixture.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if reportFixture.dir != "" {
		os.RemoveAll(reportFixture.dir)
	}
	os.Exit(code)
}

// TestReportGolden pins the text report of the fixture; run with -update
// after a deliberate change and read the diff. The table of every bot under
// every definition (1,600 lines for four crawls of 101 bots) is cut to its
// first bots: TestReportThreeSites checks its numbers.
func TestReportGolden(t *testing.T) {
	dir := fixtureDir(t)
	out, errOut, code := run(t, "", "report", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	out = strings.ReplaceAll(out, dir, "FIXTURE")
	out = strings.ReplaceAll(out, "robotstat "+Version+",", "robotstat VERSION,") // a release is not a change of format
	if i := strings.Index(out, "== Every catalog bot under each definition =="); i >= 0 {
		end := i + strings.Index(out[i:], "\nnote: ")
		lines := strings.Split(out[i:end], "\n")
		out = out[:i] + strings.Join(lines[:4+3*16], "\n") + "\n[... cut by the test ...]" + out[end:]
	}
	golden := filepath.Join("testdata", "report", "fixture.txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if out != string(want) {
		t.Errorf("report differs from %s (rerun with -update and review the diff):\n%s", golden, firstDiff(out, string(want)))
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got %q\nwant %q", i+1, a, b)
		}
	}
	return ""
}

// The rank columns pool every crawl, so the "all" column must equal the sum
// of the per-crawl columns of the crawl report, row by row: an independent
// check of both groupings against each other.
func TestReportRankAllIsSumOfCrawls(t *testing.T) {
	dir := fixtureDir(t)
	byCrawl, _, code1 := run(t, "", "report", dir)
	byRank, _, code2 := run(t, "", "report", "--by", "rank", dir)
	if code1 != 0 || code2 != 0 {
		t.Fatalf("exit %d, %d", code1, code2)
	}
	crawlTables := parseTextTables(byCrawl)
	rankTables := parseTextTables(byRank)
	checked := 0
	for _, id := range []string{"Captures and sites", "Sites by outcome and HTTP status class", "robots.txt adoption",
		"What parsed robots.txt contain", "Top named agents: sites whose robots.txt names the product token",
		"Non-standard directives: sites whose robots.txt has the key", "Platform templates: parsed robots.txt matching a platform's default"} {
		ct, rt := crawlTables[id], rankTables[id]
		if ct == nil || rt == nil {
			t.Fatalf("table %q missing", id)
		}
		if len(ct.rows) != len(rt.rows) {
			t.Errorf("%s: %d rows by crawl, %d by rank", id, len(ct.rows), len(rt.rows))
			continue
		}
		for i := range ct.rows {
			var sum int64
			for _, c := range ct.rows[i].counts {
				sum += c
			}
			all := rt.rows[i].counts[len(rt.rows[i].counts)-1]
			if sum != all || ct.rows[i].label != rt.rows[i].label {
				t.Errorf("%s row %q: crawls sum to %d, rank 'all' (%q) is %d", id, ct.rows[i].label, sum, rt.rows[i].label, all)
			}
			checked++
		}
	}
	if checked < 30 {
		t.Errorf("only %d rows compared", checked)
	}
}

type textTable struct {
	rows []textRow
}

type textRow struct {
	label  string
	counts []int64
	cells  []string // "count pct" as printed
}

var cellRE = regexp.MustCompile(`(\d[\d,]*) +(-|<0\.1%|>99\.9%|\d+\.\d%)`)

// parseTextTables reads the text report back: for each table (by title),
// its rows' label (the text before the first cell) and cells.
func parseTextTables(out string) map[string]*textTable {
	tables := map[string]*textTable{}
	var cur *textTable
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "== ") && strings.HasSuffix(line, " ==") {
			cur = &textTable{}
			tables[strings.TrimSuffix(strings.TrimPrefix(line, "== "), " ==")] = cur
			continue
		}
		if cur == nil || strings.HasPrefix(line, "%") || strings.HasPrefix(line, "note:") {
			continue
		}
		locs := cellRE.FindAllStringSubmatchIndex(line, -1)
		if len(locs) == 0 {
			continue
		}
		r := textRow{label: strings.TrimSpace(line[:locs[0][0]])}
		for _, l := range locs {
			n := strings.ReplaceAll(line[l[2]:l[3]], ",", "")
			var v int64
			fmt.Sscan(n, &v)
			r.counts = append(r.counts, v)
			r.cells = append(r.cells, line[l[2]:l[3]]+" "+line[l[4]:l[5]])
		}
		cur.rows = append(cur.rows, r)
	}
	return tables
}

// Tables the report reads may be missing (analyze --tables) and other tables
// may hold crawls the captures table lacks: the report says so on stderr
// and counts what it can.
func TestReportPartialData(t *testing.T) {
	dir := writeSites(t, []reportSite{
		{"c1", "https://a.example/robots.txt", 200, "User-agent: GPTBot\nDisallow: /\n", 0},
	})
	if err := os.RemoveAll(filepath.Join(dir, "agents")); err != nil {
		t.Fatal(err)
	}
	src, _ := filepath.Glob(filepath.Join(dir, "bots", "crawl=c1", "*.parquet"))
	orphan := filepath.Join(dir, "bots", "crawl=c2")
	if err := os.MkdirAll(orphan, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(src[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(orphan, "part-x.parquet"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "", "report", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"has no agents table", `bots has crawl "c2" but captures has not`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if sec := section(t, out, "AI bots: sites that block them fully (robotstat verdict)"); !strings.Contains(sec, "GPTBot OpenAI ai-training 1 100.0% 1 100.0%") {
		t.Errorf("the orphan crawl's bots rows were counted:\n%s", sec)
	}
}
