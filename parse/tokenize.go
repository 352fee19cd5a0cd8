package parse

import (
	"bytes"
	"unicode/utf8"

	"github.com/robotstat/robotstat/internal/ascii"
)

// Parser tokenizes robots.txt bodies into events. A Parser may be reused for
// any number of bodies (its scratch space is kept, so a warmed-up Parser does
// not allocate) but is not safe for concurrent use: give each goroutine its
// own.
type Parser struct {
	opts   Options
	entry  Entry
	line   LineInfo
	info   FileInfo
	sum    LineCounts
	keyBuf []byte
	// group is the index of the current group, -1 before the first
	// user-agent line; inAgents says the last record that counts for
	// grouping was a user-agent line.
	group    int
	inAgents bool
}

// NewParser returns a Parser with the given options (see Options.Validate).
func NewParser(opts Options) *Parser {
	return &Parser{opts: opts, keyBuf: make([]byte, 0, 64)}
}

// Parse tokenizes body and reports every line to h. It never fails: content
// that is not robots.txt (HTML, binary, prose) is reported as LineInvalid or
// LineControl lines. Only the first Options.Limit bytes are parsed; a line
// the limit cuts in two is reported as LineTruncated and not parsed
// (Deviation_limit_cut_line in doc.go).
func (p *Parser) Parse(body []byte, h Handler) {
	limit := p.opts.limit()
	longLine := p.opts.longLine()
	p.sum = LineCounts{}
	p.group, p.inAgents = -1, false
	p.info = FileInfo{Size: len(body), Parsed: len(body)}
	data := body
	cutLine := false
	if len(body) > limit {
		data = body[:limit]
		p.info.Parsed = limit
		p.info.OverLimit = true
		// The line is whole if the limit falls just before its terminator.
		if c := body[limit]; c != '\n' && c != '\r' {
			cutLine = true
		}
	}
	start := 0
	// Google_bom: skip a UTF-8 BOM, or the prefix of one Google also skips.
	bom := [3]byte{0xEF, 0xBB, 0xBF}
	for start < len(data) && start < 3 && data[start] == bom[start] {
		start++
	}
	p.info.BOM = start > 0
	h.Start(&p.info)

	num := 0
	for start < len(data) {
		// One pass finds the end of the line ("\n", "\r\n" or a lone "\r":
		// RFC 9309 §2.2 EOL = %x0D / %x0A / %x0D.0A), the first "#" and ":",
		// and whether the line has control or non-ASCII bytes.
		rest := data[start:]
		end, hash, colon := len(rest), -1, -1
		var seen uint8
		for i, c := range rest {
			k := lineClass[c]
			if k == 0 {
				continue
			}
			if k&classEOL != 0 {
				end = i
				break
			}
			seen |= k
			if k&classHash != 0 && hash < 0 {
				hash = i
			} else if k&classColon != 0 && colon < 0 {
				colon = i
			}
		}
		term := 0
		if end < len(rest) {
			switch {
			case rest[end] == '\n':
				term = 1
				p.sum.LF++
			case end+1 < len(rest) && rest[end+1] == '\n':
				term = 2
				p.sum.CRLF++
			case end+1 == len(rest) && p.info.OverLimit && body[limit] == '\n':
				// "\r" right at the limit followed by "\n" beyond it.
				term = 1
				p.sum.CRLF++
			default:
				term = 1
				p.sum.CR++
			}
		}
		num++
		line := rest[:end]
		if term == 0 && cutLine && start+end >= len(data) {
			p.finishLine(num, start, end, LineTruncated, h)
			break
		}
		var flags LineFlags
		if seen&classControl != 0 {
			flags |= LineControl
		}
		if seen&classHigh != 0 && !utf8.Valid(line) {
			flags |= LineInvalidUTF8
		}
		if colon > hash && hash >= 0 {
			colon = -1 // the colon is inside the comment
		}
		p.parseLine(line, num, start, longLine, flags, hash, colon, h)
		start += end + term
	}
	h.End(&p.sum)
}

// lineClass marks the bytes the line scan cares about.
const (
	classEOL     = 1 << iota // "\r", "\n"
	classControl             // C0 controls but tab, and DEL: LineControl
	classHigh                // 0x80-0xFF: check UTF-8
	classHash                // "#": a comment starts
	classColon               // ":": key/value separator
)

var lineClass = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		if c != '\t' {
			t[c] = classControl
		}
	}
	t[0x7F] = classControl
	for c := 0x80; c < 0x100; c++ {
		t[c] = classHigh
	}
	t['\r'], t['\n'] = classEOL, classEOL
	t['#'], t[':'] = classHash, classColon
	return t
}()

