package ccindex

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/robotstat/robotstat/internal/weburl"
)

// ErrSchema reports a file that is not an index file: a column Lookup
// reads is missing or of another type, or the file's structure is broken
// where parquet-go does not check it.
var ErrSchema = errors.New("not a Common Crawl URL index file")

// Query is what Lookup looks for: every row of some hosts (their url's
// host, as weburl.Host reads it, is one of them) and the rows of some
// exact URLs. A Query is immutable once made and safe for concurrent use.
type Query struct {
	ranges []keyRange // sorted by lo, disjoint
	hosts  map[string]bool
	urls   map[string]bool
}

// keyRange is the keys k with lo <= k < hi.
type keyRange struct{ lo, hi string }

// NewQuery returns the query for hosts (lower-case ASCII, as
// weburl.NormalizeHost gives them) and urls (compared byte for byte with
// the url column).
func NewQuery(hosts, urls []string) *Query {
	q := &Query{hosts: map[string]bool{}, urls: map[string]bool{}}
	add := func(host string) {
		k := HostKey(host)
		// Keys "com,example)..." and "com,example:8080)...": not the
		// subdomains between them, "com,example,www2)..." and the like.
		q.ranges = append(q.ranges, keyRange{k + ")", k + "*"}, keyRange{k + ":", k + ";"})
	}
	for _, h := range hosts {
		if h != "" && !q.hosts[h] {
			q.hosts[h] = true
			add(h)
		}
	}
	for _, u := range urls {
		if h := weburl.Host(u); h != "" && !q.urls[u] {
			q.urls[u] = true
			add(h)
		}
	}
	slices.SortFunc(q.ranges, func(a, b keyRange) int { return strings.Compare(a.lo, b.lo) })
	merged := q.ranges[:0]
	for _, r := range q.ranges {
		if n := len(merged); n > 0 && r.lo <= merged[n-1].hi {
			merged[n-1].hi = max(merged[n-1].hi, r.hi)
			continue
		}
		merged = append(merged, r)
	}
	q.ranges = merged
	return q
}

// Empty reports a query that can match nothing.
func (q *Query) Empty() bool { return len(q.ranges) == 0 }

// keyWanted reports whether a key lies in one of the query's ranges.
func (q *Query) keyWanted(key []byte) bool {
	i := sort.Search(len(q.ranges), func(i int) bool { return q.ranges[i].lo > string(key) }) - 1
	return i >= 0 && string(key) < q.ranges[i].hi
}

// Overlaps reports whether a file or row group whose keys lie between min
// and max (inclusive) can hold a row the query wants.
func (q *Query) Overlaps(min, max string) bool { return q.overlaps([]byte(min), []byte(max)) }

// overlaps reports whether keys between min and max (inclusive) can lie in
// one of the query's ranges.
func (q *Query) overlaps(min, max []byte) bool {
	// The first range whose end is past min.
	i := sort.Search(len(q.ranges), func(i int) bool { return q.ranges[i].hi > string(min) })
	return i < len(q.ranges) && q.ranges[i].lo <= string(max)
}

// urlWanted reports whether a candidate row's url is one the query wants.
func (q *Query) urlWanted(u string) bool { return q.urls[u] || q.hosts[weburl.Host(u)] }

// Match is a row that Lookup found: where the capture of URL is.
type Match struct {
	Key    string // url_surtkey
	URL    string
	File   string // warc_filename, the path below the crawl's base
	Offset int64
	Length int64
}

// LookupStats says what Lookup read of a file: the row groups and
// url_surtkey pages in the file and those it read (after pruning by
// statistics and the page index), whether the file had statistics and a
// page index, and the rows whose key matched (Candidates) and whose url
// did (Matches).
type LookupStats struct {
	RowGroups, RowGroupsRead int
	Pages, PagesRead         int
	Statistics, PageIndex    bool
	Candidates, Matches      int
	// MinKey and MaxKey bound the file's keys, from its row groups'
	// statistics, when every row group has them (Bounded).
	MinKey, MaxKey string
	Bounded        bool
}

