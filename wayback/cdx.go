package wayback

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Fields are the CDX fields a query asks for (fl=), in this order.
var Fields = []string{"timestamp", "original", "statuscode", "digest"}

// A Row is one CDX line: a capture of Original at Timestamp (14 digits,
// UTC), its HTTP Status ("-" for a revisit whose status the index does
// not say) and Digest (the base32 SHA-1 of its payload). A plain value.
type Row struct {
	Timestamp, Original, Status, Digest string
}

// Sentinel errors of bad input (each wrapped in an *Error).
var (
	ErrCDX      = errors.New("CDX answer is not the JSON described")
	ErrStatus   = errors.New("replay status disagrees with its CDX row")
	ErrDigest   = errors.New("replay digest disagrees with its CDX row")
	ErrCut      = errors.New("replay body cut")
	ErrReplay   = errors.New("replay unusable")
	ErrRedirect = errors.New("redirect unusable")
)

// QueryURL is the CDX query of one site over r: key is the host without
// www. (the CDX's SURT form does not tell them apart).
func QueryURL(base, key string, r Range) string {
	return base + "cdx/search/cdx?url=" + url.QueryEscape(key+"/robots.txt") + "&output=json&from=" + r.From.CDX() + "&to=" + r.To.CDX() +
		"&fl=" + strings.Join(Fields, ",")
}

// ReplayURL is the raw replay of u as captured at ts.
func ReplayURL(base, ts, u string) string { return base + "web/" + ts + "id_/" + u }

// ParseCDX reads a CDX API JSON answer: an array of arrays of strings,
// the first naming the fields (at least those of Fields, in any order).
// An empty body or [] is no capture. Rows come back sorted by timestamp
// (stable), each checked: a 14-digit timestamp, an http(s) original.
func ParseCDX(body []byte) ([]Row, error) {
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil, nil
	}
	var all [][]string
	if err := json.Unmarshal(body, &all); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCDX, err)
	}
	if len(all) == 0 {
		return nil, nil
	}
	col := make([]int, len(Fields))
	for i, f := range Fields {
		col[i] = slices.Index(all[0], f)
		if col[i] < 0 {
			return nil, fmt.Errorf("%w: its first row %q does not name %q", ErrCDX, excerpt(strings.Join(all[0], ",")), f)
		}
	}
	rows := make([]Row, 0, len(all)-1)
	for n, l := range all[1:] {
		if len(l) != len(all[0]) {
			return nil, fmt.Errorf("%w: row %d has %d fields, the first row %d", ErrCDX, n+1, len(l), len(all[0]))
		}
		r := Row{Timestamp: l[col[0]], Original: l[col[1]], Status: l[col[2]], Digest: l[col[3]]}
		if !isTimestamp(r.Timestamp) {
			return nil, fmt.Errorf("%w: row %d: timestamp %q is not 14 digits", ErrCDX, n+1, excerpt(r.Timestamp))
		}
		if u, err := url.Parse(r.Original); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("%w: row %d: original %q is not an http(s) URL", ErrCDX, n+1, excerpt(r.Original))
		}
		if r.Status != "-" {
			if s, err := strconv.Atoi(r.Status); err != nil || s < 100 || s > 999 {
				return nil, fmt.Errorf("%w: row %d: statuscode %q", ErrCDX, n+1, excerpt(r.Status))
			}
		}
		rows = append(rows, r)
	}
	slices.SortStableFunc(rows, func(a, b Row) int { return strings.Compare(a.Timestamp, b.Timestamp) })
	return rows, nil
}

func isTimestamp(s string) bool {
	if len(s) != 14 {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// excerpt caps what of the input an error quotes.
func excerpt(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// robotsOf reports whether original is host's own /robots.txt (http or
// https, the default port or none, no query), the host compared exactly.
func robotsOf(original, host string) bool {
	u, err := url.Parse(original)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery != "" || u.Path != "/robots.txt" {
		return false
	}
	h, port := strings.ToLower(u.Hostname()), u.Port()
	if port != "" && !(u.Scheme == "http" && port == "80") && !(u.Scheme == "https" && port == "443") {
		return false
	}
	return h == host
}

// SiteKey is the CDX query key of a host: without its www. (the CDX's
// SURT canonicalisation drops it), so that host and www.host share a query.
func SiteKey(host string) string { return strings.TrimPrefix(host, "www.") }
