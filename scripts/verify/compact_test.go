package verify

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// TestDuckDBCompacted: DuckDB reads what schema.Compact merged, row for
// row what it read before, in every analyze table (the bots table written
// by schema's own encoder among them), with the partition key, the column
// types and the metadata the inputs shared; and the README's query for
// the committed files of a compacted dataset lists exactly the files left.
func TestDuckDBCompacted(t *testing.T) {
	root := t.TempDir()
	for i := range 8 {
		ds, err := schema.Create(schema.Options{Dir: root, RunID: fmt.Sprintf("in%d", i), Tables: schema.AnalyzeTables(),
			Version: "v0.0.0-verify", Metadata: map[string]string{"parse_limit": "512000"}, RowGroupRows: 64})
		if err != nil {
			t.Fatal(err)
		}
		if err := schematest.WriteSink(ds, schematest.Range(i*40, (i+1)*40)); err != nil {
			t.Fatal(err)
		}
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	tables := schema.AnalyzeTables()
	rowsOf := func(tb schema.TableName) [][]string {
		return query(t, "SELECT * FROM "+glob(root, string(tb))+" ORDER BY ALL")
	}
	describe := func(tb schema.TableName) [][]string {
		return query(t, "DESCRIBE SELECT * FROM "+glob(root, string(tb)))
	}
	before := map[schema.TableName][][]string{}
	types := map[schema.TableName][][]string{}
	for _, tb := range tables {
		before[tb], types[tb] = rowsOf(tb), describe(tb)
	}
	files, _ := filepath.Glob(filepath.Join(root, "captures", "*", "*.parquet"))
	sum, err := schema.Compact(context.Background(), schema.CompactOptions{Dir: root, TargetBytes: 1 << 40, RowGroupRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := filepath.Glob(filepath.Join(root, "captures", "*", "*.parquet"))
	if len(after) != 3 || len(files) != 24 {
		t.Errorf("%d captures files before, %d after; want 24 and one per crawl", len(files), len(after))
	}
	for _, tb := range tables {
		if got := rowsOf(tb); fmt.Sprint(got) != fmt.Sprint(before[tb]) {
			t.Errorf("%s: DuckDB reads %d rows after compact, %d before (or other rows)", tb, len(got), len(before[tb]))
		}
		if len(before[tb]) == 0 && tb != schema.Errors {
			t.Errorf("%s: no rows in the fixture", tb)
		}
		if got := describe(tb); fmt.Sprint(got) != fmt.Sprint(types[tb]) {
			t.Errorf("%s: columns after compact %v, before %v", tb, got, types[tb])
		}
	}
	md := query(t, fmt.Sprintf(`SELECT DISTINCT decode(key), decode(value) FROM parquet_kv_metadata('%s/captures/**/*.parquet')
		WHERE decode(key) LIKE 'robotstat.%%' AND decode(key) <> 'robotstat.crawl' ORDER BY 1`, root))
	want := [][]string{
		{"robotstat.option.parse_limit", "512000"},
		{"robotstat.run_id", sum.RunID},
		{"robotstat.schema_version", schema.SchemaVersion},
		{"robotstat.table", "captures"},
		{"robotstat.version", "v0.0.0-verify"},
	}
	if fmt.Sprint(md) != fmt.Sprint(want) {
		t.Errorf("metadata\n got %v\nwant %v", md, want)
	}
	// The README's query (schema/README.md, "How the files are written").
	listed := query(t, fmt.Sprintf(`WITH r AS (SELECT * FROM read_json('%s/_robotstat/inputs/*.json', columns = {run_id: 'VARCHAR', state: 'VARCHAR',
                 files: 'STRUCT(path VARCHAR, "table" VARCHAR, crawl VARCHAR, "rows" BIGINT)[]',
                 absorbs: 'STRUCT(run_id VARCHAR, committed VARCHAR)[]'}))
		SELECT path FROM (SELECT unnest(files, recursive := true) FROM r
		WHERE state = 'done' AND run_id NOT IN (SELECT unnest(absorbs).run_id FROM r WHERE absorbs IS NOT NULL)) ORDER BY path`, root))
	var got, onDisk []string
	for _, r := range listed {
		got = append(got, r[0])
	}
	all, _ := filepath.Glob(filepath.Join(root, "*", "*", "*.parquet"))
	for _, p := range all {
		rel, _ := filepath.Rel(root, p)
		onDisk = append(onDisk, filepath.ToSlash(rel))
	}
	slices.Sort(onDisk)
	if !slices.Equal(got, onDisk) || !strings.Contains(strings.Join(got, " "), "part-compact-") {
		t.Errorf("the committed files' query lists\n%v\nthe files are\n%v", got, onDisk)
	}
}