// Lookup returns the rows of the index file r (size bytes) that q wants,
// in file order (sorted by url_surtkey, as Common Crawl writes them),
// reading as little as the file's statistics and page index allow (see the
// package documentation). A file without the columns Lookup reads is
// ErrSchema; other failures are parquet-go's or r's errors, wrapped.
func Lookup(ctx context.Context, r io.ReaderAt, size int64, q *Query) (ms []Match, st LookupStats, err error) {
	// parquet-go trusts the file's metadata; a file broken in the right
	// place can make it index out of range. A bad file is a bad file, not
	// a crashed run.
	defer func() {
		if p := recover(); p != nil {
			ms, err = nil, fmt.Errorf("%w: malformed Parquet (%v)", ErrSchema, p)
		}
	}()
	if err := checkFooter(r, size); err != nil {
		return nil, st, err
	}
	f, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, st, fmt.Errorf("ccindex: %w", err)
	}
	cols, err := columnsOf(f)
	if err != nil {
		return nil, st, err
	}
	if err := checkChunks(f, cols, size); err != nil {
		return nil, st, err
	}
	meta := f.Metadata()
	pre, _ := r.(Prefetcher)
	st.RowGroups = len(f.RowGroups())
	// Row groups whose statistics cannot hold a wanted key are skipped.
	var groups []int
	deprecatedOK := trustsDeprecatedStats(meta.CreatedBy)
	st.Bounded = len(f.RowGroups()) > 0
	for i := range f.RowGroups() {
		md := &meta.RowGroups[i].Columns[cols.key].MetaData
		min, max, ok := bounds(&md.Statistics, deprecatedOK)
		st.Statistics = st.Statistics || ok
		if ok {
			if i == 0 || string(min) < st.MinKey {
				st.MinKey = string(min)
			}
			if string(max) > st.MaxKey {
				st.MaxKey = string(max)
			}
		}
		st.Bounded = st.Bounded && ok
		if ok && !q.overlaps(min, max) {
			continue
		}
		groups = append(groups, i)
	}
	if !st.Bounded {
		st.MinKey, st.MaxKey = "", ""
	}
	st.RowGroupsRead = len(groups)
	if q.Empty() {
		groups = nil
		st.RowGroupsRead = 0
	}
	// The key column's page indexes of those row groups, in one go.
	if pre != nil {
		var rs [][2]int64
		for _, i := range groups {
			c := &meta.RowGroups[i].Columns[cols.key]
			rs = appendIndexRanges(rs, c)
		}
		if err := pre.Prefetch(rs); err != nil {
			return nil, st, fmt.Errorf("ccindex: reading the page index: %w", err)
		}
	}
	var out []Match
	for _, i := range groups {
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		ms, err := lookupGroup(f, i, cols, q, pre, &st)
		if err != nil {
			return nil, st, fmt.Errorf("ccindex: row group %d: %w", i, err)
		}
		out = append(out, ms...)
	}
	st.Matches = len(out)
	return out, st, nil
}

// maxFooter bounds the footer Lookup reads: parquet-go allocates what the
// file's last bytes say before it reads it. A Common Crawl index file's is
// tens of KiB.
const maxFooter = 64 << 20

// checkFooter refuses a file whose footer length cannot be (longer than
// the file or than maxFooter), before parquet-go allocates it.
func checkFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%w: %d bytes", ErrSchema, size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("ccindex: reading the footer: %w", err)
	}
	if string(tail[4:]) != "PAR1" {
		return fmt.Errorf("%w: no Parquet footer (the file ends %q)", ErrSchema, tail[4:])
	}
	n := int64(tail[0]) | int64(tail[1])<<8 | int64(tail[2])<<16 | int64(tail[3])<<24
	if n > size-12 || n > maxFooter {
		return fmt.Errorf("%w: a footer of %d bytes in a file of %d", ErrSchema, n, size)
	}
	return nil
}

