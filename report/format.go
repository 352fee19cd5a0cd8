package report

import (
	"strconv"
	"strings"
)

// The number formats the text and HTML reports share, so that both print
// the same strings for the same cell.

// formatCount writes n with a comma every three digits: 1,234,567.
func formatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// formatShare writes a cell's share with one decimal: "12.3%". A share that
// is not zero but rounds to it is "<0.1%", one that is not all but rounds to
// 100 is ">99.9%", and a share of nothing is "-".
func formatShare(c Cell) string {
	v, ok := c.Share()
	if !ok {
		return "-"
	}
	switch {
	case c.Count > 0 && v < 0.0005:
		return "<0.1%"
	case c.Count < c.Of && v >= 0.9995:
		return ">99.9%"
	}
	return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
}

// formatInterval writes a cell's 95% Wilson score interval in percent,
// one decimal, in brackets: "[16.4-24.4]"; "" for a share of nothing.
func formatInterval(c Cell) string {
	lo, hi, ok := c.Interval()
	if !ok {
		return ""
	}
	return "[" + strconv.FormatFloat(100*lo, 'f', 1, 64) + "-" + strconv.FormatFloat(100*hi, 'f', 1, 64) + "]"
}

// lowMark flags a share whose denominator is under 100 (Cell.LowN).
const lowMark = "!"

// lowNote explains lowMark wherever a table has one.
const lowNote = "!: fewer than 100 in the share's denominator (n < 100): the share is uncertain, read its interval"

// cellText is one cell as the text and HTML tables print it.
type cellText struct {
	// Count is the count, followed by "/n" when the share's denominator
	// is not the one the table's base line gives for its column.
	Count, Share string
	// Interval is the share's 95% Wilson score interval, in percent.
	Interval string
	// Low reports a denominator under 100.
	Low bool
}

func newCellText(c Cell, base int64) cellText {
	ct := cellText{Count: formatCount(c.Count), Share: formatShare(c), Interval: formatInterval(c), Low: c.LowN()}
	if c.Of != base {
		ct.Count += "/" + formatCount(c.Of)
	}
	return ct
}

// cellBase returns the denominator the base line of t gives for cell ci
// of row, or -1 when it gives none: by column when the columns are groups,
// else by the row's group label (its last label) or the one group.
func cellBase(t *Table, row *Line, ci int) int64 {
	if t.Dim != "" {
		if ci < len(t.Base) {
			return t.Base[ci].Count
		}
		return -1
	}
	if len(t.Base) == 1 {
		return t.Base[0].Count
	}
	if len(row.Labels) > 0 {
		l := row.Labels[len(row.Labels)-1]
		for _, b := range t.Base {
			if b.Label == l {
				return b.Count
			}
		}
	}
	return -1
}

// tableCells returns the printed cells of t, row by row, and whether some
// share has a denominator under 100.
func tableCells(t *Table) ([][]cellText, bool) {
	out := make([][]cellText, len(t.Rows))
	low := false
	for i := range t.Rows {
		r := &t.Rows[i]
		for ci, c := range r.Cells {
			ct := newCellText(c, cellBase(t, r, ci))
			low = low || ct.Low
			out[i] = append(out[i], ct)
		}
	}
	return out, low
}
