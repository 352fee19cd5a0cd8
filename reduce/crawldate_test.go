package reduce

import (
	"testing"
	"time"
)

// The lower median, as DuckDB's quantile_disc(fetch_time, 0.5): of n
// times in order the one at 0-based position (n-1)/2, here as its day.
func TestFetchDaysMedian(t *testing.T) {
	at := func(day, hour int) int64 { return time.Date(2025, 1, day, hour, 0, 0, 0, time.UTC).UnixMilli() }
	tests := []struct {
		name  string
		times []int64
		want  string
	}{
		{name: "none", want: ""},
		{name: "one", times: []int64{at(5, 23)}, want: "2025-01-05"},
		{name: "even_takes_lower", times: []int64{at(1, 1), at(2, 1), at(3, 1), at(4, 1)}, want: "2025-01-02"},
		{name: "odd_takes_middle", times: []int64{at(9, 1), at(1, 1), at(2, 1), at(2, 5), at(3, 1)}, want: "2025-01-02"},
		{name: "many_on_one_day", times: []int64{at(1, 1), at(7, 1), at(7, 2), at(7, 3), at(8, 1)}, want: "2025-01-07"},
		{name: "before_1970", times: []int64{time.Date(1969, 12, 31, 23, 0, 0, 0, time.UTC).UnixMilli()}, want: "1969-12-31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := fetchDays{}
			for _, ms := range tt.times {
				d.add(ms)
			}
			got := ""
			if m := d.medianDay(); !m.IsZero() {
				got = m.Format(time.DateOnly)
			}
			if got != tt.want {
				t.Errorf("median day %q, want %q", got, tt.want)
			}
		})
	}
}
