package pipeline

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/robotstat/robotstat/internal/ascii"
)

// WARCHeader is the part of a WARC record header that robotstat reads
// (ISO 28500 / WARC 1.1 section 5; WARC/0.17 and 0.18 name their fields the
// same way). Every []byte field aliases the reader's scratch buffer, trimmed
// of whitespace and of angle brackets around URIs, and is valid until the
// next call to Next; nil when the field is absent.
type WARCHeader struct {
	Version        []byte // "WARC/1.0"
	Type           []byte // WARC-Type
	TargetURI      []byte // WARC-Target-URI
	Date           []byte // WARC-Date
	RecordID       []byte // WARC-Record-ID
	IPAddress      []byte // WARC-IP-Address
	PayloadDigest  []byte // WARC-Payload-Digest
	Truncated      []byte // WARC-Truncated
	IdentifiedType []byte // WARC-Identified-Payload-Type
	ContentType    []byte // Content-Type
	ContentLength  int64  // Content-Length: the block's length

	// Raw holds the header as read, version line to the last field line.
	Raw []byte
}

// Limits of the record reader. A WARC header is a few hundred bytes; 64 KiB
// is far beyond any real one and keeps a garbage stream from growing the
// scratch buffer.
const (
	maxWARCHeader  = 64 << 10
	warcBufferSize = 64 << 10
)

var warcPrefix = []byte("WARC/")

// WARCReader reads WARC records from a decompressed stream: Next advances to
// the next record header and Read (or ReadBlock) reads its block. Malformed
// input never stops it: each problem is passed to Report as data, and Next
// resynchronises at the next line that starts with "WARC/". Next returns
// false at the end of the stream or on an environment error (see Err).
//
// Deviations from the standard, all for archives found in the wild: lines
// may end in LF or CR CR LF; field names match case-insensitively; any run
// of CR and LF between records is accepted (the standard says exactly
// CRLF CRLF); WARC-Target-URI may be wrapped in <> (WARC/0.17 drafts).
//
// A WARCReader is not safe for concurrent use. Reset makes it reusable for
// another stream without allocating.
type WARCReader struct {
	br   *bufio.Reader
	pos  int64 // decompressed offset of the next unread byte
	hdr  WARCHeader
	sc   []byte // header scratch
	left int64  // block bytes not yet read
	cut  bool   // the current block ended early

	off     int64 // stored offset of the current record (Locate of its first byte)
	index   int64 // index of the current record; -1 before the first
	aligned bool  // the current record began at a member start (see Boundary)
	overrun bool  // the current block ran into the next record at a member start
	seen    bool  // a record header was found in this stream
	err     error // environment error
	nerrs   int64
	gap     bool // inside a gap that was already reported

	// Report receives each data error: the stored offset (Locate of the
	// position), the record index (-1 outside a record), the class, the
	// error and an excerpt that aliases the reader's buffer (copy it to
	// keep it). Nil drops them; NumErrors still counts them.
	Report func(offset, record int64, class Class, err error, ex []byte)

	// Locate maps a decompressed offset to the stored offset reported in
	// records and errors (a gzip member's offset). Nil is the identity.
	Locate func(pos int64) int64

	// Boundary, when set, returns the decompressed offset of the first
	// compressed member (gzip member, zstd frame) known to begin after pos,
	// or -1; it must know every member that begins before the end of what
	// the stream has delivered. Where records are compressed one per
	// member, the members show where a record ends: a record that begins
	// at a member start cannot run past a later member that begins with
	// "WARC/". Its block is cut there, reported as ErrContentLength, and
	// Overrun says so. Nil: no members.
	Boundary func(pos int64) int64
}

// NewWARCReader returns a reader of the decompressed WARC stream r.
func NewWARCReader(r io.Reader) *WARCReader {
	w := &WARCReader{}
	w.Reset(r)
	return w
}

// Reset makes w read r from its start, keeping buffers, Report and Locate.
func (w *WARCReader) Reset(r io.Reader) {
	if w.br == nil {
		w.br = bufio.NewReaderSize(r, warcBufferSize)
	} else {
		w.br.Reset(r)
	}
	w.pos, w.left, w.cut, w.off, w.index = 0, 0, false, 0, -1
	w.seen, w.err, w.nerrs, w.gap = false, nil, 0, false
	w.hdr = WARCHeader{}
}

