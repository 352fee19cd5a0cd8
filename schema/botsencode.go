package schema

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// botsEncoder builds a bots row group column by column and writes it as a
// one-row-group Parquet file, which LocalWriter appends to the table's file
// with parquet-go's verbatim row-group copy.
//
// Why not parquet-go's GenericWriter, as for the other tables: the bots
// table has a row per capture and catalog bot (101 rows per capture with
// the embedded catalog), and parquet-go looks every string of every row up
// in its column's dictionary map and compares it against the page's
// minimum and maximum: 12 string columns x 101 rows per capture made the
// bots table 40% of an analyze run's CPU. Those rows are extremely
// repetitive (the four key columns repeat for 101 rows, bot, operator and
// category cycle through the catalog, the verdicts mostly repeat), so here
// the catalog's ids are looked up once per row group (blocks share one
// immutable BotList), and every other value is first compared with the
// column's previous value and with a small cache keyed by the string's
// address, valid within one call (the verdict vocabulary is made of
// constants, so it hits), and the map is consulted only for a value the
// cache has not seen. Statistics come from the dictionary,
// not from the rows.
//
// The file is what parquet-go writes for the same rows with the table's
// options, with two differences: one data page per column chunk (parquet-go
// cuts pages at 64 KiB; dictionary indexes of 122880 rows are at most
// 120 KiB bit-packed, and mostly a few runs), and a row group is cut short
// instead of letting a dictionary pass Options.DictionaryBytes (parquet-go
// falls back to plain pages, which its row-group copy cannot take). The
// layout is checked against parquet-go's reader in botsencode_test.go and,
// through analyze's output, by scripts/verify's DuckDB and Arrow tests.
//
// The same encoder writes site_bots, whose rows are the bots rows of a site:
// the columns but capture_id and url, with crawl and host as the key
// (layout). It always encodes every column internally and writes the ones
// of its layout.
//
// A botsEncoder is used by one goroutine.
type botsEncoder struct {
	layout  *botsLayout
	dict    [botsColumns]dictColumn // string columns; unused at bcRootAllowed
	crawlOK []byte                  // definition levels of crawl
	rootDef []byte                  // definition levels of root_allowed
	rootVal []byte                  // root_allowed values present, 0 or 1
	rows    int
	full    bool   // a dictionary passed its limit: ship before adding more
	buf     []byte // scratch for page encoding
	page    []byte
	// addBlock: the catalog ids of list's entries by row position, valid
	// for the row group (a BotList never changes, so they hold while
	// blocks bring the same list); and the block's verdict tuples' ids.
	list   *BotList
	idents []identIDs
	tuples []tupleIDs

	// add's block of one row; its list is rewritten per row, so its ids
	// are never kept.
	one        BotsBlock
	oneList    BotList
	oneVerdict [1]BotVerdict
	oneIndex   [1]int32
}

// Leaf columns of BotRow in schema order.
const (
	bcCaptureID = iota
	bcCrawl
	bcURL
	bcHost
	bcBot
	bcOperator
	bcCategory
	bcMatched
	bcRootAllowed
	bcVerdict
	bcSomesite
	bcCIC
	bcCCClass
	botsColumns
)

// dictColumn is one dictionary-encoded string column of a row group.
type dictColumn struct {
	index  map[string]int32
	values []string // dictionary, in index order; strings in arena
	bytes  int      // plain-encoded size of the dictionary
	ids    []int32  // per row (per present value for crawl)
	limit  int      // bytes past which full is set
	full   *bool    // the encoder's: some dictionary passed its limit
	// Dictionary strings are copied into arena chunks that never move
	// (the map's keys point into them) and are reused after reset: no
	// allocation per new value.
	arena [][]byte
	chunk int
	// last value and address cache, valid within one add call: the caller
	// may reuse a string's memory once Write returns.
	last   string
	lastID int32
	cache  [addrCacheSize]addrEntry
}

// addrCacheSize holds a 101-bot catalog's tokens with few collisions.
const addrCacheSize = 512

type addrEntry struct {
	p  *byte
	n  int
	id int32
}

const arenaChunk = 64 << 10

