package report

import (
	"fmt"
	"slices"
	"strings"
)

// The page's charts, built from a Report: what each shows, over which
// population and stratum, and the variants the page's switches choose
// between (a variant per population, all sites or the panel, and for the
// lead chart per strata view, pooled or by rank stratum).

// variant is one state of a switchable chart.
type variant struct {
	Class  string // "variant v-all v-pooled": which switch states show it
	Note   string
	Legend []legendItem
	Panels []*trendPanel
}

// switches say which views the page offers.
type switches struct {
	Panel, Strata               bool // a panel, and ranks, to switch to
	PanelOn, StrataOn           bool // which is checked when the page opens
	PanelLabel, PanelHostsLabel string
}

func (sw switches) pops() []int {
	if sw.Panel {
		return []int{PopAll, PopPanel}
	}
	return []int{PopAll}
}

// variantClass returns the classes of a variant for population pop and
// strata view st ("" for a chart without one).
func variantClass(pop int, st string) string {
	c := "variant v-" + PopNames[pop]
	if st == "" {
		return c + " v-any"
	}
	return c + " v-" + st
}

// leadBots are the bots the trend charts draw: the leading AI bots, then
// the line that stands for the AI bots only * decides.
func leadBots(r *Report) []int {
	bots := append([]int(nil), r.Leading...)
	if len(r.StarOnly) > 0 {
		bots = append(bots, r.StarOnly[0])
	}
	return bots
}

// botName is how a chart names bot bi; the line of the AI bots only *
// decides says so in its tooltip (botTitle).
func botName(r *Report, bi int) string { return r.botLabel(bi) }

func botTitle(r *Report, bi int) string {
	if len(r.StarOnly) > 0 && bi == r.StarOnly[0] {
		return "only * applies to these bots: " + strings.Join(starOnlyNames(r), ", ")
	}
	return r.Bots[bi].Bot
}

// lowSuffix flags a chart figure's n under 100 with "!", as the tables
// do (the page's preamble says what it means); the figure is drawn in the
// warning colour too.
func lowSuffix(c Cell) string {
	if c.LowN() {
		return lowMark
	}
	return ""
}

// upper is the top of a share's 95% interval (0 without a share): the
// charts' scales leave room for the whiskers.
func upper(c Cell) float64 {
	_, hi, _ := c.Interval()
	return hi
}

