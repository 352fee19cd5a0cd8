package report

import (
	"fmt"
	"math"
	"strings"
)

// The charts of the HTML report, as geometry: report_html.go's template
// draws them as inline SVG, so every string from the data is escaped by
// html/template. Coordinates are in SVG user units; each chart has a
// viewBox and scales to its container.

// Colours: two blues for the two ways a bot is blocked (#1d4e89 by name,
// #7fb2e5 by *, in the template), and for the four definitions and the
// outcomes hues that stay apart for the common kinds of colour blindness
// (Okabe and Ito's palette), with dash patterns as a second cue.
var definitionStyles = [NumDefinitions]struct{ Color, Dash, Label string }{
	{"#0072b2", "", "verdict (robotstat)"},
	{"#e69f00", "6 3", "somesite (Liu et al.)"},
	{"#009e73", "2 3", "cic (Longpre et al.)"},
	{"#cc79a7", "8 3 2 3", "cc_class (Common Crawl)"},
}

// textWidth estimates the width of s in 12px system sans-serif; it errs on
// the wide side so labels never overlap what follows them.
func textWidth(s string, px float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("il.,:;|!'()[] ", r):
			w += 0.32
		case strings.ContainsRune("mwMW%", r):
			w += 0.9
		case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			w += 0.66
		default:
			w += 0.56
		}
	}
	return w * px
}

// niceMax returns an axis maximum at or above v and its tick step: at most
// steps steps of 1, 2, 2.5 or 5 times a power of ten, up to 1 (100%).
func niceMax(v float64, steps int) (top, step float64) {
	if v <= 0 {
		return 0.1, 0.05
	}
	for _, s := range []float64{0.001, 0.002, 0.0025, 0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5} {
		top = s * math.Ceil(v/s-1e-9)
		if top/s <= float64(steps)+1e-9 {
			return min(top, 1), s
		}
	}
	return 1, 0.5
}

// percentLabel writes an axis tick: "25%", "2.5%".
func percentLabel(v float64) string {
	s := fmt.Sprintf("%.1f", 100*v)
	s = strings.TrimSuffix(s, ".0")
	return s + "%"
}

type tick struct {
	Pos    float64 // x or y
	Label  string
	Anchor string // text-anchor of an x tick: middle, or start/end at the edges
}

// barChart is a horizontal stacked bar per AI bot: the sites that block it
// fully by naming it, then those where only * does. The wide layout puts
// each bot's name left of its bar; the narrow one (phones) above it.
type barChart struct {
	Narrow        bool
	Width, Height float64
	PlotX, PlotW  float64
	Top, Bottom   float64 // plot area's y range, for grid lines
	AxisY, TopY   float64 // y of the tick labels below and above the bars
	Ticks         []tick
	Bars          []bar
	Group         string // which column the chart shows
}

type bar struct {
	Bot           string
	Share         float64 // full / denominator
	Y, H          float64
	LabelX        float64
	LabelY        float64
	LabelAnchor   string
	Named, Star   float64 // widths
	StarX         float64
	ValueX        float64
	ValueY        float64
	Value         string // "68.1% (32)"
	NamedN, StarN int64
}

const barH, barGap = 15.0, 5.0

