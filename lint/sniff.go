package lint

import (
	"bytes"

	"github.com/robotstat/robotstat/internal/ascii"
)

// Body sniffing: is a body served as robots.txt really an HTML page or
// binary data? Both happen often (a CMS answering every path with its home
// page, a 404 page served with status 200, a compressed body the server
// mislabelled). robotstat still parses such bodies (content never fails,
// RFC 9309 §2.2 says unparseable lines are ignored) and flags them: the
// captures table's looks_html and looks_binary, the html-body and
// binary-body diagnostics.

// sniffLen is how much of the body the heuristics look at.
const sniffLen = 1024

// htmlTags are the tag names that, opening a body, make it HTML. Matched
// case-insensitively after "<" and before a space, ">" or "/".
var htmlTags = [...]string{"!doctype", "html", "head", "body", "meta", "title", "script", "style", "link", "div", "?xml", "!--", "iframe", "p", "h1", "table", "br", "span", "noscript", "center", "pre"}

// LooksHTML reports whether body looks like an HTML (or XML) document rather
// than a robots.txt: after an optional UTF-8 BOM and white space, the first
// byte is "<" followed by one of a few tag names that open real pages
// (doctype, html, head, body, meta, title, script, ...), or an "<html" or
// "<body" tag appears in the first 1 KiB. A robots.txt line never starts
// with "<", so the first test has no false positives on real files; the
// second catches pages that open with prose or a stray byte.
func LooksHTML(body []byte) bool {
	b := body
	if hasBOM(b) {
		b = b[3:]
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n' || b[0] == '\f') {
		b = b[1:]
	}
	if len(b) > 1 && b[0] == '<' {
		for _, t := range htmlTags {
			if ascii.HasPrefixFold(b[1:], t) {
				rest := b[1+len(t):]
				if t == "!--" || len(rest) == 0 || rest[0] == ' ' || rest[0] == '>' || rest[0] == '/' || rest[0] == '\t' || rest[0] == '\r' || rest[0] == '\n' {
					return true
				}
			}
		}
	}
	if len(b) > sniffLen {
		b = b[:sniffLen]
	}
	for {
		i := bytes.IndexByte(b, '<')
		if i < 0 {
			return false
		}
		b = b[i+1:]
		if ascii.HasPrefixFold(b, "html") || ascii.HasPrefixFold(b, "body") {
			return true
		}
	}
}

// LooksBinary reports whether body looks like binary data: its first 1 KiB
// holds a NUL byte, or more than one byte in ten is a control character
// other than tab, LF, CR, VT and FF. UTF-8 text in any language passes.
func LooksBinary(body []byte) bool {
	b := body
	if len(b) > sniffLen {
		b = b[:sniffLen]
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	ctl := 0
	for _, c := range b {
		ctl += int(controlByte[c])
	}
	return ctl*10 > len(b)
}

// controlByte is 1 for the control characters LooksBinary counts: below
// 0x20 except tab, LF, VT, FF and CR, and DEL.
var controlByte = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = 1
	}
	for _, c := range "\t\n\v\f\r" {
		t[c] = 0
	}
	t[0x7F] = 1
	return t
}()

// hasBOM reports a whole UTF-8 byte order mark at the start of b.
func hasBOM(b []byte) bool {
	return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF
}
