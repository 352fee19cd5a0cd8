package schema

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// File is one complete Parquet file of a table, as TableFiles finds it.
type File struct {
	Table TableName
	// Crawl is the partition's crawl, decoded from its folder name; empty
	// for crawl=__HIVE_DEFAULT_PARTITION__ (unknown crawl).
	Crawl string
	// Path is the file's path: the root as given to TableFiles joined with
	// the table, partition and file name.
	Path string
}

// TableFiles lists the committed Parquet files of table t under a dataset
// root (robotstat's --out): the files named *.parquet, not hidden, in a
// crawl=... folder of root/t that a completion record names (see Record).
// The hidden temporary files a writer is still filling or a killed run left
// behind (.part-....parquet.<random>.tmp) are never listed, nor are the
// files of a run killed while committing, so every file returned belongs to
// a run that was committed whole. Files of runs a compaction absorbed
// (Compact) are left out too, without counting as uncommitted: the
// compaction's files hold their rows. It reads the root's records; a caller
// that lists several tables reads them once with ReadIndex and uses
// Index.TableFiles.
//
// Files are ordered by crawl (known crawls by name, the unknown crawl
// last), then by file name, so a reader that takes them in this order sees
// the same rows in the same order on every run. A root without a folder for
// t returns an error wrapping ErrNoTable; a table folder without files
// returns no files and no error.
func TableFiles(root string, t TableName) ([]File, error) {
	ix, err := ReadIndex(root)
	if err != nil {
		return nil, err
	}
	files, _, err := ix.TableFiles(t)
	return files, err
}

// TableFiles is the package function TableFiles over the index's root and
// records. It also returns how many *.parquet files of the table no record
// names (uncommitted: a killed run's, or copied in by hand), which it
// leaves out. A committed file of the table that is missing or not the
// size its record says fails it (ErrDamaged, see Index.Damaged).
func (ix *Index) TableFiles(t TableName) (files []File, uncommitted int, err error) {
	if len(ix.Conflicts) > 0 {
		return nil, 0, fmt.Errorf("%w: %s", ErrConflict, strings.Join(ix.Conflicts, ", "))
	}
	root := ix.Root
	dmg, err := ix.Damaged(false, t)
	if err != nil {
		return nil, 0, err
	}
	if len(dmg) > 0 {
		return nil, 0, damagedErr(root, dmg)
	}
	dir := filepath.Join(root, string(t))
	parts, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, 0, fmt.Errorf("%w: no folder %s", ErrNoTable, dir)
		}
		return nil, 0, fmt.Errorf("schema: listing %s: %w", dir, err)
	}
	for _, p := range parts {
		if !p.IsDir() {
			continue
		}
		crawl, ok := parsePartitionDir(p.Name())
		if !ok {
			continue
		}
		pdir := filepath.Join(dir, p.Name())
		entries, err := os.ReadDir(pdir)
		if err != nil {
			return nil, 0, fmt.Errorf("schema: listing %s: %w", pdir, err)
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".parquet") || !e.Type().IsRegular() {
				continue
			}
			path := filepath.Join(pdir, name)
			if ix.absorbedFile(path) {
				continue // a compaction's files hold its rows; Sweep removes it
			}
			if !ix.Committed(path) {
				uncommitted++
				continue
			}
			files = append(files, File{Table: t, Crawl: crawl, Path: path})
		}
	}
	sort.Slice(files, func(i, j int) bool {
		a, b := files[i], files[j]
		if a.Crawl != b.Crawl {
			if a.Crawl == "" || b.Crawl == "" {
				return b.Crawl == ""
			}
			return a.Crawl < b.Crawl
		}
		return a.Path < b.Path
	})
	return files, uncommitted, nil
}

