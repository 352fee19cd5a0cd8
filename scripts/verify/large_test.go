package verify

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// TestLargeFile reads a file big enough to take the writer's less common
// paths: several default-sized row groups, and string columns whose
// dictionary outgrows its limit and continue with plain pages.
func TestLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 150k rows")
	}
	const n = 150_000
	root := t.TempDir()
	ds, err := schema.Create(schema.Options{Dir: root, RunID: "large", Tables: []schema.TableName{schema.Captures}})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Abort()
	batch := make([]schema.CaptureRow, 0, 1000)
	var urlBytes int64
	for i := range n {
		c := schematest.Capture(i * len(schematest.Crawls)) // one crawl, one file
		urlBytes += int64(len(c.URL))
		batch = append(batch, c)
		if len(batch) == cap(batch) {
			if err := schema.WriterOf[schema.CaptureRow](ds).Write(batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	rel := partOf(t, root, "captures", schematest.Crawls[0], "large")

	f := openArrow(t, root, rel)
	if f.data.NumRows() != n {
		t.Fatalf("Arrow reads %d rows, want %d", f.data.NumRows(), n)
	}
	md := f.rdr.MetaData()
	if md.NumRowGroups() < 2 {
		t.Errorf("%d row groups, want several", md.NumRowGroups())
	}
	fellBack := false
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		for c := range rg.NumColumns() {
			cc, _ := rg.ColumnChunk(c)
			if cc.PathInSchema().String() != "url" {
				continue
			}
			for _, s := range cc.EncodingStats() {
				// A dictionary page (page type 2) holds PLAIN values too; a
				// PLAIN data page means the column fell back.
				if s.Encoding == parquet.Encodings.Plain && s.PageType != 2 {
					fellBack = true
				}
			}
		}
	}
	if !fellBack {
		t.Errorf("url never fell back to plain pages: the test no longer covers the fallback")
	}
	var arrowURLBytes int64
	urls := column(t, f.data, "url").(*array.String)
	for i := range urls.Len() {
		arrowURLBytes += int64(len(urls.Value(i)))
		if want := schematest.Key(i * len(schematest.Crawls)).URL; i%9973 == 0 && urls.Value(i) != want {
			t.Fatalf("row %d: url %q, want %q", i, urls.Value(i), want)
		}
	}
	if arrowURLBytes != urlBytes {
		t.Errorf("Arrow reads %d bytes of urls, want %d", arrowURLBytes, urlBytes)
	}

	got := query(t, fmt.Sprintf("SELECT count(*), count(DISTINCT capture_id), sum(length(url)) FROM read_parquet('%s/captures/**/*.parquet', hive_partitioning = true)", root))
	if want := fmt.Sprint([]any{n, n, urlBytes}); fmt.Sprint(got[0]) != want {
		t.Errorf("DuckDB: %v, want %s", got[0], want)
	}
}

// TestEmptyTables opens tables that received no rows: each is one
// zero-row file that DuckDB can describe and count.
func TestEmptyTables(t *testing.T) {
	root := t.TempDir()
	rows := &schematest.Rows{Batch: schema.Batch{Captures: schematest.Generate(3).Captures}}
	if err := writeDataset(schema.Options{Dir: root, RunID: "empty", Tables: schema.AllTables()}, rows); err != nil {
		t.Fatal(err)
	}
	doc := docSchema(t)
	for _, tb := range allTables()[1:] {
		got := query(t, "SELECT count(*) FROM "+glob(root, tb))
		if got[0][0] != "0" {
			t.Errorf("%s: %s rows, want 0", tb, got[0][0])
		}
		if cols := query(t, "DESCRIBE SELECT * FROM "+glob(root, tb)); len(cols) != len(doc[tb]) {
			t.Errorf("%s: DuckDB sees %d columns in the empty table, want %d", tb, len(cols), len(doc[tb]))
		}
	}
}
