package pipeline

import (
	"bytes"
	"errors"
	"io"
)

// csvReader reads the records of a CSV dump (RFC 4180) as encoding/csv does
// with LazyQuotes and a variable number of fields: comma-separated fields,
// records ended by LF or CRLF, blank lines skipped, a field that starts
// with a quote is quoted (it may hold commas, line breaks and "" for a
// quote), and a quote anywhere else, or in a quoted field not followed by
// a comma or a line break, is taken as a literal quote.
//
// It differs from encoding/csv in what one malformed field can cost. With
// LazyQuotes, a field that opens a quote and never closes it runs on to
// the end of the input: one stray quote made a 300 MB dump one record,
// with no error, held in 819 MiB. Here a record, line breaks inside quoted
// fields included, is held up to maxRow bytes; one that runs past that, or
// whose quoted field is still open at the end of the input after a line
// break, is a counted row error, and reading resumes at the line after the
// record's first line. The resync costs linear time whatever the input: a quoted
// field ends only at an odd run of quotes followed by a comma or a line
// break, so the bytes a runaway field was scanned through hold no end for
// any field that opens inside them (past its own first run of quotes), and
// are not scanned again (horizon).
//
// A csvReader is not safe for concurrent use; reset makes it reusable. The
// fields it returns alias its buffer and are valid until the next read.
type csvReader struct {
	src  io.Reader
	buf  []byte
	base int64 // offset of buf[0] in the input
	r, w int   // buf[r:w] is read and not yet consumed
	eof  bool

	// The scan for the end of the record at r, resumable after a fill.
	scan            int
	atField, quoted bool
	openAt          int64 // input offset of the quote that opened the field being scanned
	// A runaway quoted field opened at input offset runFrom found no end up
	// to horizon: neither does a field opened after runFrom, up to there.
	runFrom, horizon int64
	skipping         bool // skipping to the end of a line longer than maxRow

	field []byte // the record's fields, unescaped, one after the other
	ends  []int  // the end of each field in field
}

// errRowTooLong is the error of a record (or line) over maxRow.
var errRowTooLong = errors.New("longer than 16 MiB (a quote that is never closed?): reading resumes at the next line")

const csvChunk = 64 << 10

func (c *csvReader) reset(src io.Reader) {
	*c = csvReader{src: src, buf: c.buf[:0], field: c.field[:0], ends: c.ends[:0], atField: true}
	if cap(c.buf) < csvChunk {
		c.buf = make([]byte, 0, csvChunk)
	}
}

// fieldAt returns field i of the last record read, nil when it has fewer.
func (c *csvReader) fieldAt(i int) []byte {
	if i < 0 || i >= len(c.ends) {
		return nil
	}
	start := 0
	if i > 0 {
		start = c.ends[i-1]
	}
	return c.field[start:c.ends[i]]
}

// read reads the next record: its input offset, or an error. A data error
// is a *csvRowError (the caller counts it and reads on); io.EOF ends the
// input; anything else is the environment's.
func (c *csvReader) read() (int64, error) {
	for {
		if c.skipping {
			if i := bytes.IndexByte(c.buf[c.r:c.w], '\n'); i >= 0 {
				c.r += i + 1
				c.skipping = false
			} else {
				c.r = c.w
			}
		}
		if !c.skipping {
			// Blank lines between records (a CR at the end of what is
			// buffered may be the first half of one).
			wait := false
			for c.r < c.w && c.atField && c.scan <= c.r {
				if c.buf[c.r] == '\n' {
					c.r++
				} else if c.buf[c.r] == '\r' && c.r+1 < c.w && c.buf[c.r+1] == '\n' {
					c.r += 2
				} else if c.buf[c.r] == '\r' && c.r+1 == c.w {
					if c.eof {
						c.r++ // encoding/csv drops a CR before EOF
					} else {
						wait = true
					}
					break
				} else {
					break
				}
			}
			if c.scan < c.r {
				c.scan = c.r
			}
			if !wait && (c.r < c.w || c.eof) {
				end := c.recordEnd()
				if end == -3 {
					return c.runaway()
				}
				if end >= 0 {
					start := c.base + int64(c.r)
					raw := c.buf[c.r:end]
					c.r, c.scan, c.atField, c.quoted = end, end, true, false
					if len(raw) == 0 {
						return 0, io.EOF
					}
					c.split(raw, c.eof && end == c.w)
					return start, nil
				}
				if c.w-c.r >= maxRow {
					return c.runaway()
				}
			}
		}
		if c.eof {
			return 0, io.EOF
		}
		if err := c.fill(); err != nil {
			return c.base + int64(c.r), err
		}
	}
}