// parsePartitionDir is partitionDir's inverse: it returns the crawl a
// partition folder stands for ("" for the default partition) and whether
// name is a partition folder at all. %XX escapes are decoded as DuckDB and
// Arrow decode them: each escape on its own, a malformed one kept as
// written. (Hence not url.PathUnescape, which rejects the whole name when
// one escape is malformed.)
func parsePartitionDir(name string) (string, bool) {
	v, ok := strings.CutPrefix(name, "crawl=")
	if !ok {
		return "", false
	}
	if v == DefaultPartition {
		return "", true
	}
	if !strings.Contains(v, "%") {
		return v, true
	}
	b := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		if v[i] == '%' && i+2 < len(v) {
			if c, err := strconv.ParseUint(v[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(c))
				i += 2
				continue
			}
		}
		b = append(b, v[i])
	}
	return string(b), true
}

// FileInfo is what a file's footer says about it.
type FileInfo struct {
	// Rows is the number of rows in the file.
	Rows int64
	// RowGroups is the number of its row groups (ReadRowGroup reads one).
	RowGroups int
	// Metadata is the file's key/value metadata (MetaVersion, MetaTable,
	// MetaOptionPrefix+..., see metadata.go), the keys of older files read
	// as today's (CanonicalOptions).
	Metadata map[string]string
}

// ReadFileInfo reads the footer of the Parquet file at path.
func ReadFileInfo(path string) (FileInfo, error) {
	f, pf, err := openParquet(path)
	if err != nil {
		return FileInfo{}, err
	}
	defer f.Close()
	info := FileInfo{Rows: pf.NumRows(), RowGroups: len(pf.RowGroups()), Metadata: map[string]string{}}
	for _, kv := range pf.Metadata().KeyValueMetadata {
		info.Metadata[kv.Key] = kv.Value
	}
	canonicalFileMetadata(info.Metadata)
	return info, nil
}

func openParquet(path string) (*os.File, *parquet.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("schema: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("schema: %w", err)
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("schema: reading %s: %w", path, err)
	}
	if v, ok := pf.Lookup(MetaSchemaVersion); ok && !ReadsSchemaVersion(v) {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %s has schema version %s, this robotstat reads %s", ErrSchemaVersion, path, v, SchemaVersion)
	}
	return f, pf, nil
}

// ReadBatchRows is how many rows ReadFile hands to its callback at most.
const ReadBatchRows = 4096