// leadVariants are the small multiples of the lead chart over time: one
// panel per leading bot, the full blocks by name stacked on those by *.
func leadVariants(r *Report, sw switches) []variant {
	t := r.Trend
	a := newTimeAxis(t.Crawls)
	bots := leadBots(r)
	// One scale for every panel of both populations, so the switch does
	// not rescale what it compares.
	maxV := 0.0
	for _, pop := range sw.pops() {
		for _, p := range t.Points[pop][StratumAll] {
			for _, bi := range bots {
				bc := p.Bot(bi)
				maxV = max(maxV, upper(fullCell(&bc, DefVerdict)))
			}
		}
	}
	top, step := niceMax(maxV, 4)
	var out []variant
	for _, pop := range sw.pops() {
		v := variant{Class: variantClass(pop, "pooled"), Legend: []legendItem{{Color: colourNamed, Label: "by name: a group names the bot"}, {Color: colourStar, Label: "by *: only the * group applies"}}}
		for k, bi := range bots {
			var named, star []Cell
			for _, p := range t.Points[pop][StratumAll] {
				bc := p.Bot(bi)
				named = append(named, Cell{bc.Counts[MatchedNamed][DefVerdict][ClassFull], bc.Sites})
				star = append(star, Cell{bc.Counts[MatchedStar][DefVerdict][ClassFull], bc.Sites})
			}
			p := areaPanel(a, top, step, botName(r, bi), named, star, fmt.Sprintf("lead-%s-pooled-%d", PopNames[pop], k))
			p.Title = botTitle(r, bi)
			p.Data = []attr{{"bot", r.Bots[bi].Bot}}
			if len(r.StarOnly) > 0 && bi == r.StarOnly[0] {
				p.Data = []attr{{"bots", strings.Join(starOnlyNames(r), ",")}}
			}
			v.Panels = append(v.Panels, p)
		}
		if pop == PopPanel {
			v.Note = fmt.Sprintf("Panel: the %s hosts that are a parsed site in every crawl.", formatCount(t.PanelHosts))
		}
		out = append(out, v)
	}
	if !sw.Strata {
		return out
	}
	strata := shownStrata(r)
	for _, pop := range sw.pops() {
		v := variant{Class: variantClass(pop, "strata")}
		maxS := 0.0
		for _, st := range strata {
			for _, p := range t.Points[pop][st] {
				for _, bi := range bots {
					bc := p.Bot(bi)
					maxS = max(maxS, upper(fullCell(&bc, DefVerdict)))
				}
			}
		}
		topS, stepS := niceMax(maxS, 4)
		for k, st := range strata {
			v.Legend = append(v.Legend, legendItem{Color: seriesColours[k%len(seriesColours)], Label: StratumNames[st]})
		}
		v.Legend = append(v.Legend, legendItem{Color: colourMuted, Label: "all ranks", Dash: "4 3"})
		for k, bi := range bots {
			var series []lineSeries
			for j, st := range strata {
				series = append(series, lineSeries{Label: StratumNames[st], Colour: seriesColours[j%len(seriesColours)], Cells: fullCells(t.Points[pop][st], bi)})
			}
			series = append(series, lineSeries{Label: "all ranks", Colour: colourMuted, Dash: "4 3", Cells: fullCells(t.Points[pop][StratumAll], bi)})
			p := linePanel(a, topS, stepS, botName(r, bi), series, fmt.Sprintf("lead-%s-strata-%d", PopNames[pop], k), "% of parsed sites")
			p.Title = botTitle(r, bi)
			p.Data = []attr{{"bot", r.Bots[bi].Bot}}
			v.Panels = append(v.Panels, p)
		}
		v.Note = "By rank stratum (cumulative: top 1k is part of top 10k); full blocks by name and by * together."
		if pop == PopPanel {
			v.Note += fmt.Sprintf(" Panel: the %s hosts that are a parsed site in every crawl.", formatCount(t.PanelHosts))
		}
		out = append(out, v)
	}
	return out
}

func starOnlyNames(r *Report) []string {
	var s []string
	for _, i := range r.StarOnly {
		s = append(s, r.Bots[i].Bot)
	}
	return s
}

func fullCells(pts []TrendPoint, bi int) []Cell {
	var out []Cell
	for _, p := range pts {
		bc := p.Bot(bi)
		out = append(out, fullCell(&bc, DefVerdict))
	}
	return out
}

// shownStrata are the strata that have parsed sites in some crawl, all
// sites left out (the strata variant draws it as its own line).
func shownStrata(r *Report) []int {
	var out []int
	for st := StratumTop1k; st < NumStrata; st++ {
		for _, p := range r.Trend.Points[PopAll][st] {
			if p.Parsed > 0 {
				out = append(out, st)
				break
			}
		}
	}
	return out
}

