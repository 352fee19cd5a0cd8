package reduce

import (
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/robotstat/robotstat/schema"
)

// candidate is one capture of a host's /robots.txt and what it resolved
// to.
type candidate struct {
	candidateRec
	res result
}

// preferable reports whether candidate a gives the site a better answer
// than b: the better result class, then https before http, then the later
// fetch, then the smaller capture id. (Hops do not count: two candidates
// that both reach a parsed file are ranked by their own fetch.)
func preferable(a, b *candidate) bool {
	if a.res.class != b.res.class {
		return a.res.class < b.res.class
	}
	if a.https != b.https {
		return a.https
	}
	if a.fetch != b.fetch {
		return a.fetch > b.fetch
	}
	return string(a.id[:]) < string(b.id[:])
}

// resolveSites is stage C: it resolves each candidate (its own answer, or
// where its redirect leads: the answer to its request in creqs from res,
// the last layer of resolveTargets), picks each host's best and writes the
// sites rows, and returns the spill of site requests (siteRequest) for
// site_bots, by the answer's partition (a site without an answer by its
// host's). It counts the sites into cs, and removes creqs once answered.
func (c *crawlRun) resolveSites(cands, creqs, res, doms *spill, cs *CrawlSummary) (*spill, error) {
	sp, err := c.newSpills("candidate-answers", "sites")
	if err != nil {
		return nil, err
	}
	cans, sites := sp[0], sp[1]
	err = c.steps(int(c.parts), []*spill{cans}, func(q int, o *stepOut) error {
		return answerCandidates(q, res, creqs, o.sinks[0])
	}, nil)
	if err != nil {
		return nil, err
	}
	if err := removeSpills(creqs); err != nil {
		return nil, err
	}
	pick := sitePicker{crawl: c.crawl, date: c.date, parts: c.parts}
	err = c.steps(int(c.parts), []*spill{sites, doms}, func(p int, o *stepOut) error {
		var err error
		o.n.sites, err = pick.sites(p, cands, cans, o.rows, o.sinks[0], o.sinks[1])
		return err
	}, func(_ int, got stepCounts) {
		n := got.sites
		cs.Sites += n.sites
		for class, k := range n.byClass {
			if k > 0 {
				cs.ByOutcome[classOutcome[class]] += k
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return sites, nil
}

// answerCandidates answers the candRequests of partition q from res, the
// last layer of resolveTargets, each to the candidate's partition of cans.
func answerCandidates(q int, res, creqs *spill, cans sink) error {
	layer, err := loadResults(res, q)
	if err != nil {
		return err
	}
	var req candRequest
	var ans candAnswer
	return creqs.read(q, &req, func() error {
		ans = candAnswer{index: req.index, res: reached(layer, req.target)}
		return cans.put(req.from, &ans)
	})
}

// siteCounts counts the sites of a partition by class.
type siteCounts struct {
	sites   int64
	byClass [classUnresolved + 1]int64
}

// sitePicker picks the sites of a crawl, one partition at a time. It is a
// value that its steps do not change.
type sitePicker struct {
	crawl string
	date  int32
	parts partitioner
}

// rowSink takes the rows the steps make: a *writer.
type rowSink interface {
	site(schema.SiteRow) error
	siteBots(schema.BotsBlock) error
	historyRow(schema.SiteHistoryRow) error
}

// sites writes the sites rows of the hosts of partition p: each host's
// candidates, resolved by their answers (cans), and the best of them. It
// puts each site's siteRequest in the answer's partition of reqs (the
// host's when the site has no answer), each site that has a registered
// domain in its domain's partition of doms (domains.go), and counts the
// sites.
func (k sitePicker) sites(p int, cands, cans *spill, rows rowSink, reqs, doms sink) (siteCounts, error) {
	var n siteCounts
	list, err := resolvedCandidates(p, cands, cans)
	if err != nil {
		return n, err
	}
	// By host, each host's candidates together: the best first.
	order := make([]int, len(list))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool {
		a, b := &list[order[x]], &list[order[y]]
		if a.host != b.host {
			return a.host < b.host
		}
		return preferable(a, b)
	})
	var req siteRequest
	for x := 0; x < len(order); {
		best := &list[order[x]]
		y := x + 1
		for y < len(order) && list[order[y]].host == best.host {
			y++
		}
		row := siteRow(k.crawl, best, int32(y-x))
		row.CrawlDate = k.date
		n.sites++
		n.byClass[best.res.class]++
		if err := rows.site(row); err != nil {
			return n, err
		}
		if best.regdom != "" {
			if err := doms.put(k.parts.of(best.regdom), &domainRec{regdom: best.regdom, host: best.host, rank: best.rank}); err != nil {
				return n, err
			}
		}
		req = siteRequest{host: best.host, regdom: best.regdom, class: best.res.class, rank: best.rank}
		q := k.parts.of(best.host)
		if a := best.res.ans; a != nil {
			req.hasAns, req.id = true, a.id
			q = k.parts.ofID(&a.id)
		}
		if err := reqs.put(q, &req); err != nil {
			return n, err
		}
		x = y
	}
	return n, nil
}

// resolvedCandidates reads the candidates of partition p and gives each
// its result: its own answer, no-location for a 3xx without a Location,
// or the answer to its candRequest.
func resolvedCandidates(p int, cands, cans *spill) ([]candidate, error) {
	var list []candidate
	var k candidateRec
	if err := cands.read(p, &k, func() error {
		c := candidate{candidateRec: k}
		switch {
		case k.class != classRedirect:
			c.res = k.answer()
		case k.target == "":
			c.res = resultNoLocation
		}
		list = append(list, c)
		return nil
	}); err != nil {
		return nil, err
	}
	var a candAnswer
	if err := cans.read(p, &a, func() error {
		if a.index >= len(list) {
			return fmt.Errorf("reduce: a candidate answer names candidate %d of %d", a.index, len(list))
		}
		list[a.index].res = a.res
		return nil
	}); err != nil {
		return nil, err
	}
	return list, nil
}

// siteRow is the sites row of a host whose chosen candidate is k.
func siteRow(crawl string, k *candidate, candidates int32) schema.SiteRow {
	r := schema.SiteRow{
		Crawl: crawl, Host: k.host, RegisteredDomain: k.regdom, URL: k.url,
		Outcome: classOutcome[k.res.class], HTTPStatus: k.status, StatusClass: k.statusClass, Candidates: candidates, Rank: k.rank,
	}
	if a := k.res.ans; a != nil {
		r.CaptureID = hex.EncodeToString(a.id[:])
		r.FinalURL = a.url
		r.StatusClass = a.statusClass
		hops := int32(k.res.hops)
		r.RedirectHops = &hops
		r.HTTPStatus = a.status
	}
	if k.res.reason != reasonNone {
		r.Reason = reasonNames[k.res.reason]
	}
	return r
}
