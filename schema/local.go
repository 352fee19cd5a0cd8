package schema

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// LocalWriter writes rows of one table for one goroutine: it encodes and
// compresses them in the caller's goroutine without taking the table's
// lock, into row groups of its own held in memory, and takes the lock only
// to append a finished row group to the table's file, which parquet-go does
// by copying the already compressed pages verbatim. Several workers with a
// LocalWriter each therefore encode in parallel; through TableWriter.Write
// their encoding of the same table would be serialised, which made 15% of
// an analyze run's CPU one worker at a time (issue 23) and, on the bots
// table (101 rows per capture), kept a second worker from adding any
// throughput.
//
// For the bots table a LocalWriter does not use parquet-go's row writer but
// an encoder of its own that exploits the table's repetitiveness
// (botsencode.go): rows cost less than half of what parquet-go's writer
// takes, and blocks of a capture's rows (WriteBots) a seventh.
//
// A row group is shipped when it reaches Options.RowGroupRows rows or
// Options.RowGroupBytes buffered bytes, so the file's row groups have the
// same bounds as with Write; each LocalWriter's last row group is shipped
// by Dataset.Commit, or earlier by Flush. A LocalWriter holds up to one row
// group per crawl it has seen (compressed pages plus the page being
// filled and the dictionaries), so memory grows with the number of
// LocalWriters, not with the input.
//
// A row group can be appended verbatim only if each column kept its
// dictionary. When a high-cardinality column's dictionary passes
// Options.DictionaryBytes it falls back to plain pages (url and capture_id
// in a table of about one row per capture, once a row group spans some
// 20k captures), and parquet-go would re-encode such a row group under the
// lock. A LocalWriter writes such a row group instead as a file of its own
// (it is a whole Parquet file already, with the table's metadata), outside
// the lock: the table's rows are the same, in one more file of full row
// groups.
//
// Rows of one Write call may be split between two row groups, which other
// workers' row groups or files may separate: readers must not expect a
// capture's rows to be contiguous in a table (see report.Tally.AddSignals).
//
// A LocalWriter is not safe for concurrent use, and Commit must not run
// while one of its Writes does (call Commit after the workers are done, as
// with Write). A nil *LocalWriter (from a nil TableWriter) discards rows.
type LocalWriter[T Row] struct {
	t     *TableWriter[T]
	parts map[string]*localPart[T] // by crawl
	// Row groups are kept, encoded, in pending until Release (held: a
	// Held LocalWriter, whose rows count in the table's Rows only then) or
	// Commit (sealing: every LocalWriter's last ones, encoded at once by
	// seal) hands them to the table in the order they were made.
	held, sealing bool
	pending       []encodedGroup
}

// encodedGroup is a row group a LocalWriter has encoded: a whole Parquet
// file in memory, not yet handed to the table.
type encodedGroup struct {
	crawl string
	buf   []byte
	f     *parquet.File
	rows  int64
	whole bool // its dictionaries overflowed: a file of its own
}

// localPart is a LocalWriter's row group of one crawl: a Parquet file in
// memory that never holds more than one row group.
type localPart[T Row] struct {
	crawl string
	buf   bytes.Buffer
	w     *parquet.GenericWriter[T] // nil for the bots table
	bots  *botsEncoder              // the bots table's own encoder
	rows  int64                     // rows in w or bots
}

// Local returns a new LocalWriter of the table; nil for a nil TableWriter.
func (t *TableWriter[T]) Local() *LocalWriter[T] {
	if t == nil {
		return nil
	}
	l := &LocalWriter[T]{t: t, parts: make(map[string]*localPart[T])}
	t.mu.Lock()
	t.locals = append(t.locals, l)
	t.mu.Unlock()
	return l
}

// Held returns a new LocalWriter of the table that hands no row group to
// the table until Release: it encodes them and keeps them in memory. It is
// for goroutines whose rows must reach the table in an order of the
// caller's (robotstat sites' steps, in partition order), and is not
// shipped by Commit: call Release before. Nil for a nil TableWriter.
func (t *TableWriter[T]) Held() *LocalWriter[T] {
	if t == nil {
		return nil
	}
	return &LocalWriter[T]{t: t, parts: make(map[string]*localPart[T]), held: true}
}

// Seal encodes the row groups the LocalWriter is filling, so that Release
// has only to copy them; the encoding is done in the caller's goroutine.
func (l *LocalWriter[T]) Seal() error {
	if l == nil {
		return nil
	}
	if err := l.seal(); err != nil {
		return l.t.ds.fail(err)
	}
	return nil
}

// seal is Seal without failing the dataset. It takes no lock.
func (l *LocalWriter[T]) seal() error {
	l.sealing = true
	err := l.shipAll(false)
	l.sealing = false
	return err
}

