package pipeline

import "bytes"

// ASCII helpers for header parsing: no allocation, no Unicode tables.

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalFold reports whether b equals s ignoring ASCII case.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(b); i++ {
		if lower(b[i]) != lower(s[i]) {
			return false
		}
	}
	return true
}

// hasPrefixFold reports whether b starts with s ignoring ASCII case.
func hasPrefixFold(b []byte, s string) bool {
	return len(b) >= len(s) && equalFold(b[:len(s)], s)
}

// containsTokenFold reports whether the comma-separated list b holds token
// s, ignoring case and spaces (for Transfer-Encoding, Content-Encoding).
func containsTokenFold(b []byte, s string) bool {
	for len(b) > 0 {
		var tok []byte
		tok, b, _ = bytes.Cut(b, []byte(","))
		if equalFold(trimSpace(tok), s) {
			return true
		}
	}
	return false
}

// lastToken returns the last element of a comma-separated list, trimmed.
func lastToken(b []byte) []byte { return trimSpace(b[bytes.LastIndexByte(b, ',')+1:]) }

// parseDecimal parses a non-negative decimal of at most 18 digits.
func parseDecimal(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}