// trimSpace trims what robotstat reads as white space around keys and
// values: space and tab (RFC 9309 §2.2 WS), and VT and FF as Google's
// robots.cc does (Google_whitespace).
func trimSpace(b []byte) []byte { return ascii.Trim(b, &ascii.RobotsSpace) }

// parseLine handles one line. hash and colon are the positions of the first
// "#" and of the first ":" before it (-1 when absent); flags holds
// LineControl and LineInvalidUTF8 from the scan.
func (p *Parser) parseLine(line []byte, num, offset, longLine int, flags LineFlags, hash, colon int, h Handler) {
	if len(line) > longLine {
		flags |= LineTooLong
	}
	content := line
	if hash >= 0 {
		flags |= LineComment
		content = line[:hash]
	}
	content = trimSpace(content)
	if len(content) == 0 {
		if flags&LineComment == 0 {
			flags |= LineBlank
		}
		p.finishLine(num, offset, len(line), flags, h)
		return
	}

	var rawKey, value []byte
	if colon >= 0 {
		// content is line with leading white space cut: shift the colon's
		// position by what was cut.
		i := colon - (cap(line) - cap(content))
		rawKey = trimSpace(content[:i])
		value = trimSpace(content[i+1:])
	} else {
		// Google_missing_colon: "Disallow /x" is read as "Disallow: /x" when
		// the line is exactly two words and the first is a key we know.
		i := bytes.IndexAny(content, " \t")
		if i > 0 {
			rawKey = content[:i]
			value = trimSpace(content[i+1:])
			if bytes.ContainsAny(value, " \t") {
				rawKey = nil
			}
		}
	}
	if !validKey(rawKey) {
		p.finishLine(num, offset, len(line), flags|LineInvalid, h)
		return
	}
	name, folded := normaliseKey(p.keyBuf[:0], rawKey)
	p.keyBuf = name
	key, typo := classifyKey(name, folded)
	if colon < 0 {
		if key == KeyOther && !isExtension(name) {
			// Two words that are not a known record: prose, not a directive.
			p.finishLine(num, offset, len(line), flags|LineInvalid, h)
			return
		}
		flags |= LineMissingColon
	}
	if typo {
		flags |= LineTypo
		name = append(name[:0], keyNames[key]...)
		p.keyBuf = name
	}
	flags |= LineDirective
	// Groups (RFC 9309 §2.1, §2.2.1): a user-agent line after anything but
	// a user-agent line starts a new group, so consecutive (stacked)
	// user-agent lines share one; blank lines and comments do not count.
	// Other records do not end the run either (§2.2.4: "a Sitemaps record
	// MUST NOT terminate a group"), except under GroupingGoogle.
	switch key {
	case KeyUserAgent:
		if !p.inAgents {
			p.group++
			p.inAgents = true
		}
	case KeyAllow, KeyDisallow:
		if p.group < 0 {
			flags |= LineBeforeGroup
		}
		p.inAgents = false
		if len(value) > 0 && value[0] != '/' && value[0] != '*' {
			flags |= LineBadPattern
		}
	default:
		if p.opts.Grouping == GroupingGoogle {
			p.inAgents = false
		}
	}
	e := &p.entry
	*e = Entry{Key: key, Name: name, RawKey: rawKey, Value: value, Line: num, Offset: offset, Flags: flags, Group: p.group}
	if key == KeyUserAgent && !IsStar(value) {
		if p.opts.Grouping == GroupingGoogle {
			e.Token = GoogleProductToken(value)
		} else {
			e.Token = ProductToken(value)
		}
	}
	switch key {
	case KeyUserAgent:
		h.UserAgent(e)
	case KeyAllow:
		h.Allow(e)
	case KeyDisallow:
		h.Disallow(e)
	case KeySitemap:
		h.Sitemap(e)
	default:
		h.Other(e)
	}
	p.finishLine(num, offset, len(line), flags, h)
}

func (p *Parser) finishLine(num, offset, n int, flags LineFlags, h Handler) {
	s := &p.sum
	s.Lines++
	if flags&LineBlank != 0 {
		s.Blank++
	}
	if flags&LineComment != 0 {
		s.Comment++
	}
	if flags&LineDirective != 0 {
		s.Directive++
	}
	if flags&LineInvalid != 0 {
		s.Invalid++
	}
	if flags&LineTypo != 0 {
		s.Typo++
	}
	if flags&LineMissingColon != 0 {
		s.NoColon++
	}
	if flags&LineTooLong != 0 {
		s.TooLong++
	}
	if flags&LineInvalidUTF8 != 0 {
		s.BadUTF8++
	}
	if flags&LineControl != 0 {
		s.Control++
	}
	p.line = LineInfo{Num: num, Offset: offset, Len: n, Flags: flags}
	h.Line(&p.line)
}
