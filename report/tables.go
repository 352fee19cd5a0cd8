package report

import (
	"fmt"
	"sort"

	"github.com/robotstat/robotstat/schema"
)

// Report is what a Tally found, as tables ready to print and the numbers
// behind the charts. It is a plain value that shares nothing with the
// Tally.
type Report struct {
	// By is ByCrawl or ByRank.
	By string
	// Crawls are the crawls fed, in order ("" for unknown).
	Crawls []string
	// Groups are the report's columns; every table's Columns that are
	// groups follow this order.
	Groups []Group
	// Tables in the order they are printed.
	Tables []*Table
	// Bots are the catalog bots in the order the bots table first named
	// them (the catalog's), with their counts per group.
	Bots []BotStat
	// AIOrder indexes the AI bots in Bots in the order of the AI table:
	// most often fully blocked first in the last group (the latest crawl,
	// or all sites by rank), ties in catalog order.
	AIOrder []int
	// FilterBytes is the most memory the site filters held at once.
	FilterBytes int64
	// RankedSites is the number of sites with a rank (captures.rank), over
	// every crawl.
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
	// ID is a stable short name (an HTML anchor).
	ID    string
	Title string
	// Of says what the percentages are shares of ("sites", "parsed
	// robots.txt", ...); Base gives that denominator per group.
	Of   string
	Base []Base
	// Labels are the headers of the label columns, Columns of the value
	// columns.
	Labels, Columns []string
	Rows            []Line
	// Notes qualify the numbers (pruned counts, per-row denominators).
	Notes []string
}

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
	TableCaptures   = "captures"
	TableStatus     = "status"
	TableAdoption   = "adoption"
	TableAIBlocking = "ai-blocking"
	TableBots       = "bots"
	TableAgents     = "agents"
	TableContent    = "content"
	TableDirectives = "directives"
	TableTemplates  = "templates"
)

// Report builds the tables from what has been fed so far.
func (s *Tally) Report() *Report {
	keep := s.keptGroups()
	r := &Report{By: s.opts.By, Crawls: append([]string(nil), s.crawls...), FilterBytes: s.peak, RankedSites: s.rankedSites}
	for _, g := range keep {
		r.Groups = append(r.Groups, s.groups[g].Group)
	}
	for bi, b := range s.bots {
		st := BotStat{BotIdent: b, AI: schema.IsAICategory(b.Category)}
		for _, g := range keep {
			var bc BotCounts
			if a := s.groups[g]; bi < len(a.bots) {
				bc = a.bots[bi]
			}
			st.Groups = append(st.Groups, bc)
		}
		r.Bots = append(r.Bots, st)
	}
	b := reportBuilder{s: s, r: r, keep: keep}
	r.AIOrder = b.aiOrder()
	r.Tables = []*Table{
		b.captures(), b.status(), b.adoption(), b.aiBlocking(), b.allBots(),
		b.agents(), b.content(), b.directives(), b.templates(),
	}
	return r
}

