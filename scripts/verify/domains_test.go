package verify

import (
	"fmt"
	"testing"
)

// TestDomainsSQLTwin runs the README's roll-up of sites to registered
// domains against the domains table robotstat sites wrote, on the sample,
// the four crawls of the report fixture and robotstat panel's dataset, and
// requires the same rows both ways (issue 25.6).
func TestDomainsSQLTwin(t *testing.T) {
	total, multi := 0, 0
	for name, root := range map[string]string{"sample": sampleRoot, "four-crawls": reportFixtureRoot, "panel": panelRoot} {
		t.Run(name, func(t *testing.T) {
			sqlQ := readmeQuery(t, "-- domains:", root)
			table := fmt.Sprintf("SELECT crawl, crawl_date, registered_domain, host, hosts FROM read_parquet('%s/domains/**/*.parquet', hive_partitioning = true)", root)
			got := query(t, fmt.Sprintf(`SELECT (SELECT count(*) FROM (%[1]s EXCEPT ALL SELECT * FROM (%[2]s))),
				(SELECT count(*) FROM (SELECT * FROM (%[2]s) EXCEPT ALL %[1]s)),
				(SELECT count(*) FROM (%[1]s)),
				(SELECT count(*) FROM (%[1]s) WHERE hosts > 1)`, table, sqlQ))
			if got[0][0] != "0" || got[0][1] != "0" {
				t.Errorf("%s rows only in the table, %s only in the SQL", got[0][0], got[0][1])
			}
			var n, m int
			fmt.Sscan(got[0][2], &n)
			fmt.Sscan(got[0][3], &m)
			total, multi = total+n, multi+m
			t.Logf("%d domains agree, %d of them with more than one host", n, m)
		})
	}
	if total < 1000 || multi == 0 {
		t.Errorf("only %d domains compared, %d with several hosts", total, multi)
	}
}
