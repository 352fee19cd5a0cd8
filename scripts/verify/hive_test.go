package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHivePartitioningOnOff reads every table of every dataset the tests
// build (the schema fixture, the embedded sample, the report fixture of four
// crawls with its site_history, robotstat panel's) with DuckDB's Hive
// partitioning on and off, and requires the same columns, in the same order
// with the same types, and the same rows (issue 25.5): a notebook that
// keeps DuckDB's or Polars' default reads what one that turns it off reads.
// It is what the partition key equal to the crawl column inside each file
// buys; site_history, which spans crawls, keeps a crawl column that is NULL,
// as its partition (the default one) reads.
func TestHivePartitioningOnOff(t *testing.T) {
	roots := map[string]string{"fixture": fixtureRoot, "sample": sampleRoot, "four-crawls": reportFixtureRoot, "panel": panelRoot}
	read := func(root, table string, hive bool) string {
		return fmt.Sprintf("read_parquet('%s/%s/**/*.parquet', hive_partitioning = %v)", root, table, hive)
	}
	tables, rows := 0, 0
	for name, root := range roots {
		for _, tb := range allTables() {
			if _, err := os.Stat(filepath.Join(root, tb)); err != nil {
				continue // a table this dataset does not write
			}
			files, _ := filepath.Glob(filepath.Join(root, tb, "*", "*.parquet"))
			if len(files) == 0 {
				continue
			}
			tables++
			t.Run(name+"/"+tb, func(t *testing.T) {
				on := query(t, "DESCRIBE SELECT * FROM "+read(root, tb, true))
				off := query(t, "DESCRIBE SELECT * FROM "+read(root, tb, false))
				desc := func(rows [][]string) string {
					var s []string
					for _, r := range rows {
						s = append(s, r[0]+" "+r[1])
					}
					return strings.Join(s, ", ")
				}
				if desc(on) != desc(off) {
					t.Fatalf("columns differ:\n hive on  %s\n hive off %s", desc(on), desc(off))
				}
				// Every value as text (MAP and LIST columns too), compared
				// as multisets both ways.
				q := func(hive bool) string { return "SELECT COLUMNS(*)::VARCHAR FROM " + read(root, tb, hive) }
				diff := query(t, fmt.Sprintf("SELECT (SELECT count(*) FROM (%s EXCEPT ALL %s)), (SELECT count(*) FROM (%s EXCEPT ALL %s)), (SELECT count(*) FROM %s)",
					q(true), q(false), q(false), q(true), read(root, tb, false)))
				if diff[0][0] != "0" || diff[0][1] != "0" {
					t.Errorf("%s rows only with hive partitioning on, %s only with it off (of %s)", diff[0][0], diff[0][1], diff[0][2])
				}
				var n int
				fmt.Sscan(diff[0][2], &n)
				rows += n
			})
		}
	}
	if tables < 20 || rows < 100_000 {
		t.Errorf("only %d tables, %d rows compared", tables, rows)
	}
	t.Logf("%d tables, %d rows read the same with Hive partitioning on and off", tables, rows)
}
