package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/robotstat/robotstat/schema"
)

// Report is what a Tally found, as tables ready to print and the numbers
// behind the charts. It is a plain value that shares nothing with the
// Tally.
type Report struct {
	// By is ByCrawl or ByRank.
	By string
	// Panel reports that the tables count panel hosts only
	// (TallyOptions.Panel).
	Panel bool
	// Domains reports that the sites are one per registered domain
	// (TallyOptions.Domains).
	Domains bool
	// Crawls are the crawls fed, in order ("" for unknown).
	Crawls []string
	// Groups are the report's columns; every table's Columns that are
	// groups follow this order (crawls by date).
	Groups []Group
	// Tables in the order they are printed.
	Tables []*Table
	// Bots are the catalog bots in the order site_history or site_bots
	// first named them (the catalog's), with their counts per group.
	Bots []BotStat
	// AIOrder indexes the AI bots in Bots, most often fully blocked first in
	// the reference group (the latest crawl, or all sites by rank), ties in
	// catalog order.
	AIOrder []int
	// Named are the AI bots of AIOrder that some robots.txt names (in some
	// group), and any other whose counts differ from StarOnly's (catalogs
	// mixed); Leading the first TallyOptions.Leading of them, which the
	// trend charts draw one by one.
	Named, Leading []int
	// StarOnly are the AI bots no file names whose counts equal
	// StarOnly[0]'s everywhere: only the * group decides for them, so the
	// report shows them as one line ("every other AI bot").
	StarOnly []int
	// Trend is everything over time (crawls in date order), for all sites
	// and the panel, by stratum.
	Trend *Trend
	// FilterBytes is the most memory the site filters held at once.
	FilterBytes int64
	// RankedSites is the number of sites with a rank, over every crawl.
	RankedSites int64
}

// BotStat is one bot's verdicts, per group.
type BotStat struct {
	schema.BotIdent
	// AI reports an AI category (ai-training, ai-search, ai-user-fetch,
	// ai-optout-token, ai-data; not search-dual-use or generic-tool).
	AI bool
	// Groups are the bot's counts by report group.
	Groups []BotCounts
}

// Table is one table of the report: label columns, then value columns of
// cells that each carry their count and denominator.
type Table struct {
	// ID is a stable short name (an HTML anchor, the CSV file's name).
	ID    string
	Title string
	// Of says what the percentages are shares of ("sites", "parsed
	// robots.txt", ...); Base gives that denominator per group.
	Of   string
	Base []Base
	// Labels are the headers of the label columns, Columns of the value
	// columns; Dim says what the value columns are: DimCrawl, DimStratum,
	// or "" for measures (full, partial, ...).
	Labels, Columns []string
	Dim             string
	Rows            []Line
	// Notes qualify the numbers (pruned counts, per-row denominators).
	Notes []string
}

// What a table's value columns are (Table.Dim).
const (
	DimCrawl   = "crawl"
	DimStratum = "stratum"
)

// Base is a table's denominator in one group.
type Base struct {
	Label string
	Count int64
}

// Line is one row of a Table: len(Labels) == len(Table.Labels) and
// len(Cells) == len(Table.Columns). A label equal to the one above it in a
// grouped table is left empty.
type Line struct {
	Labels []string
	Cells  []Cell
}

// Cell is a count and the number it is a share of.
type Cell struct {
	Count, Of int64
}

// Share returns Count/Of, and false when Of is 0.
func (c Cell) Share() (float64, bool) {
	if c.Of <= 0 {
		return 0, false
	}
	return float64(c.Count) / float64(c.Of), true
}

// Table IDs.
const (
	TableAIBlocking  = "ai-blocking"
	TableCategories  = "categories"
	TableFirstBlocks = "first-blocks"
	TableDefinitions = "definitions"
	TableSignals     = "signals"
	TableSignalRules = "signals-vs-rules"
	TableCaptures    = "captures"
	TableStatus      = "status"
	TableAdoption    = "adoption"
	TableBots        = "bots"
	TableAgents      = "agents"
	TableContent     = "content"
	TableDirectives  = "directives"
	TableTemplates   = "templates"
)

