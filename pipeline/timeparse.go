package pipeline

import (
	"strconv"
	"time"

	"github.com/robotstat/robotstat/internal/ascii"
)

// parseTime reads the fetch times archives use: WARC-Date (ISO 8601 in
// UTC, "2024-05-18T10:11:12Z", optionally with fractional seconds; WARC/0.17
// and ARC also use 14 digits, "20080430204825"), RFC 3339 with an offset,
// a date alone ("2024-05-18", read as its midnight UTC), a date and time
// without zone ("2024-05-18 10:11:12", as SQL exports write it, read as
// UTC) and Unix seconds. The fixed layouts take a fast path without allocation.
func parseTime(b []byte) (time.Time, bool) {
	if len(b) == 20 && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':' && b[19] == 'Z' {
		if t, ok := digitsTime(b[0:4], b[5:7], b[8:10], b[11:13], b[14:16], b[17:19]); ok {
			return t, true
		}
	}
	if len(b) == 10 && b[4] == '-' && b[7] == '-' { // a date alone: its first second, UTC
		if t, ok := digitsTime(b[0:4], b[5:7], b[8:10], []byte("00"), []byte("00"), []byte("00")); ok {
			return t, true
		}
	}
	if len(b) == 19 && b[4] == '-' && b[7] == '-' && (b[10] == ' ' || b[10] == 'T') && b[13] == ':' && b[16] == ':' {
		// SQL exports' "2024-05-18 10:11:12", taken as UTC.
		if t, ok := digitsTime(b[0:4], b[5:7], b[8:10], b[11:13], b[14:16], b[17:19]); ok {
			return t, true
		}
	}
	if len(b) == 14 {
		if t, ok := digitsTime(b[0:4], b[4:6], b[6:8], b[8:10], b[10:12], b[12:14]); ok {
			return t, true
		}
	}
	if len(b) == 0 {
		return time.Time{}, false
	}
	s := string(b)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), true
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 && n < 1<<40 {
		return time.Unix(n, 0).UTC(), true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 && f < 1<<40 {
		return time.Unix(int64(f), 0).UTC(), true
	}
	return time.Time{}, false
}

func digitsTime(y, mo, d, h, mi, s []byte) (time.Time, bool) {
	var v [6]int
	for i, f := range [6][]byte{y, mo, d, h, mi, s} {
		n, ok := ascii.ParseDecimal(f)
		if !ok {
			return time.Time{}, false
		}
		v[i] = int(n)
	}
	if v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 60 {
		return time.Time{}, false
	}
	return time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], 0, time.UTC), true
}
