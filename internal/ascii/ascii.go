// Package ascii holds the ASCII case folding, white-space trimming and
// decimal parsing that robotstat's packages share, modelled on Go's own
// net/http/internal/ascii: no Unicode tables, no allocation, byte slices or
// strings alike.
//
// White space is not one set: each specification robotstat reads names its
// own, so every trimming function takes a Set, and the sets are named by the
// specification they come from:
//
//   - WS (space, tab): RFC 9309 §2.2's WS and RFC 9110 §5.6.3's OWS, for
//     robots.txt values inside a record (Content-Signal items) and HTTP field
//     values.
//   - RobotsSpace (space, tab, VT, FF): what robotstat trims around robots.txt
//     keys and values. RFC 9309 §2.2 says only space and tab; VT and FF are
//     Google's robots.cc reading (it trims with ascii_isspace), kept as the
//     leniency parse/doc.go names Google_whitespace.
//   - LineSpace (space, tab, CR, LF): WARC (ISO 28500 §4) and HTTP/1.1 header
//     lines as archives store them, whose line ends vary (LF, CRLF, CR CR LF).
//
// Everything here is safe for concurrent use.
package ascii

// Set is a set of bytes, as a 256-bit mask: membership is one shift and one
// AND, with no branch per candidate byte.
type Set [4]uint64

// NewSet returns the set of the bytes of s.
func NewSet(s string) Set {
	var m Set
	for i := 0; i < len(s); i++ {
		c := s[i]
		m[c>>6] |= 1 << (c & 63)
	}
	return m
}

// Has reports whether c is in the set.
func (m *Set) Has(c byte) bool { return m[c>>6]&(1<<(c&63)) != 0 }

// The white-space sets; see the package documentation for their sources.
var (
	WS          = NewSet(" \t")
	RobotsSpace = NewSet(" \t\v\f")
	LineSpace   = NewSet(" \t\r\n")
)

// Trim returns b without the leading and trailing bytes of set.
func Trim[T string | []byte](b T, set *Set) T {
	i, j := 0, len(b)
	for i < j && set.Has(b[i]) {
		i++
	}
	for j > i && set.Has(b[j-1]) {
		j--
	}
	return b[i:j]
}

// Lower returns c in lower case if it is an ASCII capital letter.
func Lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// EqualFold reports whether a equals b ignoring ASCII case.
func EqualFold[A, B string | []byte](a A, b B) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if Lower(a[i]) != Lower(b[i]) {
			return false
		}
	}
	return true
}

// HasPrefixFold reports whether b starts with prefix, ignoring ASCII case.
func HasPrefixFold[A, B string | []byte](b A, prefix B) bool {
	return len(b) >= len(prefix) && EqualFold(b[:len(prefix)], prefix)
}

// ParseDecimal parses a non-negative decimal of 1 to 18 digits, so that the
// result always fits an int64; anything else is not a number.
func ParseDecimal[T string | []byte](b T) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}