// Report builds the tables from what has been fed so far.
func (s *Tally) Report() *Report {
	s.sortPanel()
	keep := s.keptGroups()
	r := &Report{By: s.opts.By, Panel: s.opts.Panel, Domains: s.opts.Domains, FilterBytes: s.peak, RankedSites: s.rankedSites}
	for _, c := range s.crawls {
		r.Crawls = append(r.Crawls, c.name)
	}
	for _, g := range keep {
		r.Groups = append(r.Groups, s.groups[g].Group)
	}
	for bi, b := range s.bots {
		st := BotStat{BotIdent: b, AI: schema.IsAICategory(b.Category)}
		for _, g := range keep {
			var bc BotCounts
			s.groupCells(g, func(c *cellAcc) {
				if bi < len(c.bots) {
					bc.add(&c.bots[bi])
				}
			})
			st.Groups = append(st.Groups, bc)
		}
		r.Bots = append(r.Bots, st)
	}
	r.Trend = s.trend()
	b := reportBuilder{s: s, r: r, keep: keep}
	r.AIOrder = b.aiOrder()
	b.named()
	r.Tables = []*Table{b.aiBlocking(), b.categories()}
	if t := b.firstBlocks(); t != nil {
		r.Tables = append(r.Tables, t)
	}
	r.Tables = append(r.Tables, b.definitions(), b.signals(), b.signalsVsRules(),
		b.captures(), b.status(), b.adoption(), b.agents(), b.content(), b.directives(), b.templates())
	if s.opts.AllBots {
		r.Tables = append(r.Tables, b.allBots())
	}
	return r
}

// keptGroups returns the groups to report, in order: the crawls by date,
// or the strata without the one of ranks beyond a million when no site
// has one.
func (s *Tally) keptGroups() []int {
	if s.opts.By == ByCrawl {
		return s.crawlOrder()
	}
	var keep []int
	for g, a := range s.groups {
		if g == groupOver1M && a.Sites == 0 {
			continue
		}
		keep = append(keep, g)
	}
	return keep
}

type reportBuilder struct {
	s    *Tally
	r    *Report
	keep []int
}

func (b *reportBuilder) groupLabels() []string {
	var l []string
	for _, g := range b.r.Groups {
		l = append(l, g.Label)
	}
	return l
}

func (b *reportBuilder) dim() string {
	if b.r.By == ByRank {
		return DimStratum
	}
	return DimCrawl
}

// base returns the denominator per group.
func (b *reportBuilder) base(of func(*Group) int64) []Base {
	var out []Base
	for i := range b.r.Groups {
		g := &b.r.Groups[i]
		out = append(out, Base{Label: g.Label, Count: of(g)})
	}
	return out
}

// row returns a row with one cell per group, count(a) of of(group).
func (b *reportBuilder) row(labels []string, count func(a *groupAcc) int64, of func(*Group) int64) Line {
	row := Line{Labels: labels}
	for _, g := range b.keep {
		a := b.s.groups[g]
		row.Cells = append(row.Cells, Cell{Count: count(a), Of: of(&a.Group)})
	}
	return row
}

func sites(g *Group) int64      { return g.Sites }
func parsed(g *Group) int64     { return g.Parsed }
func captures(g *Group) int64   { return g.Captures }
func candidates(g *Group) int64 { return g.Candidates }

func allZero(r Line) bool {
	for _, c := range r.Cells {
		if c.Count != 0 {
			return false
		}
	}
	return true
}

// refGroup is the group AI bots are ranked by: the latest crawl, or all
// sites when grouping by rank.
func (b *reportBuilder) refGroup() int { return len(b.r.Groups) - 1 }

