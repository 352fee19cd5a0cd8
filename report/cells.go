package report

import "github.com/robotstat/robotstat/schema"

// The site_bots rows of a crawl are counted in cells (crawlAcc.cells): one
// per panel membership and rank bucket, so that every trend the report
// draws (all sites or the panel, any cumulative stratum) is a sum of
// cells. A site's rows come together; while they come, hostState gathers
// what is decided per site rather than per bot: the category roll-ups
// (does the site block some, or every, bot of a category fully?) and, with
// the site's signals, whether signal and rules agree on AI training.

// The AI categories the report rolls bots up into, by index.
var aiCategories = [...]string{
	schema.CategoryAITraining, schema.CategoryAISearch, schema.CategoryAIUserFetch,
	schema.CategoryAIData, schema.CategoryAIOptoutToken,
}

const numCategories = len(aiCategories)

// categoryTraining is the index of ai-training in aiCategories: the
// category whose blocking the signals are compared with.
const categoryTraining = 0

func categoryIndex(c string) int {
	for i, a := range aiCategories {
		if a == c {
			return i
		}
	}
	return -1
}

// CatCounts roll one AI category up over a set of parsed sites.
type CatCounts struct {
	// Sites is the parsed sites with a site_bots row for a bot of the
	// category; Some those that block at least one of its bots fully
	// (robotstat verdict), Every those that block all of them.
	Sites, Some, Every int64
}

func (c *CatCounts) add(o *CatCounts) { c.Sites += o.Sites; c.Some += o.Some; c.Every += o.Every }

// hostState is the site whose site_bots rows are coming in.
type hostState struct {
	host   string
	begun  bool
	ok     bool     // a parsed site of the crawl
	cell   *cellAcc // its cell
	groups []int    // the tables' groups it counts in (none when the panel leaves it out)
	st     *stance  // its signals, nil for none
	cats   [numCategories]struct{ bots, full int32 }
}

// beginHost ends the previous host's rows and starts host's.
func (s *Tally) beginHost(host string) {
	s.endHost()
	g := s.host.groups[:0]
	s.host = hostState{host: host, begun: true, groups: g}
	h1, h2 := hashString(host)
	if !s.hosts.has(h1, h2) {
		return
	}
	s.host.ok = true
	rank := s.hostRanks[h1]
	panel := s.inPanel(h1)
	s.host.cell = &s.crawl().cells[b2i(panel)][bucketOf(rank)]
	if !s.opts.Panel || panel {
		s.host.groups = s.groupsOf(rank, s.host.groups)
	}
	s.host.st = s.hostSignals[h1]
}

// endHost counts what is decided per site for the host whose rows ended.
func (s *Tally) endHost() {
	h := &s.host
	if !h.ok {
		return
	}
	for c := range numCategories {
		k := h.cats[c]
		if k.bots == 0 {
			continue
		}
		cc := &h.cell.cats[c]
		cc.Sites++
		if k.full > 0 {
			cc.Some++
		}
		if k.full == k.bots {
			cc.Every++
		}
	}
	if len(h.groups) > 0 {
		t := h.cats[categoryTraining]
		block := blockNone
		switch {
		case t.bots > 0 && t.full == t.bots:
			block = blockEvery
		case t.full > 0:
			block = blockSome
		}
		st := h.st.training()
		for _, g := range h.groups {
			s.groups[g].cross[st][block]++
		}
	}
	h.ok = false
}

// AddSiteBots counts site_bots rows of the current crawl's parsed sites.
// The rows of a site must come together.
func (s *Tally) AddSiteBots(rows []schema.SiteBotRow) {
	s.mustBeOpen("site_bots")
	s.othersBegun = true
	for i := range rows {
		r := &rows[i]
		if !s.host.begun || r.Host != s.host.host {
			s.beginHost(r.Host)
		}
		if !s.host.ok {
			continue
		}
		bi := s.bot(r.Bot, r.Operator, r.Category)
		c := s.host.cell
		for len(c.bots) <= bi {
			c.bots = append(c.bots, BotCounts{})
		}
		bc := &c.bots[bi]
		bc.Sites++
		m, mok := matchedIndex(r.Matched)
		var full bool
		if mok {
			for d, v := range [NumDefinitions]string{r.Verdict, r.Somesite, r.CIC, r.CCClass} {
				if k, ok := classIndex(v); ok {
					bc.Counts[m][d][k]++
					if d == DefVerdict && k == ClassFull {
						full = true
					}
				}
			}
		}
		if ci := s.botCat[bi]; ci >= 0 {
			s.host.cats[ci].bots++
			if full {
				s.host.cats[ci].full++
			}
		}
	}
}
