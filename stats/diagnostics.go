package stats

import (
	"github.com/robotstat/robotstat/lint"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// Diagnostics: one row per finding of the lint package's Linter, which
// shares the capture's parse pass when the table is enabled; its codes and
// messages are the table's code and message columns.

// diagnosticRows appends the capture's diagnostics: the body's (HTML,
// binary, BOM, over the limit), then each line's, in file order.
func (a *Analyzer) diagnosticRows(k *capture, dst *schema.Batch) {
	add := func(line int32, code string, value string) {
		dst.Diagnostics = append(dst.Diagnostics, schema.DiagnosticRow{Key: k.key, Line: line, Code: code, Message: lint.Message(code), Value: value})
	}
	if k.outcome != parse.OutcomeParsed {
		// The body of a 3xx/4xx/5xx is not read as a robots.txt: an HTML
		// error page there is no finding (captures.looks_html still says so).
		return
	}
	for _, d := range a.lint.Diagnostics() {
		add(int32(d.Line), d.Code, a.in.capped(d.Value, schema.MaxValueBytes))
	}
}
