package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/robotstat/robotstat/internal/outfile"
)

// The export: every table of the report, and the data behind its charts,
// as CSV files with a header row (WriteCSV) or one JSON document
// (WriteJSON), so that every figure can be re-plotted and checked. Tables
// are written long (one row per cell: the row's labels, the column, the
// count, the denominator, the share and its 95% Wilson score bounds); in
// the chart data every share column ("full") is followed by its 95% Wilson
// score bounds as fractions ("full_lo", "full_hi"; NULL without a
// denominator), its denominator being the row's sites or hosts. The chart
// data are:
//
//   - bots_by_crawl: per crawl (in date order), catalog bot and definition,
//     the parsed sites with a row for the bot and how many block it fully
//     (by name, by *), partially or not at all; the tables' population (the
//     panel with TallyOptions.Panel), all ranks. README.md has the SQL over
//     sites and site_bots that returns the same rows.
//   - trends: the same for every population and stratum the report counts.
//   - categories_by_crawl: the category roll-ups, per population and
//     stratum.
//   - first_blocks: the first-block cohorts of site_history, per bot,
//     population, stratum and crawl.

// export is one table of the export: a header and rows of values, each a
// string, an int64, a float64 (a share or a bound) or nil (NULL: an empty
// CSV field, a JSON null).
type export struct {
	Name   string
	Header []string
	Rows   [][]any
}

// Exports returns the names of the files WriteCSV writes for d, without
// ".csv".
func (d *Data) Exports() []string {
	var names []string
	for _, e := range d.exports() {
		names = append(names, e.Name)
	}
	return names
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// withBounds returns the columns with each share's 95% Wilson score
// bounds beside it: "full" is followed by "full_lo" and "full_hi".
func withBounds(shares ...string) []string {
	var out []string
	for _, s := range shares {
		out = append(out, s, s+"_lo", s+"_hi")
	}
	return out
}

// shareValues returns each count of n with its 95% Wilson score bounds as
// fractions (NULL when n is 0), in withBounds's order.
func shareValues(n int64, counts ...int64) []any {
	var out []any
	for _, k := range counts {
		lo, hi, ok := wilson(k, n)
		if !ok {
			out = append(out, k, nil, nil)
			continue
		}
		out = append(out, k, lo, hi)
	}
	return out
}

var botHeader = append([]string{"bot", "operator", "category", "definition", "sites"}, withBounds("full", "full_named", "full_star", "partial", "none")...)

func botValues(b *BotStat, def int, bc *BotCounts) []any {
	return append([]any{b.Bot, b.Operator, b.Category, DefinitionNames[def], bc.Sites}, shareValues(bc.Sites, bc.Class(def, ClassFull),
		bc.Counts[MatchedNamed][def][ClassFull], bc.Counts[MatchedStar][def][ClassFull], bc.Class(def, ClassPartial), bc.Class(def, ClassNone))...)
}

func (d *Data) exports() []export {
	r := d.Report
	t := r.Trend
	pop := PopAll
	if r.Panel {
		pop = PopPanel
	}
	var out []export

	bc := export{Name: "bots_by_crawl", Header: append([]string{"crawl", "crawl_date"}, botHeader...)}
	for i, c := range t.Crawls {
		p := &t.Points[pop][StratumAll][i]
		for bi := range r.Bots {
			counts := p.Bot(bi)
			for def := range NumDefinitions {
				bc.Rows = append(bc.Rows, append([]any{nullable(c.Name), nullable(c.DateString())}, botValues(&r.Bots[bi], def, &counts)...))
			}
		}
	}
	out = append(out, bc)

	pops := []int{PopAll}
	if t.History {
		pops = append(pops, PopPanel)
	}
	strata := append([]int{StratumAll}, shownStrata(r)...)
	tr := export{Name: "trends", Header: append([]string{"crawl", "crawl_date", "population", "stratum", "parsed_sites"}, botHeader...)}
	cats := export{Name: "categories_by_crawl", Header: append([]string{"crawl", "crawl_date", "population", "stratum", "category", "sites"}, withBounds("some_full", "every_full")...)}
	for _, pp := range pops {
		for _, st := range strata {
			for i, c := range t.Crawls {
				p := &t.Points[pp][st][i]
				head := []any{nullable(c.Name), nullable(c.DateString()), PopNames[pp], StratumNames[st]}
				for bi := range r.Bots {
					counts := p.Bot(bi)
					for def := range NumDefinitions {
						tr.Rows = append(tr.Rows, append(append(append([]any{}, head...), p.Parsed), botValues(&r.Bots[bi], def, &counts)...))
					}
				}
				for k, name := range aiCategories {
					cc := p.Cats[k]
					cats.Rows = append(cats.Rows, append(append(append([]any{}, head...), name, cc.Sites), shareValues(cc.Sites, cc.Some, cc.Every)...))
				}
			}
		}
	}
	out = append(out, tr, cats)

	if t.History {
		fb := export{Name: "first_blocks", Header: append([]string{"bot", "operator", "category", "population", "stratum", "first_full_crawl", "first_full_date",
			"hosts"}, withBounds("first_full", "first_full_named", "first_full_star", "later_unblocked")...)}
		for _, pp := range pops {
			for _, st := range strata {
				for bi, b := range r.Bots {
					for i, c := range t.Crawls {
						co := t.Cohorts[pp][st][bi][i]
						hosts := t.Hosts[pp][st]
						fb.Rows = append(fb.Rows, append([]any{b.Bot, b.Operator, b.Category, PopNames[pp], StratumNames[st], nullable(c.Name), nullable(c.DateString()),
							hosts}, shareValues(hosts, co.First, co.Named, co.Star, co.Unblocked)...))
					}
				}
			}
		}
		out = append(out, fb)
	}

	dates := map[string]string{}
	for _, c := range t.Crawls {
		dates[c.Label] = c.DateString()
	}
	for _, tb := range r.Tables {
		out = append(out, tableExport(tb, dates))
	}
	return out
}

// tableExport writes a table long: one row per cell, its row's labels
// (filled down where a grouped table leaves them empty), the column, the
// count and the denominator; a crawl label or column gets its date beside.
func tableExport(t *Table, dates map[string]string) export {
	e := export{Name: "table_" + strings.ReplaceAll(t.ID, "-", "_")}
	var dateAfter []bool
	for _, l := range t.Labels {
		e.Header = append(e.Header, snake(l))
		dateAfter = append(dateAfter, l == DimCrawl)
		if l == DimCrawl {
			e.Header = append(e.Header, "crawl_date")
		}
	}
	dim := t.Dim
	if dim == "" {
		dim = "measure"
	}
	e.Header = append(e.Header, dim)
	if t.Dim == DimCrawl {
		e.Header = append(e.Header, "crawl_date")
	}
	e.Header = append(e.Header, "count", "of", "share", "share_lo", "share_hi")
	last := make([]string, len(t.Labels))
	for _, row := range t.Rows {
		for i, l := range row.Labels {
			if l != "" {
				last[i] = l
			}
		}
		for ci, c := range row.Cells {
			var v []any
			for i := range t.Labels {
				v = append(v, last[i])
				if dateAfter[i] {
					v = append(v, nullable(dates[last[i]]))
				}
			}
			v = append(v, t.Columns[ci])
			if t.Dim == DimCrawl {
				v = append(v, nullable(dates[t.Columns[ci]]))
			}
			var share, lo, hi any
			if p, ok := c.Share(); ok {
				l, h, _ := c.Interval()
				share, lo, hi = p, l, h
			}
			e.Rows = append(e.Rows, append(v, c.Count, c.Of, share, lo, hi))
		}
	}
	return e
}

// snake turns a column label into a CSV header: lower case, runs of
// anything but letters and digits as one "_" ("by *" is "by_star").
func snake(s string) string {
	s = strings.ReplaceAll(s, "*", "star")
	var b strings.Builder
	us := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			us = false
			continue
		}
		if !us && b.Len() > 0 {
			b.WriteByte('_')
			us = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

func csvField(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		// a share or its bound: six decimals are a ten-thousandth of a
		// percentage point
		return strconv.FormatFloat(x, 'f', 6, 64)
	}
	return fmt.Sprint(v)
}

// WriteCSV writes every export of d as DIR/<name>.csv (Exports names
// them) through internal/outfile: each under a temporary name in DIR that
// is renamed into place once complete, so that a reader never sees half a
// file (a FIFO or device of that name is written through, never
// replaced). It creates DIR if needed and writes nowhere else.
func WriteCSV(dir string, d *Data) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("report: --csv: %w", err)
	}
	for _, e := range d.exports() {
		if err := outfile.Write(filepath.Join(dir, e.Name+".csv"), func(w io.Writer) error {
			cw := csv.NewWriter(w)
			if err := cw.Write(e.Header); err != nil {
				return err
			}
			rec := make([]string, len(e.Header))
			for _, row := range e.Rows {
				for i, v := range row {
					rec[i] = csvField(v)
				}
				if err := cw.Write(rec); err != nil {
					return err
				}
			}
			cw.Flush()
			return cw.Error()
		}); err != nil {
			return fmt.Errorf("report: --csv: %w", err)
		}
	}
	return nil
}

