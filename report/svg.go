package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The charts of the HTML report, as geometry: each chart is an svgFig, a
// viewBox and a list of primitives (rect, line, polyline, polygon, circle,
// text, g), which one template (html.go) draws as inline SVG, so every
// string from the data is escaped by html/template. Coordinates are SVG
// user units; a chart scales to its container.
//
// Colours: two blues for the two ways a bot is blocked (#1d4e89 by name,
// #7fb2e5 by *), and elsewhere hues that stay apart for the common kinds
// of colour blindness (Okabe and Ito's palette), with dash patterns or
// labels as a second cue.

const (
	colourNamed = "#1d4e89"
	colourStar  = "#7fb2e5"
	colourGrid  = "#e3e7ec"
	colourAxis  = "#8c959f"
	colourMuted = "#57606a"
)

// series colours, in order: Okabe and Ito without black and yellow.
var seriesColours = []string{"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9"}

var definitionStyles = [NumDefinitions]struct{ Color, Dash, Label string }{
	{"#0072b2", "", "verdict (robotstat)"},
	{"#e69f00", "6 3", "somesite (Liu et al.)"},
	{"#009e73", "2 3", "cic (Longpre et al.)"},
	{"#cc79a7", "8 3 2 3", "cc_class (Common Crawl)"},
}

// svgFig is one chart.
type svgFig struct {
	ID, Class, Label string // id, class and aria-label of the svg element
	Width, Height    float64
	Data             []attr // data-* attributes
	Els              []el
}

type attr struct{ Name, Value string }

// el is one SVG primitive; Kind says which fields count.
type el struct {
	Kind         string // rect, line, polyline, polygon, circle, text, g
	X, Y, W, H   float64
	X2, Y2       float64 // line end
	R            float64 // circle
	Points       string  // polyline, polygon
	Fill, Stroke string
	StrokeW      float64
	Dash         string
	Class        string
	Text         string
	Size         float64
	Anchor       string // text-anchor
	Weight       string
	Rotate       bool // text turned a quarter left about (X, Y): a y axis title
	Title        string
	Data         []attr
	Children     []el // g
}

func rect(x, y, w, h float64, fill, class, title string) el {
	return el{Kind: "rect", X: x, Y: y, W: max(w, 0), H: max(h, 0), Fill: fill, Class: class, Title: title}
}

func text(x, y float64, s string, size float64, anchor, class string) el {
	return el{Kind: "text", X: x, Y: y, Text: s, Size: size, Anchor: anchor, Class: class}
}

func hline(x1, x2, y float64, stroke string) el {
	return el{Kind: "line", X: x1, Y: y, X2: x2, Y2: y, Stroke: stroke, StrokeW: 1}
}

func vline(x, y1, y2 float64, stroke string) el {
	return el{Kind: "line", X: x, Y: y1, X2: x, Y2: y2, Stroke: stroke, StrokeW: 1}
}

func points(xs, ys []float64) string {
	var b strings.Builder
	for i := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f(xs[i]))
		b.WriteByte(',')
		b.WriteString(f(ys[i]))
	}
	return b.String()
}

// f formats a coordinate: one decimal is finer than a pixel.
func f(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// values writes shares for data attributes and tests.
func values(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'f', 6, 64)
	}
	return strings.Join(s, ",")
}

// textWidth estimates the width of s in px-high system sans-serif; it errs
// on the wide side so labels never overlap what follows them.
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

// niceCount is niceMax for counts: a maximum and step of 1, 2 or 5 times a
// power of ten.
func niceCount(v float64, steps int) (top, step float64) {
	if v <= 0 {
		return 1, 1
	}
	for p := 1.0; ; p *= 10 {
		for _, m := range []float64{1, 2, 5} {
			s := m * p
			top = s * math.Ceil(v/s-1e-9)
			if top/s <= float64(steps)+1e-9 {
				return top, s
			}
		}
	}
}

// percentLabel writes an axis tick: "25%", "2.5%".
func percentLabel(v float64) string {
	s := fmt.Sprintf("%.1f", 100*v)
	s = strings.TrimSuffix(s, ".0")
	return s + "%"
}

// ppLabel writes a difference of shares in percentage points: "+1.2 pp".
func ppLabel(v float64) string {
	s := fmt.Sprintf("%+.1f", 100*v)
	if s == "-0.0" || s == "+0.0" {
		s = "0.0"
	}
	return s + " pp"
}

