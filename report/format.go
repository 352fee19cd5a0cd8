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
