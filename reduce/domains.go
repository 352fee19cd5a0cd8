package reduce

import (
	"sort"

	"github.com/robotstat/robotstat/schema"
)

// The domains table: one row per crawl and registered domain, naming the
// site that stands for the domain (schema.DomainRow has the rule). Stage C
// puts each site that has a registered domain into the domains spill, by
// its domain's partition, so that a domain's sites, which stage C met in
// the partitions of their hosts, come together; writeDomains then takes
// the partitions one at a time, so that it holds one partition's sites at
// most, as every other stage.

// domainRec is a site as the domains table needs it.
type domainRec struct {
	regdom, host string
	rank         int64 // 0 when unranked
}

func (r *domainRec) appendTo(b []byte) []byte {
	return enc(b).str(r.regdom).str(r.host).int(r.rank)
}

func (r *domainRec) decode(b []byte) error {
	d := dec{b: b}
	*r = domainRec{regdom: d.str(), host: d.str(), rank: d.int()}
	return d.done()
}

// domainTier is the first key of the rule: the registered domain's own
// host, then its www. host, then the others.
func domainTier(r *domainRec) int {
	switch {
	case r.host == r.regdom:
		return 0
	case len(r.host) == len(r.regdom)+4 && r.host[:4] == "www." && r.host[4:] == r.regdom:
		return 1
	}
	return 2
}

// standsBefore reports whether site a stands for its domain rather than
// site b of the same domain: by tier, then ranked before unranked, then
// the smaller rank, then the host in byte order. Every tie is broken (two
// sites of a crawl never share a host), so the choice does not depend on
// the order of the rows.
func standsBefore(a, b *domainRec) bool {
	if ta, tb := domainTier(a), domainTier(b); ta != tb {
		return ta < tb
	}
	if (a.rank > 0) != (b.rank > 0) {
		return a.rank > 0
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.host < b.host
}

// domainSink takes the domains rows: a *writer.
type domainSink interface {
	domain(schema.DomainRow) error
}

// writeDomains writes the domains rows of the crawl from the domains
// spill, partition by partition, each partition's domains in byte order.
// The partitions are the steps of a loop (parallel.go): each reads and
// sorts its own, and its rows reach out in partition order, through one
// writer, so that the table's row groups are as full as one stream makes
// them (a partition holds a few thousand domains of a small crawl).
func (c *crawlRun) writeDomains(doms *spill, out domainSink) (int64, error) {
	var n int64
	err := c.steps(int(c.parts), nil, func(p int, o *stepOut) error {
		var rows domainRows
		_, err := domainsOf(p, c.crawl, c.date, doms, &rows)
		o.apply = func() error {
			for _, r := range rows {
				if err := out.domain(r); err != nil {
					return err
				}
			}
			n += int64(len(rows))
			return nil
		}
		return err
	}, nil)
	return n, err
}

// domainRows holds a step's domains rows until they are applied.
type domainRows []schema.DomainRow

func (d *domainRows) domain(r schema.DomainRow) error {
	*d = append(*d, r)
	return nil
}

// domainsOf writes the domains rows of partition p of doms to out and
// returns how many.
func domainsOf(p int, crawl string, date int32, doms *spill, out domainSink) (int64, error) {
	var n int64
	var list []domainRec
	var r domainRec
	if err := doms.read(p, &r, func() error { list = append(list, r); return nil }); err != nil {
		return n, err
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].regdom != list[j].regdom {
			return list[i].regdom < list[j].regdom
		}
		return standsBefore(&list[i], &list[j])
	})
	for i := 0; i < len(list); {
		j := i + 1
		for j < len(list) && list[j].regdom == list[i].regdom {
			j++
		}
		if err := out.domain(schema.DomainRow{Crawl: crawl, CrawlDate: date, RegisteredDomain: list[i].regdom,
			Host: list[i].host, Hosts: int32(j - i)}); err != nil {
			return n, err
		}
		n++
		i = j
	}
	return n, nil
}
