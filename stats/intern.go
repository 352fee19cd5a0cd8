package stats

import (
	"unicode/utf8"
)

// interner turns the short byte strings rows are made of (keys, tokens,
// user-agent values, common patterns) into Go strings without allocating
// for the ones seen before. robots.txt files repeat themselves across a
// crawl ("*", "/wp-admin/", "googlebot"), so a bounded table removes most
// per-row allocations. Strings longer than maxIntern, and all strings once
// the table holds maxEntries, are allocated each time.
type interner struct {
	m map[string]string
}

const (
	maxIntern  = 96
	maxEntries = 1 << 16
)

// str returns b as a string that is valid UTF-8 (invalid sequences become
// U+FFFD, so no Parquet reader chokes on a binary body).
func (in *interner) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) <= maxIntern {
		if s, ok := in.m[string(b)]; ok {
			return s
		}
	}
	s := validString(b)
	if len(b) <= maxIntern {
		if in.m == nil {
			in.m = make(map[string]string, 1024)
		}
		if len(in.m) >= maxEntries {
			clear(in.m)
		}
		in.m[string(b)] = s
	}
	return s
}

// capped returns b as str does, cut to at most n bytes at a character
// boundary. The cut comes after invalid UTF-8 is replaced: each invalid
// byte becomes U+FFFD, three bytes, so cutting b alone could leave up to
// 3n bytes.
func (in *interner) capped(b []byte, n int) string {
	return capBytes(in.str(capBytes(b, n)), n)
}

// validString converts b to a string, replacing invalid UTF-8.
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			out = append(out, "\uFFFD"...)
			b = b[1:]
			continue
		}
		out = append(out, b[:n]...)
		b = b[n:]
	}
	return string(out)
}

// capBytes cuts b to at most n bytes without splitting a UTF-8 sequence.
func capBytes[T string | []byte](b T, n int) T {
	if len(b) <= n {
		return b
	}
	cut := n
	for cut > 0 && cut > n-4 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return b[:cut]
}
