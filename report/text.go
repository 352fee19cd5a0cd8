package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteText prints the report as plain text: a preamble, then each table
// with its title and denominators, aligned columns (every value as count,
// percentage and 95% Wilson score interval, "!" where the denominator is
// under 100) and its notes. The charts of the HTML page draw the
// same numbers; the CSV export (WriteCSV) has them all.
func WriteText(w io.Writer, d *Data) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "robotstat report of %s\n", d.Dir)
	for _, kv := range d.about() {
		fmt.Fprintf(bw, "%-8s %s\n", kv[0]+":", kv[1])
	}
	for _, t := range d.Report.Tables {
		fmt.Fprintln(bw)
		writeTextTable(bw, t)
	}
	return bw.Flush()
}

// baseLine says what a table's percentages are of, per column group: one
// figure when every group has the same.
func baseLine(t *Table) string {
	var parts []string
	same := true
	for _, b := range t.Base {
		parts = append(parts, b.Label+" "+formatCount(b.Count))
		same = same && b.Count == t.Base[0].Count
	}
	if len(parts) == 0 {
		return "% of " + t.Of
	}
	if same {
		return fmt.Sprintf("%% of %s: %s", t.Of, formatCount(t.Base[0].Count))
	}
	return fmt.Sprintf("%% of %s: %s", t.Of, strings.Join(parts, "; "))
}

func width(s string) int { return utf8.RuneCountInString(s) }

func writeTextTable(w io.Writer, t *Table) {
	// The title, then the denominators: on the same line when they are
	// one figure, which is most tables of a report on one crawl.
	if base := baseLine(t); !strings.Contains(base, ";") {
		fmt.Fprintf(w, "== %s == %s\n", t.Title, base)
	} else {
		fmt.Fprintf(w, "== %s ==\n%s\n", t.Title, base)
	}
	if len(t.Rows) == 0 {
		fmt.Fprintln(w, "(no rows)")
	}
	// Column widths: labels left-aligned; each value column a count and a
	// percentage, each right-aligned in its own width.
	lw := make([]int, len(t.Labels))
	for i, l := range t.Labels {
		lw[i] = width(l)
	}
	cells, low := tableCells(t)
	cw := make([]int, len(t.Columns))
	pw := make([]int, len(t.Columns))
	iw := make([]int, len(t.Columns))
	for ri, r := range t.Rows {
		for i, l := range r.Labels {
			lw[i] = max(lw[i], width(l))
		}
		for i, c := range cells[ri] {
			cw[i] = max(cw[i], width(c.Count))
			pw[i] = max(pw[i], width(c.Share))
			iw[i] = max(iw[i], width(c.Interval))
		}
	}
	mark := ""
	if low {
		mark = " "
	}
	cellWidth := func(i int) int { return cw[i] + 1 + pw[i] + 1 + iw[i] + len(mark) }
	vw := make([]int, len(t.Columns))
	for i, h := range t.Columns {
		vw[i] = max(width(h), cellWidth(i))
	}
	var b strings.Builder
	line := func(labels []string, values []string) {
		b.Reset()
		for i, l := range labels {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(l)
			b.WriteString(strings.Repeat(" ", lw[i]-width(l)))
		}
		for i, v := range values {
			b.WriteString("  ")
			b.WriteString(strings.Repeat(" ", vw[i]-width(v)))
			b.WriteString(v)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(t.Labels, t.Columns)
	pad := func(s string, w int) string { return strings.Repeat(" ", w-width(s)) + s }
	for ri, r := range t.Rows {
		vals := make([]string, len(r.Cells))
		for i, c := range cells[ri] {
			m := mark
			if c.Low {
				m = lowMark
			}
			vals[i] = pad(c.Count, cw[i]) + " " + pad(c.Share, pw[i]) + " " + pad(c.Interval, iw[i]) + m
		}
		line(r.Labels, vals)
	}
	if low {
		defer fmt.Fprintf(w, "note: %s\n", lowNote)
	}
	for _, n := range t.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}
