// Package ranklist reads ranked site lists in Tranco's form, one
// "rank,domain" line per site, for the two commands that take one
// (analyze --sites and report --sites through stats.ReadRanks, scan's host
// list through scan.ReadSites), so that both skip and refuse the same
// lines.
package ranklist

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// FormatError is a line that is not "rank,domain" (Rank false) or whose
// rank is not a positive number (Rank true; Text is then the rank field).
// Text is cut to 80 bytes (a rank to 40) and marked "...", for a message.
type FormatError struct {
	Line int
	Text string
	Rank bool
}

func (e *FormatError) Error() string {
	if e.Rank {
		return "line " + strconv.Itoa(e.Line) + ": rank " + strconv.Quote(e.Text) + " is not a positive number"
	}
	return "line " + strconv.Itoa(e.Line) + ": " + strconv.Quote(e.Text) + " is not rank,domain"
}

// ReadError is a read failure at Line (the line being read).
type ReadError struct {
	Line int
	Err  error
}

func (e *ReadError) Error() string { return "line " + strconv.Itoa(e.Line) + ": " + e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// Each calls fn with every site of the list, in file order: its line
// number, its rank and its domain field, white space trimmed (nothing else
// done to it). A leading UTF-8 BOM, blank lines, "#" comments and a first
// line whose rank is not a number (a header such as "rank,domain") are
// skipped. It stops when fn returns false, and fails with a *FormatError or
// a *ReadError. Lines may be up to 1 MiB.
func Each(r io.Reader, fn func(line int, rank int64, domain string) bool) error {
	return each(r, false, fn)
}

// EachEntry is Each for a list that may also have a bare domain or host
// on a line, without a rank (rank 0): a panel's site list, either a
// Tranco list or one host per line.
func EachEntry(r io.Reader, fn func(line int, rank int64, domain string) bool) error {
	return each(r, true, fn)
}

func each(r io.Reader, bare bool, fn func(line int, rank int64, domain string) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if line == 1 {
			s = strings.TrimPrefix(s, "\uFEFF")
		}
		if s == "" || s[0] == '#' {
			continue
		}
		rank, dom, ok := strings.Cut(s, ",")
		if !ok && bare {
			if !fn(line, 0, s) {
				return nil
			}
			continue
		}
		if !ok {
			return &FormatError{Line: line, Text: cut(s, 80)}
		}
		n, err := strconv.ParseInt(strings.TrimSpace(rank), 10, 64)
		if err != nil || n < 1 {
			if line == 1 {
				continue
			}
			return &FormatError{Line: line, Text: cut(rank, 40), Rank: true}
		}
		if !fn(line, n, strings.TrimSpace(dom)) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return &ReadError{Line: line + 1, Err: err}
	}
	return nil
}

// cut cuts s to n bytes, marking the cut with "...".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
