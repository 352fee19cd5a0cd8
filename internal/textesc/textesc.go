// Package textesc makes text from the wild safe where it goes: UTF-8 for
// Parquet strings and JSON (Data), printable for a terminal (Message).
// Archives and file systems hold arbitrary bytes; Parquet's STRING type
// is UTF-8 and DuckDB refuses a whole file for one invalid value
// ("Invalid string encoding"), and a control character in a file name
// printed as is can rewrite a terminal's screen.
//
// Both escape a byte as %XX (Data) or \xXX (Message), the forms URLs and
// Go's %q use, and leave valid text as it is, without allocating. Data
// escapes only bytes that are not UTF-8: a literal "%FF" in the input reads
// the same as an escaped byte, the one ambiguity, which a URL has too (RFC
// 3986 percent-encoding; RFC 9309 section 2.2.2 compares paths with
// non-ASCII octets percent-encoded, so an escaped path matches as the raw
// one does). Everything here is safe for concurrent use.
package textesc

import (
	"unicode/utf8"
)

const hex = "0123456789ABCDEF"

// Data returns s with every byte that is not part of a valid UTF-8
// sequence written as %XX; s itself when it is valid UTF-8.
func Data(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			b = append(b, '%', hex[s[i]>>4], hex[s[i]&15])
			i++
			continue
		}
		b = append(b, s[i:i+n]...)
		i += n
	}
	return string(b)
}

// Message returns s fit for a terminal line: control characters (C0, DEL,
// C1) and bytes that are not UTF-8 written as \xXX, everything else as it
// is; s itself when nothing needs escaping.
func Message(s string) string { return message(s, false) }

// Lines is Message for text of several lines: line feeds and tabs are kept.
func Lines(s string) string { return message(s, true) }

func message(s string, lines bool) string {
	if printable(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case lines && (r == '\n' || r == '\t'):
			b = append(b, byte(r))
		case r == utf8.RuneError && n <= 1, r < 0x20, r == 0x7f:
			b = append(b, '\\', 'x', hex[s[i]>>4], hex[s[i]&15])
			i++
			continue
		case r >= 0x80 && r < 0xa0: // C1: two bytes in UTF-8
			b = append(b, '\\', 'x', hex[r>>4], hex[r&15])
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			if !utf8.ValidString(s[i:]) {
				return false
			}
			for _, r := range s[i:] {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
					return false
				}
			}
			return true
		}
	}
	return true
}
