package lint

import "github.com/robotstat/robotstat/parse"

// Diagnostic is one finding.
type Diagnostic struct {
	// Line is the 1-based line the finding is about, 0 for the body as a
	// whole (html-body, binary-body, bom, over-parse-limit).
	Line int
	Code string
	// Value is what the finding quotes: the line (line flags), the key
	// (unknown-directive) or the user-agent value, cut to its first
	// ValueLimit bytes; nil for a body finding.
	Value []byte
}

// ValueLimit is the most of a line or value a Diagnostic quotes: enough to
// show what is wrong, and a 500 KiB line is not copied.
const ValueLimit = 1024

// Linter is a parse.Handler that collects the diagnostics of one body, in
// file order: the body's own findings first, then each line's as its events
// arrive (a record's findings, then the line's flags in a fixed order).
//
// Call SetBody with the body before each parse, so that line findings can
// quote their line and the body can be sniffed. A Linter is reusable (Start
// resets it) and not safe for concurrent use; the Diagnostics and their
// Values are valid until the next Start.
type Linter struct {
	body  []byte
	diags []Diagnostic
	spans []span
	arena []byte
}

type span struct{ off, n int }

// SetBody names the body the next parse reads. The Linter reads it only
// during the parse.
func (l *Linter) SetBody(body []byte) { l.body = body }

// Diagnostics returns the findings of the last parse.
func (l *Linter) Diagnostics() []Diagnostic { return l.diags }

func (l *Linter) add(line int, code string, value []byte) {
	value = value[:min(len(value), ValueLimit)]
	l.spans = append(l.spans, span{len(l.arena), len(value)})
	l.arena = append(l.arena, value...)
	l.diags = append(l.diags, Diagnostic{Line: line, Code: code})
}

func (l *Linter) Start(f *parse.FileInfo) {
	l.diags, l.spans, l.arena = l.diags[:0], l.spans[:0], l.arena[:0]
	if LooksHTML(l.body) {
		l.add(0, HTMLBody, nil)
	} else if LooksBinary(l.body) {
		l.add(0, BinaryBody, nil)
	}
	if f.BOM {
		l.add(0, BOM, nil)
	}
	if f.OverLimit {
		l.add(0, OverLimit, nil)
	}
}

// record reports a key robotstat does not know.
func (l *Linter) record(e *parse.Entry) {
	if parse.ClassifyKey(e) == parse.KindUnknown {
		l.add(e.Line, UnknownKey, e.RawKey)
	}
}

func (l *Linter) UserAgent(e *parse.Entry) {
	l.record(e)
	if parse.IsStar(e.Value) {
		return
	}
	// e.Token is the token the parse read (Google's under GroupingGoogle,
	// which never leaves the RFC's characters).
	switch {
	case len(e.Token) == 0:
		l.add(e.Line, AgentNamesNoone, e.Value)
		return
	case len(e.Token) < len(e.Value):
		l.add(e.Line, AgentNotToken, e.Value)
	}
	if !parse.RFCProductToken(e.Token) {
		l.add(e.Line, AgentNotRFC, e.Value)
	}
}

func (l *Linter) Allow(e *parse.Entry)    { l.record(e) }
func (l *Linter) Disallow(e *parse.Entry) { l.record(e) }
func (l *Linter) Sitemap(e *parse.Entry)  { l.record(e) }
func (l *Linter) Other(e *parse.Entry)    { l.record(e) }

func (l *Linter) Line(li *parse.LineInfo) {
	f := li.Flags
	if f&lineDiagFlags == 0 {
		return
	}
	text := l.lineText(li)
	for _, fc := range lineDiags {
		if f&fc.flag != 0 {
			l.add(li.Num, fc.code, text)
		}
	}
}

func (l *Linter) lineText(li *parse.LineInfo) []byte {
	b := l.body
	if li.Offset < 0 || li.Offset > len(b) {
		return nil
	}
	return b[li.Offset:min(li.Offset+li.Len, len(b))]
}

// End turns the quoted values into slices of the arena, which no longer
// grows.
func (l *Linter) End(*parse.LineCounts) {
	for i, s := range l.spans {
		if s.n > 0 {
			l.diags[i].Value = l.arena[s.off : s.off+s.n : s.off+s.n]
		}
	}
	l.body = nil
}
