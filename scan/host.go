package scan

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/robotstat/robotstat/internal/ranklist"
	"golang.org/x/net/idna"
)

// ErrHost reports a host name that cannot be scanned.
var ErrHost = errors.New("not a host name")

// NormalizeHost returns name as the ASCII, lower-case host a request goes
// to: IDNA 2008 (UTS #46, lookup profile) maps a Unicode name to its
// A-labels, a trailing dot is dropped, and an IP address is kept as it is
// (IPv6 without brackets). A name with a scheme, a path or a port is
// refused: the scan fetches /robots.txt on the default ports.
func NormalizeHost(name string) (string, error) {
	s := strings.TrimSuffix(strings.TrimSpace(name), ".")
	if s == "" {
		return "", fmt.Errorf("%w: empty", ErrHost)
	}
	if ip := net.ParseIP(strings.Trim(s, "[]")); ip != nil {
		return ip.String(), nil
	}
	if strings.ContainsAny(s, "/:@?# ") {
		return "", fmt.Errorf("%w: %q (give a bare host, without scheme, port or path)", ErrHost, capString(name, 80))
	}
	a, err := idna.Lookup.ToASCII(s)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrHost, capString(name, 80), err)
	}
	return strings.ToLower(a), nil
}

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