// leadBars is the lead chart of a report with one column: a bar per AI bot
// some robots.txt names, and one for every other AI bot.
func leadBars(r *Report, narrow bool) *svgFig {
	g := len(r.Groups) - 1
	var rows []hbarRow
	add := func(bi int, label string, data []attr) {
		bc := &r.Bots[bi].Groups[g]
		named := Cell{bc.Counts[MatchedNamed][DefVerdict][ClassFull], bc.Sites}
		star := Cell{bc.Counts[MatchedStar][DefVerdict][ClassFull], bc.Sites}
		full := fullCell(bc, DefVerdict)
		nv, _ := named.Share()
		sv, _ := star.Share()
		fv, _ := full.Share()
		rows = append(rows, hbarRow{Label: label, Value: fmt.Sprintf("%s %s (%s of %s%s)", formatShare(full), formatInterval(full), formatCount(full.Count), formatCount(full.Of), lowSuffix(full)), Low: full.LowN(),
			Title:    fmt.Sprintf("%s: %s; by name %s, by * %s", label, cellTitle(full, "parsed robots.txt"), formatCount(named.Count), formatCount(star.Count)),
			Data:     append(data, attr{"share", fmt.Sprintf("%.6f", fv)}),
			Segments: []hbarSeg{{V: nv, Colour: colourNamed, Class: "named"}, {V: sv, Colour: colourStar, Class: "star"}},
			CI:       hbarIntervals("#0b2545", full)})
	}
	for _, bi := range r.Named {
		add(bi, r.botLabel(bi), []attr{{"bot", r.Bots[bi].Bot}})
	}
	if len(r.StarOnly) > 0 {
		add(r.StarOnly[0], r.starOnlyLabel(), []attr{{"bots", strings.Join(starOnlyNames(r), ",")}})
	}
	fig := hbarChart("svg-ai-blocking", "Share of parsed robots.txt that block each AI bot fully, "+r.Groups[g].Label, rows, narrow, false, false)
	fig.Data = []attr{{"group", r.Groups[g].Label}}
	return fig
}

// categoryVariants are the roll-ups over time: some, and every, bot of
// each AI category fully blocked, one line per category.
func categoryVariants(r *Report, sw switches) []variant {
	t := r.Trend
	a := newTimeAxis(t.Crawls)
	var out []variant
	for _, pop := range sw.pops() {
		v := variant{Class: variantClass(pop, "")}
		maxV := 0.0
		for _, p := range t.Points[pop][StratumAll] {
			for k := range numCategories {
				maxV = max(maxV, upper(Cell{p.Cats[k].Some, p.Cats[k].Sites}))
			}
		}
		top, step := niceMax(maxV, 4)
		for k, c := range aiCategories {
			v.Legend = append(v.Legend, legendItem{Color: seriesColours[k%len(seriesColours)], Label: c})
		}
		var notes []string
		for m, title := range []string{"some bot", "every bot"} {
			var series []lineSeries
			for k, c := range aiCategories {
				var cells []Cell
				for _, p := range t.Points[pop][StratumAll] {
					n := p.Cats[k].Some
					if m == 1 {
						n = p.Cats[k].Every
					}
					cells = append(cells, Cell{n, p.Cats[k].Sites})
				}
				series = append(series, lineSeries{Label: c, Colour: seriesColours[k%len(seriesColours)], Cells: cells})
			}
			p := linePanel(a, top, step, title+" of the category blocked", series, fmt.Sprintf("cat-%s-%d", PopNames[pop], m), "% of parsed sites")
			p.Title = "sites that block " + title + " of the category fully"
			v.Panels = append(v.Panels, p)
			if same := coinciding(series); same != "" {
				notes = append(notes, fmt.Sprintf("In %q the lines of %s coincide.", p.Name, same))
			}
		}
		v.Note = strings.Join(notes, " ")
		out = append(out, v)
	}
	return out
}

// categoryBars are the roll-ups of a report with one column: per category,
// the sites that block some bot of it (light) and every bot of it (dark).
func categoryBars(r *Report, narrow bool) *svgFig {
	var rows []hbarRow
	cats := r.Trend.Points[PopAll][StratumAll]
	if r.Panel {
		cats = r.Trend.Points[PopPanel][StratumAll]
	}
	p := cats[len(cats)-1]
	for k, c := range aiCategories {
		some, every := Cell{p.Cats[k].Some, p.Cats[k].Sites}, Cell{p.Cats[k].Every, p.Cats[k].Sites}
		sv, _ := some.Share()
		ev, _ := every.Share()
		rows = append(rows, hbarRow{Label: c, Value: fmt.Sprintf("some %s %s, every %s %s, n=%s%s", formatShare(some), formatInterval(some), formatShare(every), formatInterval(every), formatCount(some.Of), lowSuffix(some)), Low: some.LowN(),
			Title:    fmt.Sprintf("%s: some bot %s; every bot %s", c, cellTitle(some, "parsed robots.txt"), cellTitle(every, "parsed robots.txt")),
			Data:     []attr{{"category", c}, {"some", fmt.Sprintf("%.6f", sv)}, {"every", fmt.Sprintf("%.6f", ev)}},
			Segments: []hbarSeg{{V: sv, Colour: colourStar, Class: "some"}, {V: ev, Colour: colourNamed, Class: "every"}},
			CI:       append(hbarIntervals("#2b5d8f", some), hbarIntervals("#0b2545", every)...)})
	}
	return hbarChart("svg-categories", "Sites that block some or every bot of each AI category fully", rows, narrow, true, false)
}