// aiOrder returns the indexes of the AI bots in r.Bots, most often fully
// blocked first in the reference group, ties in catalog order.
func (b *reportBuilder) aiOrder() []int {
	var idx []int
	for i, st := range b.r.Bots {
		if st.AI {
			idx = append(idx, i)
		}
	}
	ref := b.refGroup()
	share := func(i int) float64 {
		if ref < 0 {
			return 0
		}
		bc := &b.r.Bots[i].Groups[ref]
		v, _ := fullCell(bc, DefVerdict).Share()
		return v
	}
	sort.SliceStable(idx, func(x, y int) bool { return share(idx[x]) > share(idx[y]) })
	return idx
}

// isNamed reports whether some robots.txt of the report names bot bi.
func (b *reportBuilder) isNamed(bi int) bool {
	named := func(bc *BotCounts) bool {
		for d := range NumDefinitions {
			for c := range NumClasses {
				if bc.Counts[MatchedNamed][d][c] > 0 {
					return true
				}
			}
		}
		return false
	}
	for g := range b.r.Bots[bi].Groups {
		if named(&b.r.Bots[bi].Groups[g]) {
			return true
		}
	}
	t := b.r.Trend
	for pop := range NumPops {
		for _, p := range t.Points[pop][StratumAll] {
			if bc := p.Bot(bi); named(&bc) {
				return true
			}
		}
	}
	return false
}

// named sets r.Named, r.Leading and r.StarOnly: the AI bots no file names
// take the * group's verdicts, site by site, so their counts are the same
// (unless catalogs were mixed) and they are one line, "every other AI bot".
func (b *reportBuilder) named() {
	r := b.r
	for _, i := range r.AIOrder {
		switch {
		case b.isNamed(i):
			r.Named = append(r.Named, i)
		case len(r.StarOnly) == 0 || b.same(r.StarOnly[0], i):
			r.StarOnly = append(r.StarOnly, i)
		default:
			r.Named = append(r.Named, i) // unnamed, yet counted differently: on its own
		}
	}
	r.Leading = r.Named[:min(len(r.Named), b.s.opts.Leading)]
}

// same reports whether bots i and j have the same counts in every group,
// crawl, population and stratum.
func (b *reportBuilder) same(i, j int) bool {
	r := b.r
	if !slices.Equal(r.Bots[i].Groups, r.Bots[j].Groups) {
		return false
	}
	for pop := range NumPops {
		for st := range NumStrata {
			for _, p := range r.Trend.Points[pop][st] {
				if p.Bot(i) != p.Bot(j) {
					return false
				}
			}
			if !slices.Equal(r.Trend.Cohorts[pop][st][i], r.Trend.Cohorts[pop][st][j]) {
				return false
			}
		}
	}
	return true
}

// botLabel is how the tables name the line of bot i.
func (r *Report) botLabel(i int) string {
	if len(r.StarOnly) > 0 && i == r.StarOnly[0] {
		return r.starOnlyLabel()
	}
	return r.Bots[i].Bot
}

// starOnlyLabel names the line that stands for r.StarOnly.
func (r *Report) starOnlyLabel() string {
	return fmt.Sprintf("every other AI bot (%d)", len(r.StarOnly))
}

// StarOnlyNote says what the "every other AI bot" line stands for.
const starOnlyNote = "every other AI bot: no robots.txt names these bots, so only the * group applies and they share one line"

// fullCell is the sites that block a bot fully under definition def, of
// the sites with a bots row for it.
func fullCell(bc *BotCounts, def int) Cell {
	return Cell{Count: bc.Class(def, ClassFull), Of: bc.Sites}
}

// verdictCells are the five detail cells of one bot and definition:
// full, full by name, full by *, partial, none.
func verdictCells(bc *BotCounts, def int) []Cell {
	of := bc.Sites
	return []Cell{
		{bc.Class(def, ClassFull), of},
		{bc.Counts[MatchedNamed][def][ClassFull], of},
		{bc.Counts[MatchedStar][def][ClassFull], of},
		{bc.Class(def, ClassPartial), of},
		{bc.Class(def, ClassNone), of},
	}
}

