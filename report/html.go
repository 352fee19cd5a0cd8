package report

import (
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
)

// WriteHTML writes the report as one self-contained page: inline CSS, the
// charts as inline SVG, the same tables as the text report, no script and
// no reference to anything outside the page, so it reads the same offline,
// archived or mailed. Everything taken from the data goes through
// html/template and is escaped for its context.
//
// The switches between all sites and the panel, and between all ranks and
// rank strata, are radio buttons styled as buttons whose :checked state
// CSS reads: every view is in the page, one is shown. Data.Strata and
// Report.Panel choose the view the page opens on.
func WriteHTML(w io.Writer, d *Data) error {
	return pageTemplate.Execute(w, newHTMLPage(d))
}

type htmlPage struct {
	Dir     string
	About   [][2]string
	Version string
	Switch  switches

	Crawls    int
	LeadBars  []*svgFig // one column: wide and narrow
	Lead      []variant
	LeadNote  string
	CatBars   []*svgFig
	Cats      []variant
	Cohorts   []variant
	Defs      []*svgFig
	DefLegend []legendItem
	DefNote   string
	Signals   []*svgFig
	SigLegend []legendItem
	Status    []*svgFig
	StLegend  []legendItem
	Tables    []htmlTable
}

type htmlTable struct {
	*Table
	Notes     []string // the table's, and what ! means where a share has it
	Nav       string   // the table's name in the contents
	Base      string
	Rows      []htmlRow
	Collapsed bool
}

type htmlRow struct {
	Labels []string
	Cells  []htmlCell
	First  bool // starts a block of rows (a new first label)
}

// htmlCell is a table cell as the text prints it, with a tooltip that
// spells out the share, its n and its interval.
type htmlCell struct {
	cellText
	Title string
}

func newHTMLPage(d *Data) *htmlPage {
	r := d.Report
	t := r.Trend
	p := &htmlPage{Dir: d.Dir, About: d.about(), Version: d.Generator, Crawls: len(t.Crawls)}
	p.Switch = switches{
		Panel:    t.History && len(t.Crawls) > 1,
		Strata:   r.RankedSites > 0 && len(t.Crawls) > 1,
		PanelOn:  r.Panel,
		StrataOn: d.Strata || r.By == ByRank,
	}
	p.Switch.PanelOn = p.Switch.PanelOn && p.Switch.Panel
	p.Switch.StrataOn = p.Switch.StrataOn && p.Switch.Strata
	p.Switch.PanelLabel = fmt.Sprintf("panel: %s hosts in all %d crawls", formatCount(t.PanelHosts), len(t.Crawls))
	if len(r.Groups) > 0 && len(r.AIOrder) > 0 {
		if len(t.Crawls) > 1 {
			p.Lead = leadVariants(r, p.Switch)
			p.Cats = categoryVariants(r, p.Switch)
			if t.History {
				p.Cohorts = cohortVariants(r, p.Switch)
			}
			if newTimeAxis(t.Crawls).Even {
				p.LeadNote = "Some crawls have no date (or all have the same): the crawls are spaced evenly in date order."
			}
		} else {
			p.LeadBars = []*svgFig{leadBars(r, false), leadBars(r, true)}
			p.CatBars = []*svgFig{categoryBars(r, false), categoryBars(r, true)}
		}
		p.Defs = []*svgFig{definitionBars(r, false), definitionBars(r, true)}
		for d := DefSomesite; d < NumDefinitions; d++ {
			p.DefLegend = append(p.DefLegend, legendItem{Color: definitionStyles[d].Color, Label: definitionStyles[d].Label})
		}
		p.DefNote = fmt.Sprintf("In %s; the definitions table has every column.", r.Groups[len(r.Groups)-1].Label)
	}
	var sigTable *Table
	for _, tb := range r.Tables {
		if tb.ID == TableSignalRules {
			sigTable = tb
		}
	}
	if sigTable != nil && len(r.Groups) > 0 {
		wide, legend := signalBars(r, sigTable, false)
		narrow, _ := signalBars(r, sigTable, true)
		p.Signals, p.SigLegend = []*svgFig{wide, narrow}, legend
	}
	if len(r.Groups) > 0 {
		wide, legend := statusBars(r, false)
		narrow, _ := statusBars(r, true)
		p.Status, p.StLegend = []*svgFig{wide, narrow}, legend
	}
	for _, t := range r.Tables {
		ht := htmlTable{Table: t, Nav: navLabels[t.ID], Base: baseLine(t), Collapsed: t.ID == TableBots}
		if ht.Nav == "" {
			ht.Nav = t.Title
		}
		cells, low := tableCells(t)
		for ri, row := range t.Rows {
			hr := htmlRow{Labels: row.Labels, First: len(row.Labels) > 1 && row.Labels[0] != ""}
			for ci, c := range row.Cells {
				hr.Cells = append(hr.Cells, htmlCell{cellText: cells[ri][ci], Title: cellTitle(c, t.Of)})
			}
			ht.Rows = append(ht.Rows, hr)
		}
		if low {
			ht.Notes = append(slices.Clone(t.Notes), lowNote)
		} else {
			ht.Notes = t.Notes
		}
		p.Tables = append(p.Tables, ht)
	}
	return p
}

