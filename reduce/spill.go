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
	"sync"
)

// spill is a set of partition files of one kind of record (records.go),
// written in one pass and read back one partition at a time, so that no
// stage holds more than one partition in memory. On disk a record is its
// length (a uvarint) and its bytes.
//
// A partition's file is open only while it is written out (its buffer is
// full) or read, so a crawl of many partitions needs no more file
// descriptors than one; each partition buffers at most spillBuffer bytes.
//
// A spill's state is per partition: put and read of different partitions
// touch nothing in common (readers come from a pool), so goroutines that
// each own their partitions may use one spill at once; reset and remove
// are for its one owner, between stages.
type spill struct {
	dir  string
	name string
	bufs [][]byte // pending bytes per partition; nil until the first put
	n    []int64  // records per partition
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

// put appends record r to partition i.
func (s *spill) put(i int, r spillRecord) error {
	buf, err := s.partition(i)
	if err != nil {
		return err
	}
	return s.took(i, appendRecord(buf, r), 1)
}

// appendRecord appends r to buf as a spill holds it: encoded in place,
// after a one-byte length that is widened when the record is 128 bytes or
// longer.
func appendRecord(buf []byte, r spillRecord) []byte {
	at := len(buf)
	buf = r.appendTo(append(buf, 0))
	if n := len(buf) - at - 1; n < 0x80 {
		buf[at] = byte(n)
	} else {
		var l [binary.MaxVarintLen64]byte
		k := binary.PutUvarint(l[:], uint64(n))
		buf = append(buf, l[1:k]...)
		copy(buf[at+k:], buf[at+1:at+1+n])
		copy(buf[at:], l[:k])
	}
	return buf
}

// partition is partition i's buffer, to append records to; took takes
// it back with them and flushes it when full. put and putRecords write
// through the two.
func (s *spill) partition(i int) ([]byte, error) {
	if i < 0 || i >= len(s.bufs) {
		return nil, fmt.Errorf("reduce: spill %s has no partition %d", s.name, i)
	}
	if s.bufs[i] == nil {
		return make([]byte, 0, spillBuffer), nil
	}
	return s.bufs[i], nil
}

func (s *spill) took(i int, buf []byte, records int) error {
	s.bufs[i] = buf
	s.n[i] += int64(records)
	if len(buf) >= spillBuffer {
		return s.flush(i)
	}
	return nil
}

// count returns the number of records put in partition i.
func (s *spill) count(i int) int { return int(s.n[i]) }

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

// readers are the spills' file readers, shared so that reading a
// partition allocates none.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// read decodes every record of partition i into r, in the order put, and
// calls fn after each. What r's []byte fields alias is valid until fn
// returns. A record that does not decode is an error naming the file.
func (s *spill) read(i int, r spillRecord, fn func() error) error {
	if i < 0 || i >= len(s.bufs) {
		return fmt.Errorf("reduce: spill %s has no partition %d", s.name, i)
	}
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
	br := readers.Get().(*bufio.Reader)
	br.Reset(f)
	defer func() { br.Reset(nil); readers.Put(br) }()
	var buf []byte
	for range s.n[i] {
		n, err := binary.ReadUvarint(br)
		if err == nil && n > uint64(maxInt) {
			err = errBadRecord
		}
		if err != nil {
			return fmt.Errorf("reduce: reading spill file %s: %w", f.Name(), noEOF(err))
		}
		if uint64(cap(buf)) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(br, buf); err != nil {
			return fmt.Errorf("reduce: reading spill file %s: %w", f.Name(), noEOF(err))
		}
		if err := r.decode(buf); err != nil {
			return fmt.Errorf("reduce: spill file %s: %w", f.Name(), err)
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

// noEOF turns the end of a spill file before its last record into what it
// is: a record cut short.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errShort
	}
	return err
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

// removeSpills removes spills a stage is done with, so that their disk
// space and buffers go back before the next stage.
func removeSpills(spills ...*spill) error {
	for _, sp := range spills {
		if err := sp.remove(); err != nil {
			return fmt.Errorf("reduce: %w", err)
		}
	}
	return nil
}
