package parse

import "github.com/robotstat/robotstat/internal/ascii"

// ProductToken returns the product token a user-agent value names: the
// longest prefix of ASCII letters, "_" and "-" (RFC 9309 §2.2.1: "The
// product token MUST contain only uppercase and lowercase letters, "_" and
// "-"). "GPTBot/1.1" names GPTBot, "Bot2" names Bot and "Mozilla/5.0
// (compatible; GPTBot/1.1)" names Mozilla, exactly as Google's reference
// parser reads a user-agent line (Google_token_prefix; robots.cc
// ExtractUserAgent). Robots.Lookup reads the agent asked about this way too,
// which Google does not (Deviation_agent_token_prefix). The result aliases
// value.
func ProductToken(value []byte) []byte {
	for i, c := range value {
		if !tokenClass[c] {
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
	return len(value) > 0 && len(ProductToken(value)) == len(value)
}

var tokenClass = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	t['_'], t['-'] = true, true
	return t
}()

// hashToken is FNV-1a over the lower-cased token.
func hashToken[T string | []byte](s T) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(ascii.Lower(s[i]))
		h *= 16777619
	}
	return h
}
