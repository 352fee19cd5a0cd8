package schema

import (
	"strconv"
	"strings"
	"time"
)

// A crawl's date is the one day that stands for it on a time axis, so that
// trends are ordered and spaced by when the crawls happened rather than by
// their names. It is decided once, by the reduce step (robotstat sites),
// which writes it into sites.crawl_date; site_history orders crawls by it
// and robotstat report draws its trends on it.
//
//   - A Common Crawl main crawl is named CC-MAIN-YYYY-WW: ISO 8601 year YYYY
//     and week WW, the week the crawl started. Its date is the Monday of
//     that week (CC-MAIN-2024-33 is 2024-08-12). Older names that do not
//     have this form (CC-MAIN-2008-2009, CC-MAIN-2012) fall through to the
//     next rule.
//   - A month of the Wayback Machine, as robotstat panel's wayback:FROM..TO
//     source names it (package wayback), is wayback-YYYY-MM: its date is
//     the month's first day (wayback-2016-01 is 2016-01-01).
//   - Any other crawl takes the UTC day of the median fetch time of its
//     captures (the lower median: of n fetch times in order, the one at
//     0-based position (n-1)/2, which is what DuckDB's
//     quantile_disc(fetch_time, 0.5) returns). Captures without a fetch
//     time do not count.
//   - A crawl with neither has no date; it sorts after every dated crawl.

// CrawlNameDate returns the Monday of the ISO week a Common Crawl crawl
// name CC-MAIN-YYYY-WW names, or the first day of the month a Wayback
// month wayback-YYYY-MM names, and false when crawl is neither or the week
// does not exist in that ISO year (week 53 exists in some years only).
func CrawlNameDate(crawl string) (time.Time, bool) {
	if m, ok := strings.CutPrefix(crawl, "wayback-"); ok {
		return monthDate(m)
	}
	rest, ok := strings.CutPrefix(crawl, "CC-MAIN-")
	if !ok || len(rest) != 7 || rest[4] != '-' {
		return time.Time{}, false
	}
	year, err1 := strconv.Atoi(rest[:4])
	week, err2 := strconv.Atoi(rest[5:])
	if err1 != nil || err2 != nil || rest[0] == '+' || rest[5] == '+' || week < 1 || week > 53 {
		return time.Time{}, false
	}
	// Week 1 is the week holding 4 January; its Monday is on or before it.
	jan4 := time.Date(year, time.January, 4, 0, 0, 0, 0, time.UTC)
	monday := jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
	d := monday.AddDate(0, 0, 7*(week-1))
	if y, w := d.ISOWeek(); y != year || w != week {
		return time.Time{}, false
	}
	return d, true
}

// monthDate is the first day of month YYYY-MM, as package wayback names
// its crawls (wayback.Month.Crawl; schema does not import the source).
func monthDate(s string) (time.Time, bool) {
	if len(s) != 7 || s[4] != '-' || s[0] == '+' || s[5] == '+' {
		return time.Time{}, false
	}
	year, err1 := strconv.Atoi(s[:4])
	month, err2 := strconv.Atoi(s[5:])
	if err1 != nil || err2 != nil || year < 1 || month < 1 || month > 12 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC), true
}

// CrawlDate returns a crawl's date by the rules above: CrawlNameDate when
// the name gives one, else the UTC day of medianFetch (the lower median of
// the crawl's fetch times, zero when it has none), else false.
func CrawlDate(crawl string, medianFetch time.Time) (time.Time, bool) {
	if d, ok := CrawlNameDate(crawl); ok {
		return d, true
	}
	if medianFetch.IsZero() {
		return time.Time{}, false
	}
	u := medianFetch.UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC), true
}

// DateDays returns a date as the number of days since 1970-01-01, the form
// of Parquet's DATE columns (sites.crawl_date, site_history.first_full_date).
func DateDays(d time.Time) int32 {
	return int32(d.UTC().Truncate(24*time.Hour).Unix() / 86400)
}

// DaysDate is DateDays' inverse: the UTC midnight of day n.
func DaysDate(n int32) time.Time { return time.Unix(int64(n)*86400, 0).UTC() }

// CompareCrawls orders crawls the way trends and site_history take them:
// by date (days as in sites.crawl_date, 0 for none), crawls without a date
// after every dated one; on the same date or without one, the unknown
// crawl ("") last and the others by name. It returns -1, 0 or +1.
func CompareCrawls(a string, aDate int32, b string, bDate int32) int {
	switch {
	case (aDate == 0) != (bDate == 0):
		if aDate == 0 {
			return 1
		}
		return -1
	case aDate != bDate:
		if aDate < bDate {
			return -1
		}
		return 1
	case (a == "") != (b == ""):
		if a == "" {
			return 1
		}
		return -1
	}
	return strings.Compare(a, b)
}
