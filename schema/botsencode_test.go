package schema_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/parquet-go/parquet-go/format"
	"github.com/robotstat/robotstat/schema"
)

// TestBotsEncoder writes bots rows through a LocalWriter (the bots table's
// own encoder) and reads them back with parquet-go's reader: every row
// must come back as written, whatever the strings' addresses, emptiness or
// reuse, and every column chunk must be dictionary-encoded as parquet-go
// would write it. The DuckDB and Arrow readers of scripts/verify read the
// same encoder's output through analyze's sample.
func TestBotsEncoder(t *testing.T) {
	t.Parallel()
	truth, lie := true, false
	vocab := []string{"", "a", "GPTBot", "OpenAI", "ai-training", "named", "star", "none", "full", "partial", "ünïcödé", strings.Repeat("x", 300)}
	random := func(n int, seed uint64) []schema.BotRow {
		r := rand.New(rand.NewPCG(seed, seed))
		pick := func() string {
			s := vocab[r.IntN(len(vocab))]
			if r.IntN(2) == 0 {
				s = strings.Clone(s) // same content, another address
			}
			return s
		}
		rows := make([]schema.BotRow, n)
		for i := range rows {
			rows[i] = schema.BotRow{
				Key: schema.Key{CaptureID: fmt.Sprintf("%032x", i/7), Crawl: []string{"", "CC-MAIN-2024-33"}[r.IntN(2)], URL: pick(), Host: pick()},
				Bot: pick(), Operator: pick(), Category: pick(), Matched: pick(),
				Verdict: pick(), Somesite: pick(), CIC: pick(), CCClass: pick(),
			}
			switch r.IntN(3) {
			case 0:
				rows[i].RootAllowed = &truth
			case 1:
				rows[i].RootAllowed = &lie
			}
		}
		return rows
	}
	tests := []struct {
		name      string
		rows      []schema.BotRow
		opts      schema.Options
		batch     int
		reuseKeys bool // rebuild every key string in one buffer overwritten after each Write
	}{
		// A full default row group: parquet-go would cut the bot column
		// into several 64 KiB pages, the encoder writes one, so one data
		// page per chunk shows that WriteRowGroup copied the encoder's row
		// group verbatim instead of re-encoding it.
		{name: "full_row_group_copied_verbatim", rows: random(schema.DefaultRowGroupRows+1000, 5), batch: 8192},
		{name: "empty_strings_and_nulls", rows: []schema.BotRow{{}, {}, {Key: schema.Key{Host: "h"}}, {}}, batch: 2},
		{name: "one_row", rows: []schema.BotRow{{Key: schema.Key{CaptureID: "c", Crawl: "k", URL: "u", Host: "h"}, Bot: "b", RootAllowed: &truth}}, batch: 1},
		{name: "random", rows: random(5000, 1), batch: 101},
		{name: "small_row_groups", rows: random(3000, 2), batch: 64, opts: schema.Options{RowGroupRows: 50}},
		{name: "dictionary_limit_cuts_row_groups", rows: random(4000, 3), batch: 500, opts: schema.Options{DictionaryBytes: 600}},
		{name: "caller_reuses_string_memory", rows: random(2000, 4), batch: 101, reuseKeys: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && len(tt.rows) > 10000 {
				t.Skip("large")
			}
			o := tt.opts
			o.Tables = []schema.TableName{schema.Bots}
			ds := create(t, o)
			l := schema.WriterOf[schema.BotRow](ds).Local()
			buf := make([]byte, 0, 1<<20)
			for rows := tt.rows; len(rows) > 0; {
				n := min(tt.batch, len(rows))
				batch := slices.Clone(rows[:n])
				if tt.reuseKeys {
					buf = buf[:0]
					for i := range batch {
						batch[i].CaptureID = alias(&buf, batch[i].CaptureID)
						batch[i].URL = alias(&buf, batch[i].URL)
						batch[i].Host = alias(&buf, batch[i].Host)
					}
				}
				if err := l.Write(batch); err != nil {
					t.Fatal(err)
				}
				for i := range buf {
					buf[i] = '!' // the caller reuses its memory
				}
				rows = rows[n:]
			}
			if err := ds.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			got := sortRows(readTable[schema.BotRow](t, ds))
			want := sortRows(tt.rows)
			if len(got) != len(want) {
				t.Fatalf("%d rows back, wrote %d", len(got), len(want))
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
				}
			}
			for _, f := range ds.Files() {
				checkDictionaryEncoded(t, filepath.Join(ds.Root(), f))
			}
		})
	}
}

// sortRows returns rows in an order that depends only on their values.
func sortRows(rows []schema.BotRow) []schema.BotRow {
	type keyed struct {
		k string
		r schema.BotRow
	}
	ks := make([]keyed, len(rows))
	for i, r := range rows {
		ks[i] = keyed{fmt.Sprintf("%v %v", r, r.RootAllowed != nil && *r.RootAllowed), r}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return cmp.Compare(a.k, b.k) })
	out := make([]schema.BotRow, len(rows))
	for i := range ks {
		out[i] = ks[i].r
	}
	return out
}

