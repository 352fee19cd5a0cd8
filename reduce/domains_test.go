package reduce_test

import (
	"reflect"
	"testing"

	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/reduce/reducetest"
	"github.com/robotstat/robotstat/schema"
)

// The domains table's rule (schema.DomainRow), case by case, counted by
// hand: the registered domain's own host first, then its www. host, then
// the best rank (ranked before unranked), then the first host in byte
// order; an IP address has no registered domain and no row. What a site
// answered does not matter (b.org's www. host answers 404 and still
// stands for it). Small partitions spread the domains' hosts over many.
func TestDomains(t *testing.T) {
	site := func(host string, status int, rank int64) reducetest.Site {
		return reducetest.Site{Host: host, Rank: rank, Fetches: []reducetest.Fetch{{URL: "https://" + host + "/robots.txt", Status: status, Body: "User-agent: *\nDisallow:\n"}}}
	}
	sites := []reducetest.Site{
		site("a.example.com", 200, 1), site("example.com", 200, 0), site("www.example.com", 200, 0), // apex, despite a.'s rank
		site("x.b.org", 200, 5), site("www.b.org", 404, 0), // www., despite x.'s rank and its own 404
		site("a.c.net", 200, 50), site("b.c.net", 200, 10), site("z.c.net", 200, 0), // the best rank
		site("q.d.io", 200, 0), site("p.d.io", 200, 0), // the first host
		site("wwwd.io.example", 200, 0), // a domain of one host: itself
		site("192.0.2.7", 200, 0),       // no registered domain
	}
	for _, parts := range []int{0, 40} { // the default partitions, and a few sites each
		dir, sum := build(t, reduce.Options{PartitionCaptures: parts}, crawlOf{name: "CC-MAIN-2024-33", sites: sites})
		got := map[string]schema.DomainRow{}
		for _, r := range reducetest.ReadTable[schema.DomainRow](t, dir, schema.Domains) {
			if _, dup := got[r.RegisteredDomain]; dup {
				t.Errorf("two rows for %s", r.RegisteredDomain)
			}
			got[r.RegisteredDomain] = r
		}
		date := sitesByHost(t, dir, "CC-MAIN-2024-33")["example.com"].CrawlDate
		row := func(dom, host string, hosts int32) schema.DomainRow {
			return schema.DomainRow{Crawl: "CC-MAIN-2024-33", CrawlDate: date, RegisteredDomain: dom, Host: host, Hosts: hosts}
		}
		want := map[string]schema.DomainRow{
			"example.com": row("example.com", "example.com", 3),
			"b.org":       row("b.org", "www.b.org", 2),
			"c.net":       row("c.net", "b.c.net", 3),
			"d.io":        row("d.io", "p.d.io", 2),
			"io.example":  row("io.example", "wwwd.io.example", 1),
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("partition captures %d: domains\n got %v\nwant %v", parts, got, want)
		}
		if n := sum.Crawls[0].Domains; n != int64(len(want)) {
			t.Errorf("summary says %d domains", n)
		}
	}
}