func newBarChart(r *Report, order []int, group int, narrow bool) *barChart {
	c := &barChart{Narrow: narrow, Width: 920, Group: r.Groups[group].Label}
	if narrow {
		c.Width = 360
	}
	maxShare, maxLabel, maxValue := 0.0, 0.0, 0.0
	value := func(c Cell) string { return fmt.Sprintf("%s (%s)", formatShare(c), formatCount(c.Count)) }
	for _, i := range order {
		st := &r.Bots[i]
		maxLabel = max(maxLabel, textWidth(st.Bot, 12))
		f := fullCell(&st.Groups[group], DefVerdict)
		maxValue = max(maxValue, textWidth(value(f), 11.5))
		if v, ok := f.Share(); ok {
			maxShare = max(maxShare, v)
		}
	}
	top, step := niceMax(maxShare, 5)
	c.PlotX = math.Ceil(min(maxLabel, 230)) + 16
	if narrow {
		c.PlotX = 4
	}
	c.PlotW = c.Width - c.PlotX - math.Ceil(maxValue) - 12
	c.TopY, c.Top = 12, 20 // a tall chart gets its scale at the top too
	y := c.Top + 4
	for _, i := range order {
		st := &r.Bots[i]
		bc := &st.Groups[group]
		named := bc.Counts[MatchedNamed][DefVerdict][ClassFull]
		star := bc.Counts[MatchedStar][DefVerdict][ClassFull]
		f := fullCell(bc, DefVerdict)
		share, _ := f.Share()
		scale := func(n int64) float64 {
			if bc.Sites == 0 {
				return 0
			}
			return float64(n) / float64(bc.Sites) / top * c.PlotW
		}
		b := bar{Bot: st.Bot, Share: share, H: barH, Named: scale(named), Star: scale(star), NamedN: named, StarN: star,
			Value: value(f)}
		if narrow {
			// name on a line of its own, the bar below it
			b.LabelX, b.LabelY, b.LabelAnchor = c.PlotX+3, y+11, "start"
			b.Y = y + 15
			y += 15 + barH + 9
		} else {
			b.LabelX, b.LabelY, b.LabelAnchor = c.PlotX-8, y+barH/2+4.2, "end"
			b.Y = y
			y += barH + barGap
		}
		b.StarX = c.PlotX + b.Named
		b.ValueX = c.PlotX + scale(f.Count) + 6
		b.ValueY = b.Y + barH/2 + 4.2
		c.Bars = append(c.Bars, b)
	}
	c.Bottom = y
	c.AxisY = y + 14
	c.Height = y + 24
	for v := 0.0; v <= top+1e-9; v += step {
		c.Ticks = append(c.Ticks, tick{Pos: c.PlotX + v/top*c.PlotW, Label: percentLabel(v)})
	}
	if narrow && len(c.Ticks) > 0 {
		c.Ticks[0].Pos = max(c.Ticks[0].Pos, 8) // keep "0%" inside
	}
	return c
}

// fullCell is the sites that block a bot fully under definition def, of
// the sites with a bots row for it: the share every chart of the page
// draws.
func fullCell(bc *BotCounts, def int) Cell {
	return Cell{Count: bc.Class(def, ClassFull), Of: bc.Sites}
}

// lineChart is one AI bot's full share over the groups under the four
// definitions.
type lineChart struct {
	Bot           string
	Others        []string // for the chart of the AI bots no robots.txt names: their tokens
	Width, Height float64
	PlotX, PlotW  float64
	PlotY, PlotH  float64
	YTicks        []tick
	XTicks        []tick
	Lines         []line
	Last          string // the robotstat verdict in the last group, as text
}

type line struct {
	Def, Color, Dash string
	Points           string // "x,y x,y"
	Values           string // shares, comma-separated, for tests and tooltips
	Dots             []dot
}

type dot struct {
	X, Y  float64
	Title string
}

// isNamed reports whether some robots.txt of the groups names the bot.
func isNamed(st *BotStat, gs []int) bool {
	for _, g := range gs {
		for d := range NumDefinitions {
			for c := range NumClasses {
				if st.Groups[g].Counts[MatchedNamed][d][c] > 0 {
					return true
				}
			}
		}
	}
	return false
}

// xTicks places the x labels of a small chart: at most about four, the
// first anchored at its start and the last at its end when they would
// otherwise cross the chart's edge, none overlapping the one before.
func xTicks(labels []string, x func(int) float64, width, px float64) []tick {
	every := max(1, (len(labels)+3)/4)
	var ticks []tick
	for k, l := range labels {
		if k%every != 0 && k != len(labels)-1 {
			continue
		}
		t := tick{Pos: x(k), Label: l, Anchor: "middle"}
		w := textWidth(l, px)
		switch {
		case t.Pos-w/2 < 2:
			t.Anchor = "start"
			t.Pos = max(t.Pos-w/2, 2)
		case t.Pos+w/2 > width-2:
			t.Anchor = "end"
			t.Pos = width - 2
		}
		if n := len(ticks); n > 0 && start(t, w) < end(ticks[n-1], textWidth(ticks[n-1].Label, px))+6 {
			if k == len(labels)-1 {
				ticks[n-1] = t // the last label wins
			}
			continue
		}
		ticks = append(ticks, t)
	}
	return ticks
}