// ReadFile reads the named columns of the Parquet file at path into rows of
// type T (one of this package's row types) and calls fn with them in
// batches of at most ReadBatchRows, in file order. Only the fields of the
// named columns are filled; the others stay zero. A NULL reads as the
// field's zero value (an empty string, 0, false), which is how the report
// needs them: an unknown rank is 0 and no template is "".
//
// Columns are read column by column, page by page, without building rows
// the caller did not ask for: string columns of dictionary pages are
// converted to Go strings once per dictionary entry, not once per row. Only
// top-level columns of type string (BYTE_ARRAY), bool, int32, int64 (also
// into *string, *int32 and *int64 fields, where NULL reads as nil),
// float64 and millisecond timestamps (time.Time, UTC; a NULL reads as the
// zero time) can be read (not lists or structs); any other, or a column
// the file lacks, is an error wrapping ErrColumn.
//
// The batch passed to fn is reused for the next batch: fn must not keep it,
// but may keep the strings in it. Errors name the file and wrap the cause.
func ReadFile[T Row](ctx context.Context, path string, columns []string, fn func(rows []T) error) error {
	f, pf, err := openParquet(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cols, err := bindColumns[T](pf.Schema(), columns)
	if err != nil {
		return fmt.Errorf("schema: %s: %w", path, err)
	}
	rows := make([]T, ReadBatchRows)
	for gi, rg := range pf.RowGroups() {
		if err := readRowGroup(ctx, rg, cols, rows, fn); err != nil {
			return rowGroupError(ctx, path, gi, err)
		}
	}
	return nil
}

// ReadRowGroup reads row group gi (0-based, of FileInfo.RowGroups) of the
// Parquet file at path as ReadFile reads each of them: so that the groups
// of a file can be read by goroutines of their own, each opening the file.
func ReadRowGroup[T Row](ctx context.Context, path string, gi int, columns []string, fn func(rows []T) error) error {
	f, pf, err := openParquet(path)
	if err != nil {
		return err
	}
	defer f.Close()
	groups := pf.RowGroups()
	if gi < 0 || gi >= len(groups) {
		return fmt.Errorf("schema: %s has %d row groups, not a row group %d", path, len(groups), gi)
	}
	cols, err := bindColumns[T](pf.Schema(), columns)
	if err != nil {
		return fmt.Errorf("schema: %s: %w", path, err)
	}
	if err := readRowGroup(ctx, groups[gi], cols, make([]T, ReadBatchRows), fn); err != nil {
		return rowGroupError(ctx, path, gi, err)
	}
	return nil
}

// rowGroupError locates an error reading row group gi of path; a canceled
// read returns the context's error as it is.
func rowGroupError(ctx context.Context, path string, gi int, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	return fmt.Errorf("schema: reading %s, row group %d: %w", path, gi, err)
}

func readRowGroup[T Row](ctx context.Context, rg parquet.RowGroup, cols []columnReader, rows []T, fn func([]T) error) error {
	chunks := rg.ColumnChunks()
	for _, c := range cols {
		c.start(chunks)
	}
	defer func() {
		for _, c := range cols {
			c.close()
		}
	}()
	var zero T
	base := unsafe.Pointer(&rows[0])
	stride := unsafe.Sizeof(zero)
	for left := rg.NumRows(); left > 0; {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int(min(left, int64(len(rows))))
		for _, c := range cols {
			if err := c.fill(base, stride, n); err != nil {
				return err
			}
		}
		if err := fn(rows[:n]); err != nil {
			return err
		}
		left -= int64(n)
	}
	return nil
}

// columnReader fills one field of a batch of rows from one column chunk
// after another. It is used by one goroutine.
type columnReader interface {
	// start moves to the row group whose column chunks are chunks.
	start(chunks []parquet.ColumnChunk)
	// fill sets the field of rows 0..n-1 of the batch at base.
	fill(base unsafe.Pointer, stride uintptr, n int) error
	close()
}

// fieldValue is the type of a row field ReadFile can fill.
type fieldValue interface {
	string | *string | bool | int32 | *int32 | int64 | *int64 | float64 | time.Time
}

// columnAt says where a column's values come from and go.
type columnAt struct {
	name   string
	leaf   int     // leaf column index in the file
	maxDef byte    // definition level of a non-null value
	off    uintptr // of the Go field in the row
}

// column is the columnReader of a field of type V.
type column[V fieldValue] struct {
	columnAt
	value func(parquet.Value) V // of a non-null value

	pages parquet.Pages
	page  parquet.Page
	rows  int    // rows in page
	pos   int    // next row of page
	defs  []byte // definition levels of page, nil when none is null

	// Dictionary pages: idx holds the non-null values' dictionary indexes,
	// next the next one; the dictionary's entries are converted once.
	dictPage bool
	dict     parquet.Dictionary
	dvals    []V
	idx      []int32
	next     int

	// Plain pages: values read through the page's ValueReader, one per row.
	vr   parquet.ValueReader
	vals []parquet.Value
	vn   int // values in vals
	vi   int // next value in vals
}

// bindColumns maps each named column to the field of T that carries its
// parquet tag and checks that the file's column can fill it.
func bindColumns[T Row](s *parquet.Schema, columns []string) ([]columnReader, error) {
	fields := map[string]reflect.StructField{}
	collectFields(reflect.TypeFor[T](), 0, fields)
	cols := make([]columnReader, 0, len(columns))
	seen := map[string]bool{}
	for _, name := range columns {
		if seen[name] {
			continue
		}
		seen[name] = true
		sf, ok := fields[name]
		if !ok {
			return nil, fmt.Errorf("%w: %s has no column %q", ErrColumn, reflect.TypeFor[T]().Name(), name)
		}
		leaf, ok := s.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("%w: no column %q in the file", ErrColumn, name)
		}
		if leaf.MaxRepetitionLevel != 0 || leaf.MaxDefinitionLevel > 1 {
			return nil, fmt.Errorf("%w: column %q is nested or repeated", ErrColumn, name)
		}
		var want parquet.Kind
		var c columnReader
		at := columnAt{name: name, leaf: leaf.ColumnIndex, maxDef: byte(leaf.MaxDefinitionLevel), off: sf.Offset}
		switch {
		case sf.Type.Kind() == reflect.String:
			want, c = parquet.ByteArray, newColumn(at, stringValue)
		case sf.Type.Kind() == reflect.Bool:
			want, c = parquet.Boolean, newColumn(at, parquet.Value.Boolean)
		case sf.Type.Kind() == reflect.Int32:
			want, c = parquet.Int32, newColumn(at, parquet.Value.Int32)
		case sf.Type == reflect.TypeFor[*int32]():
			// Optional columns read into pointers (signals.group_index,
			// whose NULL must stay apart from 0, and site_history's): NULL
			// reads as nil. Rows of the same value may share the pointer;
			// it must not be written to.
			want, c = parquet.Int32, newColumn(at, int32Pointer)
		case sf.Type == reflect.TypeFor[*string]():
			want, c = parquet.ByteArray, newColumn(at, stringPointer)
		case sf.Type == reflect.TypeFor[*int64]():
			want, c = parquet.Int64, newColumn(at, int64Pointer)
		case sf.Type == reflect.TypeFor[int64]():
			want, c = parquet.Int64, newColumn(at, parquet.Value.Int64)
		case sf.Type == reflect.TypeFor[time.Time]():
			// Every timestamp column of these tables is
			// TIMESTAMP(MILLIS, UTC) over INT64.
			want, c = parquet.Int64, newColumn(at, millisValue)
		case sf.Type.Kind() == reflect.Float64:
			want, c = parquet.Double, newColumn(at, parquet.Value.Double)
		default:
			return nil, fmt.Errorf("%w: column %q: field type %s cannot be read", ErrColumn, name, sf.Type)
		}
		if got := leaf.Node.Type().Kind(); got != want {
			return nil, fmt.Errorf("%w: column %q is %s, want %s", ErrColumn, name, got, want)
		}
		cols = append(cols, c)
	}
	return cols, nil
}