// cohortVariants draw, per leading bot, the hosts by the crawl of their
// first full block.
func cohortVariants(r *Report, sw switches) []variant {
	t := r.Trend
	a := newTimeAxis(t.Crawls)
	bots := leadBots(r)
	maxV := 0.0
	for _, pop := range sw.pops() {
		for _, bi := range bots {
			for _, c := range t.Cohorts[pop][StratumAll][bi] {
				maxV = max(maxV, float64(c.First))
			}
		}
	}
	top, step := niceCount(maxV, 4)
	var out []variant
	for _, pop := range sw.pops() {
		v := variant{Class: variantClass(pop, ""), Legend: []legendItem{{Color: colourNamed, Label: "still blocked in the host's last crawl"}, {Color: "#e69f00", Label: "later unblocked"}}}
		for k, bi := range bots {
			p := cohortPanel(a, top, step, botName(r, bi), t.Cohorts[pop][StratumAll][bi], fmt.Sprintf("cohort-%s-%d", PopNames[pop], k))
			p.Title = botTitle(r, bi)
			p.Data = []attr{{"bot", r.Bots[bi].Bot}}
			v.Panels = append(v.Panels, p)
		}
		v.Note = fmt.Sprintf("Of the %s hosts that are a parsed site in some crawl.", formatCount(t.Hosts[pop][StratumAll]))
		if pop == PopPanel {
			v.Note = fmt.Sprintf("Of the %s panel hosts.", formatCount(t.Hosts[pop][StratumAll]))
		}
		out = append(out, v)
	}
	return out
}

// definitionBars draw, for the leading bots in the reference column, how
// far each other definition's full-block share is from the robotstat
// verdict's, in percentage points.
func definitionBars(r *Report, narrow bool) *svgFig {
	g := len(r.Groups) - 1
	var rows []hbarRow
	for _, bi := range leadBots(r) {
		bc := &r.Bots[bi].Groups[g]
		base, _ := fullCell(bc, DefVerdict).Share()
		row := hbarRow{Label: botName(r, bi), Data: []attr{{"bot", r.Bots[bi].Bot}}}
		var parts, diffs []string
		for d := DefSomesite; d < NumDefinitions; d++ {
			v, _ := fullCell(bc, d).Share()
			row.Segments = append(row.Segments, hbarSeg{V: v - base, Colour: definitionStyles[d].Color, Class: "def-" + DefinitionNames[d],
				Title: fmt.Sprintf("%s: %s %s %s, verdict %s %s (%s), n=%s", botName(r, bi), DefinitionNames[d], formatShare(fullCell(bc, d)), formatInterval(fullCell(bc, d)),
					formatShare(fullCell(bc, DefVerdict)), formatInterval(fullCell(bc, DefVerdict)), ppLabel(v-base), formatCount(bc.Sites))})
			parts = append(parts, ppLabel(v-base))
			diffs = append(diffs, fmt.Sprintf("%.6f", v-base))
		}
		row.Value = strings.Join(parts, " / ") + ", n=" + formatCount(bc.Sites) + lowSuffix(fullCell(bc, DefVerdict))
		row.Low = fullCell(bc, DefVerdict).LowN()
		row.Data = append(row.Data, attr{"diffs", strings.Join(diffs, ",")})
		rows = append(rows, row)
	}
	fig := hbarChart("svg-definitions", "Each definition's full-block share minus the robotstat verdict's, "+r.Groups[g].Label, rows, narrow, false, true)
	fig.Data = []attr{{"group", r.Groups[g].Label}}
	return fig
}