// Header returns the current record's header; valid until Next.
func (w *WARCReader) Header() *WARCHeader { return &w.hdr }

// Index is the current record's index in the stream, counting every record
// header found (malformed ones included) from 0.
func (w *WARCReader) Index() int64 { return w.index }

// Offset is the current record's stored offset (see Locate).
func (w *WARCReader) Offset() int64 { return w.off }

// Truncated reports that the current block ended before Content-Length.
func (w *WARCReader) Truncated() bool { return w.cut }

// Overrun reports that the current block's Content-Length ran past the end
// of the member its record began in, into a member that begins the next
// record (see Boundary): the length is wrong, the block was cut at the
// member's end and the record reported as ErrContentLength. Read the next
// record; this one's block is not what its header says.
func (w *WARCReader) Overrun() bool { return w.overrun }

// Err returns the environment error that stopped Next, if any.
func (w *WARCReader) Err() error { return w.err }

// NumErrors counts the data errors reported since Reset.
func (w *WARCReader) NumErrors() int64 { return w.nerrs }

func (w *WARCReader) locate(pos int64) int64 {
	if w.Locate == nil {
		return pos
	}
	return w.Locate(pos)
}

func (w *WARCReader) report(off, rec int64, class Class, err error, ex []byte) {
	w.nerrs++
	if w.Report != nil {
		w.Report(off, rec, class, err, ex)
	}
}

// ioErr classifies a read error: EOF and errBreak are data, anything else
// is an environment failure that stops the reader.
func (w *WARCReader) ioErr(err error) bool {
	if err == nil || err == io.EOF || err == errBreak || err == bufio.ErrBufferFull {
		return false
	}
	w.err = err
	return true
}

// Next advances to the next record, skipping what is left of the current
// block. It reports false at the end of the stream or on an environment
// error.
func (w *WARCReader) Next() bool {
	if w.err != nil {
		return false
	}
	if w.skip() != nil {
		return false
	}
	for {
		ok, more := w.findStart()
		if !more {
			return false
		}
		if !ok {
			continue
		}
		if w.readHeader() {
			return true
		}
		if w.err != nil {
			return false
		}
	}
}

// skip discards what is left of the current block. It returns an
// environment error only; a stream that ends inside the block truncates it.
func (w *WARCReader) skip() error {
	for w.left > 0 {
		k := w.left
		if w.aligned {
			if k = w.avail(); k == 0 {
				break
			}
		}
		n, err := w.br.Discard(int(min(k, 1<<30)))
		w.pos += int64(n)
		w.left -= int64(n)
		if err != nil {
			if w.ioErr(err) {
				return err
			}
			w.truncated()
		}
	}
	return nil
}

// avail returns how many bytes of an aligned record's block may be taken
// now: what is left, but no more than is buffered (every member that begins
// inside the buffered bytes is known to Boundary) and not past the next
// member start. At a member start that begins with "WARC/" the block has
// run into the next record: it is cut there, and avail returns 0.
func (w *WARCReader) avail() int64 {
	if w.br.Buffered() == 0 {
		w.br.Peek(1) // an error is the caller's read's to see
	}
	n := min(w.left, int64(w.br.Buffered()))
	if n == 0 {
		return w.left
	}
	b := w.Boundary(w.pos - 1)
	if b == w.pos {
		if next, _ := w.br.Peek(len(warcPrefix)); bytes.Equal(next, warcPrefix) {
			w.overrun, w.left = true, 0
			w.report(w.off, w.index, ClassRecord, errOverrun, nil)
			return 0
		}
		b = w.Boundary(w.pos)
	}
	if b > w.pos && b-w.pos < n {
		n = b - w.pos
	}
	return n
}

// errOverrun is the ErrContentLength of a block that ran into the next
// record at a member start.
var errOverrun = fmt.Errorf("%w: the block runs past the end of its gzip member or zstd frame, into the next record", ErrContentLength)

// truncated records that the block ended before Content-Length.
func (w *WARCReader) truncated() {
	if !w.cut {
		w.cut = true
		w.report(w.off, w.index, ClassRecord, ErrTruncIn, nil)
	}
	w.left = 0
}

