package report

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
)

// WriteHTML writes the report as one self-contained page: inline CSS, the
// charts as inline SVG, the same tables as the text report, no script and
// no reference to anything outside the page, so it reads the same offline,
// archived or mailed. Everything taken from the data goes through
// html/template and is escaped for its context.
func WriteHTML(w io.Writer, d *Data) error {
	return pageTemplate.Execute(w, newHTMLPage(d))
}

type htmlPage struct {
	Dir     string
	About   [][2]string
	Version string

	Bar          *barChart
	BarNarrow    *barChart
	BarNote      string
	Per          string // what a trend runs over: crawl or stratum
	LastIs       string // which column the figure beside a trend chart's name is
	Lines        []*lineChart
	LineNote     string
	Defs         []legendItem
	Status       *statusChart
	StatusNarrow *statusChart
	Tables       []htmlTable
}

type htmlTable struct {
	*Table
	Nav       string // the table's name in the contents
	Base      string
	Rows      []htmlRow
	Collapsed bool
}

type htmlRow struct {
	Labels []string
	Cells  [][2]string // count, share
	First  bool        // starts a block of rows (a new first label)
}

func newHTMLPage(d *Data) *htmlPage {
	r := d.Report
	p := &htmlPage{Dir: d.Dir, About: d.about(), Version: d.Generator}
	order := r.AIOrder
	if len(r.Groups) > 0 && len(order) > 0 {
		ref := len(r.Groups) - 1
		p.Bar = newBarChart(r, order, ref, false)
		p.BarNarrow = newBarChart(r, order, ref, true)
		p.BarNote = fmt.Sprintf("%s: share of parsed robots.txt (%s) whose rules leave no path the bot may fetch, by naming the bot or by the * group. Sorted as the table below.",
			r.Groups[ref].Label, formatCount(r.Groups[ref].Parsed))
	}
	var left []string
	p.Lines, left = newLineCharts(r, order)
	p.Per, p.LastIs = "crawl", "in the last crawl"
	if r.By == ByRank {
		p.Per, p.LastIs = "rank stratum", "among all sites"
	}
	for _, s := range definitionStyles {
		p.Defs = append(p.Defs, legendItem{Color: s.Color, Label: s.Label})
	}
	switch {
	case len(trendGroups(r)) < 2 && r.By == ByRank:
		p.LineNote = "The trend charts need sites in two or more strata."
	case len(trendGroups(r)) < 2:
		p.LineNote = "One crawl: the trend charts need two or more crawls (or --by rank)."
	}
	for _, c := range p.Lines {
		if len(c.Others) > 0 {
			p.LineNote = fmt.Sprintf("%q stands for the %d AI bots that no robots.txt names, which all take the verdicts of the * groups: %s.",
				c.Bot, len(c.Others), strings.Join(c.Others, ", "))
		}
	}
	if len(left) > 0 {
		p.LineNote = strings.TrimSpace(p.LineNote + fmt.Sprintf(" Not drawn, fully blocked nowhere under any definition: %s.", strings.Join(left, ", ")))
	}
	p.Status = newStatusChart(r, false)
	p.StatusNarrow = newStatusChart(r, true)
	for _, t := range r.Tables {
		ht := htmlTable{Table: t, Nav: navLabels[t.ID], Base: baseLine(t), Collapsed: t.ID == TableBots}
		if ht.Nav == "" {
			ht.Nav = t.Title
		}
		for _, row := range t.Rows {
			hr := htmlRow{Labels: row.Labels, First: len(row.Labels) > 1 && row.Labels[0] != ""}
			for _, c := range row.Cells {
				hr.Cells = append(hr.Cells, [2]string{formatCount(c.Count), formatShare(c)})
			}
			ht.Rows = append(ht.Rows, hr)
		}
		p.Tables = append(p.Tables, ht)
	}
	return p
}

var navLabels = map[string]string{
	TableCaptures: "captures and sites", TableStatus: "outcome and status", TableAdoption: "adoption",
	TableAIBlocking: "AI bots table", TableBots: "every bot, every definition", TableAgents: "named agents",
	TableContent: "contents", TableDirectives: "non-standard directives", TableTemplates: "templates",
}