var verdictColumns = []string{"full", "by name", "by *", "partial", "none"}

func (b *reportBuilder) botNotes() []string {
	var notes []string
	for _, st := range b.r.Bots {
		for gi, bc := range st.Groups {
			if bc.Sites != b.r.Groups[gi].Parsed {
				notes = append(notes, fmt.Sprintf("not every parsed robots.txt has a row for every bot (e.g. %s in %s: %d of %d): runs with different catalogs were mixed",
					st.Bot, b.r.Groups[gi].Label, bc.Sites, b.r.Groups[gi].Parsed))
				return notes
			}
		}
	}
	return notes
}

// shownAI are the AI bots the tables list one by one, and whether the
// "every other AI bot" line follows them.
func (b *reportBuilder) shownAI() ([]int, bool) {
	return b.r.Named, len(b.r.StarOnly) > 0
}

func (b *reportBuilder) botLabels(i int) []string {
	st := &b.r.Bots[i]
	return []string{st.Bot, st.Operator, st.Category}
}

func (b *reportBuilder) otherLabels() []string {
	return []string{b.r.starOnlyLabel(), "-", "only * applies"}
}

func (b *reportBuilder) refNote() string {
	if b.r.By == ByRank {
		return "ordered by the share of all sites"
	}
	return "ordered by the share in " + b.r.Groups[max(b.refGroup(), 0)].Label
}

func (b *reportBuilder) aiBlocking() *Table {
	t := &Table{ID: TableAIBlocking, Title: "AI bots: sites that block them fully (robotstat verdict)", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"bot", "operator", "category"}, Columns: verdictColumns}
	multi := len(b.r.Groups) > 1
	if multi {
		t.Labels = append(t.Labels, b.dim())
	}
	named, other := b.shownAI()
	add := func(labels []string, i int) {
		for gi := range b.r.Groups {
			l := labels
			if multi {
				if gi > 0 {
					l = make([]string, len(labels))
				}
				l = append(slices.Clone(l), b.r.Groups[gi].Label)
			}
			t.Rows = append(t.Rows, Line{Labels: l, Cells: verdictCells(&b.r.Bots[i].Groups[gi], DefVerdict)})
			if !multi {
				break
			}
		}
	}
	for _, i := range named {
		add(b.botLabels(i), i)
	}
	if other {
		add(b.otherLabels(), b.r.StarOnly[0])
	}
	t.Notes = []string{"full: no path may be fetched; by name: a group names the bot; by *: only the * group applies; partial: some paths may not be fetched"}
	if other {
		t.Notes = append(t.Notes, starOnlyNote+": "+b.starOnlyList())
	}
	t.Notes = append(t.Notes, b.refNote())
	t.Notes = append(t.Notes, b.botNotes()...)
	return t
}

// starOnlyList names the bots of the "every other AI bot" line, cut to the
// first dozen.
func (b *reportBuilder) starOnlyList() string {
	var names []string
	for k, i := range b.r.StarOnly {
		if k == 12 {
			names = append(names, fmt.Sprintf("and %d more", len(b.r.StarOnly)-12))
			break
		}
		names = append(names, b.r.Bots[i].Bot)
	}
	return strings.Join(names, ", ")
}

// groupCats returns the category roll-ups of report group i.
func (b *reportBuilder) groupCats(i int) [numCategories]CatCounts {
	var cc [numCategories]CatCounts
	b.s.groupCells(b.keep[i], func(c *cellAcc) {
		for k := range numCategories {
			cc[k].add(&c.cats[k])
		}
	})
	return cc
}

