package reduce_test

import (
	"cmp"
	"reflect"
	"slices"
	"testing"

	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/reduce/reducetest"
	"github.com/robotstat/robotstat/schema"
)

// tables are the three tables of a dataset's reduce, each in one order.
type tables struct {
	sites   []schema.SiteRow
	bots    []schema.SiteBotRow
	history []schema.SiteHistoryRow
}

func readTables(t *testing.T, dir string) tables {
	t.Helper()
	// Rows come partition by partition: compare them in one order.
	tb := tables{reducetest.ReadTable[schema.SiteRow](t, dir, schema.Sites), reducetest.ReadTable[schema.SiteBotRow](t, dir, schema.SiteBots),
		reducetest.ReadTable[schema.SiteHistoryRow](t, dir, schema.SiteHistory)}
	slices.SortFunc(tb.sites, func(x, y schema.SiteRow) int {
		return cmp.Or(cmp.Compare(x.Crawl, y.Crawl), cmp.Compare(x.Host, y.Host))
	})
	slices.SortFunc(tb.bots, func(x, y schema.SiteBotRow) int {
		return cmp.Or(cmp.Compare(x.Crawl, y.Crawl), cmp.Compare(x.Host, y.Host), cmp.Compare(x.Bot, y.Bot))
	})
	slices.SortFunc(tb.history, func(x, y schema.SiteHistoryRow) int {
		return cmp.Or(cmp.Compare(x.Host, y.Host), cmp.Compare(x.Bot, y.Bot))
	})
	return tb
}

// threeCrawls is a dataset of three crawls, so that site_history is built:
// the fixture, the rules, and some of the fixture's hosts again in a crawl
// dated by its fetch times.
var threeCrawls = []crawlOf{
	{name: reducetest.Crawl, sites: reducetest.Sites},
	{name: "CC-MAIN-2025-08", sites: rules},
	{name: "my-scan", sites: reducetest.Sites[:8]},
}

// TestSitesPartitions: the number of partitions the reduce spills to
// changes no row of sites, site_bots or site_history: 1, 2 and 7
// partitions of the fixture's crawl (the other crawls take as many
// captures a partition), where redirects to other hosts, a host's
// candidates and their answers, an answer's verdicts and a host's history
// across crawls cross partitions.
func TestSitesPartitions(t *testing.T) {
	t.Parallel()
	captures := 0
	for _, s := range reducetest.Sites {
		captures += len(s.Fetches)
	}
	// each: the captures a partition that give the fixture's crawl p
	// partitions.
	each := func(p int) int {
		for n := 1; n <= captures; n++ {
			if reduce.PartitionsFor(int64(captures), int64(n), reduce.MaxPartitions) == p {
				return n
			}
		}
		t.Fatalf("no partition size gives %d partitions of %d captures", p, captures)
		return 0
	}
	dir, _ := build(t, reduce.Options{PartitionCaptures: each(1)}, threeCrawls...)
	want := readTables(t, dir)
	if len(want.sites) < 40 || len(want.bots) < 50*len(want.sites) || len(want.history) < len(want.bots)/3 {
		t.Fatalf("%d sites, %d site_bots, %d site_history rows: the inputs did not make it", len(want.sites), len(want.bots), len(want.history))
	}
	for _, n := range []int{each(2), each(7)} {
		if _, err := reduce.Sites(t.Context(), reduce.Options{Dir: dir, Version: "test", PartitionCaptures: n}); err != nil {
			t.Fatal(err)
		}
		got := readTables(t, dir)
		if !reflect.DeepEqual(got.sites, want.sites) {
			t.Errorf("%d captures a partition: the sites rows differ", n)
		}
		if !reflect.DeepEqual(got.bots, want.bots) {
			t.Errorf("%d captures a partition: the site_bots rows differ", n)
		}
		if !reflect.DeepEqual(got.history, want.history) {
			t.Errorf("%d captures a partition: the site_history rows differ", n)
		}
	}
}

// TestSitesInputOrder: which run a capture was committed in (the order
// Sites reads them in) changes no row.
func TestSitesInputOrder(t *testing.T) {
	t.Parallel()
	swapped := make([]crawlOf, len(threeCrawls))
	for i, c := range threeCrawls {
		swapped[i] = crawlOf{name: c.name}
		for _, s := range c.sites {
			s.Fetches = slices.Clone(s.Fetches)
			for k := range s.Fetches {
				s.Fetches[k].File = 1 - s.Fetches[k].File
			}
			swapped[i].sites = append(swapped[i].sites, s)
		}
		slices.Reverse(swapped[i].sites)
	}
	a, _ := build(t, reduce.Options{}, threeCrawls...)
	b, _ := build(t, reduce.Options{}, swapped...)
	if x, y := readTables(t, a), readTables(t, b); !reflect.DeepEqual(x, y) {
		t.Errorf("the rows differ when the captures are read in another order")
	}
}

// TestSitesWorkers: resolving partitions at once changes no row of sites,
// site_bots, site_history or domains, nor their order, nor the summary: 1, 2 and 7
// workers over 7 partitions of the fixture's crawl (and of the others),
// where every step's records go to other partitions.
func TestSitesWorkers(t *testing.T) {
	t.Parallel()
	captures := 0
	for _, s := range reducetest.Sites {
		captures += len(s.Fetches)
	}
	n := 1
	for ; n <= captures && reduce.PartitionsFor(int64(captures), int64(n), reduce.MaxPartitions) != 7; n++ {
	}
	dir, want := build(t, reduce.Options{PartitionCaptures: n, Workers: 1}, threeCrawls...)
	unsorted := func() tables {
		return tables{reducetest.ReadTable[schema.SiteRow](t, dir, schema.Sites), reducetest.ReadTable[schema.SiteBotRow](t, dir, schema.SiteBots),
			reducetest.ReadTable[schema.SiteHistoryRow](t, dir, schema.SiteHistory)}
	}
	wantRows := unsorted()
	wantDomains := reducetest.ReadTable[schema.DomainRow](t, dir, schema.Domains)
	if len(wantDomains) == 0 {
		t.Fatal("no domains rows: the inputs did not make them")
	}
	if len(wantRows.sites) < 40 || len(wantRows.bots) < 50*len(wantRows.sites) || len(wantRows.history) < len(wantRows.bots)/3 {
		t.Fatalf("%d sites, %d site_bots, %d site_history rows: the inputs did not make it", len(wantRows.sites), len(wantRows.bots), len(wantRows.history))
	}
	for _, w := range []int{2, 7} {
		got, err := reduce.Sites(t.Context(), reduce.Options{Dir: dir, Version: "test", PartitionCaptures: n, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers: summary %+v, want %+v", w, got, want)
		}
		rows := unsorted()
		if !reflect.DeepEqual(rows.sites, wantRows.sites) {
			t.Errorf("%d workers: the sites rows differ", w)
		}
		if !reflect.DeepEqual(rows.bots, wantRows.bots) {
			t.Errorf("%d workers: the site_bots rows differ", w)
		}
		if !reflect.DeepEqual(rows.history, wantRows.history) {
			t.Errorf("%d workers: the site_history rows differ", w)
		}
		if got := reducetest.ReadTable[schema.DomainRow](t, dir, schema.Domains); !reflect.DeepEqual(got, wantDomains) {
			t.Errorf("%d workers: the domains rows differ", w)
		}
	}
}
