package warc

import (
	"bytes"

	"github.com/robotstat/robotstat/internal/ascii"
)

// HTTPHeader is the part of an HTTP/1.x response header that robotstat
// reads (RFC 9112 section 4 status line, section 5 fields). Every []byte
// field aliases the parsed block and lives as long as it; nil when absent.
// An HTTPHeader is a plain value, refilled by each ParseHTTPHeader.
type HTTPHeader struct {
	Proto  []byte // "HTTP/1.1"
	Status int    // 100..999
	Reason []byte // may be empty

	ContentType      []byte
	Location         []byte
	ContentEncoding  []byte // as sent; Common Crawl renames it X-Crawler-Content-Encoding once decoded
	TransferEncoding []byte // likewise X-Crawler-Transfer-Encoding
	ContentLength    int64  // -1 when absent or invalid

	// Crawler says Common Crawl's X-Crawler-* renaming is present: the
	// payload is stored decoded whatever the other fields say.
	Crawler bool
}

// ParseHTTPHeader parses the response header at the start of block into h
// and returns the length of the header including its blank line, so that
// block[n:] is the payload. It never allocates and is safe for concurrent
// use (on different headers).
//
// It tolerates what archives contain: LF-only lines, CR CR LF, a missing
// reason phrase, a status line with extra spaces, empty lines before the
// status line, and lines without a colon (ignored). It fails with
// ErrStatusLine when the block does not start with an HTTP/ status line,
// with ErrHTTPHeaderEnd when the block ends before the blank line (h is
// filled as far as it went and n is len(block)).
func ParseHTTPHeader(block []byte, h *HTTPHeader) (n int, err error) {
	*h = HTTPHeader{ContentLength: -1}
	p := 0
	// Empty lines before the status line (some writers add one).
	for k := 0; k < 4 && p < len(block) && (block[p] == '\r' || block[p] == '\n'); k++ {
		p++
	}
	eol := bytes.IndexByte(block[p:], '\n')
	var line []byte
	if eol < 0 {
		line = block[p:]
	} else {
		line = block[p : p+eol]
	}
	if !parseStatusLine(ascii.Trim(line, &ascii.LineSpace), h) {
		return 0, ErrStatusLine
	}
	if eol < 0 {
		return len(block), ErrHTTPHeaderEnd
	}
	p += eol + 1
	for p < len(block) {
		eol = bytes.IndexByte(block[p:], '\n')
		if eol < 0 {
			h.field(block[p:])
			return len(block), ErrHTTPHeaderEnd
		}
		line = block[p : p+eol]
		p += eol + 1
		if isBlankLine(line) {
			return p, nil
		}
		h.field(line)
	}
	return len(block), ErrHTTPHeaderEnd
}

// parseStatusLine reads "HTTP/x.y SP ddd [SP reason]".
func parseStatusLine(line []byte, h *HTTPHeader) bool {
	if !ascii.HasPrefixFold(line, "HTTP/") {
		return false
	}
	i := 5
	for i < len(line) && line[i] != ' ' && line[i] != '\t' {
		i++
	}
	h.Proto = line[:i]
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i+3 > len(line) {
		return false
	}
	s, ok := ascii.ParseDecimal(line[i : i+3])
	if !ok || s < 100 {
		return false
	}
	i += 3
	if i < len(line) && line[i] != ' ' && line[i] != '\t' {
		return false // "2000" is not a status
	}
	h.Status = int(s)
	h.Reason = ascii.Trim(line[i:], &ascii.LineSpace)
	return true
}

func (h *HTTPHeader) field(line []byte) {
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return
	}
	name, val := ascii.Trim(line[:i], &ascii.LineSpace), ascii.Trim(line[i+1:], &ascii.LineSpace)
	if ascii.HasPrefixFold(name, "X-Crawler-") {
		h.Crawler = true
		return
	}
	switch len(name) {
	case 8:
		if ascii.EqualFold(name, "Location") {
			h.Location = val
		}
	case 12:
		if ascii.EqualFold(name, "Content-Type") {
			h.ContentType = val
		}
	case 14:
		if ascii.EqualFold(name, "Content-Length") {
			if n, ok := ascii.ParseDecimal(val); ok {
				h.ContentLength = n
			}
		}
	case 16:
		if ascii.EqualFold(name, "Content-Encoding") {
			h.ContentEncoding = val
		}
	case 17:
		if ascii.EqualFold(name, "Transfer-Encoding") {
			h.TransferEncoding = val
		}
	}
}