func newColumn[V fieldValue](at columnAt, value func(parquet.Value) V) *column[V] {
	return &column[V]{columnAt: at, value: value}
}

func stringValue(v parquet.Value) string { return string(v.ByteArray()) }

func int32Pointer(v parquet.Value) *int32 {
	x := v.Int32()
	return &x
}

func stringPointer(v parquet.Value) *string {
	x := string(v.ByteArray())
	return &x
}

func int64Pointer(v parquet.Value) *int64 {
	x := v.Int64()
	return &x
}

func millisValue(v parquet.Value) time.Time { return time.UnixMilli(v.Int64()).UTC() }

// collectFields records the fields of t (and of its embedded structs, at
// their offset within t) by the column name of their parquet tag.
func collectFields(t reflect.Type, base uintptr, out map[string]reflect.StructField) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("parquet")
		if f.Anonymous && !hasTag && f.Type.Kind() == reflect.Struct {
			collectFields(f.Type, base+f.Offset, out)
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if !hasTag || name == "" || name == "-" {
			continue
		}
		f.Offset += base
		out[name] = f
	}
}

func (c *column[V]) start(chunks []parquet.ColumnChunk) {
	// A new chunk has its own dictionary; never match a pooled object that
	// happens to sit at the old one's address.
	c.pages, c.page, c.rows, c.pos, c.dict = chunks[c.leaf].Pages(), nil, 0, 0, nil
}

func (c *column[V]) close() {
	c.release()
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
}

func (c *column[V]) release() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	c.vr = nil
}

