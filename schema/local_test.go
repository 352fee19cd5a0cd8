package schema_test

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// TestLocalWriters writes every table from several goroutines, each with
// its own LocalWriters, plus some rows through the shared TableWriter, with
// small row groups so that many are shipped (and the last ones by Commit),
// and reads back exactly the rows written, in full row groups but the last
// few of each file.
func TestLocalWriters(t *testing.T) {
	t.Parallel()
	const workers, perWorker, rowGroup = 3, 150, 50
	ds := create(t, schema.Options{Tables: schema.AllTables(), RowGroupRows: rowGroup})
	var wg sync.WaitGroup
	errs := make([]error, workers+1)
	for w := range workers {
		wg.Go(func() {
			r := schematest.Range(w*perWorker, (w+1)*perWorker)
			errs[w] = errors.Join(
				schematest.WriteBatches(schema.WriterOf[schema.CaptureRow](ds).Local(), r.Captures, 7),
				schematest.WriteBatches(schema.WriterOf[schema.GroupRow](ds).Local(), r.Groups, 7),
				schematest.WriteBatches(schema.WriterOf[schema.AgentRow](ds).Local(), r.Agents, 7),
				schematest.WriteBatches(schema.WriterOf[schema.BotRow](ds).Local(), r.BotRows(), 16),
				schematest.WriteBatches(schema.WriterOf[schema.DirectiveRow](ds).Local(), r.Directives, 7),
				schematest.WriteBatches(schema.WriterOf[schema.SignalRow](ds).Local(), r.SignalRows, 7),
				schematest.WriteBatches(schema.WriterOf[schema.RuleRow](ds).Local(), r.Rules, 7),
				schematest.WriteBatches(schema.WriterOf[schema.SitemapRow](ds).Local(), r.Sitemaps, 7),
				schematest.WriteBatches(schema.WriterOf[schema.DiagnosticRow](ds).Local(), r.Diagnostics, 7),
				schematest.WriteBatches(schema.WriterOf[schema.VerdictsRow](ds).Local(), r.Verdicts, 7),
				schematest.WriteBatches(schema.WriterOf[schema.ErrorRow](ds).Local(), r.Errors, 7),
				schematest.WriteBatches(schema.WriterOf[schema.SiteRow](ds).Local(), r.Sites, 7),
				schematest.WriteBatches(schema.WriterOf[schema.SiteBotRow](ds).Local(), r.SiteBots, 7),
				schematest.WriteBatches(schema.WriterOf[schema.SiteHistoryRow](ds).Local(), r.SiteHistory, 7),
				schematest.WriteBatches(schema.WriterOf[schema.DomainRow](ds).Local(), r.Domains, 7),
			)
		})
	}
	wg.Go(func() {
		errs[workers] = schematest.Write(ds, schematest.Range(workers*perWorker, (workers+1)*perWorker), 16)
	})
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	total := schematest.Generate((workers + 1) * perWorker)
	if got, want := schema.WriterOf[schema.BotRow](ds).Rows(), int64(len(total.BotRows())); got != want {
		t.Errorf("Bots().Rows() = %d before Commit, want %d", got, want)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, tb := range schema.AllTables() {
		if got, want := countRows(t, filepath.Join(ds.Root(), string(tb))), int64(schematest.Count(total, tb)); got != want {
			t.Errorf("%s: %d rows, want %d", tb, got, want)
		}
	}
	// Contents, independent of the order in which row groups arrived.
	caps := readTable[schema.CaptureRow](t, ds)
	want := slices.Clone(total.Captures)
	byID := func(a, b schema.CaptureRow) int { return cmp.Compare(a.CaptureID, b.CaptureID) }
	slices.SortFunc(caps, byID)
	slices.SortFunc(want, byID)
	if len(caps) != len(want) {
		t.Fatalf("%d captures rows back, want %d", len(caps), len(want))
	}
	for i := range caps {
		caps[i].FetchTime, want[i].FetchTime = caps[i].FetchTime.UTC(), want[i].FetchTime.UTC()
		if !reflect.DeepEqual(caps[i], want[i]) {
			t.Fatalf("captures row %d:\n got %+v\nwant %+v", i, caps[i], want[i])
		}
	}
	bots := readTable[schema.BotRow](t, ds)
	wantBots := total.BotRows()
	byBot := func(a, b schema.BotRow) int {
		return cmp.Or(cmp.Compare(a.CaptureID, b.CaptureID), cmp.Compare(a.Bot, b.Bot))
	}
	slices.SortFunc(bots, byBot)
	slices.SortFunc(wantBots, byBot)
	if !reflect.DeepEqual(bots, wantBots) {
		t.Errorf("bots rows differ from those written")
	}
	// Row groups: full, but for at most one per writer (workers' last ones
	// and the shared TableWriter's).
	for _, p := range walkNames(t, filepath.Join(ds.Root(), "bots")) {
		f := openFile(t, filepath.Join(ds.Root(), "bots", p))
		partial := 0
		for _, rg := range f.RowGroups() {
			if rg.NumRows() > rowGroup {
				t.Errorf("%s: row group of %d rows, limit %d", p, rg.NumRows(), rowGroup)
			}
			if rg.NumRows() < rowGroup {
				partial++
			}
		}
		if partial > workers+1 {
			t.Errorf("%s: %d partial row groups of %d, want at most %d", p, partial, len(f.RowGroups()), workers+1)
		}
	}
}

// readTable reads every committed file of the table of T.
func readTable[T schema.Row](t *testing.T, ds *schema.Dataset) []T {
	t.Helper()
	var rows []T
	for _, f := range ds.Files() {
		var zero T
		if !strings.HasPrefix(f, tableOf(zero)+string(filepath.Separator)) {
			continue
		}
		got, err := parquet.ReadFile[T](filepath.Join(ds.Root(), f))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, got...)
	}
	return rows
}

func tableOf(row any) string {
	switch row.(type) {
	case schema.CaptureRow:
		return string(schema.Captures)
	case schema.BotRow:
		return string(schema.Bots)
	case schema.SiteBotRow:
		return string(schema.SiteBots)
	case schema.GroupRow:
		return string(schema.Groups)
	case schema.DirectiveRow:
		return string(schema.Directives)
	case schema.SiteHistoryRow:
		return string(schema.SiteHistory)
	}
	panic("tableOf: add the row type")
}

// TestLocalWriterNil: a table that is not written hands out nil
// LocalWriters, which discard rows.
func TestLocalWriterNil(t *testing.T) {
	t.Parallel()
	ds := create(t, schema.Options{Tables: []schema.TableName{schema.Captures}})
	l := schema.WriterOf[schema.RuleRow](ds).Local()
	if l != nil {
		t.Fatal("Local of a disabled table is not nil")
	}
	if err := l.Write([]schema.RuleRow{{Key: schematest.Key(0)}}); err != nil {
		t.Error(err)
	}
	if err := l.Flush(); err != nil {
		t.Error(err)
	}
}