// WriteJSON writes the exports of d as one JSON document: the report's
// preamble and, per export, its rows as objects keyed by the header.
func WriteJSON(w io.Writer, d *Data) error {
	type crawl struct {
		Crawl  *string `json:"crawl"`
		Date   *string `json:"crawl_date"`
		Sites  int64   `json:"sites"`
		Ranked int64   `json:"ranked_sites"`
	}
	doc := struct {
		Dir        string                      `json:"dir"`
		Version    string                      `json:"version,omitempty"`
		Catalog    string                      `json:"bot_catalog,omitempty"`
		Panel      bool                        `json:"panel_only"`
		PanelHosts int64                       `json:"panel_hosts"`
		Crawls     []crawl                     `json:"crawls"`
		Coverage   []ListCoverage              `json:"panel_coverage,omitempty"`
		About      map[string]string           `json:"about"`
		Exports    map[string][]map[string]any `json:"exports"`
	}{Dir: d.Dir, Version: d.Version, Catalog: d.Catalog, Panel: d.Report.Panel, PanelHosts: d.Report.Trend.PanelHosts,
		Coverage: d.Coverage, About: map[string]string{}, Exports: map[string][]map[string]any{}}
	for _, kv := range d.about() {
		doc.About[kv[0]] = kv[1]
	}
	for _, c := range d.Report.Trend.Crawls {
		cr := crawl{Sites: c.Sites, Ranked: c.Ranked}
		if c.Name != "" {
			n := c.Name
			cr.Crawl = &n
		}
		if ds := c.DateString(); ds != "" {
			cr.Date = &ds
		}
		doc.Crawls = append(doc.Crawls, cr)
	}
	for _, e := range d.exports() {
		rows := make([]map[string]any, 0, len(e.Rows))
		for _, row := range e.Rows {
			m := make(map[string]any, len(row))
			for i, v := range row {
				m[e.Header[i]] = v
			}
			rows = append(rows, m)
		}
		doc.Exports[e.Name] = rows
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("report: --json: %w", err)
	}
	return bw.Flush()
}