func (c *dictColumn) id(s string) int32 {
	// Empty strings skip the caches: their address says nothing, and the
	// zero last would map them to index 0.
	if len(s) > 0 && len(s) == len(c.last) && unsafe.StringData(s) == unsafe.StringData(c.last) {
		return c.lastID
	}
	p := unsafe.StringData(s)
	h := uintptr(unsafe.Pointer(p))
	e := &c.cache[(h>>3^h>>12^uintptr(len(s)))%addrCacheSize]
	if len(s) > 0 && e.p == p && e.n == len(s) {
		c.last, c.lastID = s, e.id
		return e.id
	}
	id, ok := c.index[s]
	if !ok {
		if c.index == nil {
			c.index = make(map[string]int32)
		}
		v := c.keep(s)
		id = int32(len(c.values))
		c.values = append(c.values, v)
		c.index[v] = id
		c.bytes += 4 + len(s)
		if c.bytes >= c.limit {
			*c.full = true
		}
	}
	if len(s) > 0 {
		*e = addrEntry{p: p, n: len(s), id: id}
		c.last, c.lastID = s, id
	}
	return id
}

// keep copies s into the arena.
func (c *dictColumn) keep(s string) string {
	if len(s) == 0 {
		return ""
	}
	for {
		if c.chunk == len(c.arena) {
			c.arena = append(c.arena, make([]byte, 0, max(arenaChunk, len(s))))
		}
		a := c.arena[c.chunk]
		if cap(a)-len(a) >= len(s) {
			c.arena[c.chunk] = append(a, s...)
			return unsafe.String(&c.arena[c.chunk][len(a)], len(s))
		}
		c.chunk++
	}
}

func (c *dictColumn) forget() {
	c.last, c.lastID = "", 0
	clear(c.cache[:])
}

func (c *dictColumn) reset() {
	clear(c.index)
	c.values = c.values[:0]
	c.ids = c.ids[:0]
	c.bytes = 0
	for i := range c.arena[:min(c.chunk+1, len(c.arena))] {
		c.arena[i] = c.arena[i][:0]
	}
	c.chunk = 0
	c.forget()
}

// add appends rows and reports how many it took: it stops after the row
// that took a dictionary to its limit, so that the caller ships the row
// group.
func (e *botsEncoder) add(rows []BotRow) int {
	defer e.forget()
	// Each row is a block of one row: addBlock is the one place where
	// columns are encoded.
	b := &e.one
	b.Bots, b.Verdicts, b.Index = &e.oneList, e.oneVerdict[:], e.oneIndex[:]
	for i := range rows {
		if e.full {
			return i
		}
		r := &rows[i]
		b.Key = r.Key
		e.oneList.idents = append(e.oneList.idents[:0], r.Ident())
		e.oneVerdict[0] = r.Verdicts()
		e.addBlock(b, 0, 1)
	}
	return len(rows)
}

// addSites is add for site_bots rows.
func (e *botsEncoder) addSites(rows []SiteBotRow) int {
	defer e.forget()
	b := &e.one
	b.Bots, b.Verdicts, b.Index = &e.oneList, e.oneVerdict[:], e.oneIndex[:]
	for i := range rows {
		if e.full {
			return i
		}
		r := &rows[i]
		b.Key = Key{Crawl: r.Crawl, Host: r.Host}
		e.oneList.idents = append(e.oneList.idents[:0], BotIdent{Bot: r.Bot, Operator: r.Operator, Category: r.Category})
		e.oneVerdict[0] = BotVerdict{Matched: r.Matched, RootAllowed: r.RootAllowed, Verdict: r.Verdict,
			Somesite: r.Somesite, CIC: r.CIC, CCClass: r.CCClass}
		e.addBlock(b, 0, 1)
	}
	return len(rows)
}

// newBotsEncoder returns an encoder of layout l whose row groups end once
// a dictionary reaches dictBytes (Options.DictionaryBytes).
func newBotsEncoder(l *botsLayout, dictBytes int64) *botsEncoder {
	e := &botsEncoder{layout: l}
	for i := range e.dict {
		e.dict[i].limit = int(min(dictBytes, 1<<40))
		e.dict[i].full = &e.full
	}
	return e
}

// forget empties the caches that hold or are keyed by the caller's
// strings: once a Write returns, its caller may reuse the memory behind
// them, and a string at the same address could then hold other bytes.
func (e *botsEncoder) forget() {
	for i := range e.dict {
		e.dict[i].forget()
	}
	e.one.Key, e.oneVerdict = Key{}, [1]BotVerdict{}
	e.oneList.idents = e.oneList.idents[:0]
}

