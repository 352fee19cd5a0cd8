package parse

import (
	"unicode"
	"unicode/utf8"

	"github.com/robotstat/robotstat/internal/ascii"
)

// Product tokens (RFC 9309 §2.2.1). The RFC's ABNF allows only ASCII
// letters, "_" and "-" in a product token, yet crawlers have long been named
// with digits (MJ12bot, 360Spider, AI2Bot, img2dataset) and files name them
// so. robotstat reads a token as the crawlers' own names are written
// (Deviation_token_digits, Deviation_token_non_ascii in doc.go):
//
//   - A token character is an ASCII letter or digit, "_", "-", or a letter,
//     mark or number outside ASCII (Unicode categories L, M and N) encoded
//     as valid UTF-8. Anything else ends the token: "/", ".", white space,
//     "*", other punctuation and symbols, and octets that are not UTF-8.
//   - The token of a value is its longest prefix of token characters:
//     "MJ12bot" is mj12bot, "GPTBot/1.1" is gptbot, "Googlebot*" is
//     googlebot, "Mozilla/5.0 (compatible; GPTBot/1.1)" is mozilla,
//     "Jävla-Foobot" is jävla-foobot, "*bot" and "/x" are none.
//   - Tokens compare case-insensitively (RFC 9309 §2.2.1: "Crawlers MUST use
//     case-insensitive matching"): ASCII letters are folded, other letters
//     lower-cased by Unicode's simple case mapping (unicode.ToLower), so
//     "JÄVLA-FOOBOT" is jävla-foobot.
//
// Under GroupingGoogle a user-agent line names what Google's reference
// parser reads (GoogleProductToken, robots.cc ExtractUserAgent): the prefix
// of ASCII letters, "_" and "-", so "MJ12bot" names mj and no agent asked
// about as MJ12bot finds it (google/robotstxt#46).

// ProductToken returns the product token a user-agent value names, and that
// Robots.Lookup reads out of the agent asked about: the longest prefix of
// token characters (see above). The result aliases value.
func ProductToken(value []byte) []byte { return value[:tokenLen(value)] }

// GoogleProductToken returns the product token Google's reference parser
// reads from a user-agent line (robots.cc ExtractUserAgent, called from
// HandleUserAgent): the longest prefix of ASCII letters, "_" and "-", the
// characters of RFC 9309 §2.2.1's ABNF. Parsers under GroupingGoogle read
// user-agent lines this way. The result aliases value.
func GoogleProductToken(value []byte) []byte {
	for i, c := range value {
		if !rfcTokenByte[c] {
			return value[:i]
		}
	}
	return value
}

// IsStar reports whether a user-agent value is the "*" wildcard: a "*"
// alone or followed by white space (as Google reads "* # all robots";
// "*bot" is not the wildcard).
func IsStar(value []byte) bool {
	return len(value) > 0 && value[0] == '*' && (len(value) == 1 || ascii.RobotsSpace.Has(value[1]))
}

// ValidProductToken reports whether the whole value is a product token, i.e.
// ProductToken(value) is all of it and it is not empty. Values that are not
// (a version, a whole User-Agent header) still name the token of their
// prefix; statistics count them.
func ValidProductToken(value []byte) bool {
	return len(value) > 0 && tokenLen(value) == len(value)
}

// RFCProductToken reports whether value is a product token by RFC 9309
// §2.2.1's own definition: one or more ASCII letters, "_" and "-". A token
// with digits or non-ASCII letters is valid for robotstat but not for the
// RFC, and Google's reference parser reads only its prefix.
func RFCProductToken(value []byte) bool {
	return len(value) > 0 && len(GoogleProductToken(value)) == len(value)
}

// AppendLowerToken appends tok to dst lower-cased as tokens compare: ASCII
// letters folded, other runes by unicode.ToLower. For a token (valid UTF-8)
// this is strings.ToLower's result, without allocating when dst has room.
func AppendLowerToken(dst, tok []byte) []byte {
	for i := 0; i < len(tok); {
		c := tok[i]
		if c < utf8.RuneSelf {
			dst = append(dst, ascii.Lower(c))
			i++
			continue
		}
		r, n := utf8.DecodeRune(tok[i:])
		if r == utf8.RuneError && n <= 1 {
			dst = append(dst, c) // not UTF-8: kept as it is (tokens never hold it)
			i++
			continue
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		i += n
	}
	return dst
}

// tokenLen returns the length of the longest prefix of v made of token
// characters. ASCII takes one table lookup per octet; only other octets
// are decoded.
func tokenLen(v []byte) int {
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if !tokenByte[c] {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(v[i:])
		if r == utf8.RuneError && n <= 1 || !tokenRune(r) {
			return i
		}
		i += n
	}
	return len(v)
}

// tokenRune reports whether a rune outside ASCII is a token character: a
// letter, mark or number.
func tokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)
}

var (
	// rfcTokenByte: RFC 9309 §2.2.1's identifier characters.
	rfcTokenByte = func() (t [256]bool) {
		for c := 'a'; c <= 'z'; c++ {
			t[c] = true
			t[c-'a'+'A'] = true
		}
		t['_'], t['-'] = true, true
		return t
	}()
	// tokenByte: robotstat's ASCII token characters, the RFC's and digits.
	tokenByte = func() (t [256]bool) {
		t = rfcTokenByte
		for c := '0'; c <= '9'; c++ {
			t[c] = true
		}
		return t
	}()
)

// foldRune returns the rune at the start of s lower-cased as tokens compare,
// and its length in s.
func foldRune(s []byte) (rune, int) {
	if c := s[0]; c < utf8.RuneSelf {
		return rune(ascii.Lower(c)), 1
	}
	r, n := utf8.DecodeRune(s)
	if r == utf8.RuneError && n <= 1 {
		return rune(s[0]) | 1<<30, 1 // an invalid octet: equal only to itself
	}
	return unicode.ToLower(r), n
}

// hashToken is FNV-1a over the folded runes of the token, so a token and its
// lower-cased form (AppendLowerToken) hash alike.
func hashToken(s []byte) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			h ^= uint32(ascii.Lower(c))
			h *= 16777619
			i++
			continue
		}
		r, n := foldRune(s[i:])
		h ^= uint32(r)
		h *= 16777619
		i += n
	}
	return h
}

// equalToken reports whether two tokens are equal as tokens compare.
func equalToken(a, b []byte) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < utf8.RuneSelf && b[j] < utf8.RuneSelf {
			if ascii.Lower(a[i]) != ascii.Lower(b[j]) {
				return false
			}
			i++
			j++
			continue
		}
		ra, na := foldRune(a[i:])
		rb, nb := foldRune(b[j:])
		if ra != rb {
			return false
		}
		i += na
		j += nb
	}
	return i == len(a) && j == len(b)
}
