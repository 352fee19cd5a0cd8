package schema_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// create returns a dataset rooted in a fresh directory, aborted at the end
// of the test unless committed.
func create(t *testing.T, o schema.Options) *schema.Dataset {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	if o.RunID == "" {
		o.RunID = "run1"
	}
	ds, err := schema.Create(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := ds.Abort(); err != nil {
			t.Error(err)
		}
	})
	return ds
}

// commitPart matches the commit's part of a file name (partName), which
// differs on every commit; tests compare names without it.
var commitPart = regexp.MustCompile(`\.[0-9a-f]{8}((-[0-9]+)?\.parquet)`)

// plain returns a file name or path without its commit part.
func plain(p string) string { return commitPart.ReplaceAllString(p, "$1") }

// plainAll is plain of every path.
func plainAll(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = plain(p)
	}
	return out
}

// partFile returns the one file of run run in folder dir (the name holds
// the commit part no test can know).
func partFile(t testing.TB, dir, run string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "part-"+run+".*.parquet"))
	if len(m) != 1 {
		t.Fatalf("%d files of run %s in %s", len(m), run, dir)
	}
	return m[0]
}

// walk returns every file under root, relative, sorted, without their commit
// part; hidden temporary files included, completion records not.
func walk(t *testing.T, root string) []string {
	t.Helper()
	return plainAll(walkNames(t, root))
}