// csvRowError is a record that could not be read; the reader goes on.
type csvRowError struct {
	off int64
	err error
	ex  []byte
}

func (e *csvRowError) Error() string { return e.err.Error() }

// runaway reports the record at r as too long and resumes at the line
// after its first.
func (c *csvReader) runaway() (int64, error) {
	start := c.base + int64(c.r)
	e := &csvRowError{off: start, err: errRowTooLong, ex: c.buf[c.r:min(c.w, c.r+maxExcerpt)]}
	e.ex = bytes.Clone(e.ex)
	if c.quoted {
		c.runFrom, c.horizon = c.openAt, c.base+int64(c.scan)
	}
	if i := bytes.IndexByte(c.buf[c.r:c.w], '\n'); i >= 0 {
		c.r += i + 1
	} else {
		c.r, c.skipping = c.w, true
	}
	c.scan, c.atField, c.quoted = c.r, true, false
	return start, e
}

// fill reads more input into buf, keeping buf[r:w].
func (c *csvReader) fill() error {
	if c.r > 0 {
		n := copy(c.buf, c.buf[c.r:c.w])
		c.base += int64(c.r)
		c.scan -= c.r
		c.r, c.w = 0, n
	}
	if cap(c.buf)-c.w < csvChunk/2 {
		nb := make([]byte, c.w, min(max(2*cap(c.buf), csvChunk), maxRow+csvChunk))
		copy(nb, c.buf[:c.w])
		c.buf = nb
	}
	n, err := c.src.Read(c.buf[c.w:cap(c.buf)])
	c.buf = c.buf[:c.w+n]
	c.w += n
	switch {
	case err == nil:
	case err == io.EOF:
		c.eof = true
	case err == errBreak:
		// What follows does not continue what came before: a record in
		// progress is lost, and the next one starts after the break.
		if c.w > c.r && !c.skipping {
			start := c.base + int64(c.r)
			ex := bytes.Clone(c.buf[c.r:min(c.w, c.r+maxExcerpt)])
			c.r, c.scan, c.atField, c.quoted, c.horizon = c.w, c.w, true, false, 0
			return &csvRowError{off: start, err: errBreak, ex: ex}
		}
		c.r, c.scan, c.atField, c.quoted, c.horizon, c.skipping = c.w, c.w, true, false, 0, false
	default:
		return err
	}
	return nil
}

// recordEnd returns the index just past the record that starts at r (its
// line break, or the end of the input), -1 when the record goes on past
// what is buffered, or -3 when the input ends inside a quoted field that
// spans lines (a runaway). It resumes the scan where the last call
// stopped.
func (c *csvReader) recordEnd() int {
	b := c.buf[:c.w]
	i := c.scan
	more := func(at int, quoted bool) int {
		if c.eof {
			if quoted && bytes.IndexByte(b[c.r:max(c.r, len(b)-1)], '\n') >= 0 {
				// A quote still open at the end, after a line break:
				// the lines after the first are rows of their own.
				c.scan, c.quoted = len(b), true
				return -3
			}
			return len(b)
		}
		c.scan, c.quoted = at, quoted
		return -1
	}
	for {
		if c.atField {
			if i == len(b) {
				return more(i, false)
			}
			if b[i] != '"' {
				c.atField, c.quoted = false, false
			} else {
				// The field's own run of quotes: the opening one, then
				// pairs (each a literal quote), and perhaps one that
				// closes the field at once.
				k := i + 1
				for k < len(b) && b[k] == '"' {
					k++
				}
				if k == len(b) && !c.eof {
					return more(i, false) // c.atField stays: rescan the run
				}
				c.atField, c.quoted, c.openAt = false, true, c.base+int64(i)
				if (k-i-1)%2 == 1 {
					if end, closed := c.closes(b, k); closed {
						if end >= 0 {
							return end
						}
						if end == -2 {
							return more(k-1, true)
						}
						i, c.atField, c.quoted = k+1, true, false
						continue
					}
				}
				i = k
				if h := int(c.horizon - c.base); c.openAt > c.runFrom && c.base+int64(i) < c.horizon && h <= len(b) {
					i = h // no end of this field before the horizon
				}
				continue
			}
		}
		if !c.quoted {
			j := indexCommaOrLF(b[i:])
			if j < 0 {
				return more(len(b), false)
			}
			if b[i+j] == '\n' {
				return i + j + 1
			}
			i, c.atField = i+j+1, true
			continue
		}
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return more(len(b), true)
		}
		s := i + j
		k := s + 1
		for k < len(b) && b[k] == '"' {
			k++
		}
		if k == len(b) && !c.eof {
			return more(s, true)
		}
		if (k-s)%2 == 1 {
			if end, closed := c.closes(b, k); closed {
				if end >= 0 {
					return end
				}
				if end == -2 {
					return more(s, true)
				}
				i, c.atField, c.quoted = k+1, true, false
				continue
			}
		}
		i = k
	}
}