type tick struct {
	Pos    float64 // x or y
	Label  string
	Anchor string // text-anchor of an x tick: middle, or start/end at the edges
}

// xTicks places the x labels of a small chart: the first anchored at its
// start and the last at its end when they would otherwise cross the
// chart's edge, none overlapping the one before (the last label wins).
func xTicks(labels []string, xs []float64, width, px float64) []tick {
	var ticks []tick
	for k, l := range labels {
		t := tick{Pos: xs[k], Label: l, Anchor: "middle"}
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
				ticks[n-1] = t
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

// timeAxis places crawls on x by their dates: the trends' time axis. When
// a crawl has no date, or all share one, the crawls are spaced evenly in
// date order instead (Even says so).
type timeAxis struct {
	dates  []int32
	labels []string // tick labels: YYYY-MM, or the crawl's short name without a date
	names  []string // the crawls' labels, for titles
	Even   bool
}

func newTimeAxis(crawls []CrawlInfo) *timeAxis {
	a := &timeAxis{}
	for _, c := range crawls {
		a.dates = append(a.dates, c.Date)
		a.names = append(a.names, c.Label)
		if c.Date == 0 {
			a.Even = true
		}
	}
	if len(crawls) > 1 && crawls[0].Date == crawls[len(crawls)-1].Date {
		a.Even = true
	}
	short := shortLabels(a.names)
	for i, c := range crawls {
		if a.Even || c.Date == 0 {
			a.labels = append(a.labels, short[i])
		} else {
			a.labels = append(a.labels, c.DateString()[:7])
		}
	}
	return a
}

// xs returns the crawls' x in a plot from x0 to x0+w.
func (a *timeAxis) xs(x0, w float64) []float64 {
	n := len(a.dates)
	out := make([]float64, n)
	if n == 1 {
		out[0] = x0 + w/2
		return out
	}
	lo, hi := float64(a.dates[0]), float64(a.dates[n-1])
	for i, d := range a.dates {
		if a.Even {
			out[i] = x0 + float64(i)*w/float64(n-1)
		} else {
			out[i] = x0 + (float64(d)-lo)/(hi-lo)*w
		}
	}
	return out
}

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

// panelGeom is the frame of one small multiple over time: the plot area,
// the axes with their titles, and scales.
type panelGeom struct {
	W, H                       float64
	PlotX, PlotY, PlotW, PlotH float64
	top                        float64 // y value at the top of the plot
	xs                         []float64
}

const (
	panelW, panelH = 300, 196
)

func newPanel(a *timeAxis, top float64) *panelGeom {
	g := &panelGeom{W: panelW, H: panelH, PlotX: 46, PlotY: 10, top: top}
	g.PlotW = g.W - g.PlotX - 14
	g.PlotH = g.H - g.PlotY - 48
	g.xs = a.xs(g.PlotX, g.PlotW)
	return g
}

func (g *panelGeom) y(v float64) float64 { return g.PlotY + g.PlotH - v/g.top*g.PlotH }

// frame returns the grid, the ticks and the axis titles.
func (g *panelGeom) frame(a *timeAxis, step float64, yLabel func(float64) string, xTitle, yTitle string) []el {
	var out []el
	for v := 0.0; v <= g.top+1e-9; v += step {
		out = append(out, hline(g.PlotX, g.PlotX+g.PlotW, g.y(v), colourGrid),
			text(g.PlotX-5, g.y(v)+3.5, yLabel(v), 10, "end", "tick"))
	}
	out = append(out, hline(g.PlotX, g.PlotX+g.PlotW, g.y(0), colourAxis))
	for _, t := range xTicks(a.labels, g.xs, g.W, 10) {
		out = append(out, text(t.Pos, g.PlotY+g.PlotH+14, t.Label, 10, t.Anchor, "tick"))
	}
	out = append(out, text(g.PlotX+g.PlotW/2, g.H-6, xTitle, 10.5, "middle", "axis-title"))
	yt := text(11, g.PlotY+g.PlotH/2, yTitle, 10.5, "middle", "axis-title")
	yt.Rotate = true
	return append(out, yt)
}

// trendPanel is one small multiple of a grid: its caption and its chart.
type trendPanel struct {
	Name, Title string // caption and its tooltip
	Last        string // the figure beside the caption, with its n
	Head        string // which crawl Last is from, and its interval
	Warn        bool   // Last (or a series' last point) has n < 100
	Data        []attr
	Fig         *svgFig
}

// areaPanel draws one bot's full blocks over time as two stacked areas,
// by * below and by name above, with the total as a line.
func areaPanel(a *timeAxis, top, step float64, name string, named, star []Cell, id string) *trendPanel {
	g := newPanel(a, top)
	fig := &svgFig{ID: id, Class: "trend-chart", Width: g.W, Height: g.H, Label: name + ": share of parsed robots.txt that block it fully, by crawl date"}
	fig.Els = g.frame(a, step, percentLabel, "crawl date", "% of parsed sites")
	n := len(g.xs)
	base, mid, topY := make([]float64, n), make([]float64, n), make([]float64, n)
	var sv, nv, tv []float64
	for i := range n {
		s, _ := star[i].Share()
		m, _ := named[i].Share()
		base[i], mid[i], topY[i] = g.y(0), g.y(s), g.y(s+m)
		sv, nv, tv = append(sv, s), append(nv, m), append(tv, s+m)
	}
	rev := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i := range v {
			out[i] = v[len(v)-1-i]
		}
		return out
	}
	xsBack := rev(g.xs)
	fig.Els = append(fig.Els,
		el{Kind: "polygon", Points: points(append(append([]float64{}, g.xs...), xsBack...), append(append([]float64{}, mid...), rev(base)...)), Fill: colourStar, Class: "star", Data: []attr{{"values", values(sv)}}},
		el{Kind: "polygon", Points: points(append(append([]float64{}, g.xs...), xsBack...), append(append([]float64{}, topY...), rev(mid)...)), Fill: colourNamed, Class: "named", Data: []attr{{"values", values(nv)}}},
		el{Kind: "polyline", Points: points(g.xs, topY), Stroke: colourNamed, StrokeW: 2, Class: "total", Data: []attr{{"values", values(tv)}}},
	)
	var ns []int64
	for i := range n {
		total := Cell{named[i].Count + star[i].Count, named[i].Of}
		ns = append(ns, total.Of)
		title := fmt.Sprintf("%s, %s: %s fully blocked (%s by name, %s by *) of %s", name, a.names[i],
			formatShare(total), formatCount(named[i].Count), formatCount(star[i].Count), formatCount(named[i].Of))
		if lo, hi, ok := total.Interval(); ok {
			title += ", 95% Wilson score interval " + strings.Trim(formatInterval(total), "[]") + "%"
			fig.Els = append(fig.Els, whisker(g.xs[i], g.y(min(lo, g.top)), g.y(min(hi, g.top)), "#0b2545", lo, hi, title))
		}
		fig.Els = append(fig.Els, dot(g.xs[i], topY[i], 2.8, colourNamed, total.LowN(), title))
	}
	fig.Els = append(fig.Els, g.nRow(a, ns)...)
	last := Cell{named[n-1].Count + star[n-1].Count, named[n-1].Of}
	return &trendPanel{Name: name, Title: name, Last: formatShare(last) + ", n=" + formatCount(last.Of),
		Head: headline(a.names[n-1], last), Warn: last.LowN(), Fig: fig}
}

// headline says which crawl a card's headline figure is from, with the
// figure's interval: "in CC-MAIN-2025-08; 95% interval 42.9-53.1%".
func headline(crawl string, c Cell) string {
	s := "in " + crawl
	if iv := formatInterval(c); iv != "" {
		s += "; 95% interval " + strings.Trim(iv, "[]") + "%"
	}
	if c.LowN() {
		s += "; n < 100: uncertain"
	}
	return s
}

// whisker draws a share's 95% interval at x: a vertical line from the
// lower bound (y0, the larger y) to the upper (y1) with caps; data-lo and
// data-hi give the bounds as fractions.
func whisker(x, y0, y1 float64, colour string, lo, hi float64, title string) el {
	return el{Kind: "g", Class: "ci", Title: title, Data: []attr{{"lo", strconv.FormatFloat(lo, 'f', 6, 64)}, {"hi", strconv.FormatFloat(hi, 'f', 6, 64)}},
		Children: []el{vline(x, y1, y0, colour), hline(x-2.5, x+2.5, y0, colour), hline(x-2.5, x+2.5, y1, colour)}}
}

// dot is a chart point; a share of n < 100 is drawn hollow (class "low").
func dot(x, y, r float64, colour string, low bool, title string) el {
	d := el{Kind: "circle", X: x, Y: y, R: r, Fill: colour, Title: title}
	if low {
		d.Fill, d.Stroke, d.StrokeW, d.Class = "#ffffff", colour, 1.5, "low"
	}
	return d
}

// nRow writes each crawl's denominator under its tick ("n=371"), in the
// warning colour with a "!" where it is under 100; labels that would
// overlap are left out (every point's tooltip has its n). A zero n (no
// share) is left out.
func (g *panelGeom) nRow(a *timeAxis, ns []int64) []el {
	var labels []string
	var xs []float64
	var low []bool
	for i, n := range ns {
		if n <= 0 {
			continue
		}
		l := "n=" + formatCount(n)
		if n < lowN {
			l += "!"
		}
		labels, xs, low = append(labels, l), append(xs, g.xs[i]), append(low, n < lowN)
	}
	var out []el
	for _, t := range xTicks(labels, xs, g.W, 9) {
		cls := "n"
		if k := slices.Index(labels, t.Label); k >= 0 && low[k] {
			cls = "n warn"
		}
		out = append(out, text(t.Pos, g.PlotY+g.PlotH+25, t.Label, 9, t.Anchor, cls))
	}
	return out
}

// lineSeries is one line of a line panel.
type lineSeries struct {
	Label, Colour, Dash string
	Cells               []Cell
}

// linePanel draws series of shares over time, one line each.
func linePanel(a *timeAxis, top, step float64, name string, series []lineSeries, id, yTitle string) *trendPanel {
	g := newPanel(a, top)
	fig := &svgFig{ID: id, Class: "trend-chart", Width: g.W, Height: g.H, Label: name + ", by crawl date"}
	fig.Els = g.frame(a, step, percentLabel, "crawl date", yTitle)
	var ns []int64 // the points' n where every series has the same
	for i := range g.xs {
		n := int64(-1)
		for _, s := range series {
			switch {
			case n == -1:
				n = s.Cells[i].Of
			case s.Cells[i].Of != n:
				n = 0
			}
		}
		ns = append(ns, n)
	}
	for _, s := range series {
		var xs, ys, vs []float64
		var dots []el
		for i, c := range s.Cells {
			v, ok := c.Share()
			if !ok {
				continue
			}
			xs, ys, vs = append(xs, g.xs[i]), append(ys, g.y(v)), append(vs, v)
			title := fmt.Sprintf("%s, %s, %s: %s of %s", name, s.Label, a.names[i], formatShare(c), formatCount(c.Of))
			if lo, hi, ok := c.Interval(); ok {
				title += ", 95% Wilson score interval " + strings.Trim(formatInterval(c), "[]") + "%"
				dots = append(dots, whisker(g.xs[i], g.y(min(lo, g.top)), g.y(min(hi, g.top)), s.Colour, lo, hi, title))
			}
			if c.LowN() {
				title += "; n < 100: uncertain"
			}
			dots = append(dots, dot(g.xs[i], g.y(v), 2.4, s.Colour, c.LowN(), title))
		}
		fig.Els = append(fig.Els, el{Kind: "polyline", Points: points(xs, ys), Stroke: s.Colour, StrokeW: 2, Dash: s.Dash,
			Class: "series", Data: []attr{{"series", s.Label}, {"values", values(vs)}}})
		fig.Els = append(fig.Els, dots...)
	}
	fig.Els = append(fig.Els, g.nRow(a, ns)...)
	last := len(g.xs) - 1
	head, warn := "in "+a.names[last], false
	for _, s := range series {
		warn = warn || s.Cells[last].LowN()
	}
	if ns[last] > 0 {
		head += ", n=" + formatCount(ns[last])
	}
	if warn {
		head += "; hollow points: n < 100, uncertain"
	}
	return &trendPanel{Name: name, Title: name, Head: "last point " + head, Warn: warn, Fig: fig}
}

// cohortPanel draws, per crawl, the hosts that first blocked a bot fully
// then, split into those that kept blocking it and those that later did
// not.
func cohortPanel(a *timeAxis, top, step float64, name string, counts []CohortCounts, id string) *trendPanel {
	g := newPanel(a, top)
	fig := &svgFig{ID: id, Class: "trend-chart", Width: g.W, Height: g.H, Label: name + ": hosts by the crawl of their first full block"}
	fig.Els = g.frame(a, step, func(v float64) string { return formatCount(int64(math.Round(v))) }, "crawl date of the first full block", "hosts")
	// Bars as wide as the closest two crawls allow.
	bw := 22.0
	for i := 1; i < len(g.xs); i++ {
		bw = min(bw, (g.xs[i]-g.xs[i-1])*0.7)
	}
	bw = max(bw, 3)
	var firsts []float64
	for i, c := range counts {
		x := g.xs[i] - bw/2
		x = max(g.PlotX, min(x, g.PlotX+g.PlotW-bw))
		kept := c.First - c.Unblocked
		yk, yu := g.y(float64(kept)), g.y(float64(c.First))
		title := fmt.Sprintf("%s, %s: %s hosts first blocked it fully (%s by name, %s by *); %s later unblocked", name, a.names[i],
			formatCount(c.First), formatCount(c.Named), formatCount(c.Star), formatCount(c.Unblocked))
		fig.Els = append(fig.Els, el{Kind: "g", Class: "cohort", Data: []attr{{"first", strconv.FormatInt(c.First, 10)}, {"unblocked", strconv.FormatInt(c.Unblocked, 10)}},
			Title: title, Children: []el{
				rect(x, yk, bw, g.y(0)-yk, colourNamed, "kept", ""),
				rect(x, yu, bw, yk-yu, "#e69f00", "unblocked", ""),
			}})
		firsts = append(firsts, float64(c.First))
	}
	fig.Data = []attr{{"first", values(firsts)}}
	return &trendPanel{Name: name, Title: name, Fig: fig}
}

// hbarRow is one row of a horizontal bar chart.
type hbarRow struct {
	Label string
	Title string // tooltip of the row
	Data  []attr
	// Segments are stacked left to right (Overlay: each from the start).
	Segments []hbarSeg
	Value    string // printed after the bars
	Low      bool   // Value's n is under 100: drawn in the warning colour
	// CI are 95% intervals drawn as whiskers across the bar, one below
	// the other.
	CI []hbarCI
}

// hbarCI is a share's 95% Wilson score interval, as fractions.
type hbarCI struct {
	Lo, Hi float64
	Colour string
}

// hbarIntervals returns the intervals of the cells that have one.
func hbarIntervals(colour string, cells ...Cell) []hbarCI {
	var out []hbarCI
	for _, c := range cells {
		if lo, hi, ok := c.Interval(); ok {
			out = append(out, hbarCI{lo, hi, colour})
		}
	}
	return out
}

type hbarSeg struct {
	V                    float64 // share, or a difference when the chart diverges
	Colour, Class, Title string
}

// hbarChart draws rows of horizontal bars: stacked segments, or (Overlay)
// each segment from the axis with the later ones drawn over the earlier,
// or (Diverging) one thin bar per segment either side of a zero line. The
// narrow layout (phones) puts each label above its bars.
func hbarChart(id, label string, rows []hbarRow, narrow, overlay, diverging bool) *svgFig {
	const barH, gap = 15.0, 5.0
	fig := &svgFig{ID: id, Width: 920, Label: label}
	fig.Class = "bars wide"
	if narrow {
		fig.Width, fig.Class, fig.ID = 360, "bars narrow", id+"-narrow"
	}
	maxLabel, maxValue, maxV := 0.0, 0.0, 0.0
	for _, r := range rows {
		maxLabel = max(maxLabel, textWidth(r.Label, 12))
		maxValue = max(maxValue, textWidth(r.Value, 11.5))
		sum := 0.0
		for _, s := range r.Segments {
			switch {
			case diverging:
				maxV = max(maxV, math.Abs(s.V))
			case overlay:
				maxV = max(maxV, s.V)
			default:
				sum += s.V
			}
		}
		maxV = max(maxV, sum)
		for _, c := range r.CI {
			maxV = max(maxV, c.Hi)
		}
	}
	top, step := niceMax(maxV, 5)
	if diverging && maxV == 0 {
		top, step = 0.01, 0.005
	}
	plotX := math.Ceil(min(maxLabel, 260)) + 16
	if narrow {
		plotX = 6
	}
	plotW := fig.Width - plotX - math.Ceil(maxValue) - 14
	if narrow {
		// a phone has no room beside the bars: the value goes under them
		plotW = fig.Width - plotX - 14
	}
	zero := plotX
	scale := plotW / top
	if diverging {
		scale = plotW / 2 / top
		zero = plotX + plotW/2
	}
	y := 24.0
	var els []el
	for _, r := range rows {
		g := el{Kind: "g", Class: "bar", Title: r.Title, Data: r.Data}
		rowH := barH
		if diverging {
			rowH = float64(len(r.Segments))*5 + 2
		}
		var by float64
		if narrow {
			g.Children = append(g.Children, text(plotX+2, y+11, r.Label, 12, "start", ""))
			by = y + 15
			y += 15 + rowH + 9
			if r.Value != "" {
				y += 14
			}
		} else {
			g.Children = append(g.Children, text(plotX-8, y+rowH/2+4.2, r.Label, 12, "end", ""))
			by = y
			y += rowH + gap
		}
		x := zero
		end := zero
		for k, s := range r.Segments {
			w := s.V * scale
			switch {
			case diverging:
				yy := by + float64(k)*5
				if w >= 0 {
					g.Children = append(g.Children, rect(zero, yy, max(w, 1), 4, s.Colour, s.Class, s.Title))
					end = max(end, zero+w)
				} else {
					g.Children = append(g.Children, rect(zero+w, yy, -w, 4, s.Colour, s.Class, s.Title))
				}
			case overlay:
				g.Children = append(g.Children, rect(zero, by, w, barH, s.Colour, s.Class, s.Title))
				end = max(end, zero+w)
			default:
				g.Children = append(g.Children, rect(x, by, w, barH, s.Colour, s.Class, s.Title))
				x += w
				end = x
			}
		}
		for k, c := range r.CI {
			yy := by + barH/2 + (float64(k)-float64(len(r.CI)-1)/2)*5
			x0, x1 := zero+c.Lo*scale, zero+c.Hi*scale
			g.Children = append(g.Children, el{Kind: "g", Class: "ci", Data: []attr{{"lo", strconv.FormatFloat(c.Lo, 'f', 6, 64)}, {"hi", strconv.FormatFloat(c.Hi, 'f', 6, 64)}},
				Children: []el{hline(x0, x1, yy, c.Colour), vline(x0, yy-2.5, yy+2.5, c.Colour), vline(x1, yy-2.5, yy+2.5, c.Colour)}})
			end = max(end, x1)
		}
		if r.Value != "" {
			cls := "value"
			if r.Low {
				cls = "value warn"
			}
			if narrow {
				g.Children = append(g.Children, text(plotX+2, by+rowH+13, r.Value, 11, "start", cls))
			} else {
				g.Children = append(g.Children, text(max(end, zero)+6, by+rowH/2+4.2, r.Value, 11.5, "start", cls))
			}
		}
		els = append(els, g)
	}
	bottom := y
	var grid []el
	// Label every k-th grid line, so that labels never run into each other.
	every := max(1, int(math.Ceil((textWidth("-2.5%", 11)+8)/(step*scale))))
	for k, v := 0, 0.0; v <= top+1e-9; k, v = k+1, v+step {
		for _, sgn := range []float64{1, -1} {
			if sgn < 0 && (!diverging || v == 0) {
				continue
			}
			px := zero + sgn*v*scale
			grid = append(grid, vline(px, 18, bottom, colourGrid))
			if k%every != 0 {
				continue
			}
			label := percentLabel(v)
			if diverging {
				label = strings.TrimSuffix(ppLabel(sgn*v), " pp")
			}
			if narrow && px < 8 {
				px = 8
			}
			grid = append(grid, text(px, 12, label, 11, "middle", "tick"), text(px, bottom+14, label, 11, "middle", "tick"))
		}
	}
	fig.Els = append(append(grid, vline(zero, 18, bottom, colourAxis)), els...)
	fig.Height = bottom + 24
	return fig
}

// legendItem is one entry of a chart's legend: a colour and what it means.
type legendItem struct{ Color, Label, Dash string }