// walkNames is walk with the names as they are on disk.
func walkNames(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			if !strings.HasPrefix(filepath.ToSlash(rel), schema.RecordDir+"/") { // completion records: TestRecord
				files = append(files, rel)
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// partition returns the folder of a fixture crawl's partition (fixture
// crawls need no escaping).
func partition(crawl string) string {
	if crawl == "" {
		return "crawl=" + schema.DefaultPartition
	}
	return "crawl=" + crawl
}

// wantFiles returns the files a committed fixture dataset must hold.
func wantFiles(rows *schematest.Rows, tables []schema.TableName, run string) []string {
	var want []string
	for _, tb := range tables {
		crawls := map[string]bool{}
		schematest.ForEachKey(rows, tb, func(k schema.Key) { crawls[k.Crawl] = true })
		for c := range crawls {
			want = append(want, filepath.Join(string(tb), partition(c), "part-"+run+".parquet"))
		}
	}
	sort.Strings(want)
	return want
}

// readBack reads every file of table with parquet-go and checks that each
// crawl's file holds exactly that crawl's rows, in order. norm, if not
// nil, maps both sides to a form that compares equal.
func readBack[T schema.Row](t *testing.T, root string, table schema.TableName, want []T, norm func(*T)) {
	t.Helper()
	if norm == nil {
		norm = func(*T) {}
	}
	byCrawl := map[string][]T{}
	for _, r := range want {
		norm(&r)
		crawl := reflect.ValueOf(r).FieldByName("Crawl").String() // of the embedded Key
		byCrawl[crawl] = append(byCrawl[crawl], r)
	}
	for crawl, rows := range byCrawl {
		dir := partition(crawl)
		got, err := parquet.ReadFile[T](partFile(t, filepath.Join(root, string(table), dir), "run1"))
		if err != nil {
			t.Fatalf("%s %s: %v", table, dir, err)
		}
		for i := range got {
			norm(&got[i])
		}
		if len(got) != len(rows) {
			t.Fatalf("%s %s: %d rows, want %d", table, dir, len(got), len(rows))
		}
		for i := range rows {
			if !reflect.DeepEqual(got[i], rows[i]) {
				t.Fatalf("%s %s row %d:\n got %+v\nwant %+v", table, dir, i, got[i], rows[i])
			}
		}
	}
}

func normCapture(c *schema.CaptureRow) {
	if !c.FetchTime.IsZero() {
		c.FetchTime = c.FetchTime.UTC()
	}
}

// normList maps nil to empty: a required LIST has no NULL, and parquet-go
// reads an empty list back as nil.
func normList(s *[]string) {
	if len(*s) == 0 {
		*s = nil
	}
}

func TestDatasetRoundTrip(t *testing.T) {
	t.Parallel()
	rows := schematest.Generate(90)
	ds := create(t, schema.Options{Tables: schema.AllTables(), Version: "v0.0.0-test"})
	if err := schematest.Write(ds, rows, 7); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	root := ds.Root()
	want := wantFiles(rows, schema.AllTables(), "run1")
	if got := walk(t, root); !reflect.DeepEqual(got, want) {
		t.Fatalf("files on disk:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := plainAll(ds.Files()); !reflect.DeepEqual(got, want) {
		t.Fatalf("Files() = %v, want %v", got, want)
	}

	readBack(t, root, schema.Captures, rows.Captures, normCapture)
	readBack(t, root, schema.Groups, rows.Groups, func(r *schema.GroupRow) {
		normList(&r.UserAgents)
		normList(&r.ProductTokens)
		normList(&r.OtherDirectives)
	})
	readBack(t, root, schema.Agents, rows.Agents, nil)
	readBack(t, root, schema.Bots, rows.BotRows(), nil)
	readBack(t, root, schema.Directives, rows.Directives, nil)
	readBack(t, root, schema.Rules, rows.Rules, nil)
	readBack(t, root, schema.Sitemaps, rows.Sitemaps, nil)
	readBack(t, root, schema.Diagnostics, rows.Diagnostics, nil)
}

func TestFileMetadata(t *testing.T) {
	t.Parallel()
	ds := create(t, schema.Options{Version: "v1.2.3", Metadata: map[string]string{"parse_limit": "512000", "bots": "catalog-v1"}})
	if err := schema.WriterOf[schema.CaptureRow](ds).Write([]schema.CaptureRow{schematest.Capture(0)}); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	f := openFile(t, partFile(t, filepath.Join(ds.Root(), "captures", "crawl=CC-MAIN-2024-33"), "run1"))
	want := map[string]string{
		schema.MetaVersion:                      "v1.2.3",
		schema.MetaSchemaVersion:                schema.SchemaVersion,
		schema.MetaTable:                        "captures",
		schema.MetaCrawl:                        "CC-MAIN-2024-33",
		schema.MetaRunID:                        "run1",
		schema.MetaOptionPrefix + "parse_limit": "512000",
		schema.MetaOptionPrefix + "bots":        "catalog-v1",
	}
	for k, v := range want {
		if got, ok := f.Lookup(k); !ok || got != v {
			t.Errorf("metadata %s = %q, %v; want %q", k, got, ok, v)
		}
	}
	if cb := f.Metadata().CreatedBy; !strings.HasPrefix(cb, "robotstat version v1.2.3") {
		t.Errorf("created_by = %q", cb)
	}
}

func openFile(t *testing.T, path string) *parquet.File {
	t.Helper()
	osf, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { osf.Close() })
	st, err := osf.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(osf, st.Size())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

func TestRerunReplaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rows := schematest.Generate(30)
	commit := func(run string, rows *schematest.Rows) {
		t.Helper()
		ds := create(t, schema.Options{Dir: dir, RunID: run})
		if err := schematest.Write(ds, rows, 0); err != nil {
			t.Fatal(err)
		}
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	commit("run1", rows)
	first := walk(t, dir)
	commit("run1", rows)
	if again := walk(t, dir); !reflect.DeepEqual(again, first) {
		t.Fatalf("rerun changed the file set:\n%v\nwant\n%v", again, first)
	}

	// The same run id with fewer crawls (a rerun after a change of input
	// handling) must not leave the earlier run's other partitions behind.
	one := &schematest.Rows{}
	for _, c := range rows.Captures {
		if c.Crawl == schematest.Crawls[0] {
			one.Captures = append(one.Captures, c)
		}
	}
	commit("run1", one)
	want := []string{}
	for _, tb := range schema.DefaultTables() {
		want = append(want, filepath.Join(string(tb), "crawl="+schematest.Crawls[0], "part-run1.parquet"))
	}
	sort.Strings(want)
	if got := walk(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("after rerun with one crawl:\n%v\nwant\n%v", got, want)
	}
	if n := countRows(t, filepath.Join(dir, "captures")); n != int64(len(one.Captures)) {
		t.Fatalf("captures hold %d rows, want %d", n, len(one.Captures))
	}

	// Another run id adds beside.
	commit("run2", rows)
	if n := countRows(t, filepath.Join(dir, "captures")); n != int64(len(one.Captures)+len(rows.Captures)) {
		t.Fatalf("captures hold %d rows after a second run id, want %d", n, len(one.Captures)+len(rows.Captures))
	}
}

// countRows sums the row counts of the *.parquet files under dir.
func countRows(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	for _, p := range walkNames(t, dir) {
		if strings.HasSuffix(p, ".parquet") && !strings.HasPrefix(filepath.Base(p), ".") {
			n += openFile(t, filepath.Join(dir, p)).NumRows()
		}
	}
	return n
}

func TestEmptyTables(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		captures  []schema.CaptureRow
		wantCrawl string
	}{
		{name: "no_rows_at_all", wantCrawl: "crawl=" + schema.DefaultPartition},
		{name: "known_crawl_preferred", captures: []schema.CaptureRow{schematest.Capture(2), schematest.Capture(1)}, wantCrawl: "crawl=" + schematest.Crawls[1]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := create(t, schema.Options{Tables: schema.AllTables()})
			if err := schema.WriterOf[schema.CaptureRow](ds).Write(tt.captures); err != nil {
				t.Fatal(err)
			}
			if err := ds.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			for _, tb := range schema.AllTables()[1:] {
				p := partFile(t, filepath.Join(ds.Root(), string(tb), tt.wantCrawl), "run1")
				if n := openFile(t, p).NumRows(); n != 0 {
					t.Errorf("%s: %d rows, want 0", p, n)
				}
			}
		})
	}
}

func TestDisabledTableDiscards(t *testing.T) {
	t.Parallel()
	ds := create(t, schema.Options{})
	r := schema.WriterOf[schema.RuleRow](ds)
	if r.Enabled() || r.Name() != "" || r.Rows() != 0 {
		t.Fatalf("rules table enabled by default")
	}
	if err := r.Write([]schema.RuleRow{{Line: 1}}); err != nil {
		t.Fatalf("Write on a disabled table: %v", err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ds.Root(), "rules")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("disabled table has a folder: %v", err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	const workers, perWorker = 4, 120
	ds := create(t, schema.Options{Tables: schema.AllTables(), RowGroupRows: 50})
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = schematest.Write(ds, schematest.Range(w*perWorker, (w+1)*perWorker), 16)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	total := schematest.Generate(workers * perWorker)
	for _, tb := range schema.AllTables() {
		if got, want := countRows(t, filepath.Join(ds.Root(), string(tb))), int64(schematest.Count(total, tb)); got != want {
			t.Errorf("%s: %d rows, want %d", tb, got, want)
		}
	}
}

func TestBatchReusedAfterWrite(t *testing.T) {
	t.Parallel()
	ds := create(t, schema.Options{})
	batch := []schema.GroupRow{{Key: schematest.Key(0), UserAgents: []string{"GPTBot", "CCBot"}, ProductTokens: []string{"gptbot", "ccbot"}}}
	want := batch[0]
	want.UserAgents = slices.Clone(want.UserAgents)
	want.ProductTokens = slices.Clone(want.ProductTokens)
	if err := schema.WriterOf[schema.GroupRow](ds).Write(batch); err != nil {
		t.Fatal(err)
	}
	// A caller reuses its batch and scratch slices at once.
	batch[0].UserAgents[0], batch[0].ProductTokens[1] = "overwritten", "overwritten"
	batch[0] = schema.GroupRow{Key: schematest.Key(3)}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.ReadFile[schema.GroupRow](partFile(t, filepath.Join(ds.Root(), "groups", "crawl="+schematest.Crawls[0]), "run1"))
	if err != nil {
		t.Fatal(err)
	}
	normList(&want.OtherDirectives)
	normList(&got[0].OtherDirectives)
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestClosedDataset(t *testing.T) {
	t.Parallel()
	ds := create(t, schema.Options{})
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := schema.WriterOf[schema.CaptureRow](ds).Write([]schema.CaptureRow{schematest.Capture(0)}); !errors.Is(err, schema.ErrClosed) {
		t.Errorf("Write after Commit = %v, want ErrClosed", err)
	}
	if err := ds.Commit(context.Background()); !errors.Is(err, schema.ErrClosed) {
		t.Errorf("second Commit = %v, want ErrClosed", err)
	}
	if err := ds.Abort(); err != nil {
		t.Errorf("Abort after Commit = %v, want nil", err)
	}
}

func TestRowGroups(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		opts       schema.Options
		rows       int
		wantGroups int // exact when > 0
		minGroups  int
	}{
		{name: "by_rows", opts: schema.Options{RowGroupRows: 100}, rows: 1000, wantGroups: 10},
		{name: "by_bytes", opts: schema.Options{RowGroupBytes: 64 << 10}, rows: 5000, minGroups: 3},
		{name: "default_one_group", rows: 1000, wantGroups: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := create(t, tt.opts)
			rows := make([]schema.CaptureRow, tt.rows)
			for i := range rows {
				rows[i] = schematest.Capture(i * len(schematest.Crawls)) // all in the first crawl
			}
			if err := schematest.WriteBatches(schema.WriterOf[schema.CaptureRow](ds), rows, 100); err != nil {
				t.Fatal(err)
			}
			if err := ds.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			f := openFile(t, partFile(t, filepath.Join(ds.Root(), "captures", "crawl="+schematest.Crawls[0]), "run1"))
			n := len(f.RowGroups())
			if f.NumRows() != int64(tt.rows) {
				t.Fatalf("%d rows, want %d", f.NumRows(), tt.rows)
			}
			if tt.wantGroups > 0 && n != tt.wantGroups || n < tt.minGroups {
				t.Fatalf("%d row groups, want %d (at least %d)", n, tt.wantGroups, tt.minGroups)
			}
		})
	}
}
