package reduce

import (
	"time"

	"github.com/robotstat/robotstat/schema"
)

// crawlRun is the reduce of one crawl, in four stages:
//
//	A  spillCaptures   the captures files -> captures, targets, candidates, candidate requests
//	B  resolveTargets  captures, targets -> where each redirect target leads
//	C  resolveSites    candidates, their requests, B's last layer -> sites rows, site requests, domains
//	   writeDomains    C's domains spill -> domains rows
//	D  siteBots        the verdicts files, site requests -> site_bots rows, history records
//
// A reads the crawl's files into partitions, a loop over their row groups
// (and D first its verdicts files, the same way); then B, C, the domains
// and D are loops over the partitions, each turn a step
// that is a function of its own partition's records: it reads only
// partition p of its input spills, keeps its state to itself, writes
// partition p of its own outputs and, through a sink, records bound for
// other partitions and rows, and returns its counts. The crawlRun, the
// partitioner and the crawl's date are not changed by a step, and neither
// is a step's receiver except botsStep's cache (one botsStep a goroutine).
// So the steps of one loop run at once, up to Options.Workers of them,
// each with sinks of its own appended in partition order to keep the
// output the same (parallel.go).
type crawlRun struct {
	loop
	crawl string
	index int // of the crawl among the dataset's, for the history
	parts partitioner
	dir   string
	hist  *history
	date  int32 // sites.crawl_date, once stage A has read the captures
	// hosts, when not nil, are the crawl's sites: a crawl read only by
	// panels (schema.Index.PanelHosts) has its listed hosts as sites, not
	// the hosts of the redirect targets it read for them.
	hosts map[string]bool

	spills []*spill
}

// partitioner maps a key to one of its partitions. The hash is FNV-1a,
// fixed, so that the output (partition by partition) comes in the same
// order on every run. A partitioner is a count: copy it freely.
type partitioner int

func (n partitioner) of(key string) int { return int(fnv1a(key) % uint64(n)) }

func (n partitioner) ofID(id *[16]byte) int { return n.of(string(id[:])) }

func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// sink takes records bound for partitions of the next step: a *spill.
type sink interface {
	put(p int, r spillRecord) error
}

// newSpill creates a spill of the crawl's partitions, removed when the
// crawl is done (if a stage has not removed it before).
func (c *crawlRun) newSpill(name string) (*spill, error) {
	s, err := newSpill(c.dir, name, int(c.parts))
	if err == nil {
		c.spills = append(c.spills, s)
	}
	return s, err
}

// newSpills creates a spill for each name.
func (c *crawlRun) newSpills(names ...string) ([]*spill, error) {
	out := make([]*spill, len(names))
	for i, name := range names {
		s, err := c.newSpill(name)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func (c *crawlRun) run(captureFiles, verdictFiles []schema.File) (CrawlSummary, []string, error) {
	defer func() {
		for _, s := range c.spills {
			s.remove()
		}
	}()
	cs := CrawlSummary{Crawl: c.crawl, ByOutcome: map[string]int64{}}
	a, err := c.spillCaptures(captureFiles, &cs)
	if err != nil {
		return cs, nil, err
	}
	c.date = crawlDate(c.crawl, a.days)
	if c.date != 0 {
		cs.Date = schema.DaysDate(c.date).Format(time.DateOnly)
	}
	res, err := c.resolveTargets(a.caps, a.targets)
	if err != nil {
		return cs, nil, err
	}
	if err := removeSpills(a.caps, a.targets); err != nil {
		return cs, nil, err
	}
	doms, err := c.newSpill("domains")
	if err != nil {
		return cs, nil, err
	}
	sites, err := c.resolveSites(a.cands, a.creqs, res, doms, &cs)
	if err != nil {
		return cs, nil, err
	}
	if err := removeSpills(a.cands, res); err != nil {
		return cs, nil, err
	}
	if cs.Domains, err = c.writeDomains(doms, c.out); err != nil {
		return cs, nil, err
	}
	if err := removeSpills(doms); err != nil {
		return cs, nil, err
	}
	n, warns, err := c.siteBots(sites, verdictFiles)
	if err != nil {
		return cs, nil, err
	}
	cs.SiteBots = n
	return cs, warns, nil
}

func crawlLabel(c string) string {
	if c == "" {
		return "(unknown)"
	}
	return c
}
