package runs_test

import (
	"strings"
	"testing"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
)

// TestStatusText: the counts, then each input not done (a panel's
// coverage first), the damaged files, the conflicts, the leftovers and
// what to run.
func TestStatusText(t *testing.T) {
	t.Parallel()
	st := runs.Status{Dir: "out", Sites: "out of date",
		Counts: map[string]int{schema.RecordDone: 2, schema.RecordFailed: 1, runs.StatePartial: 1, runs.StateLeft: 1, runs.StateDamaged: 1},
		Inputs: []runs.InputStatus{
			{Input: "a", State: schema.RecordDone, Panel: &pipeline.Coverage{Crawl: "CC-MAIN-2024-33", Listed: 3, Found: 2, NotCaptured: 1}},
			{Input: "b", State: schema.RecordFailed, Error: "EOF"},
			{Input: "c", State: runs.StatePartial, Error: "cut", Captures: 7},
			{Input: "d", State: runs.StateLeft},
			{Input: "e", State: runs.StateDamaged, Error: "a file is missing"},
		},
		Damaged:   []runs.Damage{{Path: "captures/x.parquet", Why: "missing", Redo: "robotstat analyze ..."}},
		Conflicts: []string{"r1"},
		Leftovers: &schema.Leftovers{Temps: 1, Unnamed: 2, Absorbed: 1, Examples: []string{"x", "y", "z"}},
	}
	var b strings.Builder
	st.WriteText(&b)
	want := "out: 2 inputs done, 1 failed, 1 partial, 1 left, 1 damaged; sites out of date\n" +
		"panel    CC-MAIN-2024-33: 2 found, 1 not captured, 0 failed of 3 listed hosts\n" +
		"failed   b: EOF (0 captures kept)\n" +
		"partial  c: cut (7 captures kept)\n" +
		"left     d\n" +
		"damaged  e: a file is missing\n" +
		"damaged  captures/x.parquet: missing: robotstat analyze ...\n" +
		"conflict: 1 run committed again after robotstat compact merged its rows, which are now in two places (r1); readers refuse out: analyze the inputs into a fresh --out\n" +
		"leftovers: 4 files a killed (or running) robotstat left: 2 that no record names and 1 of runs robotstat compact merged, which a query that globs *.parquet reads beside the committed files (robotstat's readers skip them), and 1 hidden temporary (x, y, z, ...); the next robotstat analyze, sites or compact into out removes them\n" +
		"rerun the analyze command to read the inputs failed, partial and left; done ones are skipped\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	(&runs.Status{Dir: "out", Sites: "up to date", Counts: map[string]int{schema.RecordDone: 1}}).WriteText(&b)
	if want := "out: 1 inputs done, 0 failed, 0 partial, 0 left; sites up to date\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
