package wayback

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A Month is a calendar month, counted from January of year 0.
type Month int

// MonthOf returns the UTC month of t.
func MonthOf(t time.Time) Month {
	t = t.UTC()
	return Month(t.Year()*12 + int(t.Month()) - 1)
}

// Year and Mon split m.
func (m Month) Year() int { return int(m) / 12 }

// Mon is m's month of the year, 1 to 12.
func (m Month) Mon() int { return int(m)%12 + 1 }

// First is the month's first day, UTC midnight.
func (m Month) First() time.Time {
	return time.Date(m.Year(), time.Month(m.Mon()), 1, 0, 0, 0, 0, time.UTC)
}

// String writes YYYY-MM.
func (m Month) String() string { return fmt.Sprintf("%04d-%02d", m.Year(), m.Mon()) }

// CDX writes YYYYMM, the CDX API's from/to form.
func (m Month) CDX() string { return fmt.Sprintf("%04d%02d", m.Year(), m.Mon()) }

// Crawl is the crawl a month's captures are filed under: wayback-YYYY-MM.
func (m Month) Crawl() string { return CrawlPrefix + m.String() }

// CrawlPrefix begins every Wayback month's crawl name.
const CrawlPrefix = "wayback-"

// SourcePrefix begins a panel's Wayback input: wayback:FROM..TO.
const SourcePrefix = "wayback:"

// ParseMonth reads YYYY-MM.
func ParseMonth(s string) (Month, bool) {
	if len(s) != 7 || s[4] != '-' {
		return 0, false
	}
	y, err1 := strconv.Atoi(s[:4])
	mo, err2 := strconv.Atoi(s[5:])
	if err1 != nil || err2 != nil || s[0] == '+' || s[5] == '+' || y < 1991 || mo < 1 || mo > 12 {
		return 0, false
	}
	return Month(y*12 + mo - 1), true
}

// Range is the months FROM..TO, both included.
type Range struct{ From, To Month }

// MaxMonths bounds a range: 100 years.
const MaxMonths = 1200

// ParseRange reads wayback:YYYY-MM..YYYY-MM (or wayback:YYYY-MM, one
// month).
func ParseRange(s string) (Range, error) {
	rest, ok := strings.CutPrefix(s, SourcePrefix)
	if !ok {
		return Range{}, fmt.Errorf("%q is not a Wayback source (wayback:YYYY-MM..YYYY-MM)", s)
	}
	a, b, two := strings.Cut(rest, "..")
	if !two {
		b = a
	}
	from, ok1 := ParseMonth(a)
	to, ok2 := ParseMonth(b)
	switch {
	case !ok1 || !ok2:
		return Range{}, fmt.Errorf("%q: months are YYYY-MM (wayback:2016-01..2026-11)", s)
	case to < from:
		return Range{}, fmt.Errorf("%q: %s is before %s", s, b, a)
	case int(to-from) >= MaxMonths:
		return Range{}, fmt.Errorf("%q: more than %d months", s, MaxMonths)
	}
	return Range{from, to}, nil
}

// Months is the number of months in r.
func (r Range) Months() int { return int(r.To-r.From) + 1 }

// String writes wayback:FROM..TO.
func (r Range) String() string { return SourcePrefix + r.From.String() + ".." + r.To.String() }

// DefaultRate is the requests per second a run makes of the archive, CDX
// queries and replays together, unless told otherwise: 0.4, one request
// every 2.5 s, 24 a minute, about 35,000 a day. 24 a minute is the CDX
// API's limit per IP as the wayback Python client (edgi-govdata-archiving,
// v0.5.1, June 2026) reports it from the archive's staff; the archive
// answers 429 above it, and a client that keeps going after 429s for a
// minute is blocked at the firewall for an hour, doubled at each repeat
// (edgi-govdata-archiving/wayback issue 137). Replays are counted in the
// same budget: their limit is not published, and a history is a run of
// days, not a burst.
const DefaultRate = 0.4
