package report

import (
	"slices"

	"github.com/robotstat/robotstat/schema"
)

// site_history gives the report two things that need every crawl at once:
// the panel (hosts that are a parsed site in every crawl, so that a trend
// is not an artefact of a changing set of hosts) and the cohorts of first
// blocks (per bot, how many hosts first blocked it fully in each crawl, and
// how many of those later stopped). Both are read before the first crawl,
// in one pass, keeping 8 bytes per panel host and counts per bot, crawl and
// cell.

// CohortCounts count the hosts that first blocked a bot fully in one crawl.
type CohortCounts struct {
	// First is the hosts whose first crawl with the bot fully blocked is
	// this one (site_history.first_full_crawl); Named and Star split them
	// by how the rules matched the bot then; Unblocked is those that later
	// stopped blocking it fully on a parsed site (unblocked_crawl).
	First, Named, Star, Unblocked int64
}

func (c *CohortCounts) add(o *CohortCounts) {
	c.First += o.First
	c.Named += o.Named
	c.Star += o.Star
	c.Unblocked += o.Unblocked
}

// cohortAcc is one bot's cohorts, by first-block crawl and cell.
type cohortAcc map[string]*[2][numBuckets]CohortCounts

// AddHistory reads site_history rows, before the first crawl: the panel and
// the first-block cohorts. The rows of a host must come together (robotstat
// sites writes them so).
func (s *Tally) AddHistory(rows []schema.SiteHistoryRow) {
	if len(s.crawls) > 0 {
		panic("report: site_history rows after a crawl's rows")
	}
	s.history = true
	for i := range rows {
		r := &rows[i]
		if r.Host != s.lastHistory || !s.histBegun {
			s.histBegun, s.lastHistory = true, r.Host
			h1, _ := hashString(r.Host)
			if r.Panel {
				s.panel = append(s.panel, h1)
			}
			s.histBucket = bucketOf(s.rankOf(r.Host, deref(r.RegisteredDomain), deref(r.Rank)))
			if r.ParsedCrawls > 0 {
				s.histHosts[b2i(r.Panel)][s.histBucket]++
			}
		}
		bi := s.bot(r.Bot, r.Operator, r.Category)
		if r.FullCrawls == 0 {
			continue
		}
		acc := s.cohorts[s.bots[bi].Bot]
		if acc == nil {
			acc = cohortAcc{}
			s.cohorts[s.bots[bi].Bot] = acc
		}
		// NULL is the unknown crawl here: full_crawls says there is one
		first := deref(r.FirstFullCrawl)
		byCell := acc[first]
		if byCell == nil {
			byCell = &[2][numBuckets]CohortCounts{}
			acc[first] = byCell
		}
		c := &byCell[b2i(r.Panel)][s.histBucket]
		c.First++
		switch deref(r.FirstFullMatched) {
		case schema.MatchedNamed:
			c.Named++
		case schema.MatchedStar:
			c.Star++
		}
		if r.UnblockedCrawl != nil { // (a block lapsed in the unknown crawl reads as none)
			c.Unblocked++
		}
	}
}

// deref returns *p, the zero value for nil (NULL).
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// sortPanel makes the panel searchable; AddSites needs it.
func (s *Tally) sortPanel() {
	if !s.panelSorted {
		slices.Sort(s.panel)
		s.panel = slices.Compact(s.panel)
		s.panelSorted = true
	}
}
