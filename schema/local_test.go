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

// TestLocalWriterDictionaryOverflow: with a dictionary limit the captures'
// urls pass within a row group (parquet-go checks it at each page, of some
// 16k rows' dictionary indexes), the workers' row groups cannot be copied
// into the shared file verbatim and become files of their own. The rows
// are exactly those written, every file is a readable Parquet file whose
// metadata names its table, and the completion record names every file
// with its rows.
func TestLocalWriterDictionaryOverflow(t *testing.T) {
	const workers, perWorker, rowGroup = 2, 45_000, 20_000
	ds := create(t, schema.Options{RowGroupRows: rowGroup, DictionaryBytes: 512})
	const crawl = "CC-MAIN-2024-33" // one partition: every row group fills
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Go(func() {
			caps := schematest.Range(w*perWorker, (w+1)*perWorker).Captures
			for i := range caps {
				caps[i].Crawl = crawl
			}
			errs[w] = schematest.WriteBatches(schema.WriterOf[schema.CaptureRow](ds).Local(), caps, 97)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	names := walkNames(t, filepath.Join(ds.Root(), "captures"))
	// Each worker's full row groups (two of 20k of its 45k rows) are
	// files of their own, beside the file its last row groups went to.
	if min := 1 + workers*(perWorker/rowGroup); len(names) < min {
		t.Errorf("captures: %d files %v, want at least %d (a row group whose dictionary overflowed is a file of its own)", len(names), names, min)
	}
	var fileRows int64
	for _, n := range names {
		f := openFile(t, filepath.Join(ds.Root(), "captures", n))
		if v, _ := f.Lookup(schema.MetaTable); v != string(schema.Captures) {
			t.Errorf("%s: metadata robotstat.table = %q, want captures", n, v)
		}
		fileRows += f.NumRows()
	}
	if fileRows != workers*perWorker {
		t.Errorf("captures files hold %d rows, want %d", fileRows, workers*perWorker)
	}
	caps := readTable[schema.CaptureRow](t, ds)
	want := schematest.Generate(workers * perWorker).Captures
	for i := range want {
		want[i].Crawl = crawl
	}
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
	var recorded int64
	for _, rt := range ds.Rows() {
		if rt.Table == schema.Captures {
			recorded = rt.Rows
		}
	}
	if recorded != workers*perWorker {
		t.Errorf("Rows() says %d captures rows, want %d", recorded, workers*perWorker)
	}
}

// TestHeldRelease: a Held LocalWriter hands nothing to the table until
// Release, and row groups released one writer after the other reach the
// file in that order whatever order the writers were filled and sealed in
// (robotstat sites' steps: encoded at once, released in partition order).
func TestHeldRelease(t *testing.T) {
	const writers, each, rowGroup = 3, 120, 50
	ds := create(t, schema.Options{RowGroupRows: rowGroup})
	tw := schema.WriterOf[schema.CaptureRow](ds)
	const crawl = "CC-MAIN-2024-33"
	all := schematest.Range(0, writers*each).Captures
	for i := range all {
		all[i].Crawl = crawl
	}
	held := make([]*schema.LocalWriter[schema.CaptureRow], writers)
	for w := writers - 1; w >= 0; w-- { // filled and sealed last to first
		held[w] = tw.Held()
		if err := schematest.WriteBatches(held[w], all[w*each:(w+1)*each], 7); err != nil {
			t.Fatal(err)
		}
		if err := held[w].Seal(); err != nil {
			t.Fatal(err)
		}
	}
	for w := range held {
		if err := held[w].Release(); err != nil {
			t.Fatal(err)
		}
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := readTable[schema.CaptureRow](t, ds)
	if len(got) != len(all) {
		t.Fatalf("%d rows back, want %d", len(got), len(all))
	}
	for i := range got {
		if got[i].CaptureID != all[i].CaptureID {
			t.Fatalf("row %d is capture %s, want %s: released row groups out of order", i, got[i].CaptureID, all[i].CaptureID)
		}
	}
}

// TestHeldNotCommitted: rows of a Held LocalWriter that is never released
// are neither committed (Commit ships the Local ones only) nor counted;
// released without Seal, its row groups are encoded by Release.
func TestHeldNotCommitted(t *testing.T) {
	ds := create(t, schema.Options{})
	h := schema.WriterOf[schema.CaptureRow](ds).Held()
	if err := schematest.WriteBatches(h, schematest.Range(0, 10).Captures, 3); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := readTable[schema.CaptureRow](t, ds); len(got) != 0 {
		t.Errorf("%d rows committed from a Held writer never released, want 0", len(got))
	}
	for _, rt := range ds.Rows() {
		if rt.Table == schema.Captures && rt.Rows != 0 {
			t.Errorf("Rows() counts %d captures rows of a Held writer never released, want 0", rt.Rows)
		}
	}

	ds = create(t, schema.Options{})
	h = schema.WriterOf[schema.CaptureRow](ds).Held()
	if err := schematest.WriteBatches(h, schematest.Range(0, 10).Captures, 3); err != nil {
		t.Fatal(err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := readTable[schema.CaptureRow](t, ds); len(got) != 10 {
		t.Errorf("%d rows committed from a Held writer released without Seal, want 10", len(got))
	}
	for _, rt := range ds.Rows() {
		if rt.Table == schema.Captures && rt.Rows != 10 {
			t.Errorf("Rows() counts %d captures rows once released, want 10", rt.Rows)
		}
	}
}
