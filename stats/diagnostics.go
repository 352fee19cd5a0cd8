package stats

import (
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// Diagnostic codes (the diagnostics table's code column).
const (
	DiagHTMLBody        = "html-body"
	DiagBinaryBody      = "binary-body"
	DiagBOM             = "bom"
	DiagOverLimit       = "over-parse-limit"
	DiagInvalidLine     = "invalid-line"
	DiagTypo            = "typo"
	DiagMissingColon    = "missing-colon"
	DiagLongLine        = "long-line"
	DiagInvalidUTF8     = "invalid-utf8"
	DiagControl         = "control-character"
	DiagTruncatedLine   = "truncated-line"
	DiagRuleOutside     = "rule-outside-group"
	DiagBadPattern      = "bad-pattern"
	DiagUnknownKey      = "unknown-directive"
	DiagAgentNotToken   = "user-agent-not-token"
	DiagAgentNamesNoone = "user-agent-names-no-token"
)

var diagMessages = map[string]string{
	DiagHTMLBody:        "the body looks like an HTML page, not a robots.txt",
	DiagBinaryBody:      "the body looks like binary data",
	DiagBOM:             "the body starts with a UTF-8 byte order mark (accepted, as Google does)",
	DiagOverLimit:       "the body is longer than the parse limit; the rest is ignored (RFC 9309 section 2.5)",
	DiagInvalidLine:     "line is neither blank, a comment nor a key: value record",
	DiagTypo:            "misspelt key accepted as the standard key (as Google does)",
	DiagMissingColon:    "key and value separated without a colon (accepted, as Google does)",
	DiagLongLine:        "line longer than Google's 16,664-byte limit (parsed whole)",
	DiagInvalidUTF8:     "line is not valid UTF-8 (RFC 9309 section 2.3)",
	DiagControl:         "line holds a control character",
	DiagTruncatedLine:   "line cut by the parse limit; not parsed",
	DiagRuleOutside:     "allow or disallow before the first user-agent line; ignored (RFC 9309 section 2.2.1)",
	DiagBadPattern:      "pattern does not start with / or *; it can never match",
	DiagUnknownKey:      "key robotstat does not know",
	DiagAgentNotToken:   "user-agent value is not a product token; its leading token is used (RFC 9309 section 2.2.1)",
	DiagAgentNamesNoone: "user-agent value names no product token; no crawler matches it",
}

// lineDiags are the line flags that are diagnostics, with their codes, in
// the order a line's diagnostics are listed.
var lineDiags = [...]struct {
	flag parse.LineFlags
	code string
}{
	{parse.LineInvalid, DiagInvalidLine},
	{parse.LineTypo, DiagTypo},
	{parse.LineMissingColon, DiagMissingColon},
	{parse.LineTooLong, DiagLongLine},
	{parse.LineInvalidUTF8, DiagInvalidUTF8},
	{parse.LineControl, DiagControl},
	{parse.LineTruncated, DiagTruncatedLine},
	{parse.LineBeforeGroup, DiagRuleOutside},
	{parse.LineBadPattern, DiagBadPattern},
}

// lineDiagFlags is the union of lineDiags' flags.
const lineDiagFlags = parse.LineInvalid | parse.LineTypo | parse.LineMissingColon | parse.LineTooLong |
	parse.LineInvalidUTF8 | parse.LineControl | parse.LineTruncated | parse.LineBeforeGroup | parse.LineBadPattern

// diagnosticRows appends the capture's diagnostics: the body's (HTML,
// binary, BOM, over the limit), then each line's, in file order.
func (a *Analyzer) diagnosticRows(k *capture, dst *schema.Batch) {
	add := func(line int32, code string, value string) {
		dst.Diagnostics = append(dst.Diagnostics, schema.DiagnosticRow{Key: k.key, Line: line, Code: code, Message: diagMessages[code], Value: value})
	}
	if k.outcome != parse.OutcomeParsed {
		// The body of a 3xx/4xx/5xx is not read as a robots.txt: an HTML
		// error page there is no finding (captures.looks_html still says so).
		return
	}
	if html, binary := k.sniff(); html {
		add(0, DiagHTMLBody, "")
	} else if binary {
		add(0, DiagBinaryBody, "")
	}
	info, _ := a.robots.Info()
	if info.BOM {
		add(0, DiagBOM, "")
	}
	if info.OverLimit {
		add(0, DiagOverLimit, "")
	}
	for _, d := range a.col.diags {
		add(d.line, d.code, d.value)
	}
}