// Release hands every row group the LocalWriter holds (Held, Seal) to the
// table, in the order they were encoded, and then those it is filling
// (encoded by Release). A Held LocalWriter's rows count in the table's
// Rows from then on. The LocalWriter may be used again.
func (l *LocalWriter[T]) Release() error {
	if l == nil {
		return nil
	}
	if err := l.t.ds.usable(); err != nil {
		return err
	}
	if err := l.seal(); err != nil {
		return l.t.ds.fail(err)
	}
	if err := l.release(false); err != nil {
		return l.t.ds.fail(err)
	}
	return nil
}

// release hands the pending row groups to the table; locked says whether
// the caller holds the table's lock.
func (l *LocalWriter[T]) release(locked bool) error {
	for i := range l.pending {
		g := &l.pending[i]
		var err error
		if g.whole {
			err = l.writeWhole(g.crawl, g.buf, g.rows, locked)
		} else {
			err = l.appendGroups(g.crawl, g.f, locked)
		}
		if err != nil {
			return err
		}
		if l.held {
			l.t.rows.Add(g.rows)
		}
		l.pending[i] = encodedGroup{}
	}
	l.pending = l.pending[:0]
	return nil
}

// Write encodes rows into the LocalWriter's row groups, routing each row to
// its crawl as TableWriter.Write does. As with TableWriter.Write the caller
// may reuse the rows and everything they point to once Write returns. The
// rows count in the table's Rows at once, and reach the file when their
// row group is shipped.
//
// An error is an environment failure or a crawl name that cannot be a
// directory; it fails the dataset (see TableWriter.Write).
func (l *LocalWriter[T]) Write(rows []T) error {
	if l == nil {
		return nil
	}
	t := l.t
	if err := t.ds.usable(); err != nil {
		return err
	}
	cleanRows(rows)
	maxRows := t.ds.opts.RowGroupRows
	for len(rows) > 0 {
		crawl := rows[0].crawl()
		p, err := l.partOf(crawl)
		if err != nil {
			return err
		}
		// Never let the Parquet writer cut a row group itself: a batch that
		// crosses the row limit is split so that every shipped row group
		// but the last is full.
		n := 1
		for n < len(rows) && int64(n) < maxRows-p.rows && rows[n].crawl() == crawl {
			n++
		}
		full := false
		if p.bots != nil {
			var k int
			switch rs := any(rows[:n]).(type) {
			case []BotRow:
				k = p.bots.add(rs)
			case []SiteBotRow:
				k = p.bots.addSites(rs)
			}
			full, n = k < n || p.bots.full, k
		} else if err := writeRows(p.w, rows[:n]); err != nil {
			return t.ds.fail(fmt.Errorf("schema: encoding rows of table %s: %w", t.name, err))
		}
		rows = rows[n:]
		if err := l.took(p, n, full); err != nil {
			return err
		}
	}
	return nil
}

// took counts n rows just added to p and ships p's row group when it is
// full: full says so (a dictionary reached its limit), or the group
// reached Options.RowGroupRows rows or Options.RowGroupBytes bytes.
func (l *LocalWriter[T]) took(p *localPart[T], n int, full bool) error {
	t := l.t
	p.rows += int64(n)
	if !l.held {
		t.rows.Add(int64(n))
	}
	if full || p.rows >= t.ds.opts.RowGroupRows || p.w != nil && p.w.Size() > t.ds.opts.RowGroupBytes {
		if err := l.ship(p, false); err != nil {
			return t.ds.fail(err)
		}
	}
	return nil
}

// partOf returns the LocalWriter's row group of crawl, starting it on the
// crawl's first row. An error (a crawl that cannot be a directory) fails
// the dataset.
func (l *LocalWriter[T]) partOf(crawl string) (*localPart[T], error) {
	if p := l.parts[crawl]; p != nil {
		return p, nil
	}
	t := l.t
	if _, err := partitionDir(crawl); err != nil {
		return nil, t.ds.fail(fmt.Errorf("%w (table %s)", err, t.name))
	}
	p := &localPart[T]{crawl: crawl}
	if l := layoutOf[T](); l != nil {
		p.bots = newBotsEncoder(l, t.ds.opts.DictionaryBytes)
	} else {
		// The file's own options, metadata included: a row group whose
		// dictionary overflowed is written as this whole file (ship).
		p.w = parquet.NewGenericWriter[T](&p.buf, t.fileOptions(crawl)...)
	}
	l.parts[crawl] = p
	return p, nil
}