// alias appends s to *buf and returns a string over the appended bytes,
// as a caller building strings in a reused buffer would.
func alias(buf *[]byte, s string) string {
	if len(s) == 0 {
		return ""
	}
	if cap(*buf)-len(*buf) < len(s) {
		return s // never reallocate: earlier aliases must stay where they are
	}
	start := len(*buf)
	*buf = append(*buf, s...)
	return unsafe.String(&(*buf)[start], len(s))
}

// checkDictionaryEncoded checks that every string column chunk of a bots
// file has a dictionary page and one RLE_DICTIONARY data page, as the
// encoder writes them, and that the page index is present (what
// parquet-go's verbatim copy needs).
func checkDictionaryEncoded(t *testing.T, path string) {
	t.Helper()
	f := openFile(t, path)
	for i, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			m := c.MetaData
			if c.ColumnIndexOffset == 0 || c.OffsetIndexOffset == 0 {
				t.Errorf("%s row group %d column %v: no page index", path, i, m.PathInSchema)
			}
			if m.Type != format.ByteArray {
				continue
			}
			for _, s := range m.EncodingStats {
				if s.PageType != format.DictionaryPage && s.Encoding != format.RLEDictionary {
					t.Errorf("%s row group %d column %v: %v page in %v", path, i, m.PathInSchema, s.PageType, s.Encoding)
				}
				if s.PageType == format.DataPageV2 && s.Count != 1 {
					t.Errorf("%s row group %d column %v: %d data pages, want the encoder's one (re-encoded, not copied?)", path, i, m.PathInSchema, s.Count)
				}
			}
		}
	}
}

// BenchmarkBotsWrite writes bots rows shaped like analyze's (one row per
// capture and bot of a 101-bot catalog, the key repeated, the verdicts
// mostly the same) in batches of 80 captures, through the shared
// TableWriter (parquet-go's row writer), through a LocalWriter (the bots
// encoder) and as blocks through WriteBots (the same encoder, column-wise,
// as analyze writes them). Row groups are shipped as they fill; the commit
// is not timed.
func BenchmarkBotsWrite(b *testing.B) {
	const catalog, captures = 101, 2000
	bots := make([]schema.BotIdent, catalog)
	for i := range bots {
		bots[i] = schema.BotIdent{Bot: fmt.Sprintf("Bot%03d", i), Operator: fmt.Sprintf("Operator %d", i/2),
			Category: []string{"ai-training", "ai-search", "search", "seo", "other"}[i%5]}
	}
	truth := true
	star := schema.BotVerdict{Matched: schema.MatchedStar, RootAllowed: &truth, Verdict: schema.VerdictPartial,
		Somesite: schema.VerdictPartial, CIC: schema.CICSome, CCClass: schema.CCClassAllowPart}
	named := schema.BotVerdict{Matched: schema.MatchedNamed, RootAllowed: &truth, Verdict: schema.VerdictFull,
		Somesite: schema.VerdictFull, CIC: schema.CICAll, CCClass: schema.CCClassDisallowAll}
	list := schema.NewBotList(bots)
	blocks := make([]schema.BotsBlock, captures)
	var rows []schema.BotRow
	for c := range blocks {
		host := fmt.Sprintf("www.site%d.example", c)
		bl := schema.BotsBlock{
			Key:  schema.Key{CaptureID: fmt.Sprintf("%032x", c*7919), Crawl: "CC-MAIN-2024-33", URL: "https://" + host + "/robots.txt", Host: host},
			Bots: list, Verdicts: []schema.BotVerdict{star}, Index: make([]int32, catalog),
		}
		if c%5 == 0 {
			bl.Verdicts = append(bl.Verdicts, named)
			for i := 0; i < catalog; i += 20 {
				bl.Index[i] = 1
			}
		}
		blocks[c] = bl
		rows = bl.AppendRows(rows)
	}
	for _, writer := range []string{"shared", "local", "blocks"} {
		b.Run("writer="+writer, func(b *testing.B) {
			ds, err := schema.Create(schema.Options{Dir: b.TempDir(), RunID: "bench", Tables: []schema.TableName{schema.Bots}})
			if err != nil {
				b.Fatal(err)
			}
			defer ds.Abort()
			write := schema.WriterOf[schema.BotRow](ds).Write
			switch writer {
			case "local":
				write = schema.WriterOf[schema.BotRow](ds).Local().Write
			case "blocks":
				l := schema.WriterOf[schema.BotRow](ds).Local()
				write = func(r []schema.BotRow) error {
					i := (len(rows) - len(r)) / catalog // r is a tail of rows
					return schema.WriteBots(l, blocks[i:i+len(r)/catalog])
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				for r := rows; len(r) > 0; {
					n := min(80*catalog, len(r))
					if err := write(r[:n]); err != nil {
						b.Fatal(err)
					}
					r = r[n:]
				}
			}
			b.ReportMetric(float64(b.N)*float64(len(rows))/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/captures, "ns/capture")
		})
	}
}