// addBlock appends rows from to to of b. It takes the rows whole, even
// after one of them took a dictionary past its limit: the caller ships the
// row group after the block. The caller calls forget before its Write
// returns.
//
// Every column's dictionary gets its values in the order of the rows, so a
// block encodes exactly as its rows do one by one (which is how add takes
// rows).
func (e *botsEncoder) addBlock(b *BotsBlock, from, to int) {
	if from >= to {
		return
	}
	n := to - from
	d := &e.dict
	// the key: one value per column for the whole block
	appendRun := func(c int, s string) {
		id := d[c].id(s)
		for range n {
			d[c].ids = append(d[c].ids, id)
		}
	}
	appendRun(bcCaptureID, b.Key.CaptureID)
	ok := byte(0)
	if b.Key.Crawl != "" {
		ok = 1
		appendRun(bcCrawl, b.Key.Crawl)
	}
	for range n {
		e.crawlOK = append(e.crawlOK, ok)
	}
	appendRun(bcURL, b.Key.URL)
	appendRun(bcHost, b.Key.Host)
	// the catalog: ids looked up once per row group and position while
	// blocks bring the same list (add's one-row list changes every row)
	if b.Bots != e.list || b.Bots == &e.oneList {
		e.list = b.Bots
		clear(e.idents)
	}
	if len(e.idents) < to {
		e.idents = append(e.idents, make([]identIDs, to-len(e.idents))...)
	}
	for i := from; i < to; i++ {
		if c := &e.idents[i]; !c.ok {
			bi := &b.Bots.idents[i]
			*c = identIDs{ok: true,
				ids: [3]int32{d[bcBot].id(bi.Bot), d[bcOperator].id(bi.Operator), d[bcCategory].id(bi.Category)}}
		}
	}
	for k, col := range [3]int{bcBot, bcOperator, bcCategory} {
		for i := from; i < to; i++ {
			d[col].ids = append(d[col].ids, e.idents[i].ids[k])
		}
	}
	// the verdicts: each tuple's ids once, in the order the rows reach it
	e.tuples = e.tuples[:0]
	for range b.Verdicts {
		e.tuples = append(e.tuples, tupleIDs{})
	}
	for _, k := range b.Index[from:to] {
		t := &e.tuples[k]
		if t.ok {
			continue
		}
		v := &b.Verdicts[k]
		t.ok = true
		t.ids = [5]int32{d[bcMatched].id(v.Matched), d[bcVerdict].id(v.Verdict),
			d[bcSomesite].id(v.Somesite), d[bcCIC].id(v.CIC), d[bcCCClass].id(v.CCClass)}
	}
	for k, col := range [5]int{bcMatched, bcVerdict, bcSomesite, bcCIC, bcCCClass} {
		for _, t := range b.Index[from:to] {
			d[col].ids = append(d[col].ids, e.tuples[t].ids[k])
		}
	}
	for _, t := range b.Index[from:to] {
		if r := b.Verdicts[t].RootAllowed; r == nil {
			e.rootDef = append(e.rootDef, 0)
		} else {
			e.rootDef = append(e.rootDef, 1)
			v := byte(0)
			if *r {
				v = 1
			}
			e.rootVal = append(e.rootVal, v)
		}
	}
	e.rows += n
}

// identIDs caches the dictionary ids of a catalog entry at one row
// position of a BotList, valid within one row group.
type identIDs struct {
	ids [3]int32 // bot, operator, category
	ok  bool
}

// tupleIDs holds a verdict tuple's dictionary ids within one block.
type tupleIDs struct {
	ids [5]int32 // matched, verdict, somesite, cic, cc_class
	ok  bool
}

func (e *botsEncoder) reset() {
	for i := range e.dict {
		e.dict[i].reset()
	}
	clear(e.idents)
	e.crawlOK, e.rootDef, e.rootVal = e.crawlOK[:0], e.rootDef[:0], e.rootVal[:0]
	e.rows = 0
	e.full = false
}

// botsLayout is a table the bots encoder writes: its encoder columns, in
// the table's schema order, and what parquet-go writes for its row type (the
// schema elements and column orders of the footer, taken from a file it
// wrote, so that the files compare equal in WriteRowGroup).
type botsLayout struct {
	cols   []int
	schema func() (*format.FileMetaData, error)
}

