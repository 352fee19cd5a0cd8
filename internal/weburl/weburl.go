// Package weburl holds the few URL facts that more than one robotstat
// package must agree on, so that there is one definition of each: the host
// a capture belongs to (Split, used by stats for captures.host and by
// pipeline to pick a site's captures out of Common Crawl's URL index), the
// target of a redirect (ResolveLocation, captures.redirect_target, which
// the sites step and the panel follow), and what a site list's entry
// means as a host (NormalizeHost, for scan and panel).
//
// Hosts are compared as RFC 3986 section 3.2.2 reg-names are compared in
// practice: case-insensitively (lower case kept), IDNA A-labels for
// Unicode names (UTS #46 lookup profile), without a port, brackets or a
// trailing dot. Everything here is safe for concurrent use.
package weburl

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Split returns the scheme (lower case), host (see the package
// documentation) and port (as written, "" when absent) of an absolute URL,
// or of a scheme-relative one ("//host/..."). It never fails: parts it
// cannot find are empty, and so is a host that is not UTF-8. For an ASCII URL whose scheme and host are in
// lower case the strings alias rawURL and nothing is allocated.
func Split(rawURL string) (scheme, host, port string) {
	rest := rawURL
	if i := strings.Index(rest, "://"); i > 0 {
		scheme = rest[:i]
		if hasUpper(scheme) {
			scheme = strings.ToLower(scheme)
		}
		rest = rest[i+3:]
	} else if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
	} else {
		return "", "", ""
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	host = rest
	if strings.HasPrefix(host, "[") {
		if j := strings.IndexByte(host, ']'); j > 0 {
			port = strings.TrimPrefix(host[j+1:], ":")
			host = host[1:j]
		}
	} else if j := strings.LastIndexByte(host, ':'); j >= 0 {
		host, port = host[:j], host[j+1:]
	}
	host = strings.TrimSuffix(host, ".")
	switch {
	case !utf8.ValidString(host):
		// Bytes that are not UTF-8 name no host: IDNA read them as
		// U+FFFD and invented one (bad\xff\xfe.example.com became
		// xn--bad-7t7sa.example.com). The WHATWG URL parser fails such a
		// host too (host-invalid-code-point).
		host = ""
	case !isASCII(host):
		if a, err := idna.Lookup.ToASCII(host); err == nil {
			host = a
		} else {
			host = strings.ToLower(host)
		}
	case hasUpper(host):
		host = strings.ToLower(host)
	}
	return scheme, host, port
}

// Host returns the host of rawURL as Split does.
func Host(rawURL string) string {
	_, h, _ := Split(rawURL)
	return h
}

// ResolveLocation resolves a Location header against the URL it answered
// (RFC 9110 section 10.2.2: a relative reference is resolved against the
// target URI); it returns loc unchanged when either does not parse.
func ResolveLocation(base, loc string) string {
	if loc == "" {
		return ""
	}
	l, err := url.Parse(loc)
	if err != nil {
		return loc
	}
	if l.IsAbs() {
		return loc
	}
	b, err := url.Parse(base)
	if err != nil {
		return loc
	}
	return b.ResolveReference(l).String()
}

// ErrHost reports a name that is not a bare host name.
var ErrHost = errors.New("not a host name")

// NormalizeHost returns a site list's entry as the ASCII, lower-case host
// it names: IDNA 2008 (UTS #46, lookup profile) maps a Unicode name to its
// A-labels, a trailing dot is dropped, and an IP address is kept in its
// canonical form (IPv6 without brackets). An entry with a scheme, a path,
// a port, white space inside or nothing at all is refused (ErrHost).
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
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%w: %q is not UTF-8", ErrHost, capString(name, 80))
	}
	a, err := idna.Lookup.ToASCII(s)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrHost, capString(name, 80), err)
	}
	return strings.ToLower(a), nil
}

// capString cuts s to n bytes for an error message.
func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