var navLabels = map[string]string{
	TableAIBlocking: "AI bots table", TableCategories: "categories table", TableFirstBlocks: "first blocks table",
	TableDefinitions: "definitions table", TableSignals: "signals table", TableSignalRules: "signals vs rules table",
	TableCaptures: "captures and sites", TableStatus: "outcome and status", TableAdoption: "adoption",
	TableBots: "every bot, every definition", TableAgents: "named agents",
	TableContent: "contents", TableDirectives: "non-standard directives", TableTemplates: "templates",
}

var pageTemplate = template.Must(template.Must(template.New("page").Funcs(template.FuncMap{
	"f":    f,
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
main { position: relative; }
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
svg .tick, svg .value, svg .sites, svg .axis-title { fill: var(--muted); }
svg text.inside { font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 6px 0 8px; font-size: 13px; color: var(--muted); list-style: none; padding: 0; }
.legend li { display: flex; align-items: center; gap: 6px; }
.legend svg { width: 30px; height: 12px; }
.legend svg.box { width: 14px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(270px, 1fr)); gap: 12px 14px; margin-top: 6px; }
.grid figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px 2px; }
.grid figcaption { display: flex; justify-content: space-between; gap: 8px; font-size: 13px; font-weight: 600; }
.grid figcaption .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.grid figcaption .last { font-weight: 400; color: var(--muted); white-space: nowrap; }
.grid svg { width: 100%; }
.grid p.head { margin: 0; font-size: 12px; color: var(--muted); }
.grid p.head.warn { color: #b35900; }
svg .n { fill: var(--muted); }
input.sw { position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; pointer-events: none; }
.switches { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; margin: 18px 0 0; padding: 10px 12px; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; font-size: 14px; }
.switches .what { color: var(--muted); margin-left: 6px; }
.switches label { cursor: pointer; padding: 3px 10px; border: 1px solid var(--line); border-radius: 14px; background: #fff; color: var(--accent); }
#pop-all:checked ~ .switches label[for=pop-all], #pop-panel:checked ~ .switches label[for=pop-panel],
#st-pooled:checked ~ .switches label[for=st-pooled], #st-strata:checked ~ .switches label[for=st-strata] { background: var(--accent); color: #fff; border-color: var(--accent); }
#pop-all:focus-visible ~ .switches label[for=pop-all], #pop-panel:focus-visible ~ .switches label[for=pop-panel],
#st-pooled:focus-visible ~ .switches label[for=st-pooled], #st-strata:focus-visible ~ .switches label[for=st-strata] { outline: 2px solid var(--accent); outline-offset: 2px; }
.variant { display: none; }
#pop-all:checked ~ #st-pooled:checked ~ * .v-all.v-pooled, #pop-all:checked ~ #st-strata:checked ~ * .v-all.v-strata,
#pop-panel:checked ~ #st-pooled:checked ~ * .v-panel.v-pooled, #pop-panel:checked ~ #st-strata:checked ~ * .v-panel.v-strata,
#pop-all:checked ~ * .v-all.v-any, #pop-panel:checked ~ * .v-panel.v-any { display: block; }
table.data { border-collapse: collapse; font-size: 13.5px; margin-top: 8px; font-variant-numeric: tabular-nums; }
table.data th, table.data td { padding: 3px 8px; border-bottom: 1px solid #eaeef2; text-align: left; vertical-align: top; white-space: nowrap; }
table.data td.l { white-space: normal; min-width: 6em; max-width: 24em; }
table.data thead th { background: var(--soft); border-bottom: 1px solid var(--line); font-weight: 600; }
table.data th.num { text-align: center; }
table.data td.n { text-align: right; padding-right: 2px; }
table.data td.p { text-align: right; color: var(--muted); padding-left: 4px; padding-right: 2px; }
table.data td.ci { text-align: left; color: var(--muted); font-size: 12px; padding-left: 3px; padding-right: 12px; }
table.data td.ci.low, .warn, svg text.warn { color: #b35900; fill: #b35900; font-weight: 600; }
table.data tbody tr:hover td { background: #f3f7fc; }
table.data tr.first td { border-top: 1px solid var(--line); }
details { margin-top: 8px; }
details summary { cursor: pointer; color: var(--accent); font-size: 14px; }
footer { margin: 40px auto 30px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); padding-top: 10px; }
@media print { nav, details summary, .switches { display: none; } details > * { display: block; } h2 { break-after: avoid; } figure, tr { break-inside: avoid; } }
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
<li><a href="#chart-lead">AI bots blocked</a></li>
<li><a href="#chart-categories">by category</a></li>
{{- if .Cohorts}}
<li><a href="#chart-first-blocks">first blocks</a></li>
{{- end}}
<li><a href="#chart-definitions">definitions</a></li>
<li><a href="#chart-signals">signals</a></li>
<li><a href="#chart-status">fetch outcomes</a></li>
{{- range .Tables}}
<li><a href="#{{.ID}}">{{.Nav}}</a></li>
{{- end}}
</ol></nav>
<main>
<input type="radio" name="pop" id="pop-all" class="sw"{{if not .Switch.PanelOn}} checked{{end}}>
{{- if .Switch.Panel}}
<input type="radio" name="pop" id="pop-panel" class="sw"{{if .Switch.PanelOn}} checked{{end}}>
{{- end}}
<input type="radio" name="strata" id="st-pooled" class="sw"{{if not .Switch.StrataOn}} checked{{end}}>
{{- if .Switch.Strata}}
<input type="radio" name="strata" id="st-strata" class="sw"{{if .Switch.StrataOn}} checked{{end}}>
{{- end}}
{{- if or .Switch.Panel .Switch.Strata}}
<div class="switches" role="group" aria-label="views of the trend charts">
{{- if .Switch.Panel}}
<span class="what">hosts:</span><label for="pop-all">all sites</label><label for="pop-panel">{{.Switch.PanelLabel}}</label>
{{- end}}
{{- if .Switch.Strata}}
<span class="what">ranks:</span><label for="st-pooled">all ranks</label><label for="st-strata">by rank stratum</label>
{{- end}}
</div>
{{- end}}

<section id="chart-lead">
<h2>Sites that block the leading AI bots fully</h2>
{{- if .LeadBars}}
<p class="lead">Share of parsed robots.txt whose rules leave no path the bot may fetch, by naming the bot or by the * group; the AI bots no file names are one bar. Sorted as the AI bots table.</p>
<ul class="legend"><li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="#1d4e89"/></svg>by name: a group names the bot</li><li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="#7fb2e5"/></svg>by *: only the * group applies</li></ul>
<figure class="scroll">
{{- range .LeadBars}}{{template "fig" .}}{{end}}
</figure>
{{- else if .Lead}}
<p class="lead">Share of parsed robots.txt that block the bot fully (robotstat verdict) at each crawl, placed by crawl date; the AI bots no file names share the last chart. All charts share one scale.</p>
{{- range .Lead}}{{template "variant" .}}{{end}}
{{- if .LeadNote}}<p class="note">{{.LeadNote}}</p>{{end}}
{{- else}}
<p class="note">No AI bot in the site_bots table.</p>
{{- end}}
</section>

<section id="chart-categories">
<h2>AI bots by category</h2>
<p class="lead">Share of parsed robots.txt that block at least one bot of the category fully, and that block every one of them.</p>
{{- if .CatBars}}
<ul class="legend"><li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="#7fb2e5"/></svg>some bot of the category</li><li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="#1d4e89"/></svg>every bot of the category</li></ul>
<figure class="scroll">
{{- range .CatBars}}{{template "fig" .}}{{end}}
</figure>
{{- end}}
{{- range .Cats}}{{template "variant" .}}{{end}}
</section>
{{if .Cohorts}}
<section id="chart-first-blocks">
<h2>When sites started blocking: first full blocks by crawl</h2>
<p class="lead">Hosts by the crawl in which their robots.txt first blocked the bot fully (site_history); the first crawl also holds the hosts that blocked it before. Orange: the part that later stopped blocking it fully.</p>
{{- range .Cohorts}}{{template "variant" .}}{{end}}
</section>
{{end}}
<section id="chart-definitions">
<h2>The four definitions of a full block, as differences</h2>
<p class="lead">Percentage points by which each study's definition (stats/VERDICTS.md) counts more (right) or fewer (left) sites as fully blocking the bot than the robotstat verdict does.</p>
{{- if .Defs}}
<ul class="legend">
{{- range .DefLegend}}<li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="{{.Color}}"/></svg>{{.Label}}</li>{{end}}
</ul>
<figure class="scroll">
{{- range .Defs}}{{template "fig" .}}{{end}}
</figure>
<p class="note">{{.DefNote}}</p>
{{- end}}
</section>

<section id="chart-signals">
<h2>AI training: signals against rules</h2>
<p class="lead">Parsed sites by what their Content-Signal or Content-Usage lines say of AI training, against whether their rules block the catalog's AI-training bots fully.</p>
<ul class="legend">
{{- range .SigLegend}}<li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="{{.Color}}"/></svg>{{.Label}}</li>{{end}}
</ul>
<figure class="scroll">
{{- range .Signals}}{{template "fig" .}}{{end}}
</figure>
</section>

<section id="chart-status">
<h2>What /robots.txt answered</h2>
<p class="lead">Sites by outcome of the robots.txt fetch, as RFC 9309 reads the HTTP status.</p>
<ul class="legend">
{{- range .StLegend}}<li><svg class="box" viewBox="0 0 14 12" aria-hidden="true"><rect width="14" height="12" rx="2" fill="{{.Color}}"/></svg>{{.Label}}</li>{{end}}
</ul>
<figure class="scroll">
{{- range .Status}}{{template "fig" .}}{{end}}
</figure>
</section>
{{range .Tables}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
<p class="base">{{.Base}}; each share with its 95% Wilson score interval</p>
{{- if .Collapsed}}
<details><summary>Show all {{len .Rows}} rows</summary>
{{- end}}
<div class="scroll">
<table class="data" id="t-{{.ID}}">
<thead><tr>{{range .Labels}}<th scope="col">{{.}}</th>{{end}}{{range .Columns}}<th scope="col" class="num" colspan="3">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr{{if .First}} class="first"{{end}}>{{range .Labels}}<td class="l">{{.}}</td>{{end}}{{range .Cells}}<td class="n" title="{{.Title}}">{{.Count}}</td><td class="p" title="{{.Title}}">{{.Share}}</td><td class="ci{{if .Low}} low{{end}}" title="{{.Title}}">{{.Interval}}{{if .Low}}<span class="warn">!</span>{{end}}</td>{{end}}</tr>
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
<footer>Written by robotstat {{.Version}} (robotstat report). Verdict definitions: stats/VERDICTS.md; columns: schema/README.md; every figure as CSV: robotstat report --csv DIR.</footer>
</body>
</html>
`

// chartsHTML draws a chart (svgFig) from its primitives, and a switchable
// variant of small multiples.
const chartsHTML = `
{{- define "fig"}}
<svg class="{{.Class}}" id="{{.ID}}" viewBox="0 0 {{f .Width}} {{f .Height}}" role="img" aria-label="{{.Label}}"{{range .Data}} data-{{.Name}}="{{.Value}}"{{end}}>
{{- range .Els}}{{template "el" .}}{{end}}
</svg>
{{- end}}

{{- define "el"}}
{{- if eq .Kind "rect"}}
<rect{{if .Class}} class="{{.Class}}"{{end}} x="{{f .X}}" y="{{f .Y}}" width="{{f .W}}" height="{{f .H}}" fill="{{.Fill}}"{{range .Data}} data-{{.Name}}="{{.Value}}"{{end}}>{{if .Title}}<title>{{.Title}}</title>{{end}}</rect>
{{- else if eq .Kind "line"}}
<line x1="{{f .X}}" y1="{{f .Y}}" x2="{{f .X2}}" y2="{{f .Y2}}" stroke="{{.Stroke}}"{{if .Dash}} stroke-dasharray="{{.Dash}}"{{end}}/>
{{- else if eq .Kind "polyline"}}
<polyline{{if .Class}} class="{{.Class}}"{{end}} points="{{.Points}}" fill="none" stroke="{{.Stroke}}" stroke-width="{{f .StrokeW}}"{{if .Dash}} stroke-dasharray="{{.Dash}}"{{end}}{{range .Data}} data-{{.Name}}="{{.Value}}"{{end}}/>
{{- else if eq .Kind "polygon"}}
<polygon{{if .Class}} class="{{.Class}}"{{end}} points="{{.Points}}" fill="{{.Fill}}"{{range .Data}} data-{{.Name}}="{{.Value}}"{{end}}/>
{{- else if eq .Kind "circle"}}
<circle{{if .Class}} class="{{.Class}}"{{end}} cx="{{f .X}}" cy="{{f .Y}}" r="{{f .R}}" fill="{{.Fill}}"{{if .Stroke}} stroke="{{.Stroke}}" stroke-width="{{f .StrokeW}}"{{end}}>{{if .Title}}<title>{{.Title}}</title>{{end}}</circle>
{{- else if eq .Kind "text"}}
<text{{if .Class}} class="{{.Class}}"{{end}} x="{{f .X}}" y="{{f .Y}}" font-size="{{f .Size}}"{{if .Anchor}} text-anchor="{{.Anchor}}"{{end}}{{if .Fill}} fill="{{.Fill}}"{{end}}{{if .Rotate}} transform="rotate(-90 {{f .X}} {{f .Y}})"{{end}}>{{.Text}}</text>
{{- else if eq .Kind "g"}}
<g{{if .Class}} class="{{.Class}}"{{end}}{{range .Data}} data-{{.Name}}="{{.Value}}"{{end}}>{{if .Title}}<title>{{.Title}}</title>{{end}}
{{- range .Children}}{{template "el" .}}{{end}}
</g>
{{- end}}
{{- end}}

{{- define "variant"}}
<div class="{{.Class}}">
{{- if .Legend}}
<ul class="legend">
{{- range .Legend}}<li><svg viewBox="0 0 30 12" aria-hidden="true"><line x1="1" x2="29" y1="6" y2="6" stroke="{{.Color}}" stroke-width="{{if .Dash}}2.5{{else}}8{{end}}"{{if .Dash}} stroke-dasharray="{{.Dash}}"{{end}}/></svg>{{.Label}}</li>{{end}}
</ul>
{{- end}}
<div class="grid">
{{- range .Panels}}
<figure class="trend"{{range .Data}} data-{{.Name}}="{{.Value}}"{{end}}>
<figcaption><span class="name" title="{{.Title}}">{{.Name}}</span>{{if .Last}} <span class="last">{{.Last}}</span>{{end}}</figcaption>
{{- if .Head}}
<p class="head{{if .Warn}} warn{{end}}">{{.Head}}</p>
{{- end}}
{{- template "fig" .Fig}}
</figure>
{{- end}}
</div>
{{- if .Note}}
<p class="note">{{.Note}}</p>
{{- end}}
</div>
{{- end}}
`

// cellTitle spells a cell out for its tooltip: "76 of 378 parsed
// robots.txt: 20.1%, 95% Wilson score interval 16.4-24.4%".
func cellTitle(c Cell, of string) string {
	s := formatCount(c.Count) + " of " + formatCount(c.Of) + " " + of
	if _, ok := c.Share(); !ok {
		return s
	}
	s += ": " + formatShare(c) + ", 95% Wilson score interval " + strings.Trim(formatInterval(c), "[]") + "%"
	if c.LowN() {
		s += "; fewer than 100, uncertain"
	}
	return s
}
