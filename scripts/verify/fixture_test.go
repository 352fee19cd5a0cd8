package verify

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// fixtureCaptures is the size of the fixture dataset. 300 captures give
// every table rows in every crawl partition.
const fixtureCaptures = 300

var (
	// fixtureRoot is the root of a dataset holding schematest.Generate(
	// fixtureCaptures) in every table, written with fixtureOptions.
	fixtureRoot string
	fixture     = schematest.Generate(fixtureCaptures)
	// escapeRoot holds captures whose crawl names need escaping.
	escapeRoot string
	// sampleRoot is what the README's first command writes: robotstat
	// analyze on the embedded sample, run as a real process.
	sampleRoot string
	// sampleAllRoot is the same with --tables all.
	sampleAllRoot string
	// sitesFixtureRoot is analyze's output for testdata/sites, and
	// generatedRoot for a Common-Crawl-shaped crawl from scripts/gencorpus.
	sitesFixtureRoot, generatedRoot string
	// reportFixtureRoot is the report fixture: four crawls of 400 sites
	// (report/reporttest), through the real analyzer and reduce step.
	reportFixtureRoot string
	// panelRoot is robotstat panel of testdata/panel-sites.csv over the
	// sites fixture laid out as a crawl with its URL index
	// (scripts/ccmirror), as the README's worked example runs it.
	panelRoot string
)

// escapeCrawls are crawl names that cannot be used as directory names as
// they are.
var escapeCrawls = []string{"my crawl/2024", "kraul-ü", "100%", "a+b=c", "..", "__HIVE_DEFAULT_PARTITION__"}

var fixtureOptions = schema.Options{
	RunID:    "fixture",
	Tables:   schema.AllTables(),
	Version:  "v0.0.0-verify",
	Metadata: map[string]string{"parse_limit": "512000", "bots": "fixture-catalog"},
	// Small row groups so that files hold several.
	RowGroupRows: 64,
}

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	tmp, err := os.MkdirTemp("", "robotstat-verify-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)

	fixtureRoot = tmp + "/fixture"
	o := fixtureOptions
	o.Dir = fixtureRoot
	if err := writeDataset(o, fixture); err != nil {
		return 0, err
	}

	escapeRoot = tmp + "/escape"
	rows := &schematest.Rows{}
	for i, crawl := range escapeCrawls {
		c := schematest.Capture(i)
		c.Crawl = crawl
		rows.Captures = append(rows.Captures, c)
	}
	if err := writeDataset(schema.Options{Dir: escapeRoot, RunID: "escape", Tables: []schema.TableName{schema.Captures}}, rows); err != nil {
		return 0, err
	}
	sampleRoot = tmp + "/sample"
	// Built in the main module (whose go.sum covers the command), exactly as
	// the README runs it.
	cmd := exec.Command("go", "run", "./cmd/robotstat", "analyze", "--quiet", "--out", sampleRoot)
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("robotstat analyze on the sample: %v\n%s", err, out)
	}
	// Every table, the opt-in bots among them (written by schema's own
	// encoder), for the readers' checks.
	sampleAllRoot = tmp + "/sample-all"
	cmd = exec.Command("go", "run", "./cmd/robotstat", "analyze", "--quiet", "--tables", "all", "--out", sampleAllRoot)
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("robotstat analyze --tables all on the sample: %v\n%s", err, out)
	}
	sitesFixtureRoot, generatedRoot, reportFixtureRoot = tmp+"/sites-fixture", tmp+"/generated", tmp+"/report-fixture"
	panelRoot = tmp + "/panel"
	for _, args := range [][]string{
		{"run", "./scripts/ccmirror", "-crawl", "CC-MAIN-2025-05", "-out", tmp + "/cc", "testdata/sites"},
		{"run", "./cmd/robotstat", "panel", "--quiet", "--cc-base", tmp + "/cc", "--out", panelRoot, "scripts/verify/testdata/panel-sites.csv", "CC-MAIN-2025-05"},
		{"run", "./scripts/reportfixture", reportFixtureRoot},
		{"run", "./cmd/robotstat", "analyze", "--quiet", "--out", sitesFixtureRoot, "testdata/sites"},
		{"run", "./scripts/gencorpus", "-n", "20000", "-per-file", "7000", "-out", tmp + "/corpus", "-robots", "testdata/avuim"},
		{"run", "./cmd/robotstat", "analyze", "--quiet", "--out", generatedRoot, tmp + "/corpus"},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("go %v: %v\n%s", args, err, out)
		}
	}
	return m.Run(), nil
}

func writeDataset(o schema.Options, rows *schematest.Rows) error {
	ds, err := schema.Create(o)
	if err != nil {
		return err
	}
	defer ds.Abort()
	if err := schematest.Write(ds, rows, 50); err != nil {
		return err
	}
	return ds.Commit(context.Background())
}

// crawlCounts returns how many rows of table t each crawl has in rows.
func crawlCounts(rows *schematest.Rows, t schema.TableName) map[string]int {
	m := map[string]int{}
	schematest.ForEachKey(rows, t, func(k schema.Key) { m[k.Crawl]++ })
	return m
}

// partition returns the directory name of crawl's partition.
func partition(crawl string) string {
	if crawl == "" {
		return "crawl=" + schema.DefaultPartition
	}
	return "crawl=" + crawl // fixture crawls need no escaping
}
