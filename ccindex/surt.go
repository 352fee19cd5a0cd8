package ccindex

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// HostKey returns the host part of the SURT key of every URL whose host is
// host, a lower-case ASCII host without port (as weburl.Split gives it):
// a leading www, www2, ... label dropped (the surt library's "host
// massage", so www.example.com and example.com share their keys), the
// labels reversed and joined by commas: com,example for www.example.com.
// An IPv4 address is reversed too (1.2.3.4 gives 4,3,2,1), as the library
// does by default. Rows of the host have keys that begin HostKey(host)+")"
// or, with a port other than the scheme's default, HostKey(host)+":".
func HostKey(host string) string {
	host = massageHost(host)
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	return strings.Join(labels, ",")
}

// massageHost drops a leading www label with optional digits ("www.",
// "www12.", not "www2foo."), IAURLCanonicalizer's massageHost.
func massageHost(h string) string {
	if !strings.HasPrefix(h, "www") {
		return h
	}
	i := 3
	for i < len(h) && h[i] >= '0' && h[i] <= '9' {
		i++
	}
	if i < len(h) && h[i] == '.' {
		return h[i+1:]
	}
	return h
}

// SURT returns the SURT key of rawURL as Common Crawl's index holds it in
// url_surtkey: the surt library's surt(url) with its defaults (Google's and
// the Internet Archive's canonicalisation, then the host reversed, no
// scheme, no trailing comma): "com,example)/robots.txt" for
// https://www.example.com/robots.txt. See the package documentation for
// what it does not do. An empty URL gives "-", as in the library.
func SURT(rawURL string) string {
	if rawURL == "" {
		return "-"
	}
	if strings.HasPrefix(rawURL, "filedesc") {
		return rawURL
	}
	u, ok := parseHandy(rawURL)
	if !ok {
		return u.scheme + ":" + u.path
	}
	u.canonicalizeGoogle()
	u.canonicalizeIA()
	var b strings.Builder
	if u.host != "" {
		b.WriteString(HostKey(u.host))
		if u.port >= 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(u.port))
		}
		b.WriteByte(')')
	} else {
		b.WriteString(u.scheme)
		b.WriteByte(':')
	}
	switch {
	case u.path != "":
		b.WriteString(u.path)
	case u.hasQuery:
		b.WriteByte('/')
	}
	if u.hasQuery {
		b.WriteByte('?')
		b.WriteString(u.query)
	}
	return b.String()
}

// handyURL is the surt library's handyurl: a URL split into the parts its
// canonicalisers rewrite. port is -1 when absent (or default, once
// canonicalised); hasQuery tells an empty query from none.
type handyURL struct {
	scheme, host, path, query string
	port                      int
	hasQuery                  bool
}

// parseHandy splits a URL as handyurl.parse does: trimmed, tabs and line
// ends removed, http:// added when there is no scheme, a doubled
// http(s):// prefix collapsed. ok is false for a URL without an authority
// (mailto:, dns:), whose key is the URL itself.
func parseHandy(s string) (handyURL, bool) {
	s = strings.TrimSpace(s)
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	if !hasScheme(s) {
		s = "http://" + s
	}
	for {
		rest, ok := cutHTTPPrefix(s)
		if !ok {
			break
		}
		if _, again := cutHTTPPrefix(rest); !again {
			break
		}
		s = rest
	}
	var u handyURL
	u.port = -1
	colon := strings.IndexByte(s, ':')
	u.scheme = strings.ToLower(s[:colon])
	rest := s[colon+1:]
	if !strings.HasPrefix(rest, "//") {
		u.path = rest
		return u, false
	}
	rest = rest[2:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	netloc, rest := rest[:end], rest[end:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i] // the fragment: the canonicalisers drop it
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		u.query, u.hasQuery = rest[i+1:], true
		rest = rest[:i]
	}
	u.path = rest
	netloc = strings.TrimRight(netloc, ":")
	if at := strings.LastIndexByte(netloc, '@'); at >= 0 {
		netloc = netloc[at+1:] // user and password are stripped
	}
	host := netloc
	if strings.HasPrefix(host, "[") {
		if j := strings.IndexByte(host, ']'); j > 0 {
			if p, err := strconv.Atoi(strings.TrimPrefix(host[j+1:], ":")); err == nil && p >= 0 && p <= 65535 {
				u.port = p
			}
			host = host[1:j]
		}
	} else if j := strings.LastIndexByte(host, ':'); j >= 0 {
		if p, err := strconv.Atoi(host[j+1:]); err == nil && p >= 0 && p <= 65535 {
			u.port = p
		}
		host = host[:j]
	}
	u.host = strings.ToLower(host)
	if u.host == "" && strings.HasPrefix(u.scheme, "http") && u.path != "" {
		// http:////www.example.com: the host is in the path.
		h, p, _ := strings.Cut(strings.TrimLeft(u.path, "/"), "/")
		u.host, u.path = strings.ToLower(h), "/"+p
	}
	return u, true
}

// hasScheme reports a leading scheme: a letter, then letters, digits,
// "+", "-" or ".", then ":".
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

func cutHTTPPrefix(s string) (string, bool) {
	for _, p := range []string{"http://", "https://"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest, true
		}
	}
	return s, false
}