// Flush ships every row group the LocalWriter holds, full or not, to the
// table's files. Commit does the same; Flush only lets a long-lived worker
// give back its memory early.
func (l *LocalWriter[T]) Flush() error {
	if l == nil {
		return nil
	}
	if err := l.t.ds.usable(); err != nil {
		return err
	}
	if err := l.shipAll(false); err != nil {
		return l.t.ds.fail(err)
	}
	return nil
}

// shipAll ships every non-empty row group; locked says whether the caller
// holds the table's lock.
func (l *LocalWriter[T]) shipAll(locked bool) error {
	for _, c := range l.sortedCrawls() {
		if p := l.parts[c]; p.rows > 0 {
			if err := l.ship(p, locked); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *LocalWriter[T]) sortedCrawls() []string {
	cs := make([]string, 0, len(l.parts))
	for c := range l.parts {
		cs = append(cs, c)
	}
	slices.Sort(cs)
	return cs
}

// ship finishes p's in-memory file and hands its row group to the table:
// appended to the table's file of p's crawl when its pages can be copied
// verbatim, else written as a file of its own (see LocalWriter). Only the
// hand-over takes the table's lock (locked: the caller holds it already);
// the encoding is done in the caller's goroutine. p starts afresh.
func (l *LocalWriter[T]) ship(p *localPart[T], locked bool) error {
	t := l.t
	if p.bots != nil {
		p.buf.Reset()
		if err := p.bots.writeFile(&p.buf, t.ds.codec, "robotstat version "+t.ds.opts.Version); err != nil {
			return fmt.Errorf("schema: encoding rows of table %s: %w", t.name, err)
		}
	} else if err := p.w.Close(); err != nil {
		return fmt.Errorf("schema: encoding rows of table %s: %w", t.name, err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(p.buf.Bytes()), int64(p.buf.Len()),
		parquet.SkipBloomFilters(true))
	if err != nil {
		return fmt.Errorf("schema: reading back a row group of table %s: %w", t.name, err)
	}
	whole := p.w != nil && fellBack(f)
	switch {
	case l.held || l.sealing:
		// The bytes stay with the group: p starts on a new buffer.
		l.pending = append(l.pending, encodedGroup{crawl: p.crawl, buf: p.buf.Bytes(), f: f, rows: p.rows, whole: whole})
		p.buf = bytes.Buffer{}
	case whole:
		err = l.writeWhole(p.crawl, p.buf.Bytes(), p.rows, locked)
	default:
		err = l.appendGroups(p.crawl, f, locked)
	}
	if err != nil {
		return err
	}
	p.buf.Reset()
	if p.bots != nil {
		p.bots.reset()
	} else {
		p.w.Reset(&p.buf)
	}
	p.rows = 0
	return nil
}

// appendGroups appends f's row groups to the table's file of crawl.
func (l *LocalWriter[T]) appendGroups(crawl string, f *parquet.File, locked bool) error {
	t := l.t
	if !locked {
		t.mu.Lock()
		defer t.mu.Unlock()
	}
	dst, err := t.part(crawl)
	if err != nil {
		return err
	}
	for _, rg := range f.RowGroups() {
		n, err := dst.w.WriteRowGroup(rg)
		if err != nil {
			return fmt.Errorf("schema: appending a row group to %s: %w", dst.file.final, err)
		}
		dst.rows += n
	}
	return nil
}

// writeWhole writes an in-memory file of rows rows, as it is, as a file
// of the table in crawl. The lock is taken only to name the file and to
// add it to the table's files; the bytes are written and synced without it.
func (l *LocalWriter[T]) writeWhole(crawl string, buf []byte, rows int64, locked bool) error {
	t := l.t
	if !locked {
		t.mu.Lock()
	}
	af, err := t.newFile(crawl)
	if !locked {
		t.mu.Unlock()
	}
	if err != nil {
		return err
	}
	if _, err := af.Write(buf); err != nil {
		_ = af.remove() // the write's error is the one to report
		return fmt.Errorf("schema: writing %s: %w", af.final, err)
	}
	af.rows = rows
	if err := af.sync(); err != nil {
		_ = af.remove() // the write's error is the one to report
		return err
	}
	if !locked {
		t.mu.Lock()
		defer t.mu.Unlock()
	}
	t.full = append(t.full, af)
	return nil
}

// fellBack reports whether a column of f's row groups holds plain data
// pages beside a dictionary page: its dictionary passed
// Options.DictionaryBytes, and parquet-go cannot copy the column chunk
// into a file whose column is dictionary-encoded.
func fellBack(f *parquet.File) bool {
	for _, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			dict, plain := false, false
			for _, s := range c.MetaData.EncodingStats {
				switch {
				case s.PageType == format.DictionaryPage:
					dict = true
				case s.Encoding == format.Plain:
					plain = true
				}
			}
			if dict && plain {
				return true
			}
		}
	}
	return false
}