// closes tells whether the quote just before b[k] (the last of an odd run)
// ends its field: followed by a comma (end -1: the record goes on at k+1),
// a line break (end: the index past it) or the end of the input (end:
// len(b)). end -2: b ends in a CR that may start a CRLF.
func (c *csvReader) closes(b []byte, k int) (end int, closed bool) {
	switch {
	case k == len(b):
		return len(b), true // only at EOF: the caller waited otherwise
	case b[k] == ',':
		return -1, true
	case b[k] == '\n':
		return k + 1, true
	case b[k] == '\r':
		if k+1 == len(b) {
			if c.eof {
				return len(b), true // encoding/csv drops a CR before EOF
			}
			return -2, true
		}
		if b[k+1] == '\n' {
			return k + 2, true
		}
	}
	return 0, false
}

// indexCommaOrLF is bytes.IndexAny(b, ",\n") without its per-call setup.
func indexCommaOrLF(b []byte) int {
	for i, ch := range b {
		if ch == ',' || ch == '\n' {
			return i
		}
	}
	return -1
}

// split splits one whole record into c.field and c.ends, as encoding/csv
// does: CRLF is LF, "" in a quoted field is a quote, a quote not followed
// by a comma or the line's end is literal. atEOF: raw is the end of the
// input (a final CR is dropped).
func (c *csvReader) split(raw []byte, atEOF bool) {
	c.field, c.ends = c.field[:0], c.ends[:0]
	if atEOF && len(raw) > 0 && raw[len(raw)-1] == '\r' {
		raw = raw[:len(raw)-1]
	}
	i := 0
	for {
		if i < len(raw) && raw[i] == '"' {
			i++
			for {
				j := bytes.IndexByte(raw[i:], '"')
				if j < 0 {
					c.appendLF(raw[i:]) // runs to the end of the input
					c.ends = append(c.ends, len(c.field))
					return
				}
				c.appendLF(raw[i : i+j])
				i += j + 1
				rest := raw[i:]
				switch {
				case len(rest) > 0 && rest[0] == '"':
					c.field = append(c.field, '"')
					i++
					continue
				case len(rest) > 0 && rest[0] == ',':
					i++
					c.ends = append(c.ends, len(c.field))
				case len(rest) == 0 || string(rest) == "\n" || string(rest) == "\r\n":
					c.ends = append(c.ends, len(c.field))
					return
				default:
					c.field = append(c.field, '"')
					continue
				}
				break
			}
			continue
		}
		j := bytes.IndexByte(raw[i:], ',')
		if j < 0 {
			f := raw[i:]
			if n := len(f); n > 0 && f[n-1] == '\n' {
				f = f[:n-1]
				if n := len(f); n > 0 && f[n-1] == '\r' {
					f = f[:n-1]
				}
			}
			c.field = append(c.field, f...)
			c.ends = append(c.ends, len(c.field))
			return
		}
		c.field = append(c.field, raw[i:i+j]...)
		c.ends = append(c.ends, len(c.field))
		i += j + 1
	}
}

// appendLF appends p to c.field with CRLF as LF.
func (c *csvReader) appendLF(p []byte) {
	for {
		i := bytes.Index(p, []byte("\r\n"))
		if i < 0 {
			c.field = append(c.field, p...)
			return
		}
		c.field = append(c.field, p[:i]...)
		c.field = append(c.field, '\n')
		p = p[i+2:]
	}
}
