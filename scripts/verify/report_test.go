package verify

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readmeQuery returns the ```sql block of the main README whose first line
// is the comment marker, with its paths rooted at root.
func readmeQuery(t *testing.T, marker, root string) string {
	t.Helper()
	for _, q := range parseDocQueries(t, filepath.Join("..", "..", "README.md")) {
		if first, _, _ := strings.Cut(strings.TrimSpace(q.sql), "\n"); strings.HasPrefix(first, marker) {
			return strings.ReplaceAll(strings.TrimSuffix(strings.TrimSpace(q.sql), ";"), "'out/", "'"+root+"/")
		}
	}
	t.Fatalf("README.md has no SQL block starting %q", marker)
	return ""
}

// reportCSV runs robotstat report --csv on root, as a user would, and
// returns the rows of one of its files, header first.
func reportCSV(t *testing.T, root, file string, flags ...string) [][]string {
	t.Helper()
	out := t.TempDir()
	args := append([]string{"run", "./cmd/robotstat", "report", root, "--csv", out}, flags...)
	cmd := exec.Command("go", args...)
	cmd.Dir = filepath.Join("..", "..")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %v: %v\n%s", args, err, b)
	}
	f, err := os.Open(filepath.Join(out, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestReportCSVMatchesSQL runs robotstat report --csv on the embedded
// sample and on the report fixture (four crawls), with and without
// --panel, and requires every row of bots_by_crawl.csv to equal the
// README's query over sites and site_bots, and the other way round.
func TestReportCSVMatchesSQL(t *testing.T) {
	for name, root := range map[string]string{"sample": sampleRoot, "four-crawls": reportFixtureRoot} {
		for _, c := range []struct {
			flag, marker string
		}{{"", "-- bots_by_crawl.csv:"}, {"--panel", "-- bots_by_crawl.csv with --panel:"}} {
			if c.flag == "--panel" && root == sampleRoot {
				continue // one crawl: no site_history, no panel
			}
			t.Run(name+c.flag, func(t *testing.T) {
				var flags []string
				if c.flag != "" {
					flags = append(flags, c.flag)
				}
				recs := reportCSV(t, root, "bots_by_crawl.csv", flags...)
				header, rows := queryWithHeader(t, readmeQuery(t, c.marker, root))
				if strings.Join(recs[0], ",") != strings.Join(header, ",") {
					t.Fatalf("CSV header %v, SQL columns %v", recs[0], header)
				}
				// The counts must be equal; the 95% Wilson score bounds
				// (the columns ending _lo and _hi) agree to the CSV's six
				// decimals. Rows are matched on the other columns.
				bound := make([]bool, len(header))
				for i, h := range header {
					bound[i] = strings.HasSuffix(h, "_lo") || strings.HasSuffix(h, "_hi")
				}
				key := func(r []string) string {
					var k []string
					for i, v := range r {
						if !bound[i] {
							k = append(k, v)
						}
					}
					return strings.Join(k, "|")
				}
				csvRows := map[string][]string{}
				for _, r := range recs[1:] {
					// an empty CSV field is NULL
					for i := range r {
						if r[i] == "" {
							r[i] = "NULL"
						}
					}
					csvRows[key(r)] = r
				}
				if len(csvRows) != len(recs)-1 {
					t.Errorf("%d CSV rows, %d distinct", len(recs)-1, len(csvRows))
				}
				if len(csvRows) != len(rows) {
					t.Errorf("%d CSV rows, %d SQL rows", len(csvRows), len(rows))
				}
				bad, bounds := 0, 0
				for _, r := range rows {
					c, ok := csvRows[key(r)]
					if !ok {
						if bad++; bad <= 5 {
							t.Errorf("SQL row not in the CSV: %v", r)
						}
						continue
					}
					for i := range r {
						if !bound[i] {
							continue
						}
						a, errA := strconv.ParseFloat(c[i], 64)
						b, errB := strconv.ParseFloat(r[i], 64)
						if errA != nil || errB != nil || math.Abs(a-b) > 5e-7 || a < 0 || a > 1 {
							if bad++; bad <= 5 {
								t.Errorf("%s: CSV %s, SQL %s (row %v)", header[i], c[i], r[i], r)
							}
						}
						bounds++
					}
				}
				if bounds < 10*len(rows) {
					t.Errorf("only %d bounds compared over %d rows", bounds, len(rows))
				}
				if len(rows) < 300 {
					t.Errorf("only %d rows compared", len(rows))
				}
				t.Logf("%d rows agree", len(rows))
			})
		}
	}
}

// TestSiteHistorySQLTwin runs scripts/sql/site_history.sql, the table's
// definition over sites and site_bots, against what robotstat sites wrote,
// and requires the same rows, every column, both ways, on the four crawls
// of the report fixture; the datasets of one crawl must have no
// site_history (robotstat sites builds it from two crawls on).
func TestSiteHistorySQLTwin(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "sql", "site_history.sql"))
	if err != nil {
		t.Fatal(err)
	}
	twin := strings.TrimSuffix(strings.TrimSpace(string(b)), ";")
	// One crawl: robotstat sites builds no site_history.
	for _, root := range []string{sampleRoot, sitesFixtureRoot} {
		if _, err := os.Stat(filepath.Join(root, "site_history")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s, of one crawl, has a site_history folder (%v)", root, err)
		}
	}
	for name, root := range map[string]string{"four-crawls": reportFixtureRoot} {
		t.Run(name, func(t *testing.T) {
			with := fmt.Sprintf("WITH sites AS (SELECT * FROM read_parquet('%s/sites/**/*.parquet', hive_partitioning = false)), "+
				"site_bots AS (SELECT * FROM read_parquet('%s/site_bots/**/*.parquet', hive_partitioning = false)) ", root, root)
			twinSQL := with + "SELECT * FROM (" + twin + ")"
			table := fmt.Sprintf("SELECT * FROM read_parquet('%s/site_history/**/*.parquet', hive_partitioning = false)", root)
			n := query(t, "SELECT count(*) FROM ("+table+")")[0][0]
			if got := query(t, "SELECT count(*) FROM ("+twinSQL+")")[0][0]; got != n || n == "0" {
				t.Errorf("site_history has %s rows, the twin %s", n, got)
			}
			for _, q := range []struct{ name, sql string }{
				{"in the table, not in the twin", "(" + table + ") EXCEPT (" + twinSQL + ")"},
				{"in the twin, not in the table", "(" + twinSQL + ") EXCEPT (" + table + ")"},
			} {
				if rows := query(t, "SELECT * FROM ("+q.sql+") ORDER BY host, bot LIMIT 5"); len(rows) > 0 {
					t.Errorf("rows %s (first %d): %v", q.name, len(rows), rows)
				}
			}
			if name == "four-crawls" {
				// the fixture lifts blocks and changes verdicts: the twin is
				// checked on rows that have them
				got := query(t, "SELECT count(*) FILTER (WHERE unblocked_crawl IS NOT NULL), count(*) FILTER (WHERE changes > 1), count(*) FILTER (WHERE NOT panel) FROM ("+table+")")[0]
				for i, what := range []string{"unblocked", "several changes", "outside the panel"} {
					if got[i] == "0" {
						t.Errorf("no row %s in the four-crawl fixture", what)
					}
				}
			}
			t.Logf("%s rows agree", n)
		})
	}
}
