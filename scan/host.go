package scan

import (
	"io"

	"github.com/robotstat/robotstat/internal/ranklist"
	"github.com/robotstat/robotstat/internal/weburl"
)

// ErrHost reports a host name that cannot be scanned.
var ErrHost = weburl.ErrHost

// NormalizeHost returns name as the ASCII, lower-case host a request goes
// to: IDNA 2008 (UTS #46, lookup profile) maps a Unicode name to its
// A-labels, a trailing dot is dropped, and an IP address is kept as it is
// (IPv6 without brackets). A name with a scheme, a path or a port is
// refused: the scan fetches /robots.txt on the default ports. It is
// weburl.NormalizeHost, the reading the panel's site lists share.
func NormalizeHost(name string) (string, error) { return weburl.NormalizeHost(name) }

// ReadSites reads a ranked site list in Tranco's form, "rank,domain" a
// line (a header line, blank lines and # comments are skipped), and returns
// the first top domains in file order (all when top <= 0), normalised with
// NormalizeHost. Lines whose domain is not a host name are passed to bad
// (line number and error) and skipped; a line that is not rank,domain at
// all fails the read.
func ReadSites(r io.Reader, top int, bad func(line int, err error)) ([]string, error) {
	var out []string
	err := ranklist.Each(r, func(line int, _ int64, dom string) bool {
		h, err := NormalizeHost(dom)
		if err != nil {
			if bad != nil {
				bad(line, err)
			}
			return true
		}
		out = append(out, h)
		return top <= 0 || len(out) < top
	})
	return out, err
}

// capString cuts s to n bytes for an error message.
func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
