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
// A spill is used by one goroutine.
type spill struct {
	dir   string
	name  string
	files []*os.File
	bufs  []*bufio.Writer
	n     []int64 // records per partition
}

// newSpill creates p empty partition files named name-<i> under dir.
func newSpill(dir, name string, p int) (*spill, error) {
	s := &spill{dir: dir, name: name, n: make([]int64, p)}
	for i := range p {
		f, err := os.Create(filepath.Join(dir, name+"-"+strconv.Itoa(i)))
		if err != nil {
			s.remove()
			return nil, fmt.Errorf("reduce: spill file: %w", err)
		}
		s.files = append(s.files, f)
		s.bufs = append(s.bufs, bufio.NewWriterSize(f, 64<<10))
	}
	return s, nil
}

// add appends record b to partition i.
func (s *spill) add(i int, b []byte) error {
	w := s.bufs[i]
	var hdr [binary.MaxVarintLen64]byte
	if _, err := w.Write(hdr[:binary.PutUvarint(hdr[:], uint64(len(b)))]); err != nil {
		return fmt.Errorf("reduce: writing spill file: %w", err)
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("reduce: writing spill file: %w", err)
	}
	s.n[i]++
	return nil
}

// each calls fn with every record of partition i, in the order added. The
// slice passed to fn is reused for the next record.
func (s *spill) each(i int, fn func([]byte) error) error {
	if err := s.bufs[i].Flush(); err != nil {
		return fmt.Errorf("reduce: writing spill file: %w", err)
	}
	f := s.files[i]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("reduce: reading spill file: %w", err)
	}
	r := bufio.NewReaderSize(f, 64<<10)
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
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		return fmt.Errorf("reduce: reading spill file: %w", err)
	}
	return nil
}

// reset empties every partition, for the next round of the same kind.
func (s *spill) reset() error {
	for i, f := range s.files {
		if err := s.bufs[i].Flush(); err != nil {
			return fmt.Errorf("reduce: writing spill file: %w", err)
		}
		if err := f.Truncate(0); err != nil {
			return fmt.Errorf("reduce: truncating spill file: %w", err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("reduce: spill file: %w", err)
		}
		s.bufs[i].Reset(f)
		s.n[i] = 0
	}
	return nil
}

// remove closes and deletes the partition files.
func (s *spill) remove() error {
	var errs []error
	for _, f := range s.files {
		f.Close()
		if err := os.Remove(f.Name()); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	s.files, s.bufs = nil, nil
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