func start(t tick, w float64) float64 {
	switch t.Anchor {
	case "start":
		return t.Pos
	case "end":
		return t.Pos - w
	}
	return t.Pos - w/2
}

func end(t tick, w float64) float64 { return start(t, w) + w }

// shortLabels drops the prefix all labels share up to a dash
// ("CC-MAIN-2024-33" -> "2024-33"), which small charts have no room for.
func shortLabels(labels []string) []string {
	if len(labels) < 2 {
		return labels
	}
	p := labels[0]
	for _, l := range labels[1:] {
		for !strings.HasPrefix(l, p) {
			p = p[:len(p)-1]
		}
	}
	if i := strings.LastIndexByte(p, '-'); i >= 0 {
		p = p[:i+1]
	} else {
		p = ""
	}
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = strings.TrimPrefix(l, p)
	}
	return out
}

// trendGroups returns the groups a trend runs over: every crawl, or the rank
// strata without "all".
func trendGroups(r *Report) []int {
	var gs []int
	for i, g := range r.Groups {
		if r.By == ByRank && g.Label == "all" {
			continue
		}
		gs = append(gs, i)
	}
	return gs
}

// newLineCharts returns one chart per AI bot that some definition counts
// as fully blocked somewhere, sharing one y scale, and the AI bots left out.
func newLineCharts(r *Report, order []int) ([]*lineChart, []string) {
	gs := trendGroups(r)
	if len(gs) < 2 {
		return nil, nil
	}
	var labels []string
	for _, g := range gs {
		labels = append(labels, r.Groups[g].Label)
	}
	short := shortLabels(labels)
	maxV := 0.0
	var keep []int
	var left []string
	for _, i := range order {
		any := false
		for _, g := range gs {
			for d := range NumDefinitions {
				if v, ok := fullCell(&r.Bots[i].Groups[g], d).Share(); ok && v > 0 {
					any = true
					maxV = max(maxV, v)
				}
			}
		}
		if any {
			keep = append(keep, i)
		} else {
			left = append(left, r.Bots[i].Bot)
		}
	}
	// Every AI bot that no robots.txt names takes the * groups' verdicts, the
	// same for all of them: one chart stands for them all.
	unnamed := -1
	var unnamedBots []string
	var named []int
	for _, i := range keep {
		if isNamed(&r.Bots[i], gs) {
			named = append(named, i)
			continue
		}
		if unnamed < 0 {
			unnamed = i
		}
		unnamedBots = append(unnamedBots, r.Bots[i].Bot)
	}
	if len(unnamedBots) == 1 {
		named = keep // one bot needs no stand-in
		unnamed, unnamedBots = -1, nil
	} else if unnamed >= 0 {
		named = append(named, unnamed)
	}
	top, step := niceMax(maxV, 3)
	var charts []*lineChart
	for _, i := range named {
		st := &r.Bots[i]
		c := &lineChart{Bot: st.Bot, Width: 280, Height: 148, PlotX: 40, PlotY: 10, PlotH: 108}
		if i == unnamed {
			c.Bot, c.Others = "bots no file names", unnamedBots
		}
		c.PlotW = c.Width - c.PlotX - 12
		x := func(k int) float64 { return c.PlotX + float64(k)*c.PlotW/float64(len(gs)-1) }
		y := func(v float64) float64 { return c.PlotY + c.PlotH - v/top*c.PlotH }
		for v := 0.0; v <= top+1e-9; v += step {
			c.YTicks = append(c.YTicks, tick{Pos: y(v), Label: percentLabel(v)})
		}
		c.XTicks = xTicks(short, x, c.Width, 10)
		for d := range NumDefinitions {
			ln := line{Def: DefinitionNames[d], Color: definitionStyles[d].Color, Dash: definitionStyles[d].Dash}
			var pts, vals []string
			for k, g := range gs {
				bc := &st.Groups[g]
				cell := fullCell(bc, d)
				v, ok := cell.Share()
				if !ok {
					continue
				}
				px, py := x(k), y(v)
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px, py))
				vals = append(vals, fmt.Sprintf("%.6f", v))
				ln.Dots = append(ln.Dots, dot{X: px, Y: py, Title: fmt.Sprintf("%s, %s, %s: %s of %s",
					st.Bot, labels[k], DefinitionNames[d], formatShare(cell), formatCount(bc.Sites))})
			}
			ln.Points, ln.Values = strings.Join(pts, " "), strings.Join(vals, ",")
			c.Lines = append(c.Lines, ln)
		}
		last := &st.Groups[gs[len(gs)-1]]
		if r.By == ByRank {
			last = &st.Groups[len(r.Groups)-1] // all sites
		}
		c.Last = formatShare(fullCell(last, DefVerdict))
		charts = append(charts, c)
	}
	return charts, left
}

