package schema_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/schema"
)

// TestOptionalNulls writes captures whose optional columns are NULL but for
// one row in 37, in batches of 90 (the shape analyze's flushes have), through
// a TableWriter and a LocalWriter, and checks with parquet-go's low-level
// reader that every NULL stays NULL: parquet-go's batched write of optional
// non-pointer fields turns some of them into "" and 0 (see nullsafe.go).
func TestOptionalNulls(t *testing.T) {
	t.Parallel()
	for _, local := range []bool{false, true} {
		ds := create(t, schema.Options{Tables: []schema.TableName{schema.Captures}})
		tw := schema.WriterOf[schema.CaptureRow](ds)
		write := tw.Write
		if local {
			write = tw.Local().Write
		}
		want := 0
		for b := range 300 {
			rows := make([]schema.CaptureRow, 90)
			for i := range rows {
				n := b*90 + i
				rows[i].Key = schema.Key{CaptureID: fmt.Sprintf("%032x", n), Crawl: "c", URL: "u", Host: "h"}
				if n%37 == 0 {
					rows[i].RedirectTarget, rows[i].HTTPStatus, rows[i].Rank = "https://x/", 301, 7
					want++
				}
			}
			if err := write(rows); err != nil {
				t.Fatal(err)
			}
		}
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		files, _ := schema.TableFiles(ds.Root(), schema.Captures)
		f := openFile(t, files[0].Path)
		for _, col := range []string{"redirect_target", "http_status", "rank"} {
			leaf, _ := f.Schema().Lookup(col)
			present := 0
			for _, rg := range f.RowGroups() {
				pages := rg.ColumnChunks()[leaf.ColumnIndex].Pages()
				for {
					p, err := pages.ReadPage()
					if err != nil {
						break
					}
					vals := make([]parquet.Value, p.NumValues())
					n, _ := p.Values().ReadValues(vals)
					for _, v := range vals[:n] {
						if !v.IsNull() {
							present++
						}
					}
				}
				pages.Close()
			}
			if present != want {
				t.Errorf("local=%v %s: %d values present, want %d (the rest NULL)", local, col, present, want)
			}
		}
	}
}
