package runs_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/reduce"
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

// TestSitesAfter: a run builds the sites tables unless it is a shard,
// committed nothing into an up-to-date dataset, wrote no captures table,
// or the dataset holds no captures; each but the third says why.
func TestSitesAfter(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := runs.Analyze(context.Background(), config(dir), fixtures(t)[:1]); err != nil {
		t.Fatal(err)
	}
	noCaptures := []schema.TableName{schema.Groups}
	for _, tc := range []struct {
		name   string
		r      runs.Result
		tables []schema.TableName
		build  bool
		note   string
	}{
		{"built", runs.Result{Dir: dir, Committed: 1}, nil, true, ""},
		{"shard", runs.Result{Dir: dir, Committed: 1, Shard: "0/2"}, nil, false, "sharded run: once every shard is done, run: robotstat sites " + dir},
		{"no_captures_table", runs.Result{Dir: dir, Committed: 1}, noCaptures, false, ""},
		{"no_captures", runs.Result{Dir: empty, Committed: 1}, nil, false, "sites: not built: " + empty + " holds no captures"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if build, note := tc.r.SitesAfter(tc.tables); build != tc.build || note != tc.note {
				t.Errorf("%v %q, want %v %q", build, note, tc.build, tc.note)
			}
		})
	}
	if _, err := reduce.Sites(context.Background(), reduce.Options{Dir: dir, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	r := runs.Result{Dir: dir}
	if build, note := r.SitesAfter(nil); build || note != "sites: up to date (built after every input in "+dir+")" {
		t.Errorf("nothing committed, sites built: %v %q", build, note)
	}
	r.Committed = 1
	if build, _ := r.SitesAfter(nil); !build {
		t.Error("an input committed: not built again")
	}
}
