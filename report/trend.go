package report

import (
	"sort"

	"github.com/robotstat/robotstat/schema"
)

// The trends of a report run over the crawls in date order, for two
// populations and seven strata, every one a sum of the Tally's cells.

// Populations of a trend, by Pop*.
const (
	PopAll   = iota // every parsed site
	PopPanel        // parsed sites whose host is a parsed site in every crawl
	NumPops
)

// PopNames name the populations (CSV values, HTML switches).
var PopNames = [NumPops]string{"all", "panel"}

// Strata of a trend, by Stratum*: cumulative top-k ranks, then ranks
// beyond a million and unranked sites.
const (
	StratumAll = iota
	StratumTop1k
	StratumTop10k
	StratumTop100k
	StratumTop1M
	StratumOver1M
	StratumUnranked
	NumStrata
)

// StratumNames name the strata as the report prints them.
var StratumNames = [NumStrata]string{"all", "top 1k", "top 10k", "top 100k", "top 1M", "rank > 1M", "unranked"}

// stratumHas reports whether rank bucket b is part of stratum st.
func stratumHas(st, b int) bool {
	switch st {
	case StratumAll:
		return true
	case StratumOver1M:
		return b == bucketOver1M
	case StratumUnranked:
		return b == bucketUnranked
	}
	return b <= st-StratumTop1k && b <= bucket1M
}

// popHas reports whether cells of panel membership inPanel (0 or 1) count
// in population pop.
func popHas(pop, inPanel int) bool { return pop == PopAll || inPanel == 1 }

// CrawlInfo is one crawl of the trends.
type CrawlInfo struct {
	// Name is the crawl ("" for unknown), Label how the report prints it.
	Name, Label string
	// Date is sites.crawl_date in days since 1970-01-01; 0 for none.
	Date int32
	// Sites is the crawl's sites, Ranked those with a rank.
	Sites, Ranked int64
}

// DateString returns the date as YYYY-MM-DD, "" for none.
func (c CrawlInfo) DateString() string { return dateString(c.Date) }

func dateString(d int32) string {
	if d == 0 {
		return ""
	}
	return schema.DaysDate(d).Format("2006-01-02")
}

// Trend is everything over time: per crawl, population and stratum, every
// bot's verdicts and the category roll-ups, and the first-block cohorts.
type Trend struct {
	// Crawls in date order (schema.CompareCrawls).
	Crawls []CrawlInfo
	// Points[pop][stratum][i] are the counts of Crawls[i].
	Points [NumPops][NumStrata][]TrendPoint
	// History reports whether site_history was read: without it there is
	// no panel (PopPanel counts nothing) and no cohorts.
	History bool
	// PanelHosts is the hosts in the panel.
	PanelHosts int64
	// Hosts[pop][stratum] is the hosts of site_history that are a parsed
	// site in some crawl: the denominator of the cohorts.
	Hosts [NumPops][NumStrata]int64
	// Cohorts[pop][stratum][bot][i] count the hosts that first blocked bot
	// (an index of Report.Bots) fully in Crawls[i].
	Cohorts [NumPops][NumStrata][][]CohortCounts
}

// TrendPoint is one crawl's counts in one population and stratum.
type TrendPoint struct {
	// Parsed is the parsed sites.
	Parsed int64
	// Bots are the counts of each bot (index of Report.Bots).
	Bots []BotCounts
	// Cats roll the AI categories up (index of Categories).
	Cats [numCategories]CatCounts
}

// Categories are the AI categories the roll-ups cover, in the order of
// TrendPoint.Cats.
func Categories() []string { return aiCategories[:] }

// Bot returns the counts of bot bi (zero when the point has none).
func (p *TrendPoint) Bot(bi int) BotCounts {
	if bi < len(p.Bots) {
		return p.Bots[bi]
	}
	return BotCounts{}
}

// crawlOrder returns the indexes of the Tally's crawls in date order.
func (s *Tally) crawlOrder() []int {
	order := make([]int, len(s.crawls))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := s.crawls[order[i]], s.crawls[order[j]]
		return schema.CompareCrawls(a.name, a.date, b.name, b.date) < 0
	})
	return order
}

// trend builds the Trend from the cells and cohorts.
func (s *Tally) trend() *Trend {
	t := &Trend{History: s.history, PanelHosts: int64(len(s.panel))}
	order := s.crawlOrder()
	pos := map[string]int{}
	for i, ci := range order {
		c := s.crawls[ci]
		t.Crawls = append(t.Crawls, CrawlInfo{Name: c.name, Label: crawlLabel(c.name), Date: c.date, Sites: c.sites, Ranked: c.ranked})
		pos[c.name] = i
	}
	for pop := range NumPops {
		for st := range NumStrata {
			pts := make([]TrendPoint, len(order))
			for i, ci := range order {
				p := &pts[i]
				p.Bots = make([]BotCounts, len(s.bots))
				for inPanel := range 2 {
					if !popHas(pop, inPanel) {
						continue
					}
					for b := range numBuckets {
						if !stratumHas(st, b) {
							continue
						}
						cell := &s.crawls[ci].cells[inPanel][b]
						p.Parsed += cell.parsed
						for bi := range cell.bots {
							p.Bots[bi].add(&cell.bots[bi])
						}
						for k := range numCategories {
							p.Cats[k].add(&cell.cats[k])
						}
					}
				}
			}
			t.Points[pop][st] = pts
			for inPanel := range 2 {
				for b := range numBuckets {
					if popHas(pop, inPanel) && stratumHas(st, b) {
						t.Hosts[pop][st] += s.histHosts[inPanel][b]
					}
				}
			}
			co := make([][]CohortCounts, len(s.bots))
			for bi, b := range s.bots {
				co[bi] = make([]CohortCounts, len(order))
				for crawl, byCell := range s.cohorts[b.Bot] {
					i, ok := pos[crawl]
					if !ok {
						continue // a crawl site_history knows and the report did not read
					}
					for inPanel := range 2 {
						for bk := range numBuckets {
							if popHas(pop, inPanel) && stratumHas(st, bk) {
								co[bi][i].add(&byCell[inPanel][bk])
							}
						}
					}
				}
			}
			t.Cohorts[pop][st] = co
		}
	}
	return t
}

// groupCells calls f with every cell that counts in report group g (the
// tables' population: the panel only with TallyOptions.Panel).
func (s *Tally) groupCells(g int, f func(*cellAcc)) {
	for ci, c := range s.crawls {
		if s.opts.By == ByCrawl && ci != g {
			continue
		}
		for inPanel := range 2 {
			if s.opts.Panel && inPanel == 0 {
				continue
			}
			for b := range numBuckets {
				if s.opts.By == ByRank && !groupHasBucket(g, b) {
					continue
				}
				f(&c.cells[inPanel][b])
			}
		}
	}
}

// groupHasBucket reports whether rank bucket b counts in ByRank group g.
func groupHasBucket(g, b int) bool {
	switch g {
	case groupAll:
		return true
	case groupOver1M:
		return b == bucketOver1M
	case groupUnranked:
		return b == bucketUnranked
	}
	return b <= g && b <= bucket1M
}
