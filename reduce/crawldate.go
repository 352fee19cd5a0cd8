package reduce

import (
	"sort"
	"time"

	"github.com/robotstat/robotstat/schema"
)

// fetchDays counts a crawl's captures by the UTC day of their fetch time:
// enough to find the day of the median fetch time exactly (schema.CrawlDate
// needs no more than the day), in memory that grows with the days a crawl
// spans, not with its captures.
type fetchDays map[int32]int64

func (d fetchDays) add(unixMilli int64) {
	d[int32(floorDiv(unixMilli, 86_400_000))]++
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// medianDay returns the UTC midnight of the day of the lower median fetch
// time (of n times in order, the one at 0-based position (n-1)/2, as
// DuckDB's quantile_disc(fetch_time, 0.5)), or the zero time when no
// capture has one.
func (d fetchDays) medianDay() time.Time {
	var n int64
	days := make([]int32, 0, len(d))
	for day, k := range d {
		days = append(days, day)
		n += k
	}
	if n == 0 {
		return time.Time{}
	}
	sort.Slice(days, func(i, j int) bool { return days[i] < days[j] })
	pos := (n - 1) / 2
	for _, day := range days {
		if pos < d[day] {
			return schema.DaysDate(day)
		}
		pos -= d[day]
	}
	return time.Time{} // not reached
}

// crawlDate returns the crawl's date in days (schema.DateDays; 0 for none).
func crawlDate(crawl string, days fetchDays) int32 {
	if d, ok := schema.CrawlDate(crawl, days.medianDay()); ok {
		return schema.DateDays(d)
	}
	return 0
}
