package reduce

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// spill is a set of partition files of one kind of record, written in one
// pass and read back one partition at a time, so that no stage holds more
// than one partition in memory. Records are byte strings the caller
// encodes (enc) and decodes (dec), length-prefixed on disk.
//
// A partition's file is open only while it is written out (its buffer is
// full) or read, so a crawl of many partitions needs no more file
// descriptors than one; each partition buffers at most spillBuffer bytes.
//
// A spill is used by one goroutine.
type spill struct {
	dir  string
	name string
	bufs [][]byte // pending bytes per partition; nil until the first add
	n    []int64  // records per partition
	rbuf *bufio.Reader
}

// spillBuffer is what a partition holds in memory before it is appended
// to its file.
const spillBuffer = 16 << 10

// newSpill creates p empty partition files named name-<i> under dir.
func newSpill(dir, name string, p int) (*spill, error) {
	s := &spill{dir: dir, name: name, bufs: make([][]byte, p), n: make([]int64, p)}
	for i := range p {
		f, err := os.OpenFile(s.path(i), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			s.remove()
			return nil, fmt.Errorf("reduce: spill file: %w", err)
		}
		if err := f.Close(); err != nil {
			s.remove()
			return nil, fmt.Errorf("reduce: spill file: %w", err)
		}
	}
	return s, nil
}

func (s *spill) path(i int) string { return filepath.Join(s.dir, s.name+"-"+strconv.Itoa(i)) }

// add appends record b to partition i.
func (s *spill) add(i int, b []byte) error {
	buf := s.bufs[i]
	if buf == nil {
		buf = make([]byte, 0, spillBuffer)
	}
	buf = append(binary.AppendUvarint(buf, uint64(len(b))), b...)
	s.bufs[i] = buf
	s.n[i]++
	if len(buf) >= spillBuffer {
		return s.flush(i)
	}
	return nil
}

// flush appends partition i's buffer to its file.
func (s *spill) flush(i int) error {
	if len(s.bufs[i]) == 0 {
		return nil
	}
	f, err := os.OpenFile(s.path(i), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("reduce: writing spill file: %w", err)
	}
	_, err = f.Write(s.bufs[i])
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("reduce: writing spill file: %w", err)
	}
	s.bufs[i] = s.bufs[i][:0]
	return nil
}

// each calls fn with every record of partition i, in the order added. The
// slice passed to fn is reused for the next record.
func (s *spill) each(i int, fn func([]byte) error) error {
	if err := s.flush(i); err != nil {
		return err
	}
	if s.n[i] == 0 {
		return nil
	}
	f, err := os.Open(s.path(i))
	if err != nil {
		return fmt.Errorf("reduce: reading spill file: %w", err)
	}
	defer f.Close()
	if s.rbuf == nil {
		s.rbuf = bufio.NewReaderSize(f, 64<<10)
	} else {
		s.rbuf.Reset(f)
	}
	r := s.rbuf
	var buf []byte
	for range s.n[i] {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return fmt.Errorf("reduce: reading spill file %s: %w", f.Name(), err)
		}
		if uint64(cap(buf)) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("reduce: reading spill file %s: %w", f.Name(), err)
		}
		if err := fn(buf); err != nil {
			return err
		}
	}
	r.Reset(nil)
	return nil
}

// reset empties every partition, for the next round of the same kind.
func (s *spill) reset() error {
	for i := range s.bufs {
		if err := os.Truncate(s.path(i), 0); err != nil {
			return fmt.Errorf("reduce: truncating spill file: %w", err)
		}
		s.bufs[i] = s.bufs[i][:0]
		s.n[i] = 0
	}
	return nil
}

// remove deletes the partition files and drops the buffers.
func (s *spill) remove() error {
	var errs []error
	for i := range s.bufs {
		if err := os.Remove(s.path(i)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	s.bufs = nil
	return errors.Join(errs...)
}

// enc appends the fields of a record; dec reads them back in the same
// order. They are the whole on-disk format, so a record is a flat list of
// fields.
type enc []byte

func (e enc) str(s string) enc  { return append(binary.AppendUvarint(e, uint64(len(s))), s...) }
func (e enc) uint(v uint64) enc { return binary.AppendUvarint(e, v) }
func (e enc) int(v int64) enc   { return binary.AppendVarint(e, v) }
func (e enc) id(v [16]byte) enc { return append(e, v[:]...) }
func (e enc) byte(v uint8) enc  { return append(e, v) }
func (e enc) bool(v bool) enc   { return e.byte(b2u(v)) }

func b2u(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// dec reads a record enc wrote. Reads past the end, or a length that runs
// past it, set err; later reads return zero values.
type dec struct {
	b   []byte
	err error
}

var errShort = errors.New("reduce: spill record cut short")

func (d *dec) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err, d.b = errShort, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err, d.b = errShort, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) raw() []byte {
	n := d.uint()
	if uint64(len(d.b)) < n {
		d.err, d.b = errShort, nil
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *dec) str() string { return string(d.raw()) }

func (d *dec) byte() uint8 {
	if len(d.b) == 0 {
		d.err = errShort
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *dec) bool() bool { return d.byte() != 0 }

func (d *dec) id() (v [16]byte) {
	if len(d.b) < 16 {
		d.err, d.b = errShort, nil
		return v
	}
	copy(v[:], d.b)
	d.b = d.b[16:]
	return v
}