// statusChart is one 100% bar per group, split by outcome; the narrow
// layout puts the group's name above its bar.
type statusChart struct {
	Narrow        bool
	Width, Height float64
	PlotX, PlotW  float64
	Rows          []statusRow
	Legend        []legendItem
}

type statusRow struct {
	Label          string
	Y, H           float64
	LabelX, LabelY float64
	LabelAnchor    string
	TextY          float64 // baseline of the shares inside the bar
	Sites          string
	SitesX, SitesY float64
	SitesAnchor    string
	Segments       []segment
}

type segment struct {
	Outcome string
	X, W    float64
	Color   string
	Ink     string // text colour inside: white on dark fills, black on light
	Text    string // the share, when it fits
	TextX   float64
	Title   string
}

type legendItem struct{ Color, Label string }

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

func newStatusChart(r *Report, narrow bool) *statusChart {
	c := &statusChart{Narrow: narrow, Width: 920}
	maxLabel := 0.0
	for _, g := range r.Groups {
		maxLabel = max(maxLabel, textWidth(g.Label, 12))
	}
	c.PlotX = math.Ceil(min(maxLabel, 230)) + 16
	c.PlotW = c.Width - c.PlotX - 110
	if narrow {
		c.Width, c.PlotX = 360, 2
		c.PlotW = c.Width - 4
	}
	y := 6.0
	for _, g := range r.Groups {
		row := statusRow{Label: g.Label, H: 24, Sites: formatCount(g.Sites) + " sites"}
		if narrow {
			row.LabelX, row.LabelY, row.LabelAnchor = c.PlotX, y+12, "start"
			row.SitesX, row.SitesY, row.SitesAnchor = c.PlotX+c.PlotW, y+12, "end"
			row.Y = y + 17
			y += 17 + 24 + 12
		} else {
			row.Y = y
			row.LabelX, row.LabelY, row.LabelAnchor = c.PlotX-8, y+16, "end"
			row.SitesX, row.SitesY, row.SitesAnchor = c.PlotX+c.PlotW+8, y+16, "start"
			y += 24 + 10
		}
		row.TextY = row.Y + 16
		x := c.PlotX
		for _, o := range outcomeStyles {
			n := o.sites(&g)
			if n == 0 || g.Sites == 0 {
				continue
			}
			cell := Cell{Count: n, Of: g.Sites}
			w := float64(n) / float64(g.Sites) * c.PlotW
			s := segment{Outcome: o.Key, X: x, W: w, Color: o.Color, Ink: o.Ink, TextX: x + w/2,
				Title: fmt.Sprintf("%s: %s, %s of %s sites", o.Label, g.Label, formatShare(cell), formatCount(g.Sites))}
			if txt := formatShare(cell); textWidth(txt, 11)+8 <= w {
				s.Text = txt
			}
			row.Segments = append(row.Segments, s)
			x += w
		}
		c.Rows = append(c.Rows, row)
	}
	c.Height = y
	other := false
	for _, g := range r.Groups {
		other = other || g.Other > 0
	}
	for _, o := range outcomeStyles {
		if o.Key != "other" || other {
			c.Legend = append(c.Legend, legendItem{o.Color, o.Label})
		}
	}
	return c
}