// checkChunks refuses a file whose column chunks or page indexes of the
// columns Lookup reads lie outside it.
func checkChunks(f *parquet.File, c columns, size int64) error {
	in := func(off, n int64) bool { return off >= 0 && n >= 0 && off <= size && n <= size-off }
	for i := range f.Metadata().RowGroups {
		for _, col := range []int{c.key, c.url, c.file, c.offset, c.length} {
			cc := &f.Metadata().RowGroups[i].Columns[col]
			md := &cc.MetaData
			start := md.DataPageOffset
			if md.DictionaryPageOffset > 0 {
				start = min(start, md.DictionaryPageOffset)
			}
			if !in(start, md.TotalCompressedSize) || !in(cc.ColumnIndexOffset, int64(cc.ColumnIndexLength)) || !in(cc.OffsetIndexOffset, int64(cc.OffsetIndexLength)) {
				return fmt.Errorf("%w: row group %d: column %d lies outside the file", ErrSchema, i, col)
			}
		}
	}
	return nil
}

// columns are the leaf indexes of the columns Lookup reads.
type columns struct{ key, url, file, offset, length int }

func columnsOf(f *parquet.File) (columns, error) {
	var c columns
	for _, want := range []struct {
		name  string
		at    *int
		kinds []parquet.Kind
	}{
		{ColSURTKey, &c.key, []parquet.Kind{parquet.ByteArray}},
		{ColURL, &c.url, []parquet.Kind{parquet.ByteArray}},
		{ColFile, &c.file, []parquet.Kind{parquet.ByteArray}},
		{ColOffset, &c.offset, []parquet.Kind{parquet.Int32, parquet.Int64}},
		{ColLength, &c.length, []parquet.Kind{parquet.Int32, parquet.Int64}},
	} {
		col := f.Root().Column(want.name)
		if col == nil || !col.Leaf() {
			return c, fmt.Errorf("%w: no column %s", ErrSchema, want.name)
		}
		if col.MaxRepetitionLevel() != 0 || !slices.Contains(want.kinds, col.Type().Kind()) {
			return c, fmt.Errorf("%w: column %s is %s", ErrSchema, want.name, col.Type())
		}
		*want.at = col.Index()
	}
	return c, nil
}

// bounds returns a chunk's min_value and max_value; ok is false when the
// writer left them out (or wrote both empty, which parquet-go does when it
// skips a column's bounds: not a statement that every key is ""). The
// deprecated min and max fields, which parquet-mr before 1.10 wrote
// instead, were computed with a signed byte order (PARQUET-686), so
// readers ignore them for byte arrays; they are used here only when
// deprecatedOK (a parquet-mr from 1.8.0 on, whose byte-array statistics
// are not corrupted by PARQUET-251) and both are ASCII: then every ASCII
// key (SURT keys are: escapeOnce percent-encodes the rest) compares with
// them alike in either byte order.
func bounds(s *format.Statistics, deprecatedOK bool) (min, max []byte, ok bool) {
	if s.MinValue != nil && s.MaxValue != nil && (len(s.MinValue) > 0 || len(s.MaxValue) > 0) {
		return s.MinValue, s.MaxValue, true
	}
	if deprecatedOK && s.Min != nil && s.Max != nil && len(s.Max) > 0 && isASCIIBytes(s.Min) && isASCIIBytes(s.Max) {
		return s.Min, s.Max, true
	}
	return nil, nil, false
}

