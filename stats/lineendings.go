package stats

import (
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// LineEndings classifies the terminators the parser counted: one kind only
// gives lf, crlf or cr; several kinds give mixed; none at all (an empty body
// or a single unterminated line) gives none.
func LineEndings(s *parse.LineCounts) string {
	kinds, style := 0, schema.LineEndingsNone
	if s.LF > 0 {
		kinds, style = kinds+1, schema.LineEndingsLF
	}
	if s.CRLF > 0 {
		kinds, style = kinds+1, schema.LineEndingsCRLF
	}
	if s.CR > 0 {
		kinds, style = kinds+1, schema.LineEndingsCR
	}
	if kinds > 1 {
		return schema.LineEndingsMixed
	}
	return style
}