// The layouts of the bots and site_bots tables.
var (
	botsLayoutBots = &botsLayout{
		cols:   []int{bcCaptureID, bcCrawl, bcURL, bcHost, bcBot, bcOperator, bcCategory, bcMatched, bcRootAllowed, bcVerdict, bcSomesite, bcCIC, bcCCClass},
		schema: sync.OnceValues(func() (*format.FileMetaData, error) { return rowSchema[BotRow](13) }),
	}
	botsLayoutSites = &botsLayout{
		cols:   []int{bcCrawl, bcHost, bcBot, bcOperator, bcCategory, bcMatched, bcRootAllowed, bcVerdict, bcSomesite, bcCIC, bcCCClass},
		schema: sync.OnceValues(func() (*format.FileMetaData, error) { return rowSchema[SiteBotRow](11) }),
	}
)

// layoutOf returns the layout of row type T, nil for a type the bots
// encoder does not write.
func layoutOf[T Row]() *botsLayout {
	var zero T
	switch any(zero).(type) {
	case BotRow:
		return botsLayoutBots
	case SiteBotRow:
		return botsLayoutSites
	}
	return nil
}

// rowSchema returns parquet-go's footer schema of T, checking that T has
// the leaves columns its layout lists.
func rowSchema[T Row](leaves int) (*format.FileMetaData, error) {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b)
	if err := w.Close(); err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		return nil, err
	}
	md := f.Metadata()
	if len(md.Schema) != leaves+1 {
		return nil, fmt.Errorf("schema: %T has %d leaf columns, the bots encoder knows %d", *new(T), len(md.Schema)-1, leaves)
	}
	return md, nil
}