// nextPage moves to the chunk's next page with at least one row.
func (c *column[V]) nextPage() error {
	for {
		c.release()
		p, err := c.pages.ReadPage()
		if err != nil {
			if err == io.EOF {
				return fmt.Errorf("column %q has fewer values than the row group has rows", c.name)
			}
			return fmt.Errorf("column %q: %w", c.name, err)
		}
		c.page, c.rows, c.pos = p, int(p.NumRows()), 0
		if c.rows == 0 {
			continue
		}
		c.defs = nil
		if d := p.DefinitionLevels(); c.maxDef > 0 && len(d) == c.rows && p.NumNulls() > 0 {
			c.defs = d
		}
		if d := p.Dictionary(); d != nil {
			if d != c.dict {
				c.setDictionary(d)
			}
			data := p.Data()
			c.dictPage, c.idx, c.next = true, data.Int32(), 0
			c.vr = nil
		} else {
			c.dictPage, c.idx = false, nil
			c.vr, c.vn, c.vi = p.Values(), 0, 0
			if cap(c.vals) == 0 {
				c.vals = make([]parquet.Value, 512)
			}
		}
		return nil
	}
}

// setDictionary converts a chunk's dictionary once, so that rows of its
// pages cost an index lookup.
func (c *column[V]) setDictionary(d parquet.Dictionary) {
	c.dict = d
	c.dvals = c.dvals[:0]
	for i := range d.Len() {
		c.dvals = append(c.dvals, c.value(d.Index(int32(i))))
	}
}

func (c *column[V]) fill(base unsafe.Pointer, stride uintptr, n int) error {
	for i := 0; i < n; {
		if c.page == nil || c.pos == c.rows {
			if err := c.nextPage(); err != nil {
				return err
			}
		}
		m := min(n-i, c.rows-c.pos)
		var err error
		if c.dictPage {
			err = c.fillDict(base, stride, i, m)
		} else {
			err = c.fillPlain(base, stride, i, m)
		}
		if err != nil {
			return err
		}
		i += m
		c.pos += m
	}
	return nil
}

// field returns the field of row r of the batch at base.
func (c *column[V]) field(base unsafe.Pointer, stride uintptr, r int) *V {
	return (*V)(unsafe.Add(base, uintptr(r)*stride+c.off))
}

func (c *column[V]) fillDict(base unsafe.Pointer, stride uintptr, from, m int) error {
	if c.defs == nil && c.next+m <= len(c.idx) {
		// The common case: no NULLs, so row r takes the value at next+r.
		for r, ix := range c.idx[c.next : c.next+m] {
			if uint(ix) >= uint(len(c.dvals)) {
				return fmt.Errorf("column %q: dictionary index %d out of range", c.name, ix)
			}
			*c.field(base, stride, from+r) = c.dvals[ix]
		}
		c.next += m
		return nil
	}
	for r := range m {
		p := c.field(base, stride, from+r)
		if c.defs != nil && c.defs[c.pos+r] < c.maxDef {
			var zero V
			*p = zero
			continue
		}
		if c.next >= len(c.idx) {
			return fmt.Errorf("column %q: page has fewer values than rows", c.name)
		}
		ix := int(c.idx[c.next])
		c.next++
		if uint(ix) >= uint(len(c.dvals)) {
			return fmt.Errorf("column %q: dictionary index %d out of range", c.name, ix)
		}
		*p = c.dvals[ix]
	}
	return nil
}

func (c *column[V]) fillPlain(base unsafe.Pointer, stride uintptr, from, m int) error {
	for r := range m {
		if c.vi == c.vn {
			n, err := c.vr.ReadValues(c.vals)
			if n == 0 {
				if err == nil || err == io.EOF {
					return fmt.Errorf("column %q: page has fewer values than rows", c.name)
				}
				return fmt.Errorf("column %q: %w", c.name, err)
			}
			c.vn, c.vi = n, 0
		}
		v := c.vals[c.vi]
		c.vi++
		var x V
		if !v.IsNull() {
			x = c.value(v)
		}
		*c.field(base, stride, from+r) = x
	}
	return nil
}