func (b *reportBuilder) categories() *Table {
	t := &Table{ID: TableCategories, Title: "AI bots by category: sites that block some, or every, bot of the category fully", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"category", "sites that block fully"}, Columns: b.groupLabels(), Dim: b.dim(),
		Notes: []string{"some: at least one of the category's catalog bots; every: all of them (robotstat verdict); a bot of the category has a row on every parsed site"}}
	cats := make([][numCategories]CatCounts, len(b.r.Groups))
	for i := range b.r.Groups {
		cats[i] = b.groupCats(i)
	}
	for k, name := range aiCategories {
		for m, measure := range []string{"some bot", "every bot"} {
			label := name
			if m > 0 {
				label = ""
			}
			row := Line{Labels: []string{label, measure}}
			for i := range b.r.Groups {
				c := cats[i][k]
				n := c.Some
				if m > 0 {
					n = c.Every
				}
				row.Cells = append(row.Cells, Cell{Count: n, Of: c.Sites})
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// tablePop is the population the tables count.
func (b *reportBuilder) tablePop() int {
	if b.r.Panel {
		return PopPanel
	}
	return PopAll
}

func (b *reportBuilder) firstBlocks() *Table {
	tr := b.r.Trend
	if !tr.History || len(tr.Crawls) < 2 {
		return nil
	}
	pop := b.tablePop()
	hosts := tr.Hosts[pop][StratumAll]
	var cols []string
	var base []Base
	for _, c := range tr.Crawls {
		cols = append(cols, c.Label)
		base = append(base, Base{Label: c.Label, Count: hosts})
	}
	t := &Table{ID: TableFirstBlocks, Title: "First blocks: hosts whose robots.txt first blocked the bot fully in the crawl", Of: "hosts that are a parsed site in some crawl",
		Base: base, Labels: []string{"bot", "hosts"}, Columns: cols, Dim: DimCrawl,
		Notes: []string{"from site_history: a host counts in the crawl of its first full block (first_full_crawl); the first crawl holds every host that already blocked the bot then",
			"later unblocked: of those, the hosts whose robots.txt no longer blocked the bot fully in a later crawl (unblocked_crawl)"}}
	if pop == PopPanel {
		t.Notes = append(t.Notes, "panel hosts only")
	}
	bots := append(slices.Clone(b.r.Leading), b.r.StarOnly[:min(1, len(b.r.StarOnly))]...)
	co := tr.Cohorts[pop][StratumAll]
	for _, i := range bots {
		label := b.r.botLabel(i)
		if len(b.r.StarOnly) > 0 && i == b.r.StarOnly[0] {
			label = b.r.starOnlyLabel()
		}
		for m, measure := range []string{"first blocked fully", "of which by name", "of which later unblocked"} {
			l := label
			if m > 0 {
				l = ""
			}
			row := Line{Labels: []string{l, measure}}
			for k := range tr.Crawls {
				c := co[i][k]
				n := [...]int64{c.First, c.Named, c.Unblocked}[m]
				row.Cells = append(row.Cells, Cell{Count: n, Of: hosts})
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func (b *reportBuilder) definitions() *Table {
	t := &Table{ID: TableDefinitions, Title: "The four definitions of a full block, for the leading AI bots", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"bot"}, Columns: DefinitionNames[:],
		Notes: []string{"sites the definition counts as fully blocking the bot (stats/VERDICTS.md): verdict is robotstat's; somesite Liu et al. (IMC 2025); cic Longpre et al. (2024), all; cc_class Common Crawl's, disallow-all"}}
	multi := len(b.r.Groups) > 1
	if multi {
		t.Labels = append(t.Labels, b.dim())
	}
	bots := append(slices.Clone(b.r.Leading), b.r.StarOnly[:min(1, len(b.r.StarOnly))]...)
	for _, i := range bots {
		label := b.r.botLabel(i)
		if len(b.r.StarOnly) > 0 && i == b.r.StarOnly[0] {
			label = b.r.starOnlyLabel()
		}
		for gi := range b.r.Groups {
			l := []string{label}
			if gi > 0 {
				l[0] = ""
			}
			if multi {
				l = append(l, b.r.Groups[gi].Label)
			}
			row := Line{Labels: l}
			bc := &b.r.Bots[i].Groups[gi]
			for d := range NumDefinitions {
				row.Cells = append(row.Cells, fullCell(bc, d))
			}
			t.Rows = append(t.Rows, row)
			if !multi {
				break
			}
		}
	}
	return t
}

func (b *reportBuilder) signals() *Table {
	t := &Table{ID: TableSignals, Title: "AI-use signals: Content-Signal and Content-Usage lines", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"directive", "sites whose robots.txt has"}, Columns: b.groupLabels(), Dim: b.dim(),
		Notes: []string{"Content-Signal as contentsignals.org defines it, Content-Usage as draft-ietf-aipref-attach-05 with the labels of draft-ietf-aipref-vocab-08 (parse/doc.go); at /: the rules of the groups, matched by longest path"}}
	for j, sr := range signalRows {
		row := b.row(sr.labels[:], func(a *groupAcc) int64 { return a.signals[j] }, parsed)
		if sr.rare && allZero(row) {
			continue
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (b *reportBuilder) signalsVsRules() *Table {
	t := &Table{ID: TableSignalRules, Title: "AI training: what the signals say against what the rules do", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"training by signal", "AI-training bots blocked fully", "reading"}, Columns: b.groupLabels(), Dim: b.dim(),
		Notes: []string{"by signal: refused with ai-train=no or train-ai=n at /, else allowed with ai-train=yes or train-ai=y; by rules: the catalog's ai-training bots the robotstat verdict blocks fully",
			"contradict: the signal allows training while the rules block the training bots; a signal refusing training beside open rules is the signals' purpose, not a contradiction"}}
	prev := -1
	for _, cr := range crossRows {
		label := stanceLabels[cr.stance]
		row := b.row([]string{label, blockLabels[cr.block], cr.reading}, func(a *groupAcc) int64 { return a.cross[cr.stance][cr.block] }, parsed)
		if allZero(row) {
			continue
		}
		if cr.stance == prev {
			row.Labels[0] = ""
		}
		prev = cr.stance
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (b *reportBuilder) captures() *Table {
	// By crawl, shares of the captures read; by rank (captures have no
	// stratum of their own), of the sites' candidates.
	of, base := "captures read", captures
	if b.r.By == ByRank {
		of, base = "candidates", candidates
	}
	t := &Table{ID: TableCaptures, Title: "Captures and sites", Of: of, Base: b.base(base),
		Labels: []string{"count"}, Columns: b.groupLabels(), Dim: b.dim(),
		Notes: []string{"a site is a crawl and a host (the sites table): its candidates are the crawl's captures of the host's /robots.txt, and its answer the best of them, redirects followed"}}
	if b.r.By == ByCrawl {
		t.Rows = append(t.Rows, b.row([]string{"captures read"}, func(a *groupAcc) int64 { return a.Captures }, base))
	}
	t.Rows = append(t.Rows,
		b.row([]string{"candidates: captures of a site's /robots.txt"}, func(a *groupAcc) int64 { return a.Candidates }, base),
		b.row([]string{"sites"}, func(a *groupAcc) int64 { return a.Sites }, base),
		b.row([]string{"sites answered through a redirect"}, func(a *groupAcc) int64 { return a.Redirected }, base),
	)
	if b.r.Panel {
		t.Notes = append(t.Notes, "panel hosts only: the sites of hosts that are a parsed site in every crawl (captures read are all of the crawl's)")
	}
	return t
}

var outcomeOrder = map[string]int{schema.OutcomeParsed: 0, schema.OutcomeUnavailable: 1, schema.OutcomeUnreachable: 2, schema.OutcomeUnresolved: 3}
var statusClassOrder = map[string]int{schema.StatusClassSuccess: 0, schema.StatusClassRedirect: 1, schema.StatusClassNotFound: 2,
	schema.StatusClassUnauthorized: 3, schema.StatusClassForbidden: 4, schema.StatusClassDeferVisits: 5, schema.StatusClassOther: 6}

func orderOf(m map[string]int, k string) int {
	if i, ok := m[k]; ok {
		return i
	}
	return len(m)
}

func (b *reportBuilder) status() *Table {
	t := &Table{ID: TableStatus, Title: "Sites by outcome and HTTP status class", Of: "sites", Base: b.base(sites),
		Labels: []string{"outcome", "status class"}, Columns: b.groupLabels(), Dim: b.dim(),
		Notes: []string{"outcome is how RFC 9309 treats the site's answer (parsed: 2xx or no status; unavailable: 4xx, or more than five redirects; unreachable: 5xx; unresolved: a redirect to a URL the crawl never captured); the status class is Common Crawl's (success is 200 only)"}}
	keys := map[[2]string]bool{}
	for _, g := range b.keep {
		for k := range b.s.groups[g].status {
			keys[k] = true
		}
	}
	var ks [][2]string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		a, c := ks[i], ks[j]
		if oa, oc := orderOf(outcomeOrder, a[0]), orderOf(outcomeOrder, c[0]); oa != oc {
			return oa < oc
		}
		if a[0] != c[0] {
			return a[0] < c[0]
		}
		if oa, oc := orderOf(statusClassOrder, a[1]), orderOf(statusClassOrder, c[1]); oa != oc {
			return oa < oc
		}
		return a[1] < c[1]
	})
	prev := ""
	for _, k := range ks {
		label := k[0]
		if label == prev {
			label = ""
		}
		prev = k[0]
		t.Rows = append(t.Rows, b.row([]string{label, k[1]}, func(a *groupAcc) int64 { return a.status[k] }, sites))
	}
	return t
}

func (b *reportBuilder) adoption() *Table {
	t := &Table{ID: TableAdoption, Title: "robots.txt adoption", Of: "sites", Base: b.base(sites),
		Labels: []string{"sites answering /robots.txt with"}, Columns: b.groupLabels(), Dim: b.dim()}
	for j, ar := range adoptionRows {
		row := b.row([]string{ar.label}, func(a *groupAcc) int64 { return a.adoption[j] }, sites)
		if adoptionRows[j].rare && allZero(row) {
			continue // shown only when there is one
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (b *reportBuilder) allBots() *Table {
	t := &Table{ID: TableBots, Title: "Every catalog bot under each definition", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"bot", "category", "definition"}, Columns: verdictColumns,
		Notes: []string{
			"definitions (stats/VERDICTS.md): verdict is robotstat's; somesite is Liu et al. (IMC 2025); cic is Longpre et al. (2024), whose all/some/none show as full/partial/none; cc_class is Common Crawl's, whose disallow-all/allow-part/allow-all show as full/partial/none",
			"by name / by *: of the full verdicts, those where a group names the bot / where only the * group applies",
		}}
	multi := len(b.r.Groups) > 1
	if multi {
		t.Labels = append(t.Labels, b.dim())
	}
	for _, st := range b.r.Bots {
		for d := range NumDefinitions {
			for gi := range st.Groups {
				if !multi && gi > 0 {
					break
				}
				labels := []string{"", "", ""}
				if d == 0 && gi == 0 {
					labels[0], labels[1] = st.Bot, st.Category
				}
				if gi == 0 {
					labels[2] = DefinitionNames[d]
				}
				if multi {
					labels = append(labels, b.r.Groups[gi].Label)
				}
				t.Rows = append(t.Rows, Line{Labels: labels, Cells: verdictCells(&st.Groups[gi], d)})
			}
		}
	}
	t.Notes = append(t.Notes, b.botNotes()...)
	return t
}

func (b *reportBuilder) topRows(tc *topCounter, n int, labels func(k topKey) []string) []Line {
	var rows []Line
	// Rank strata overlap (top 1k is inside top 10k): rank keys by all
	// sites, not by the sum over strata.
	by := -1
	if b.s.opts.By == ByRank {
		by = groupAll
	}
	for _, k := range tc.top(n, len(b.s.groups), by) {
		row := Line{Labels: labels(k)}
		for _, g := range b.keep {
			row.Cells = append(row.Cells, Cell{Count: k.counts[g], Of: b.s.groups[g].Parsed})
		}
		rows = append(rows, row)
	}
	return rows
}

func slackNote(tc *topCounter, what string) []string {
	if tc.slack == 0 {
		return nil
	}
	return []string{fmt.Sprintf("more distinct %s than could be counted at once: counts may be low by up to %d", what, tc.slack)}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (b *reportBuilder) agents() *Table {
	t := &Table{ID: TableAgents, Title: "Top named agents: sites whose robots.txt names the product token", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"token", "catalog bot", "category"}, Columns: b.groupLabels(), Dim: b.dim(),
		Notes: append([]string{fmt.Sprintf("the %d tokens named most often over all sites; tokens are lower-cased (RFC 9309 §2.2.1)", b.s.opts.TopAgents)},
			slackNote(b.s.agents, "tokens")...)}
	t.Rows = b.topRows(b.s.agents, b.s.opts.TopAgents, func(k topKey) []string {
		return []string{k.key, orDash(k.extra[0]), orDash(k.extra[1])}
	})
	return t
}

func (b *reportBuilder) content() *Table {
	t := &Table{ID: TableContent, Title: "What parsed robots.txt contain", Of: "parsed robots.txt", Base: b.base(parsed),
		Labels: []string{"robots.txt with"}, Columns: b.groupLabels(), Dim: b.dim()}
	var hidden []string
	for j, cr := range contentRows {
		row := b.row([]string{cr.label}, func(a *groupAcc) int64 { return a.content[j] }, parsed)
		if cr.rare && allZero(row) {
			hidden = append(hidden, cr.label)
			continue
		}
		t.Rows = append(t.Rows, row)
	}
	if len(hidden) > 0 {
		t.Notes = append(t.Notes, "none has: "+strings.Join(hidden, ", "))
	}
	return t
}

func (b *reportBuilder) directives() *Table {
	t := &Table{ID: TableDirectives, Title: "Non-standard directives: sites whose robots.txt has the key", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"directive", "kind", "read as"}, Columns: b.groupLabels(), Dim: b.dim(),
		Notes: append([]string{fmt.Sprintf("the %d keys other than user-agent, allow and disallow found most often; kind: extension (a known non-standard key), typo (read as a standard key), unknown", b.s.opts.TopDirectives),
			"unknown keys of robots.txt that are an HTML page (contents: HTML page served as robots.txt) are left out: they are the page's script and markup; its known keys count, and its site stays in the denominator"},
			slackNote(b.s.directives, "keys")...)}
	t.Rows = b.topRows(b.s.directives, b.s.opts.TopDirectives, func(k topKey) []string {
		return []string{k.key, k.extra[0], orDash(k.extra[1])}
	})
	return t
}

func (b *reportBuilder) templates() *Table {
	t := &Table{ID: TableTemplates, Title: "Platform templates: parsed robots.txt matching a platform's default", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"template"}, Columns: b.groupLabels(), Dim: b.dim(),
		Notes: []string{"recognised from the rules, not the bytes: a default a site extended still counts (stats/templates.json)"}}
	totals := map[string]int64{}
	for _, g := range b.keep {
		if b.s.opts.By == ByRank && g != groupAll {
			continue // strata overlap: order by all sites
		}
		for name, n := range b.s.groups[g].templates {
			totals[name] += n
		}
	}
	var names []string
	for name := range totals {
		if name != "" {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if totals[names[i]] != totals[names[j]] {
			return totals[names[i]] > totals[names[j]]
		}
		return names[i] < names[j]
	})
	names = append(names, "")
	for _, name := range names {
		label := name
		if name == "" {
			label = "(none)"
		}
		t.Rows = append(t.Rows, b.row([]string{label}, func(a *groupAcc) int64 { return a.templates[name] }, parsed))
	}
	return t
}
