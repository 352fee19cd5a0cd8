package warc

import (
	"bytes"

	"github.com/robotstat/robotstat/internal/ascii"
)

// FieldValue returns the value of the first field called name in an
// application/warc-fields block (ISO 28500 section 6.2: the "name: value"
// lines of warcinfo and metadata records, such as isPartOf, or robotstat
// scan's fetchStatus), trimmed of white space, or nil when there is none.
// Names match ASCII case-insensitively; lines may end in LF or CRLF. The
// value aliases block. It does not allocate.
func FieldValue(block []byte, name string) []byte {
	for len(block) > 0 {
		var line []byte
		line, block, _ = bytes.Cut(block, []byte("\n"))
		if i := bytes.IndexByte(line, ':'); i > 0 && ascii.EqualFold(ascii.Trim(line[:i], &ascii.LineSpace), name) {
			return ascii.Trim(line[i+1:], &ascii.LineSpace)
		}
	}
	return nil
}
