package parse

// Percent-encoding normalisation, RFC 9309 §2.2.2 and §2.2.3.
//
// Patterns and URL paths are both brought to one canonical form before they
// are compared octet by octet:
//
//   - octets outside printable ASCII (controls, space, DEL, 0x80-0xFF: raw
//     UTF-8 or invalid bytes) and the ASCII characters RFC 3986 never allows
//     unencoded in a URI (" < > \ ^ ` { | }) are percent-encoded;
//   - a percent-encoded unreserved character (RFC 3986 §2.3: ALPHA DIGIT
//     - . _ ~) is decoded ("%62" -> "b", RFC 9309 §2.2.2's table);
//   - any other percent-encoding is kept, with upper-case hex digits
//     ("%2f" -> "%2F"), because decoding a reserved character changes the
//     URI (RFC 3986 §2.2);
//   - "*" and "$" in a URL path are encoded as "%2A" and "%24", so that a
//     pattern naming them as "%2A"/"%24" matches them (RFC 9309 §2.2.3's
//     table), while a bare "*" in a pattern stays a wildcard and a "$" at
//     the end of a pattern stays the end anchor. A "$" anywhere else in a
//     pattern is an ordinary character and is encoded like the path's.
//   - a "%" not followed by two hex digits is left as it is on both sides.
//
// Google's reference matcher only encodes non-ASCII octets in patterns and
// upper-cases existing escapes; it decodes nothing, so "/%62" does not match
// "/b" there and "/a%2A" does not match "/a*". We follow the RFC
// (Deviation_percent_decoding in doc.go).

// byteClass says how normalise treats an unescaped byte.
const (
	keep   = 0 // copy as is
	encode = 1 // write as %XX
	pct    = 2 // start of a percent-escape
	star   = 3 // "*": wildcard in a pattern, %2A in a path
	dollar = 4 // "$": anchor at the end of a pattern, else %24
)

var byteClasses = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if c <= 0x20 || c >= 0x7F {
			t[c] = encode
		}
	}
	for _, c := range []byte("\"<>\\^`{|}") {
		t[c] = encode
	}
	t['%'] = pct
	t['*'] = star
	t['$'] = dollar
	return t
}()

var unreserved = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	t['-'], t['.'], t['_'], t['~'] = true, true, true, true
	return t
}()

const upperHex = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// needsNormalising reports whether normalise would change s (for a path) or
// would change anything other than keep wildcards (for a pattern). It lets
// the common case skip the copy.
func needsNormalising(s []byte, pattern bool) bool {
	for i, c := range s {
		switch byteClasses[c] {
		case keep:
		case star:
			if !pattern {
				return true
			}
		case dollar:
			if !pattern || i != len(s)-1 {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// normalise appends the canonical form of s to dst. With pattern set, "*" is
// kept as a wildcard and a final "$" as the end anchor.
func normalise(dst, s []byte, pattern bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch byteClasses[c] {
		case keep:
			dst = append(dst, c)
		case encode:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		case star:
			if pattern {
				dst = append(dst, '*')
			} else {
				dst = append(dst, "%2A"...)
			}
		case dollar:
			if pattern && i == len(s)-1 {
				dst = append(dst, '$')
			} else {
				dst = append(dst, "%24"...)
			}
		case pct:
			if i+2 >= len(s) {
				dst = append(dst, '%')
				continue
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				dst = append(dst, '%')
				continue
			}
			v := hi<<4 | lo
			if unreserved[v] {
				dst = append(dst, v)
			} else {
				dst = append(dst, '%', upperHex[v>>4], upperHex[v&15])
			}
			i += 2
		}
	}
	return dst
}
