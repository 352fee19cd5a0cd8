package schema_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// TestSinkRoundTrip writes every table as production code does (captures'
// rows through a Sink, errors and the reduce tables through WriterOf,
// schematest.WriteSink): the same files as TableWriters alone write, and
// the rows of the tables no Batch carries read back as written
// (site_history's files are checked by name: its rows span crawls).
func TestSinkRoundTrip(t *testing.T) {
	t.Parallel()
	rows := schematest.Generate(60)
	want := wantFiles(rows, schema.AllTables(), "run1")
	errs, sites, bots := rows.Errors, rows.Sites, rows.SiteBots
	ds := create(t, schema.Options{Tables: schema.AllTables(), Version: "v0.0.0-test"})
	if err := schematest.WriteSink(ds, rows); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := walk(t, ds.Root()); !reflect.DeepEqual(got, want) {
		t.Fatalf("files on disk:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(errs) == 0 || len(sites) == 0 || len(bots) == 0 {
		t.Fatalf("fixture without errors (%d), sites (%d) or site_bots (%d) rows", len(errs), len(sites), len(bots))
	}
	readBack(t, ds.Root(), schema.Errors, errs, nil)
	readBack(t, ds.Root(), schema.Sites, sites, nil)
	readBack(t, ds.Root(), schema.SiteBots, bots, nil)
}