// writeFile writes the row group as a Parquet file to out. codec
// compresses the pages (the table's codec).
func (e *botsEncoder) writeFile(out *bytes.Buffer, codec compress.Codec, createdBy string) error {
	meta, err := e.layout.schema()
	if err != nil {
		return err
	}
	base := out.Len()
	out.WriteString("PAR1")
	n := len(e.layout.cols)
	cols := make([]format.ColumnChunk, n)
	cidx := make([]format.ColumnIndex, n)
	oidx := make([]format.OffsetIndex, n)
	var total, compressed int64
	for leaf, c := range e.layout.cols {
		el := &meta.Schema[leaf+1]
		cc := &cols[leaf]
		md := &cc.MetaData
		md.Type = el.Type.V
		md.PathInSchema = []string{el.Name}
		md.Codec = codec.CompressionCodec()
		md.NumValues = int64(e.rows)
		var defs []byte
		optional := el.RepetitionType.V == format.Optional
		if c == bcRootAllowed {
			defs = e.rootDef
		} else if optional {
			defs = e.crawlOK
		}
		nulls := int64(0)
		for _, d := range defs {
			if d == 0 {
				nulls++
			}
		}
		md.Statistics.NullCount = nulls
		start := int64(out.Len() - base)
		cc.FileOffset = start
		var saved int64 // by compressing the column's pages, for total_uncompressed_size
		var minV, maxV []byte
		var encoding format.Encoding
		if c == bcRootAllowed {
			md.Encoding = []format.Encoding{format.Plain, format.RLE}
			encoding = format.Plain
			e.buf = e.buf[:0]
			lo, hi := byte(1), byte(0)
			for i, v := range e.rootVal {
				if i%8 == 0 {
					e.buf = append(e.buf, 0)
				}
				e.buf[len(e.buf)-1] |= v << (i % 8)
				lo, hi = min(lo, v), max(hi, v)
			}
			if len(e.rootVal) > 0 {
				minV, maxV = []byte{lo}, []byte{hi}
			}
			md.DataPageOffset = start
		} else {
			d := &e.dict[c]
			if optional {
				md.Encoding = []format.Encoding{format.Plain, format.RLE, format.RLEDictionary}
			} else {
				md.Encoding = []format.Encoding{format.Plain, format.RLEDictionary}
			}
			encoding = format.RLEDictionary
			// dictionary page: PLAIN byte arrays
			e.buf = e.buf[:0]
			for _, v := range d.values {
				e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(len(v)))
				e.buf = append(e.buf, v...)
			}
			if len(d.values) > 0 {
				lo, hi := d.values[0], d.values[0]
				for _, v := range d.values[1:] {
					lo, hi = min(lo, v), max(hi, v)
				}
				minV, maxV = []byte(lo), []byte(hi)
			}
			md.DictionaryPageOffset = start
			n, err := e.writePage(out, codec, format.PageHeader{
				Type:                 format.DictionaryPage,
				DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(len(d.values)), Encoding: format.Plain}),
			}, nil, e.buf)
			if err != nil {
				return err
			}
			saved += n
			md.DataPageOffset = int64(out.Len() - base)
			if e.buf, err = (&rle.DictionaryEncoding{}).EncodeInt32(e.buf[:0], d.ids); err != nil {
				return fmt.Errorf("schema: encoding bots column %s: %w", el.Name, err)
			}
		}
		var levels []byte
		if defs != nil {
			var err error
			if levels, err = (&rle.Encoding{BitWidth: 1}).EncodeLevels(nil, defs); err != nil {
				return fmt.Errorf("schema: encoding bots column %s: %w", el.Name, err)
			}
		}
		dataStart := int64(out.Len() - base)
		n, err := e.writePage(out, codec, format.PageHeader{
			Type: format.DataPageV2,
			DataPageHeaderV2: thrift.New(format.DataPageHeaderV2{
				NumValues: int32(e.rows), NumNulls: int32(nulls), NumRows: int32(e.rows),
				Encoding: encoding, DefinitionLevelsByteLength: int32(len(levels)),
				IsCompressed: thrift.New(true),
			}),
		}, levels, e.buf)
		if err != nil {
			return err
		}
		saved += n
		end := int64(out.Len() - base)
		md.TotalCompressedSize = end - start
		md.TotalUncompressedSize = md.TotalCompressedSize + saved
		md.Statistics.MinValue, md.Statistics.MaxValue = minV, maxV
		if c == bcRootAllowed {
			md.EncodingStats = []format.PageEncodingStats{{PageType: format.DataPageV2, Encoding: format.Plain, Count: 1}}
		} else {
			md.EncodingStats = []format.PageEncodingStats{
				{PageType: format.DictionaryPage, Encoding: format.Plain, Count: 1},
				{PageType: format.DataPageV2, Encoding: format.RLEDictionary, Count: 1}}
		}
		allNull := nulls == int64(e.rows)
		cidx[leaf] = format.ColumnIndex{
			NullPages:  []bool{allNull},
			MinValues:  [][]byte{nonNil(minV)},
			MaxValues:  [][]byte{nonNil(maxV)},
			NullCounts: []int64{nulls},
		}
		oidx[leaf] = format.OffsetIndex{PageLocations: []format.PageLocation{{Offset: dataStart, CompressedPageSize: int32(end - dataStart)}}}
		total += md.TotalUncompressedSize
		compressed += md.TotalCompressedSize
	}
	// page index: column indexes, then offset indexes
	for c := range cols {
		if cols[c].ColumnIndexOffset, cols[c].ColumnIndexLength, err = writeThrift(out, base, &cidx[c]); err != nil {
			return err
		}
	}
	for c := range cols {
		if cols[c].OffsetIndexOffset, cols[c].OffsetIndexLength, err = writeThrift(out, base, &oidx[c]); err != nil {
			return err
		}
	}
	fm := format.FileMetaData{
		Version:   meta.Version,
		Schema:    meta.Schema,
		NumRows:   int64(e.rows),
		CreatedBy: createdBy,
		RowGroups: []format.RowGroup{{
			Columns: cols, TotalByteSize: total, NumRows: int64(e.rows),
			FileOffset: 4, TotalCompressedSize: compressed,
		}},
		ColumnOrders: meta.ColumnOrders,
	}
	_, size, err := writeThrift(out, base, &fm)
	if err != nil {
		return err
	}
	out.Write(binary.LittleEndian.AppendUint32(nil, uint32(size)))
	out.WriteString("PAR1")
	return nil
}

// writeThrift appends v to out in thrift's compact encoding and returns
// where it starts, counted from base, and its length.
func writeThrift(out *bytes.Buffer, base int, v any) (offset int64, length int32, err error) {
	b, err := thrift.Marshal(new(thrift.CompactProtocol), v)
	if err != nil {
		return 0, 0, err
	}
	offset = int64(out.Len() - base)
	out.Write(b)
	return offset, int32(len(b)), nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// writePage writes a page header and body: levels (uncompressed, data page
// v2) followed by values compressed with codec. It returns how many bytes
// compression saved.
func (e *botsEncoder) writePage(out *bytes.Buffer, codec compress.Codec, h format.PageHeader, levels, values []byte) (int64, error) {
	var err error
	e.page, err = codec.Encode(e.page[:0], values)
	if err != nil {
		return 0, err
	}
	h.UncompressedPageSize = int32(len(levels) + len(values))
	h.CompressedPageSize = int32(len(levels) + len(e.page))
	if _, _, err := writeThrift(out, 0, &h); err != nil {
		return 0, err
	}
	out.Write(levels)
	out.Write(e.page)
	return int64(len(values) - len(e.page)), nil
}