// findStart skips record separators and positions the reader at "WARC/".
// It reports (true, true) there, (false, false) at the end of the stream.
func (w *WARCReader) findStart() (ok, more bool) {
	// Separators: any run of CR and LF (and a stray break).
	for {
		b, err := w.br.Peek(len(warcPrefix))
		i := 0
		for i < len(b) && (b[i] == '\r' || b[i] == '\n') {
			i++
		}
		if i > 0 {
			w.br.Discard(i)
			w.pos += int64(i)
			continue
		}
		if len(b) == 0 {
			if err == errBreak {
				continue
			}
			w.ioErr(err) // keeps an environment error; else a clean end
			return false, false
		}
		if bytes.Equal(b, warcPrefix) {
			return true, true
		}
		// A short tail before a break or the end is garbage too.
		if len(b) < len(warcPrefix) && w.ioErr(err) {
			return false, false
		}
		break
	}
	// Garbage: report once per gap (not at all right after a malformed
	// record, whose error covers it), then skip to the next "WARC/".
	if !w.gap {
		ex, _ := w.br.Peek(maxExcerpt)
		sentinel := ErrGarbage
		if !w.seen {
			sentinel = ErrNotWARC
		}
		w.report(w.locate(w.pos), -1, ClassContainer, sentinel, ex)
	}
	w.seen = true // one ErrNotWARC per stream; later gaps are garbage
	w.gap = true
	return false, w.skipToWARC()
}

// skipToWARC consumes at least one byte and then up to the next "WARC/"
// (anywhere, not only at a line start: padding such as NUL runs often
// precedes a record without a newline), or up to a break. It reports
// whether the stream goes on.
func (w *WARCReader) skipToWARC() bool {
	if _, err := w.br.Discard(1); err != nil {
		return !w.ioErr(err) && err != io.EOF
	}
	w.pos++
	for {
		b, err := w.br.ReadSlice('W')
		w.pos += int64(len(b))
		switch err {
		case nil:
			w.br.UnreadByte()
			w.pos--
			if next, _ := w.br.Peek(len(warcPrefix)); bytes.Equal(next, warcPrefix) {
				return true
			}
			w.br.Discard(1)
			w.pos++
		case bufio.ErrBufferFull:
		case errBreak:
			return true
		default:
			return !w.ioErr(err) && len(b) > 0
		}
	}
}

// readHeader reads a header at "WARC/". On a malformed header it reports,
// leaves the reader after the bad part and returns false.
//
// The header is emptied on every attempt, not once per Next: its fields
// alias w.sc, so a header rejected half-way (a bad Content-Length after
// WARC-Target-URI) would otherwise leave slices that the next header read
// into w.sc turns into fragments of itself, or out of its bounds.
func (w *WARCReader) readHeader() bool {
	w.hdr = WARCHeader{}
	w.index++
	w.seen = true
	w.gap = true // until the header proves good, what follows is covered by its error
	start := w.pos
	w.off = w.locate(start)
	w.cut, w.aligned, w.overrun = false, false, false
	w.sc = w.sc[:0]
	for {
		line, err := w.br.ReadSlice('\n')
		w.pos += int64(len(line))
		if err == bufio.ErrBufferFull || len(w.sc)+len(line) > maxWARCHeader {
			w.report(w.off, w.index, ClassRecord, ErrHeaderTooLong, line[:min(len(line), maxExcerpt)])
			for err == bufio.ErrBufferFull {
				line, err = w.br.ReadSlice('\n')
				w.pos += int64(len(line))
			}
			w.ioErr(err)
			return false
		}
		if err != nil {
			if w.ioErr(err) {
				return false
			}
			w.sc = append(w.sc, line...)
			w.report(w.off, w.index, ClassRecord, ErrHeaderNoEnd, w.sc[:min(len(w.sc), maxExcerpt)])
			return false
		}
		if isBlankLine(line) {
			break
		}
		if len(w.sc) > 0 && !isFieldLine(line) {
			// A line that is not a field before any blank line: the header
			// ran into the block. Leave that line for resynchronisation.
			w.report(w.off, w.index, ClassRecord, ErrHeaderNoEnd, line[:min(len(line), maxExcerpt)])
			return false
		}
		w.sc = append(w.sc, line...)
	}
	if !w.parseHeader() {
		return false
	}
	w.gap = false
	w.left = w.hdr.ContentLength
	w.aligned = w.Boundary != nil && w.Boundary(start-1) == start
	return true
}