// keptGroups returns the groups to report: all of them, except the stratum
// of ranks beyond a million when no capture has one.
func (s *Tally) keptGroups() []int {
	var keep []int
	for g, a := range s.groups {
		if s.opts.By == ByRank && g == groupOver1M && a.Sites == 0 {
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

func (b *reportBuilder) captures() *Table {
	// By crawl, shares of the captures read; by rank (captures have no
	// stratum of their own), of the sites' candidates.
	of, base := "captures read", captures
	if b.r.By == ByRank {
		of, base = "candidates", candidates
	}
	t := &Table{ID: TableCaptures, Title: "Captures and sites", Of: of, Base: b.base(base),
		Labels: []string{"count"}, Columns: b.groupLabels(),
		Notes: []string{"a site is a crawl and a host (the sites table): its candidates are the crawl's captures of the host's /robots.txt, and its answer the best of them, redirects followed"}}
	if b.r.By == ByCrawl {
		t.Rows = append(t.Rows, b.row([]string{"captures read"}, func(a *groupAcc) int64 { return a.Captures }, base))
	}
	t.Rows = append(t.Rows,
		b.row([]string{"candidates: captures of a site's /robots.txt"}, func(a *groupAcc) int64 { return a.Candidates }, base),
		b.row([]string{"sites"}, func(a *groupAcc) int64 { return a.Sites }, base),
		b.row([]string{"sites answered through a redirect"}, func(a *groupAcc) int64 { return a.Redirected }, base),
	)
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
		Labels: []string{"outcome", "status class"}, Columns: b.groupLabels(),
		Notes: []string{"outcome is how RFC 9309 treats the site's answer (parsed: 2xx or no status; unavailable: 4xx, or more than five redirects; unreachable: 5xx; unresolved: a redirect to a URL the crawl never captured); the status is the answering capture's, its class Common Crawl's (success is 200 only)"}}
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
		Labels: []string{"sites answering /robots.txt with"}, Columns: b.groupLabels()}
	for j, ar := range adoptionRows {
		row := b.row([]string{ar.label}, func(a *groupAcc) int64 { return a.adoption[j] }, sites)
		if adoptionRows[j].rare && allZero(row) {
			continue // shown only when there is one
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

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
		v, _ := Cell{Count: bc.Class(DefVerdict, ClassFull), Of: bc.Sites}.Share()
		return v
	}
	sort.SliceStable(idx, func(x, y int) bool { return share(idx[x]) > share(idx[y]) })
	return idx
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
	notes := []string{"a bot's denominator is the parsed robots.txt with a bots row for it"}
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

func (b *reportBuilder) aiBlocking() *Table {
	t := &Table{ID: TableAIBlocking, Title: "AI bots: sites that block them fully (robotstat verdict)", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"bot", "operator", "category"}}
	order := b.r.AIOrder
	if len(b.r.Groups) == 1 {
		t.Columns = verdictColumns
		t.Notes = []string{"full: no path may be fetched; by name: a group names the bot; by *: only the * group applies; partial: some paths may not be fetched; none: every path may be"}
		for _, i := range order {
			st := &b.r.Bots[i]
			t.Rows = append(t.Rows, Line{Labels: []string{st.Bot, st.Operator, st.Category}, Cells: verdictCells(&st.Groups[0], DefVerdict)})
		}
	} else {
		t.Columns = b.groupLabels()
		t.Notes = []string{"full: no path of the site may be fetched by the bot (stats/VERDICTS.md)"}
		for _, i := range order {
			st := &b.r.Bots[i]
			row := Line{Labels: []string{st.Bot, st.Operator, st.Category}}
			for gi := range st.Groups {
				bc := &st.Groups[gi]
				row.Cells = append(row.Cells, Cell{bc.Class(DefVerdict, ClassFull), bc.Sites})
			}
			t.Rows = append(t.Rows, row)
		}
	}
	if b.s.opts.By == ByRank {
		t.Notes = append(t.Notes, "ordered by the share of all sites")
	} else {
		t.Notes = append(t.Notes, "ordered by the share in "+b.r.Groups[max(b.refGroup(), 0)].Label)
	}
	t.Notes = append(t.Notes, b.botNotes()...)
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
		t.Labels = append(t.Labels, b.groupDimension())
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

func (b *reportBuilder) groupDimension() string {
	if b.s.opts.By == ByRank {
		return "stratum"
	}
	return "crawl"
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
		Base: b.base(parsed), Labels: []string{"token", "catalog bot", "category"}, Columns: b.groupLabels(),
		Notes: append([]string{fmt.Sprintf("the %d tokens named most often over all sites; tokens are lower-cased (RFC 9309 §2.2.1)", b.s.opts.TopAgents)},
			slackNote(b.s.agents, "tokens")...)}
	t.Rows = b.topRows(b.s.agents, b.s.opts.TopAgents, func(k topKey) []string {
		return []string{k.key, orDash(k.extra[0]), orDash(k.extra[1])}
	})
	return t
}

func (b *reportBuilder) content() *Table {
	t := &Table{ID: TableContent, Title: "What parsed robots.txt contain", Of: "parsed robots.txt", Base: b.base(parsed),
		Labels: []string{"robots.txt with"}, Columns: b.groupLabels()}
	for j, cr := range contentRows {
		t.Rows = append(t.Rows, b.row([]string{cr.label}, func(a *groupAcc) int64 { return a.content[j] }, parsed))
	}
	return t
}

func (b *reportBuilder) directives() *Table {
	t := &Table{ID: TableDirectives, Title: "Non-standard directives: sites whose robots.txt has the key", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"directive", "kind", "read as"}, Columns: b.groupLabels(),
		Notes: append([]string{fmt.Sprintf("the %d keys other than user-agent, allow and disallow found most often; kind: extension (a known non-standard key), typo (read as a standard key), unknown", b.s.opts.TopDirectives)},
			slackNote(b.s.directives, "keys")...)}
	t.Rows = b.topRows(b.s.directives, b.s.opts.TopDirectives, func(k topKey) []string {
		return []string{k.key, k.extra[0], orDash(k.extra[1])}
	})
	return t
}

func (b *reportBuilder) templates() *Table {
	t := &Table{ID: TableTemplates, Title: "Platform templates: parsed robots.txt matching a platform's default", Of: "parsed robots.txt",
		Base: b.base(parsed), Labels: []string{"template"}, Columns: b.groupLabels(),
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
