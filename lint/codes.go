package lint

import "github.com/robotstat/robotstat/parse"

// Diagnostic codes (the diagnostics table's code column). Line 0 findings
// are about the body as a whole.
const (
	HTMLBody        = "html-body"
	BinaryBody      = "binary-body"
	BOM             = "bom"
	OverLimit       = "over-parse-limit"
	InvalidLine     = "invalid-line"
	Typo            = "typo"
	MissingColon    = "missing-colon"
	LongLine        = "long-line"
	InvalidUTF8     = "invalid-utf8"
	Control         = "control-character"
	TruncatedLine   = "truncated-line"
	RuleOutside     = "rule-outside-group"
	BadPattern      = "bad-pattern"
	UnknownKey      = "unknown-directive"
	AgentNotToken   = "user-agent-not-token"
	AgentNamesNoone = "user-agent-names-no-token"
	AgentNotRFC     = "user-agent-token-outside-rfc"
)

var messages = map[string]string{
	HTMLBody:        "the body looks like an HTML page, not a robots.txt",
	BinaryBody:      "the body looks like binary data",
	BOM:             "the body starts with a UTF-8 byte order mark (accepted, as Google does)",
	OverLimit:       "the body is longer than the parse limit; the rest is ignored (RFC 9309 section 2.5)",
	InvalidLine:     "line is neither blank, a comment nor a key: value record",
	Typo:            "misspelt key accepted as the standard key (as Google does)",
	MissingColon:    "key and value separated without a colon (accepted, as Google does)",
	LongLine:        "line longer than Google's 16,664-byte limit (parsed whole)",
	InvalidUTF8:     "line is not valid UTF-8 (RFC 9309 section 2.3)",
	Control:         "line holds a control character",
	TruncatedLine:   "line cut by the parse limit; not parsed",
	RuleOutside:     "allow or disallow before the first user-agent line; ignored (RFC 9309 section 2.2.1)",
	BadPattern:      "pattern does not start with / or *; it can never match",
	UnknownKey:      "key robotstat does not know",
	AgentNotToken:   "user-agent value is not a product token; its leading token is used (RFC 9309 section 2.2.1)",
	AgentNamesNoone: "user-agent value names no product token; no crawler matches it",
	AgentNotRFC:     "user-agent token has digits or non-ASCII letters, which RFC 9309 section 2.2.1 does not allow; it is matched whole, where Google's parser reads only the part before them",
}

// Message returns the message of a diagnostic code, "" for a code this
// package does not define.
func Message(code string) string { return messages[code] }

// lineDiags are the line flags that are findings, with their codes, in the
// order a line's diagnostics are listed.
var lineDiags = [...]struct {
	flag parse.LineFlags
	code string
}{
	{parse.LineInvalid, InvalidLine},
	{parse.LineTypo, Typo},
	{parse.LineMissingColon, MissingColon},
	{parse.LineTooLong, LongLine},
	{parse.LineInvalidUTF8, InvalidUTF8},
	{parse.LineControl, Control},
	{parse.LineTruncated, TruncatedLine},
	{parse.LineBeforeGroup, RuleOutside},
	{parse.LineBadPattern, BadPattern},
}

// lineDiagFlags is the union of lineDiags' flags.
const lineDiagFlags = parse.LineInvalid | parse.LineTypo | parse.LineMissingColon | parse.LineTooLong |
	parse.LineInvalidUTF8 | parse.LineControl | parse.LineTruncated | parse.LineBeforeGroup | parse.LineBadPattern