// f formats a coordinate: one decimal is finer than a pixel.
func f(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

var pageTemplate = template.Must(template.Must(template.New("page").Funcs(template.FuncMap{
	"f":    f,
	"add":  func(a, b float64) float64 { return a + b },
	"sub":  func(a, b float64) float64 { return a - b },
	"join": strings.Join,
}).Parse(pageHTML)).Parse(chartsHTML))

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="robotstat {{.Version}}">
<title>robotstat report: {{.Dir}}</title>
<style>
:root { --fg: #1f2328; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; --accent: #1d4e89; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: #fff; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main, header, footer, nav { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 28px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h1 .dir { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 20px; color: var(--accent); overflow-wrap: anywhere; }
h2 { font-size: 19px; margin: 36px 0 6px; padding-top: 8px; border-top: 1px solid var(--line); }
dl.about { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 14px 0 0; color: var(--muted); font-size: 14px; }
dl.about dt { font-weight: 600; color: var(--fg); }
dl.about dd { margin: 0; }
nav { margin-top: 16px; font-size: 14px; }
nav ol { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 4px 14px; }
nav a { color: var(--accent); text-decoration: none; }
nav a:hover { text-decoration: underline; }
p.lead, p.base, p.note { margin: 4px 0; }
p.base { color: var(--muted); font-size: 14px; }
p.note { color: var(--muted); font-size: 13px; }
figure { margin: 10px 0 0; }
.scroll { overflow-x: auto; }
svg { display: block; height: auto; font-family: inherit; }
svg.bars, svg.status { width: 100%; max-width: 920px; }
svg.narrow { display: none; max-width: 480px; }
@media (max-width: 700px) {
  svg.wide { display: none; }
  svg.narrow { display: block; }
  dl.about { grid-template-columns: 1fr; }
  dl.about dd { margin-bottom: 6px; }
  h1 .dir { display: block; margin-top: 4px; }
}
svg text { fill: var(--fg); }
svg .tick, svg .value, svg .sites { fill: var(--muted); }
svg text.inside { font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 6px 0 8px; font-size: 13px; color: var(--muted); list-style: none; padding: 0; }
.legend li { display: flex; align-items: center; gap: 6px; }
.legend svg { width: 30px; height: 12px; }
.legend svg.box { width: 14px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 12px 14px; margin-top: 6px; }
.grid figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px 2px; }
.grid figcaption { display: flex; justify-content: space-between; gap: 8px; font-size: 13px; font-weight: 600; white-space: nowrap; }
.grid figcaption .name { overflow: hidden; text-overflow: ellipsis; }
.grid figcaption .last { font-weight: 400; color: var(--muted); }
.grid svg { width: 100%; }
table.data { border-collapse: collapse; font-size: 13.5px; margin-top: 8px; font-variant-numeric: tabular-nums; }
table.data th, table.data td { padding: 3px 8px; border-bottom: 1px solid #eaeef2; text-align: left; vertical-align: top; white-space: nowrap; }
table.data td.l { white-space: normal; min-width: 6em; max-width: 24em; }
table.data thead th { background: var(--soft); border-bottom: 1px solid var(--line); font-weight: 600; }
table.data th.num { text-align: center; }
table.data td.n { text-align: right; padding-right: 2px; }
table.data td.p { text-align: right; color: var(--muted); padding-left: 4px; padding-right: 12px; }
table.data tbody tr:hover td { background: #f3f7fc; }
table.data tr.first td { border-top: 1px solid var(--line); }
details { margin-top: 8px; }
details summary { cursor: pointer; color: var(--accent); font-size: 14px; }
footer { margin: 40px auto 30px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); padding-top: 10px; }
@media print { nav, details summary { display: none; } details > * { display: block; } h2 { break-after: avoid; } figure, tr { break-inside: avoid; } }
</style>
</head>
<body>
<header>
<h1>robotstat report <span class="dir">{{.Dir}}</span></h1>
<dl class="about">
{{- range .About}}
<dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>
{{- end}}
</dl>
</header>
<nav aria-label="contents"><ol>
<li><a href="#chart-ai">AI bots blocked</a></li>
<li><a href="#chart-trend">trend per AI bot</a></li>
<li><a href="#chart-status">fetch outcomes</a></li>
{{- range .Tables}}
<li><a href="#{{.ID}}">{{.Nav}}</a></li>
{{- end}}
</ol></nav>
<main>

<section id="chart-ai">
<h2>AI bots blocked fully</h2>
{{- if .Bar}}
<p class="lead">{{.BarNote}}</p>
<ul class="legend"><li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="#1d4e89"/></svg>by name: a group names the bot</li><li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="#7fb2e5"/></svg>by *: only the * group applies</li></ul>
<figure class="scroll">
{{template "bars" .Bar}}
{{template "bars" .BarNarrow}}
</figure>
{{- else}}
<p class="note">No AI bot in the bots table.</p>
{{- end}}
</section>

<section id="chart-trend">
<h2>Full blocking per AI bot, under each definition</h2>
{{- if .Lines}}
<p class="lead">Share of parsed robots.txt that block the bot fully, per {{.Per}}, under the four definitions (stats/VERDICTS.md); all charts share one scale. The figure beside each name is the robotstat verdict {{.LastIs}}.</p>
<ul class="legend">
{{- range .Defs}}<li><svg viewBox="0 0 30 12" aria-hidden="true"><line x1="1" x2="29" y1="6" y2="6" stroke="{{.Color}}" stroke-width="2.5"/></svg>{{.Label}}</li>{{end}}
</ul>
<div class="grid">
{{- range .Lines}}
{{- if .Others}}
<figure class="trend others" data-bots="{{join .Others ","}}">
<figcaption><span class="name" title="{{join .Others ", "}}">{{.Bot}} ({{len .Others}})</span> <span class="last">{{.Last}}</span></figcaption>
{{- else}}
<figure class="trend" data-bot="{{.Bot}}">
<figcaption><span class="name" title="{{.Bot}}">{{.Bot}}</span> <span class="last">{{.Last}}</span></figcaption>
{{- end}}
<svg class="line-chart" viewBox="0 0 {{f .Width}} {{f .Height}}" role="img" aria-label="{{.Bot}}: share of parsed robots.txt that block it fully">
{{- $c := .}}
{{- range .YTicks}}
<line x1="{{f $c.PlotX}}" x2="{{f (add $c.PlotX $c.PlotW)}}" y1="{{f .Pos}}" y2="{{f .Pos}}" stroke="#e3e7ec"/>
<text class="tick" x="{{f (sub $c.PlotX 6)}}" y="{{f (add .Pos 4)}}" font-size="10" text-anchor="end">{{.Label}}</text>
{{- end}}
{{- range .XTicks}}
<text class="tick" x="{{f .Pos}}" y="{{f (add (add $c.PlotY $c.PlotH) 15)}}" font-size="10" text-anchor="{{.Anchor}}">{{.Label}}</text>
{{- end}}
{{- range .Lines}}
<polyline class="def-{{.Def}}" data-values="{{.Values}}" points="{{.Points}}" fill="none" stroke="{{.Color}}" stroke-width="2"{{if .Dash}} stroke-dasharray="{{.Dash}}"{{end}}/>
{{- $l := .}}
{{- range .Dots}}<circle cx="{{f .X}}" cy="{{f .Y}}" r="2.6" fill="{{$l.Color}}"><title>{{.Title}}</title></circle>{{end}}
{{- end}}
</svg>
</figure>
{{- end}}
</div>
{{- end}}
{{- if .LineNote}}
<p class="note">{{.LineNote}}</p>
{{- end}}
</section>

<section id="chart-status">
<h2>What /robots.txt answered</h2>
<p class="lead">Sites by outcome of the robots.txt fetch, as RFC 9309 reads the HTTP status.</p>
<ul class="legend">
{{- range .Status.Legend}}<li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="{{.Color}}"/></svg>{{.Label}}</li>{{end}}
</ul>
<figure class="scroll">
{{template "status" .Status}}
{{template "status" .StatusNarrow}}
</figure>
</section>
{{range .Tables}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
<p class="base">{{.Base}}</p>
{{- if .Collapsed}}
<details><summary>Show all {{len .Rows}} rows</summary>
{{- end}}
<div class="scroll">
<table class="data" id="t-{{.ID}}">
<thead><tr>{{range .Labels}}<th scope="col">{{.}}</th>{{end}}{{range .Columns}}<th scope="col" class="num" colspan="2">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr{{if .First}} class="first"{{end}}>{{range .Labels}}<td class="l">{{.}}</td>{{end}}{{range .Cells}}<td class="n">{{index . 0}}</td><td class="p">{{index . 1}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
</div>
{{- if .Collapsed}}
</details>
{{- end}}
{{- range .Notes}}
<p class="note">{{.}}</p>
{{- end}}
</section>
{{end}}
</main>
<footer>Written by robotstat {{.Version}} (robotstat report). Verdict definitions: stats/VERDICTS.md; columns: schema/README.md.</footer>
</body>
</html>
`

// chartsHTML draws a barChart ("bars") and a statusChart ("status") in their
// wide or narrow layout; CSS shows one of the two.
const chartsHTML = `
{{- define "bars"}}
<svg class="bars {{if .Narrow}}narrow{{else}}wide{{end}}" id="svg-ai-blocking{{if .Narrow}}-narrow{{end}}" viewBox="0 0 {{f .Width}} {{f .Height}}" role="img" aria-label="Share of parsed robots.txt that block each AI bot fully, {{.Group}}" data-group="{{.Group}}">
{{- $c := .}}
{{- range .Ticks}}
<line x1="{{f .Pos}}" x2="{{f .Pos}}" y1="{{f $c.Top}}" y2="{{f $c.Bottom}}" stroke="#e3e7ec"/>
<text class="tick" x="{{f .Pos}}" y="{{f $c.AxisY}}" font-size="11" text-anchor="middle">{{.Label}}</text>
<text class="tick" x="{{f .Pos}}" y="{{f $c.TopY}}" font-size="11" text-anchor="middle">{{.Label}}</text>
{{- end}}
{{- range .Bars}}
<g class="bar" data-bot="{{.Bot}}" data-share="{{printf "%.6f" .Share}}">
<title>{{.Bot}}: {{.Value}}; by name {{.NamedN}}, by * {{.StarN}}</title>
<text x="{{f .LabelX}}" y="{{f .LabelY}}" font-size="12" text-anchor="{{.LabelAnchor}}">{{.Bot}}</text>
<rect class="named" x="{{f $c.PlotX}}" y="{{f .Y}}" width="{{f .Named}}" height="{{f .H}}" fill="#1d4e89"/>
<rect class="star" x="{{f .StarX}}" y="{{f .Y}}" width="{{f .Star}}" height="{{f .H}}" fill="#7fb2e5"/>
<text class="value" x="{{f .ValueX}}" y="{{f .ValueY}}" font-size="11.5">{{.Value}}</text>
</g>
{{- end}}
<line x1="{{f .PlotX}}" x2="{{f .PlotX}}" y1="{{f .Top}}" y2="{{f .Bottom}}" stroke="#8c959f"/>
</svg>
{{- end}}

{{- define "status"}}
<svg class="status {{if .Narrow}}narrow{{else}}wide{{end}}" id="svg-status{{if .Narrow}}-narrow{{end}}" viewBox="0 0 {{f .Width}} {{f .Height}}" role="img" aria-label="Sites by outcome">
{{- range .Rows}}
<g class="status-row" data-group="{{.Label}}">
<text x="{{f .LabelX}}" y="{{f .LabelY}}" font-size="12" text-anchor="{{.LabelAnchor}}">{{.Label}}</text>
{{- $r := .}}
{{- range .Segments}}
<rect class="{{.Outcome}}" x="{{f .X}}" y="{{f $r.Y}}" width="{{f .W}}" height="{{f $r.H}}" fill="{{.Color}}"><title>{{.Title}}</title></rect>
{{- if .Text}}<text class="inside" x="{{f .TextX}}" y="{{f $r.TextY}}" font-size="11" text-anchor="middle" fill="{{.Ink}}">{{.Text}}</text>{{end}}
{{- end}}
<text class="sites" x="{{f .SitesX}}" y="{{f .SitesY}}" font-size="11.5" text-anchor="{{.SitesAnchor}}">{{.Sites}}</text>
</g>
{{- end}}
</svg>
{{- end}}
`
