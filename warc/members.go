package warc

import (
	"bufio"
	"errors"
	"io"
	"strconv"

	"github.com/klauspost/compress/gzip"
)

// MemberReader reads a WARC file compressed record at a time (ISO 28500
// annex D.2: each record a gzip member of its own) and holds it to that
// layout, for files whose writer is known, such as robotstat scan's own:
// there, anything else means the file is not one that writer finished.
// Each member must decode whole, its CRC checked, and begin with one record
// whose block is whole (what follows the record inside its member is not
// read). A member cut short by the end of the file, as a killed writer
// leaves it, ends reading with a *CutError giving the offset to cut the
// file back to; anything else ends it with an error naming the member's
// offset. Archives as found are read with a Reader over a lenient stream
// instead (package pipeline's), which reports damage and reads on.
//
// Next reads the next member's record; Header, Block and Offset describe
// it until the next call to Next; Err says why Next returned false (nil
// at the end of the file). A MemberReader is not safe for concurrent use.
type MemberReader struct {
	cr    countingReader
	br    *bufio.Reader
	zr    gzip.Reader
	wr    *Reader
	limit int
	block []byte
	off   int64
	done  bool
	err   error
}

// NewMemberReader returns a reader of the gzip-per-record WARC file r that
// keeps up to limit bytes of each block.
func NewMemberReader(r io.Reader, limit int) *MemberReader {
	m := &MemberReader{cr: countingReader{r: r}, wr: NewReader(nil), limit: limit}
	m.br = bufio.NewReaderSize(&m.cr, bufferSize)
	return m
}

// CutError ends a MemberReader at a member cut short by the end of the
// file. Cutting the file back to Offset keeps every complete member before
// it (none when Offset is 0).
type CutError struct{ Offset int64 }

func (e *CutError) Error() string {
	return "incomplete gzip member at offset " + strconv.FormatInt(e.Offset, 10)
}

// ErrNotOneRecord is the error (with the member's offset) of a gzip member
// that decoded whole but does not begin with a whole WARC record.
var ErrNotOneRecord = errors.New("not one whole WARC record")

// Next reads the next member and its record. It returns false at the end
// of the file and at the first bad member (see Err).
func (m *MemberReader) Next() bool {
	if m.done || m.err != nil {
		return false
	}
	at := m.cr.n - int64(m.br.Buffered())
	m.off = at
	if _, err := m.br.Peek(1); err == io.EOF {
		m.done = true
		return false
	}
	if err := m.zr.Reset(m.br); err != nil {
		return m.fail(at, err)
	}
	m.zr.Multistream(false)
	m.wr.Reset(&m.zr)
	ok := m.wr.Next()
	if ok {
		var err error
		if m.block, _, err = m.wr.ReadBlock(m.block[:0], m.limit); err != nil {
			return m.fail(at, err)
		}
	}
	if err := m.wr.Err(); err != nil {
		return m.fail(at, err)
	}
	// Read the member to its end: the CRC check is what says it is
	// complete.
	if _, err := io.Copy(io.Discard, &m.zr); err != nil {
		return m.fail(at, err)
	}
	if !ok || m.wr.Truncated() {
		return m.fail(at, ErrNotOneRecord)
	}
	return true
}

// fail ends reading at the member at offset at: cut short by the end of
// the file, or broken.
func (m *MemberReader) fail(at int64, err error) bool {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		m.err = &CutError{Offset: at}
	} else {
		m.err = &memberError{at, err}
	}
	return false
}

// memberError is a broken member: "offset N: " and the error.
type memberError struct {
	off int64
	err error
}

func (e *memberError) Error() string {
	return "offset " + strconv.FormatInt(e.off, 10) + ": " + e.err.Error()
}

func (e *memberError) Unwrap() error { return e.err }

// Header is the current record's header.
func (m *MemberReader) Header() *Header { return m.wr.Header() }

// Block is the current record's block, up to the limit.
func (m *MemberReader) Block() []byte { return m.block }

// Offset is the current member's offset in the file.
func (m *MemberReader) Offset() int64 { return m.off }

// Err is the error that ended reading: nil at the end of the file, a
// *CutError for a member cut short by it, else the first bad member's
// error (ErrNotOneRecord, a gzip error, or the file's read error), which
// names its offset.
func (m *MemberReader) Err() error { return m.err }

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
