package report

import (
	"slices"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// TestNotes: a missing table names the command that writes it; a dataset
// of one crawl lacks site_history by design, and is told so; warnings
// name the folder.
func TestNotes(t *testing.T) {
	t.Parallel()
	d := Data{Report: &Report{Crawls: make([]string, 1)}, Missing: []schema.TableName{schema.Signals, schema.SiteBots, schema.SiteHistory}, Warnings: []string{"3 rows not counted"}}
	want := []string{
		"out has no signals table; what the report reads from it is empty (robotstat analyze writes it; versions before schema 2 did not)",
		"out has no site_bots table; what the report reads from it is empty (robotstat sites out builds it)",
		"out holds one crawl: no site_history table, which robotstat sites builds once the dataset holds two (analyze another crawl into out); the report's panel and first-block cohorts are empty",
		"out: 3 rows not counted",
	}
	if got := d.Notes("out"); !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	d.Report.Crawls = make([]string, 2)
	if got := d.Notes("out")[2]; got != "out has no site_history table; what the report reads from it is empty (robotstat sites out builds it)" {
		t.Errorf("two crawls: %q", got)
	}
}

// TestColumnsBy: --by domain is columns by crawl counting domains.
func TestColumnsBy(t *testing.T) {
	t.Parallel()
	for by, want := range map[string]TallyOptions{
		ByCrawl:  {By: ByCrawl},
		ByRank:   {By: ByRank},
		ByDomain: {By: ByCrawl, Domains: true},
	} {
		if got, err := ColumnsBy(by); err != nil || got.By != want.By || got.Domains != want.Domains {
			t.Errorf("%s: %+v, %v", by, got, err)
		}
	}
	if _, err := ColumnsBy("site"); err == nil {
		t.Error("--by site accepted")
	}
}
