package reduce_test

import (
	"strings"
	"testing"

	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/schema"
)

// TestSummaryText: a line per crawl with its sites by outcome (every
// outcome, zeros included), then site_history's, or why there is none.
func TestSummaryText(t *testing.T) {
	t.Parallel()
	crawls := []reduce.CrawlSummary{
		{Crawl: "CC-MAIN-2024-33", Date: "2024-08-12", Sites: 3, Captures: 4, ByOutcome: map[string]int64{schema.OutcomeParsed: 2, schema.OutcomeUnresolved: 1}},
		{Sites: 1, Captures: 1, ByOutcome: map[string]int64{schema.OutcomeUnavailable: 1}},
	}
	for _, tc := range []struct {
		name string
		sum  reduce.Summary
		want string
	}{
		{"empty", reduce.Summary{Warnings: []string{"w"}},
			"robotstat: sites: w\nrobotstat: sites: out holds no committed captures\n"},
		{"one_crawl", reduce.Summary{Crawls: crawls[:1]},
			"robotstat: sites of CC-MAIN-2024-33 (2024-08-12): 3 sites from 4 captures: 2 parsed, 0 unavailable, 0 unreachable, 1 unresolved\n" +
				"robotstat: site_history: not built (one crawl; it is built once the dataset holds two)\n"},
		{"history", reduce.Summary{Crawls: crawls, History: &reduce.HistorySummary{Crawls: 2, Hosts: 4, Panel: 1}},
			"robotstat: sites of CC-MAIN-2024-33 (2024-08-12): 3 sites from 4 captures: 2 parsed, 0 unavailable, 0 unreachable, 1 unresolved\n" +
				"robotstat: sites of (unknown crawl) (no date): 1 sites from 1 captures: 0 parsed, 1 unavailable, 0 unreachable, 0 unresolved\n" +
				"robotstat: site_history: 4 hosts over 2 crawls, 1 of them parsed sites in every crawl (the panel of robotstat report --panel)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			tc.sum.WriteText(&b, "out")
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}
