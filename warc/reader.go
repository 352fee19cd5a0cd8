package warc

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// Limits of the record reader. A WARC header is a few hundred bytes; 64 KiB
// is far beyond any real one and keeps a garbage stream from growing the
// scratch buffer.
const (
	maxHeader  = 64 << 10
	bufferSize = 64 << 10
)

var warcPrefix = []byte("WARC/")

// Reader reads WARC records from a decompressed stream: Next advances to
// the next record header and Read (or ReadBlock) reads its block. Malformed
// input never stops it: each problem is passed to Report as data, and Next
// resynchronises at the next "WARC/". Next returns false at the end of the
// stream or on an environment error (see Err); the package doc lists where
// it reads more than the standard allows.
//
// The Header and the excerpts passed to Report alias the Reader's buffers:
// they are valid until the next call to Next (Header.CopyTo keeps one).
// Reading allocates nothing per record once the buffers have grown to the
// largest header met.
//
// A Reader is not safe for concurrent use. Reset makes it reusable for
// another stream without allocating.
type Reader struct {
	br   *bufio.Reader
	pos  int64 // decompressed offset of the next unread byte
	hdr  Header
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
	// position), the record, the error (one of this package's sentinels,
	// perhaps wrapped) and an excerpt of at most MaxExcerpt bytes of the
	// offending input (nil when there is none to show) that aliases the
	// reader's buffer: copy it to keep it. The record is the index of the
	// record whose header or block is at fault (ErrHeaderTooLong,
	// ErrHeaderNoEnd, ErrContentLength, ErrTruncIn), or -1 for bytes between
	// records (ErrGarbage, ErrNotWARC), which belong to no record. Nil drops
	// them; NumErrors still counts them.
	Report func(offset, record int64, err error, excerpt []byte)

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

// NewReader returns a reader of the decompressed WARC stream r.
func NewReader(r io.Reader) *Reader {
	w := &Reader{}
	w.Reset(r)
	return w
}

// Reset makes w read r from its start, keeping buffers, Report and Locate.
func (w *Reader) Reset(r io.Reader) {
	if w.br == nil {
		w.br = bufio.NewReaderSize(r, bufferSize)
	} else {
		w.br.Reset(r)
	}
	w.pos, w.left, w.cut, w.off, w.index = 0, 0, false, 0, -1
	w.seen, w.err, w.nerrs, w.gap = false, nil, 0, false
	w.hdr = Header{}
}

// Header returns the current record's header; valid until Next.
func (w *Reader) Header() *Header { return &w.hdr }

// Index is the current record's index in the stream, counting every record
// header found (malformed ones included) from 0.
func (w *Reader) Index() int64 { return w.index }

// Offset is the current record's stored offset (see Locate).
func (w *Reader) Offset() int64 { return w.off }

// Truncated reports that the current block ended before Content-Length.
func (w *Reader) Truncated() bool { return w.cut }

// Overrun reports that the current block's Content-Length ran past the end
// of the member its record began in, into a member that begins the next
// record (see Boundary): the length is wrong, the block was cut at the
// member's end and the record reported as ErrContentLength. Read the next
// record; this one's block is not what its header says.
func (w *Reader) Overrun() bool { return w.overrun }

// Err returns the environment error that stopped Next, if any.
func (w *Reader) Err() error { return w.err }

// NumErrors counts the data errors reported since Reset.
func (w *Reader) NumErrors() int64 { return w.nerrs }

func (w *Reader) locate(pos int64) int64 {
	if w.Locate == nil {
		return pos
	}
	return w.Locate(pos)
}

func (w *Reader) report(off, rec int64, err error, ex []byte) {
	w.nerrs++
	if w.Report != nil {
		w.Report(off, rec, err, ex)
	}
}

// ioErr classifies a read error: EOF and ErrBreak are data, anything else
// is an environment failure that stops the reader.
func (w *Reader) ioErr(err error) bool {
	if err == nil || err == io.EOF || err == ErrBreak || err == bufio.ErrBufferFull {
		return false
	}
	w.err = err
	return true
}

// Next advances to the next record, skipping what is left of the current
// block. It reports false at the end of the stream or on an environment
// error.
func (w *Reader) Next() bool {
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
func (w *Reader) skip() error {
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
func (w *Reader) avail() int64 {
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
			w.report(w.off, w.index, errOverrun, nil)
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
func (w *Reader) truncated() {
	if !w.cut {
		w.cut = true
		w.report(w.off, w.index, ErrTruncIn, nil)
	}
	w.left = 0
}

// findStart skips record separators and positions the reader at "WARC/".
// It reports (true, true) there, (false, false) at the end of the stream.
func (w *Reader) findStart() (ok, more bool) {
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
			if err == ErrBreak {
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
		ex, _ := w.br.Peek(MaxExcerpt)
		sentinel := ErrGarbage
		if !w.seen {
			sentinel = ErrNotWARC
		}
		w.report(w.locate(w.pos), -1, sentinel, ex)
	}
	w.seen = true // one ErrNotWARC per stream; later gaps are garbage
	w.gap = true
	return false, w.skipToWARC()
}

// skipToWARC consumes at least one byte and then up to the next "WARC/"
// (anywhere, not only at a line start: padding such as NUL runs often
// precedes a record without a newline), or up to a break. It reports
// whether the stream goes on.
func (w *Reader) skipToWARC() bool {
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
		case ErrBreak:
			return true
		default:
			return !w.ioErr(err) && len(b) > 0
		}
	}
}

// readHeader reads a header at "WARC/". On a malformed header it reports,
// leaves the reader after the bad part and returns false.
//
// The header is emptied on every attempt, not once per Next: a header
// rejected half-way (a bad Content-Length after WARC-Target-URI) must leave
// nothing for the next one to show (repro stale.warc, panic.warc).
func (w *Reader) readHeader() bool {
	w.hdr = Header{}
	w.index++
	w.seen = true
	w.gap = true // until the header proves good, what follows is covered by its error
	start := w.pos
	w.off = w.locate(start)
	w.cut, w.aligned, w.overrun = false, false, false
	w.sc = w.sc[:0]
	aligned := w.Boundary != nil && w.Boundary(start-1) == start
	for {
		if len(w.sc) > 0 && w.nextRecordBegins(aligned) {
			// The header ended without its blank line where the next
			// record begins: its "WARC/" line, or (records compressed
			// one per member) a member start. That line is left for
			// the next record instead of being taken as this one's.
			w.report(w.off, w.index, ErrHeaderNoEnd, w.sc[:min(len(w.sc), MaxExcerpt)])
			return false
		}
		line, err := w.br.ReadSlice('\n')
		w.pos += int64(len(line))
		if err == bufio.ErrBufferFull || len(w.sc)+len(line) > maxHeader {
			w.report(w.off, w.index, ErrHeaderTooLong, line[:min(len(line), MaxExcerpt)])
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
			w.report(w.off, w.index, ErrHeaderNoEnd, w.sc[:min(len(w.sc), MaxExcerpt)])
			return false
		}
		if isBlankLine(line) {
			break
		}
		if len(w.sc) > 0 && !isFieldLine(line) {
			// A line that is not a field before any blank line: the header
			// ran into the block; resynchronisation goes on after that line.
			w.report(w.off, w.index, ErrHeaderNoEnd, line[:min(len(line), MaxExcerpt)])
			return false
		}
		w.sc = append(w.sc, line...)
	}
	if !w.parseHeader() {
		return false
	}
	w.gap = false
	w.left = w.hdr.ContentLength
	w.aligned = aligned
	return true
}

// nextRecordBegins reports, at the start of a header line, that the next
// record begins there: the line starts with "WARC/", or a header that
// began at a member start (aligned) has reached the next member.
func (w *Reader) nextRecordBegins(aligned bool) bool {
	b, _ := w.br.Peek(len(warcPrefix)) // an error is ReadSlice's to see
	if bytes.Equal(b, warcPrefix) {
		return true
	}
	return aligned && len(b) > 0 && w.Boundary(w.pos-1) == w.pos
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

// parseHeader fills w.hdr from w.sc, reporting a bad Content-Length.
func (w *Reader) parseHeader() bool {
	bad, ok := w.hdr.parse(w.sc)
	if !ok {
		w.report(w.off, w.index, ErrContentLength, bad[:min(len(bad), MaxExcerpt)])
	}
	return ok
}

// Read reads the current block. It returns io.EOF at the block's end, also
// when the stream ended early (then Truncated reports true).
func (w *Reader) Read(p []byte) (int, error) {
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
func (w *Reader) ReadBlock(dst []byte, limit int) ([]byte, int64, error) {
	start := w.pos
	want := int(min(w.left, int64(limit)))
	if cap(dst)-len(dst) < want {
		// Exactly want more, not append's growth: a caller that keeps
		// buffers for reuse up to some size can tell what it holds.
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