// shareRow is one 100% bar: a group's sites split into parts.
type shareRow struct {
	Label, Sites string
	Segments     []shareSeg
}

type shareSeg struct {
	Class, Color, Ink, Title string
	Cell                     Cell
}

// shareBars draw one 100% bar per row, each part with its share inside
// when it fits; the narrow layout puts the row's label above its bar.
func shareBars(id, label string, rows []shareRow, narrow bool) *svgFig {
	fig := &svgFig{ID: id, Class: "status wide", Width: 920, Label: label}
	maxLabel := 0.0
	for _, r := range rows {
		maxLabel = max(maxLabel, textWidth(r.Label, 12))
	}
	plotX := max(16, min(maxLabel, 230)+16)
	plotW := fig.Width - plotX - 110
	if narrow {
		fig.ID, fig.Class, fig.Width, plotX = id+"-narrow", "status narrow", 360, 2
		plotW = fig.Width - 4
	}
	y := 6.0
	for _, r := range rows {
		g := el{Kind: "g", Class: "share-row", Data: []attr{{"group", r.Label}}}
		var by float64
		if narrow {
			g.Children = append(g.Children, text(plotX, y+12, r.Label, 12, "start", ""), text(plotX+plotW, y+12, r.Sites, 11.5, "end", "sites"))
			by = y + 17
			y += 17 + 24 + 12
		} else {
			g.Children = append(g.Children, text(plotX-8, y+16, r.Label, 12, "end", ""), text(plotX+plotW+8, y+16, r.Sites, 11.5, "start", "sites"))
			by = y
			y += 24 + 10
		}
		x := plotX
		for _, s := range r.Segments {
			v, ok := s.Cell.Share()
			if !ok || s.Cell.Count == 0 {
				continue
			}
			w := v * plotW
			g.Children = append(g.Children, rect(x, by, w, 24, s.Color, s.Class, s.Title))
			if txt := formatShare(s.Cell); textWidth(txt, 11)+8 <= w {
				t := text(x+w/2, by+16, txt, 11, "middle", "inside")
				t.Fill = s.Ink
				g.Children = append(g.Children, t)
			}
			x += w
		}
		fig.Els = append(fig.Els, g)
	}
	fig.Height = y
	return fig
}

var outcomeStyles = []struct {
	Key, Color, Ink, Label string
	sites                  func(g *Group) int64
}{
	{"parsed", "#009e73", "#ffffff", "parsed (2xx)", func(g *Group) int64 { return g.Parsed }},
	{"unavailable", "#56b4e9", "#102a43", "unavailable (4xx: all allowed)", func(g *Group) int64 { return g.Unavailable }},
	{"unreachable", "#d55e00", "#ffffff", "unreachable (5xx: all disallowed)", func(g *Group) int64 { return g.Unreachable }},
	{"unresolved", "#e69f00", "#102a43", "unresolved (redirect not captured)", func(g *Group) int64 { return g.Unresolved }},
	{"other", "#999999", "#ffffff", "other", func(g *Group) int64 { return g.Other }},
}

// statusBars split each group's sites by outcome.
func statusBars(r *Report, narrow bool) (*svgFig, []legendItem) {
	var rows []shareRow
	other := false
	for _, g := range r.Groups {
		row := shareRow{Label: g.Label, Sites: "n=" + formatCount(g.Sites) + lowSuffix(Cell{0, g.Sites}) + " sites"}
		for _, o := range outcomeStyles {
			c := Cell{o.sites(&g), g.Sites}
			row.Segments = append(row.Segments, shareSeg{Class: o.Key, Color: o.Color, Ink: o.Ink, Cell: c,
				Title: fmt.Sprintf("%s: %s, %s", o.Label, g.Label, cellTitle(c, "sites"))})
		}
		other = other || g.Other > 0
		rows = append(rows, row)
	}
	var legend []legendItem
	for _, o := range outcomeStyles {
		if o.Key != "other" || other {
			legend = append(legend, legendItem{Color: o.Color, Label: o.Label})
		}
	}
	return shareBars("svg-status", "Sites by outcome", rows, narrow), legend
}