func isBlankLine(line []byte) bool {
	for _, c := range line {
		if c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// isFieldLine reports a "Name: value" line or a folded continuation.
func isFieldLine(line []byte) bool {
	if line[0] == ' ' || line[0] == '\t' {
		return true
	}
	i := bytes.IndexByte(line, ':')
	return i > 0
}

// parseHeader fills w.hdr (emptied by readHeader) from w.sc.
func (w *WARCReader) parseHeader() bool {
	h := &w.hdr
	h.Raw = w.sc
	h.ContentLength = -1
	line, rest, _ := bytes.Cut(w.sc, []byte("\n"))
	h.Version = ascii.Trim(line, &ascii.LineSpace)
	for len(rest) > 0 {
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		i := bytes.IndexByte(line, ':')
		if i <= 0 {
			continue // folded or stray line: nothing robotstat reads is folded
		}
		name, val := ascii.Trim(line[:i], &ascii.LineSpace), ascii.Trim(line[i+1:], &ascii.LineSpace)
		switch len(name) {
		case 9:
			if ascii.EqualFold(name, "WARC-Type") {
				h.Type = val
			} else if ascii.EqualFold(name, "WARC-Date") {
				h.Date = val
			}
		case 12:
			if ascii.EqualFold(name, "Content-Type") {
				h.ContentType = val
			}
		case 14:
			if ascii.EqualFold(name, "Content-Length") {
				n, ok := ascii.ParseDecimal(val)
				if !ok {
					w.report(w.off, w.index, ClassRecord, ErrContentLength, line)
					return false
				}
				h.ContentLength = n
			} else if ascii.EqualFold(name, "WARC-Record-ID") {
				h.RecordID = val
			} else if ascii.EqualFold(name, "WARC-Truncated") {
				h.Truncated = val
			}
		case 15:
			if ascii.EqualFold(name, "WARC-Target-URI") {
				if len(val) >= 2 && val[0] == '<' && val[len(val)-1] == '>' {
					val = ascii.Trim(val[1:len(val)-1], &ascii.LineSpace)
				}
				h.TargetURI = val
			} else if ascii.EqualFold(name, "WARC-IP-Address") {
				h.IPAddress = val
			}
		case 19:
			if ascii.EqualFold(name, "WARC-Payload-Digest") {
				h.PayloadDigest = val
			}
		case 28:
			if ascii.EqualFold(name, "WARC-Identified-Payload-Type") {
				h.IdentifiedType = val
			}
		}
	}
	if h.ContentLength < 0 {
		w.report(w.off, w.index, ClassRecord, ErrContentLength, nil)
		return false
	}
	return true
}

// Read reads the current block. It returns io.EOF at the block's end, also
// when the stream ended early (then Truncated reports true).
func (w *WARCReader) Read(p []byte) (int, error) {
	if w.left <= 0 {
		return 0, io.EOF
	}
	k := w.left
	if w.aligned {
		if k = w.avail(); k == 0 {
			return 0, io.EOF
		}
	}
	if int64(len(p)) > k {
		p = p[:k]
	}
	n, err := w.br.Read(p)
	w.pos += int64(n)
	w.left -= int64(n)
	if n == 0 && err != nil {
		if w.ioErr(err) {
			return 0, err
		}
		w.truncated()
		return 0, io.EOF
	}
	return n, nil
}

// ReadBlock appends up to limit bytes of the current block to dst, skips the
// rest, and returns dst and the block's length as stored (less than
// Content-Length when truncated). The error is an environment error only.
func (w *WARCReader) ReadBlock(dst []byte, limit int) ([]byte, int64, error) {
	start := w.pos
	want := int(min(w.left, int64(limit)))
	if cap(dst)-len(dst) < want {
		// Exactly want more, not append's growth: a job keeps a record
		// buffer for reuse only up to keepBlock.
		nd := make([]byte, len(dst), len(dst)+want)
		copy(nd, dst)
		dst = nd
	}
	n, err := io.ReadFull(w, dst[len(dst):len(dst)+want])
	dst = dst[:len(dst)+n]
	switch err {
	case nil:
		err = w.skip()
	case io.EOF, io.ErrUnexpectedEOF:
		err = nil // the stream ended inside the block: Truncated says so
	}
	return dst, w.pos - start, err
}
