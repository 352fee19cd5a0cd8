package schema_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// TestFilesRollOver checks that a partition goes on in part-<run>-<n>.parquet
// once a file holds FileRowGroups row groups' worth of rows (so parquet-go's
// per-row-group metadata stays bounded on long runs), through the shared and
// the local writers, and that a smaller rerun removes the files it no longer
// writes.
func TestFilesRollOver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(n int) []string {
		ds := create(t, schema.Options{Dir: dir, Tables: []schema.TableName{schema.Captures, schema.Bots},
			RowGroupRows: 10, FileRowGroups: 2})
		rows := schematest.Generate(n)
		var caps []schema.CaptureRow
		for _, c := range rows.Captures {
			c.Crawl = "C"
			caps = append(caps, c)
		}
		for i := 0; i < len(caps); i += 7 { // batches that straddle row groups
			if err := schema.WriterOf[schema.CaptureRow](ds).Write(caps[i:min(i+7, len(caps))]); err != nil {
				t.Fatal(err)
			}
		}
		var bots []schema.BotRow
		for _, b := range rows.BotRows() {
			b.Crawl = "C"
			bots = append(bots, b)
		}
		local := schema.WriterOf[schema.BotRow](ds).Local()
		if err := local.Write(bots); err != nil {
			t.Fatal(err)
		}
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := countRows(t, filepath.Join(dir, "captures")); got != int64(len(caps)) {
			t.Errorf("%d captures rows read back, wrote %d", got, len(caps))
		}
		if got := countRows(t, filepath.Join(dir, "bots")); got != int64(len(bots)) {
			t.Errorf("%d bots rows read back, wrote %d", got, len(bots))
		}
		return walk(t, dir)
	}
	files := write(95)
	// 95 captures rows, 20 per file: 5 files.
	want := []string{"part-run1.parquet", "part-run1-1.parquet", "part-run1-2.parquet", "part-run1-3.parquet", "part-run1-4.parquet"}
	for _, w := range want {
		if !slices.Contains(files, filepath.Join("captures", "crawl=C", w)) {
			t.Errorf("no captures/crawl=C/%s in %v", w, files)
		}
	}
	if slices.Contains(files, filepath.Join("captures", "crawl=C", "part-run1-5.parquet")) {
		t.Errorf("too many files: %v", files)
	}
	// A rerun writing fewer rows replaces: files of the run it no longer
	// writes are removed.
	files = write(25)
	var caps []string
	for _, f := range files {
		if filepath.Dir(f) == filepath.Join("captures", "crawl=C") {
			caps = append(caps, filepath.Base(f))
		}
	}
	if !slices.Equal(caps, []string{"part-run1-1.parquet", "part-run1.parquet"}) {
		t.Errorf("after a smaller rerun captures files are %v", caps)
	}
}
