package stats

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/schema"
)

// TestRowsThroughSchemaWriter writes the Analyzer's rows for real files with
// schema's Dataset and reads them back, so that a row the writer cannot
// encode (or encodes differently) shows up here and not in a crawl.
func TestRowsThroughSchemaWriter(t *testing.T) {
	files, _ := filepath.Glob(testkit.Testdata(t, "avuim", "*-robots.txt"))
	o := DefaultOptions()
	o.Tables = schema.AllTables()
	a, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	var rows schema.Batch
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := captureOf(b, []int{200, 404, 503, 301}[i%4])
		c.Offset = int64(i)
		a.Analyze(c, &rows)
	}
	dir := t.TempDir()
	ds, err := schema.Create(schema.Options{Dir: dir, RunID: "run1", Tables: schema.AllTables(), Version: "test", Metadata: o.Metadata()})
	if err != nil {
		t.Fatal(err)
	}
	written := rows // Write resets rows; the copy keeps the slices and their memory
	if err := ds.Sink().Write(&written); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	part := func(table string) string {
		m, _ := filepath.Glob(filepath.Join(dir, table, "crawl=CC-MAIN-2025-08", "part-run1.*.parquet"))
		if len(m) != 1 {
			t.Fatalf("%s: %d files of run1, want 1", table, len(m))
		}
		return m[0]
	}
	caps, err := parquet.ReadFile[schema.CaptureRow](part("captures"))
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != len(rows.Captures) {
		t.Fatalf("%d captures back, wrote %d", len(caps), len(rows.Captures))
	}
	for i := range caps {
		if caps[i].CaptureID != rows.Captures[i].CaptureID || caps[i].Template != rows.Captures[i].Template || caps[i].Lines != rows.Captures[i].Lines {
			t.Errorf("capture %d differs", i)
		}
	}
	bots, err := parquet.ReadFile[schema.BotRow](part("bots"))
	if err != nil {
		t.Fatal(err)
	}
	wantBots := rows.BotRows()
	if len(bots) != len(wantBots) {
		t.Fatalf("%d bots back, wrote %d", len(bots), len(wantBots))
	}
	for i := range bots {
		w, g := wantBots[i], bots[i]
		if g.Verdict != w.Verdict || g.CCClass != w.CCClass || (g.RootAllowed == nil) != (w.RootAllowed == nil) ||
			g.RootAllowed != nil && *g.RootAllowed != *w.RootAllowed {
			t.Fatalf("bot row %d: wrote %+v read %+v", i, w, g)
		}
	}
	dirs, err := parquet.ReadFile[schema.DirectiveRow](part("directives"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range dirs {
		if len(dirs[i].Signals) != len(rows.Directives[i].Signals) {
			t.Errorf("directive %q signals %d, wrote %d", dirs[i].Directive, len(dirs[i].Signals), len(rows.Directives[i].Signals))
		}
	}
	groups, err := parquet.ReadFile[schema.GroupRow](part("groups"))
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != len(rows.Groups) || !reflect.DeepEqual(groups[0].UserAgents, rows.Groups[0].UserAgents) {
		t.Errorf("groups differ")
	}
}