// canonicalizeGoogle is GoogleURLCanonicalizer.canonicalize: escapes
// decoded and re-encoded once, the host in IDNA form without stray dots,
// numeric hosts as dotted IPv4, the path's dot segments and empty
// segments removed.
func (u *handyURL) canonicalizeGoogle() {
	if u.hasQuery {
		u.query = escapeOnce(unescapeRepeatedly(u.query))
	}
	host := unescapeRepeatedly(u.host)
	if !isASCII(host) {
		if a, err := idna.Lookup.ToASCII(host); err == nil {
			host = a
		}
	}
	host = strings.Trim(strings.ReplaceAll(host, "..", "."), ".")
	if ip, ok := ipFormat(host); ok {
		host = ip
	} else {
		host = escapeOnce(strings.ToLower(host))
	}
	u.host = host
	u.path = escapeOnce(normalizePath(unescapeRepeatedly(u.path)))
}

// canonicalizeIA is IAURLCanonicalizer.canonicalize with its defaults
// (session ids are not stripped: see the package documentation).
func (u *handyURL) canonicalizeIA() {
	u.host = massageHost(strings.ToLower(u.host))
	if (u.scheme == "http" && u.port == 80) || (u.scheme == "https" && u.port == 443) {
		u.port = -1
	}
	p := strings.ToLower(u.path)
	if len(p) > 1 && strings.HasSuffix(p, "/") {
		p = p[:len(p)-1]
	}
	u.path = p
	if u.hasQuery {
		u.query = alphaReorderQuery(strings.ToLower(u.query))
		u.hasQuery = u.query != ""
	}
}

// alphaReorderQuery sorts the query's arguments as byte strings of
// (name, value) pairs, keeping "a" and "a=" apart as the library does.
func alphaReorderQuery(q string) string {
	if len(q) <= 1 {
		return q
	}
	args := strings.Split(q, "&")
	type arg struct {
		name, value string
		hasValue    bool
	}
	as := make([]arg, len(args))
	for i, a := range args {
		n, v, ok := strings.Cut(a, "=")
		as[i] = arg{n, v, ok}
	}
	// Python sorts the tuples: by name, then a 1-tuple before a 2-tuple
	// of the same name, then by value.
	slices.SortStableFunc(as, func(a, b arg) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if a.hasValue != b.hasValue {
			if !a.hasValue {
				return -1
			}
			return 1
		}
		return strings.Compare(a.value, b.value)
	})
	var b strings.Builder
	for i, a := range as {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(a.name)
		if a.hasValue {
			b.WriteByte('=')
			b.WriteString(a.value)
		}
	}
	return b.String()
}

// normalizePath removes "." segments, resolves ".." (kept when there is
// nothing to pop), drops empty segments but keeps a trailing slash; an
// empty path is "/".
func normalizePath(p string) string {
	if p == "" {
		return "/"
	}
	parts := strings.Split(p, "/")[1:]
	var kept []string
	for _, s := range parts {
		switch s {
		case ".":
		case "..":
			if len(kept) > 0 {
				kept = kept[:len(kept)-1]
			} else {
				kept = append(kept, s)
			}
		default:
			kept = append(kept, s)
		}
	}
	var b strings.Builder
	b.WriteByte('/')
	for i, s := range kept {
		if i < len(kept)-1 {
			if s != "" {
				b.WriteString(s)
				b.WriteByte('/')
			}
			continue
		}
		b.WriteString(s)
	}
	return b.String()
}

// ipFormat rewrites a host that is a number (masked to 32 bits) or a
// dotted decimal address with one to four parts (inet_aton's forms,
// without octal: see the package documentation) as a dotted IPv4 address.
func ipFormat(h string) (string, bool) {
	if h == "" {
		return "", false
	}
	if allDigits(h) {
		n, err := strconv.ParseUint(h, 10, 64)
		if err != nil {
			return "", false
		}
		n &= 0xffffffff
		return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}).String(), true
	}
	parts := strings.Split(h, ".")
	if len(parts) > 4 || h[0] < '1' || h[0] > '9' {
		return "", false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" || !allDigits(p) || (len(p) > 1 && p[0] == '0') {
			return "", false
		}
		v, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return "", false
		}
		vals[i] = v
	}
	var n uint64
	last := len(vals) - 1
	for i, v := range vals[:last] {
		if v > 255 {
			return "", false
		}
		n |= v << (24 - 8*i)
	}
	if vals[last] >= 1<<(8*(4-last)) {
		return "", false
	}
	n |= vals[last]
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}).String(), true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// unescapeRepeatedly decodes percent escapes until nothing changes; the
// decoded bytes are read as UTF-8, an invalid sequence as U+FFFD, as
// Python's unquote does.
func unescapeRepeatedly(s string) string {
	for {
		u := unquote(s)
		if u == s {
			return s
		}
		s = u
	}
}

func unquote(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// escapeOnce percent-encodes (upper-case hex, UTF-8) every byte but
// letters, digits and !"$&'()*+,-./:;<=>?@[\]^_`{|}~, as the library's
// quote does.
func escapeOnce(s string) string {
	const hexDigits = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if safeByte(c) {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(s)+8), s[:i]...)
		}
		b = append(b, '%', hexDigits[c>>4], hexDigits[c&15])
	}
	if b == nil {
		return s
	}
	return string(b)
}

func safeByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!\"$&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}
