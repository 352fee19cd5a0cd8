package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSitesSQLTwin runs scripts/sql/sites.sql, the sites table's definition
// in DuckDB SQL over the captures table, against the output of robotstat
// analyze (whose sites step is package reduce, in Go) and requires the same
// rows, every column, both ways: on the embedded sample, on the sites
// fixture (one host per rule: redirects across hosts and paths, relative
// Locations, loops, five and six redirects, targets never captured, 503
// then 200, http against https, ...) and on a generated Common-Crawl-shaped
// crawl.
func TestSitesSQLTwin(t *testing.T) {
	sql, err := os.ReadFile(filepath.Join("..", "sql", "sites.sql"))
	if err != nil {
		t.Fatal(err)
	}
	twin := strings.TrimSuffix(strings.TrimSpace(string(sql)), ";")
	for name, root := range map[string]string{"sample": sampleRoot, "sites-fixture": sitesFixtureRoot, "generated": generatedRoot} {
		t.Run(name, func(t *testing.T) {
			captures := "read_parquet('" + root + "/captures/**/*.parquet')"
			sites := "SELECT * FROM read_parquet('" + root + "/sites/**/*.parquet')"
			withCaptures := "WITH captures AS (SELECT * FROM " + captures + ") "
			// the twin's WITH RECURSIVE follows; DuckDB takes a relation
			// named captures from an outer CTE.
			twinSQL := withCaptures + "SELECT * FROM (" + twin + ")"
			n := query(t, "SELECT count(*) FROM ("+twinSQL+")")[0][0]
			if n == "0" {
				t.Fatal("the twin returns no rows")
			}
			if got := query(t, "SELECT count(*) FROM ("+sites+")")[0][0]; got != n {
				t.Errorf("sites table has %s rows, the twin %s", got, n)
			}
			for _, q := range []struct{ name, sql string }{
				{"in the table, not in the twin", "(" + sites + ") EXCEPT (" + twinSQL + ")"},
				{"in the twin, not in the table", "(" + twinSQL + ") EXCEPT (" + sites + ")"},
			} {
				rows := query(t, "SELECT * FROM ("+q.sql+") ORDER BY host LIMIT 5")
				if len(rows) > 0 {
					t.Errorf("rows %s (first %d): %v", q.name, len(rows), rows)
				}
			}
			t.Logf("%s sites agree", n)
		})
	}
}