func isASCIIBytes(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// trustsDeprecatedStats reports a created_by of parquet-mr 1.8.0 or later
// ("parquet-mr version 1.10.1 (build ...)"), which Spark writes.
func trustsDeprecatedStats(createdBy string) bool {
	v, ok := strings.CutPrefix(createdBy, "parquet-mr version ")
	if !ok {
		return false
	}
	v, _, _ = strings.Cut(v, " ")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err1 != nil || err2 != nil {
		return false
	}
	return major > 1 || (major == 1 && minor >= 8)
}

// appendIndexRanges adds the byte ranges of a column chunk's column index
// and offset index.
func appendIndexRanges(rs [][2]int64, c *format.ColumnChunk) [][2]int64 {
	if c.ColumnIndexOffset > 0 {
		rs = append(rs, [2]int64{c.ColumnIndexOffset, int64(c.ColumnIndexLength)})
	}
	if c.OffsetIndexOffset > 0 {
		rs = append(rs, [2]int64{c.OffsetIndexOffset, int64(c.OffsetIndexLength)})
	}
	return rs
}

// pageSlack is read past a page's end when prefetching it: parquet-go's
// page reader fills a 4 KiB buffer from a page's start, reading into the
// next page.
const pageSlack = 4<<10 + 256

// lookupGroup finds the wanted rows of row group i.
func lookupGroup(f *parquet.File, i int, cols columns, q *Query, pre Prefetcher, st *LookupStats) ([]Match, error) {
	rg := f.RowGroups()[i]
	meta := f.Metadata()
	chunk := func(col int) (*parquet.FileColumnChunk, *format.ColumnChunk) {
		return rg.ColumnChunks()[col].(*parquet.FileColumnChunk), &meta.RowGroups[i].Columns[col]
	}
	kc, kmeta := chunk(cols.key)
	koi := offsetIndex(kc)
	// The key column's pages that can hold a wanted key.
	var sel []int
	if ci, err := kc.ColumnIndex(); err == nil && koi != nil && ci.NumPages() == koi.NumPages() {
		st.PageIndex = true
		st.Pages += ci.NumPages()
		for p := range ci.NumPages() {
			if ci.NullPage(p) {
				continue
			}
			min, max := ci.MinValue(p).ByteArray(), ci.MaxValue(p).ByteArray()
			if (len(min) == 0 && len(max) == 0) || q.overlaps(min, max) {
				sel = append(sel, p)
			}
		}
		st.PagesRead += len(sel)
		if len(sel) == 0 {
			return nil, nil
		}
	} else {
		koi = nil // read every page, in order
	}
	if pre != nil {
		if err := pre.Prefetch(pageRanges(nil, kmeta, koi, sel)); err != nil {
			return nil, err
		}
	}
	var rows []int64
	var keys []string
	read, err := scanPages(kc, koi, sel, func(row int64, v parquet.Value) {
		if k := v.ByteArray(); q.keyWanted(k) {
			rows = append(rows, row)
			keys = append(keys, string(k))
		}
	})
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", ColSURTKey, err)
	}
	if koi == nil {
		st.Pages += read
		st.PagesRead += read
	}
	st.Candidates += len(rows)
	if len(rows) == 0 {
		return nil, nil
	}
	// The candidates' urls, then the location of those wanted.
	urls := make([]string, len(rows))
	if err := pickColumn(chunk, cols.url, rows, pre, func(k int, v parquet.Value) { urls[k] = string(v.ByteArray()) }); err != nil {
		return nil, fmt.Errorf("column %s: %w", ColURL, err)
	}
	var want []int64
	var ms []Match
	for k, r := range rows {
		if q.urlWanted(urls[k]) {
			want = append(want, r)
			ms = append(ms, Match{Key: keys[k], URL: urls[k]})
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	for _, c := range []struct {
		col int
		set func(m *Match, v parquet.Value)
	}{
		{cols.file, func(m *Match, v parquet.Value) { m.File = string(v.ByteArray()) }},
		{cols.offset, func(m *Match, v parquet.Value) { m.Offset = intValue(v) }},
		{cols.length, func(m *Match, v parquet.Value) { m.Length = intValue(v) }},
	} {
		if err := pickColumn(chunk, c.col, want, pre, func(k int, v parquet.Value) { c.set(&ms[k], v) }); err != nil {
			return nil, fmt.Errorf("column %d: %w", c.col, err)
		}
	}
	return ms, nil
}

func intValue(v parquet.Value) int64 {
	if v.Kind() == parquet.Int32 {
		return int64(v.Int32())
	}
	return v.Int64()
}

// offsetIndex returns a chunk's offset index, nil when it has none.
func offsetIndex(c *parquet.FileColumnChunk) parquet.OffsetIndex {
	oi, err := c.OffsetIndex()
	if err != nil || oi.NumPages() == 0 {
		return nil
	}
	return oi
}

// pageRanges adds the byte ranges of the pages sel of a chunk (with oi);
// without oi, nothing (the chunk is read in order, and RangeReader reads
// ahead). The dictionary page is not among them: parquet-go reads it only
// for a dictionary-encoded page, and parquet-mr falls back to plain pages
// once a chunk's dictionary passes 1 MiB, as a column of unique keys
// soon does; when it is read, RangeReader reads it ahead.
func pageRanges(rs [][2]int64, _ *format.ColumnChunk, oi parquet.OffsetIndex, sel []int) [][2]int64 {
	if oi == nil {
		return rs
	}
	for _, p := range sel {
		rs = append(rs, [2]int64{oi.Offset(p), oi.CompressedPageSize(p) + pageSlack})
	}
	return rs
}

// scanPages calls fn with every value of the pages sel of chunk c, with
// their row numbers in the row group; with oi nil, of every page. It
// returns the number of pages read.
func scanPages(c *parquet.FileColumnChunk, oi parquet.OffsetIndex, sel []int, fn func(row int64, v parquet.Value)) (int, error) {
	pages := c.Pages()
	defer pages.Close()
	buf := make([]parquet.Value, 1024)
	read := func(first int64) (int64, error) {
		page, err := pages.ReadPage()
		if err != nil {
			return 0, err
		}
		defer parquet.Release(page)
		n := page.NumRows()
		vr := page.Values()
		row := first
		for {
			k, err := vr.ReadValues(buf)
			for _, v := range buf[:k] {
				fn(row, v)
				row++
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return 0, err
			}
		}
		return n, nil
	}
	if oi == nil {
		var row int64
		for np := 0; ; np++ {
			n, err := read(row)
			if err == io.EOF {
				return np, nil
			}
			if err != nil {
				return np, err
			}
			row += n
		}
	}
	for i, p := range sel {
		first := oi.FirstRowIndex(p)
		if err := pages.SeekToRow(first); err != nil {
			return i, err
		}
		if _, err := read(first); err != nil {
			return i, err
		}
	}
	return len(sel), nil
}

// pickColumn calls fn(k, value) with the value of column col in each row
// rows[k] (sorted) of the row group, reading only the pages that hold them
// when the chunk has an offset index.
func pickColumn(chunk func(int) (*parquet.FileColumnChunk, *format.ColumnChunk), col int, rows []int64, pre Prefetcher, fn func(k int, v parquet.Value)) error {
	c, cmeta := chunk(col)
	oi := offsetIndex(c)
	if pre != nil && oi != nil {
		// The offset index first, then the pages it names.
		if err := pre.Prefetch(appendIndexRanges(nil, cmeta)); err != nil {
			return err
		}
		var sel []int
		for _, r := range rows {
			p := pageOf(oi, r)
			if len(sel) == 0 || sel[len(sel)-1] != p {
				sel = append(sel, p)
			}
		}
		if err := pre.Prefetch(pageRanges(nil, cmeta, oi, sel)); err != nil {
			return err
		}
	}
	pages := c.Pages()
	defer pages.Close()
	buf := make([]parquet.Value, 1024)
	var vals []parquet.Value
	k := 0
	var pos int64 // row of the next value the page reader gives
	for k < len(rows) {
		if oi != nil {
			if err := pages.SeekToRow(rows[k]); err != nil {
				return err
			}
			pos = rows[k]
		}
		page, err := pages.ReadPage()
		if err != nil {
			if err == io.EOF {
				return fmt.Errorf("row %d past the chunk's end", rows[k])
			}
			return err
		}
		start := pos
		pos += page.NumRows()
		if rows[k] >= pos {
			parquet.Release(page)
			continue
		}
		vals = vals[:0]
		vr := page.Values()
		for {
			n, err := vr.ReadValues(buf)
			vals = append(vals, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				parquet.Release(page)
				return err
			}
		}
		for k < len(rows) && rows[k] < pos {
			if i := rows[k] - start; i < int64(len(vals)) {
				fn(k, vals[i])
			}
			k++
		}
		parquet.Release(page)
	}
	return nil
}

// pageOf returns the page of oi that holds row.
func pageOf(oi parquet.OffsetIndex, row int64) int {
	return sort.Search(oi.NumPages(), func(p int) bool { return oi.FirstRowIndex(p) > row }) - 1
}
