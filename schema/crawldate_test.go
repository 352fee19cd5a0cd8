package schema

import (
	"testing"
	"time"
)

func TestCrawlDate(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time {
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	fetch := time.Date(2025, 3, 9, 23, 59, 0, 0, time.FixedZone("x", 2*3600)) // 21:59 UTC
	tests := []struct {
		name, crawl string
		fetch       time.Time
		want        string // "" for no date
	}{
		{name: "cc_main_week", crawl: "CC-MAIN-2024-33", want: "2024-08-12"},
		{name: "cc_main_week_1_in_previous_year", crawl: "CC-MAIN-2025-01", want: "2024-12-30"},
		{name: "cc_main_week_53_exists", crawl: "CC-MAIN-2020-53", want: "2020-12-28"},
		{name: "cc_main_week_53_missing_falls_back", crawl: "CC-MAIN-2021-53", fetch: fetch, want: "2025-03-09"},
		{name: "cc_main_name_wins_over_fetch", crawl: "CC-MAIN-2023-50", fetch: fetch, want: "2023-12-11"},
		{name: "old_cc_name_uses_fetch", crawl: "CC-MAIN-2008-2009", fetch: fetch, want: "2025-03-09"},
		{name: "week_zero", crawl: "CC-MAIN-2024-00", want: ""},
		{name: "signed_week", crawl: "CC-MAIN-2024-+3", want: ""},
		{name: "other_crawl_median_fetch_utc_day", crawl: "my-scan", fetch: fetch, want: "2025-03-09"},
		{name: "no_name_no_fetch", crawl: "my-scan", want: ""},
		{name: "wayback_month_first_day", crawl: "wayback-2016-01", fetch: fetch, want: "2016-01-01"},
		{name: "wayback_december", crawl: "wayback-2026-12", want: "2026-12-01"},
		{name: "wayback_month_13_uses_fetch", crawl: "wayback-2016-13", fetch: fetch, want: "2025-03-09"},
		{name: "unknown_crawl", crawl: "", fetch: fetch, want: "2025-03-09"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := CrawlDate(tt.crawl, tt.fetch)
			if tt.want == "" {
				if ok {
					t.Fatalf("CrawlDate(%q) = %v, want no date", tt.crawl, got)
				}
				return
			}
			if !ok || !got.Equal(day(tt.want)) {
				t.Fatalf("CrawlDate(%q, %v) = %v, %v; want %s", tt.crawl, tt.fetch, got, ok, tt.want)
			}
			if back := DaysDate(DateDays(got)); !back.Equal(got) {
				t.Errorf("DaysDate(DateDays(%v)) = %v", got, back)
			}
		})
	}
	if n := DateDays(day("1970-01-02")); n != 1 {
		t.Errorf("DateDays(1970-01-02) = %d, want 1", n)
	}
}

func TestCompareCrawls(t *testing.T) {
	t.Parallel()
	// In order: two dated crawls whose names sort the other way, two on
	// the same date, the unknown crawl on that date, then undated ones.
	order := []struct {
		name string
		date int32
	}{{"z-scan", 100}, {"CC-MAIN-2024-33", 200}, {"a", 300}, {"b", 300}, {"", 300}, {"c", 0}, {"d", 0}, {"", 0}}
	for i := range order {
		for j := range order {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := CompareCrawls(order[i].name, order[i].date, order[j].name, order[j].date); got != want {
				t.Errorf("CompareCrawls(%v, %v) = %d, want %d", order[i], order[j], got, want)
			}
		}
	}
}
