package report

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixtureVersion is the robotstat version the fixture's files say wrote
// them.
const fixtureVersion = "0.1.0"

// renderHTML writes the page of dir (by crawl) to page, as robotstat report
// --html does, and returns the text report printed beside it.
func renderHTML(t *testing.T, dir, page string) string {
	t.Helper()
	d, _, err := Read(context.Background(), dir, TallyOptions{By: ByCrawl})
	if err != nil {
		t.Fatal(err)
	}
	d.Generator = fixtureVersion
	if err := WriteHTMLFile(page, d); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteText(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// readFixture reads dir as robotstat report does.
func readFixture(t *testing.T, dir string, o TallyOptions) *Data {
	t.Helper()
	d, _, err := Read(context.Background(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	d.Generator = fixtureVersion
	return d
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// render returns the text report of dir, as robotstat report prints it.
func render(t *testing.T, dir, by string) string {
	t.Helper()
	d, _, err := Read(context.Background(), dir, TallyOptions{By: by})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteText(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.String()
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
		if _, err := reporttest.Write(d, filepath.Join("..", reporttest.Bodies), fixtureVersion); err != nil {
			t.Fatal(err)
		}
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
// after a deliberate change and read the diff.
func TestReportGolden(t *testing.T) {
	dir := fixtureDir(t)
	out := render(t, dir, ByCrawl)
	out = strings.ReplaceAll(out, dir, "FIXTURE")
	out = strings.ReplaceAll(out, "robotstat "+fixtureVersion+",", "robotstat VERSION,") // a release is not a change of format
	golden := filepath.Join("testdata", "fixture.txt")
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
		t.Errorf("report differs from %s (rerun with -update and review the diff):\n%s", golden, testkit.FirstLineDiff(out, string(want)))
	}
}

// The rank columns pool every crawl, so the "all" column must equal the sum
// of the per-crawl columns of the crawl report, row by row: an independent
// check of both groupings against each other.
func TestReportRankAllIsSumOfCrawls(t *testing.T) {
	dir := fixtureDir(t)
	byCrawl, byRank := render(t, dir, ByCrawl), render(t, dir, ByRank)
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
		ct.rows = slices.DeleteFunc(ct.rows, func(r textRow) bool { return r.label == "captures read" }) // by crawl only
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
	cells  []string // "count pct [lo-hi]" as printed, "!" after a share of n < 100
}

// cellRE is one printed cell: count (with /n when its denominator is not
// the base line's), share, and the 95% interval of a share that has one.
var cellRE = regexp.MustCompile(`(\d[\d,]*(?:/[\d,]+)?) +(-|<0\.1%|>99\.9%|\d+\.\d%)(?: +(\[\d+\.\d-\d+\.\d\](?:!)?))?`)

// parseTextTables reads the text report back: for each table (by title),
// its rows' label (the text before the first cell) and cells.
func parseTextTables(out string) map[string]*textTable {
	tables := map[string]*textTable{}
	var cur *textTable
	for _, line := range strings.Split(out, "\n") {
		if title, ok := strings.CutPrefix(line, "== "); ok && strings.Contains(title, " ==") {
			cur = &textTable{}
			title, _, _ = strings.Cut(title, " ==")
			tables[title] = cur
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
			n, _, _ := strings.Cut(strings.ReplaceAll(line[l[2]:l[3]], ",", ""), "/")
			var v int64
			fmt.Sscan(n, &v)
			r.counts = append(r.counts, v)
			cell := line[l[2]:l[3]] + " " + line[l[4]:l[5]]
			if l[6] >= 0 {
				cell += " " + line[l[6]:l[7]]
			}
			r.cells = append(r.cells, cell)
		}
		cur.rows = append(cur.rows, r)
	}
	return tables
}
