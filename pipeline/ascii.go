package pipeline

import (
	"bytes"

	"github.com/robotstat/robotstat/internal/ascii"
)

// HTTP field-value list helpers on top of internal/ascii (whose LineSpace is
// the white space of header lines as archives store them).

// containsTokenFold reports whether the comma-separated list b holds token
// s, ignoring case and spaces (for Transfer-Encoding, Content-Encoding).
func containsTokenFold(b []byte, s string) bool {
	for len(b) > 0 {
		var tok []byte
		tok, b, _ = bytes.Cut(b, []byte(","))
		if ascii.EqualFold(ascii.Trim(tok, &ascii.LineSpace), s) {
			return true
		}
	}
	return false
}

// lastToken returns the last element of a comma-separated list, trimmed.
func lastToken(b []byte) []byte {
	return ascii.Trim(b[bytes.LastIndexByte(b, ',')+1:], &ascii.LineSpace)
}