// The parts of the signals chart: the training preference by signal
// against the rules, grouped.
var signalParts = []struct {
	Key, Color, Ink, Label string
	cells                  [][2]int // stance, block
}{
	{"both-refuse", "#0072b2", "#ffffff", "signal and rules refuse training", [][2]int{{stanceRefuse, blockEvery}, {stanceRefuse, blockSome}}},
	{"signal-only", "#56b4e9", "#102a43", "signal refuses, rules let the training bots in", [][2]int{{stanceRefuse, blockNone}}},
	{"contradict", "#d55e00", "#ffffff", "signal allows training, rules block training bots", [][2]int{{stanceAllow, blockEvery}, {stanceAllow, blockSome}}},
	{"both-allow", "#009e73", "#ffffff", "signal allows, rules let them in", [][2]int{{stanceAllow, blockNone}}},
	{"rules-only", "#cc79a7", "#ffffff", "no signal, rules block training bots", [][2]int{{stanceNone, blockEvery}, {stanceNone, blockSome}}},
	{"neither", "#d0d7de", "#1f2328", "no signal, rules let them in", [][2]int{{stanceNone, blockNone}}},
}

// signalBars split each group's parsed sites by what signal and rules say
// of AI training, from the signals-vs-rules table.
func signalBars(r *Report, t *Table, narrow bool) (*svgFig, []legendItem) {
	var rows []shareRow
	for gi, g := range r.Groups {
		row := shareRow{Label: g.Label, Sites: "n=" + formatCount(g.Parsed) + lowSuffix(Cell{0, g.Parsed}) + " parsed"}
		for _, p := range signalParts {
			var n int64
			for _, sb := range p.cells {
				n += crossCell(t, sb[0], sb[1], gi)
			}
			c := Cell{n, g.Parsed}
			row.Segments = append(row.Segments, shareSeg{Class: p.Key, Color: p.Color, Ink: p.Ink, Cell: c,
				Title: fmt.Sprintf("%s: %s, %s", p.Label, g.Label, cellTitle(c, "parsed sites"))})
		}
		rows = append(rows, row)
	}
	var legend []legendItem
	for _, p := range signalParts {
		legend = append(legend, legendItem{Color: p.Color, Label: p.Label})
	}
	return shareBars("svg-signals", "Parsed sites by what signal and rules say of AI training", rows, narrow), legend
}

// crossCell reads one stance × block count of group gi back from the
// signals-vs-rules table (0 for a row the table left out).
func crossCell(t *Table, stance, block, gi int) int64 {
	label := stanceLabels[stance]
	cur := ""
	for _, row := range t.Rows {
		if row.Labels[0] != "" {
			cur = row.Labels[0]
		}
		if cur == label && row.Labels[1] == blockLabels[block] {
			return row.Cells[gi].Count
		}
	}
	return 0
}

// coinciding names the series drawn on top of one another (the same cells
// at every crawl), "" when none are.
func coinciding(series []lineSeries) string {
	var groups []string
	done := make([]bool, len(series))
	for i := range series {
		if done[i] {
			continue
		}
		names := []string{series[i].Label}
		for j := i + 1; j < len(series); j++ {
			if !done[j] && slices.Equal(shares(series[i].Cells), shares(series[j].Cells)) {
				names = append(names, series[j].Label)
				done[j] = true
			}
		}
		if len(names) > 1 {
			groups = append(groups, strings.Join(names, ", "))
		}
	}
	return strings.Join(groups, "; and of ")
}

// shares are the cells' shares as drawn (a cell without a denominator is
// no point).
func shares(cells []Cell) []float64 {
	out := make([]float64, len(cells))
	for i, c := range cells {
		v, ok := c.Share()
		if !ok {
			v = -1
		}
		out[i] = v
	}
	return out
}
