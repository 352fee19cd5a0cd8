package schema_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// fuzzBytes hands out the fuzzer's bytes as small decisions; past the end
// every decision is 0.
type fuzzBytes []byte

func (b *fuzzBytes) next() byte {
	if len(*b) == 0 {
		return 0
	}
	c := (*b)[0]
	*b = (*b)[1:]
	return c
}

// str returns a string of up to 31 bytes taken from the input, so the
// fuzzer can reach invalid UTF-8, empty strings, long runs and repeats.
func (b *fuzzBytes) str() string {
	n := int(b.next() & 31)
	n = min(n, len(*b))
	s := string((*b)[:n])
	*b = (*b)[n:]
	return s
}

// FuzzBotsEncoder is the differential test of the bots table's own encoder
// (botsencode.go) against parquet-go's writer, as klauspost/compress fuzzes
// its encoders against the standard library: the same blocks are written
// by WriteBots and, as rows, by parquet-go's GenericWriter (TableWriter),
// and both files must read back, with parquet-go's reader, as exactly the
// rows the blocks stand for. Catalogs (shared lists and lists of their own),
// verdict tuples, NULLs, unknown crawls, row-group and dictionary limits
// small enough to cut inside a block all come from the input.
func FuzzBotsEncoder(f *testing.F) {
	f.Add([]byte("\x03\x02\x05GPTBot\x06OpenAI\x0bai-training\x01\x04full\x02"))
	f.Add([]byte("\x40\x10\x7f\x00\x00\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\xff\xfe\xfd\xfc"))
	f.Add([]byte("\x08\x03\x01a\x01b\x01c\x02\x01x\x01y\x01z\x02\x01\x00\x02\x03\x04\x05\x06\x07\x08"))
	// and a few kilobytes of noise, which reach every column with values
	// that differ from each other's
	for seed := range uint64(3) {
		r := rand.New(rand.NewPCG(seed, 0x5eed))
		noise := make([]byte, 4096)
		for i := range noise {
			noise[i] = byte(r.Uint32())
		}
		f.Add(noise)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := fuzzBytes(data)
		opts := schema.Options{Tables: []schema.TableName{schema.Bots}}
		if c := in.next(); c&1 != 0 {
			opts.RowGroupRows = int64(c>>1) + 1 // cuts inside blocks
		}
		if c := in.next(); c&1 != 0 {
			opts.DictionaryBytes = int64(c) * 8 // fallback to plain pages / early ship
		}
		// up to 4 catalogs of up to 15 bots
		var lists []*schema.BotList
		for range int(in.next()&3) + 1 {
			var ids []schema.BotIdent
			for range int(in.next() & 15) {
				ids = append(ids, schema.BotIdent{Bot: in.str(), Operator: in.str(), Category: in.str()})
			}
			lists = append(lists, schema.NewBotList(ids))
		}
		truth, lie := true, false
		crawls := []string{"", "CC-MAIN-2024-33", "CC-MAIN-2024-38"}
		var blocks []schema.BotsBlock
		for i := range int(in.next()&63) + 1 {
			b := schema.BotsBlock{
				Key:  schema.Key{CaptureID: in.str(), Crawl: crawls[int(in.next())%len(crawls)], URL: in.str(), Host: in.str()},
				Bots: lists[int(in.next())%len(lists)],
			}
			if i%7 == 6 { // a list of its own, equal to another
				b.Bots = schema.NewBotList(blockIdents(b.Bots))
			}
			for range int(in.next()&3) + 1 {
				v := schema.BotVerdict{Matched: in.str(), Verdict: in.str(), Somesite: in.str(), CIC: in.str(), CCClass: in.str()}
				switch in.next() % 3 {
				case 1:
					v.RootAllowed = &truth
				case 2:
					v.RootAllowed = &lie
				}
				b.Verdicts = append(b.Verdicts, v)
			}
			for range b.Bots.Len() {
				b.Index = append(b.Index, int32(int(in.next())%len(b.Verdicts)))
			}
			blocks = append(blocks, b)
		}
		var want []schema.BotRow
		for i := range blocks {
			want = blocks[i].AppendRows(want)
		}

		opts.Dir = t.TempDir()
		ours := create(t, opts)
		if err := schema.WriteBots(schema.WriterOf[schema.BotRow](ours).Local(), blocks); err != nil {
			t.Fatal(err)
		}
		opts.Dir = t.TempDir()
		theirs := create(t, opts)
		if err := schema.WriterOf[schema.BotRow](theirs).Write(want); err != nil {
			t.Fatal(err)
		}
		for _, ds := range []*schema.Dataset{ours, theirs} {
			if err := ds.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		// Files hold their crawl's rows in order; compare per crawl.
		got, ref := byCrawl(readTable[schema.BotRow](t, ours)), byCrawl(readTable[schema.BotRow](t, theirs))
		exp := byCrawl(want)
		for _, c := range crawls {
			if !equalRows(got[c], exp[c]) {
				t.Fatalf("crawl %q: the bots encoder's file reads back %d rows unlike the %d written", c, len(got[c]), len(exp[c]))
			}
			if !equalRows(ref[c], exp[c]) {
				t.Fatalf("crawl %q: parquet-go's file reads back %d rows unlike the %d written", c, len(ref[c]), len(exp[c]))
			}
		}
	})
}

func blockIdents(l *schema.BotList) []schema.BotIdent {
	out := make([]schema.BotIdent, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

func byCrawl(rows []schema.BotRow) map[string][]schema.BotRow {
	m := map[string][]schema.BotRow{}
	for _, r := range rows {
		m[r.Crawl] = append(m[r.Crawl], r)
	}
	return m
}

// equalRows compares rows by value, RootAllowed by what it points at.
func equalRows(a, b []schema.BotRow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if (x.RootAllowed == nil) != (y.RootAllowed == nil) || x.RootAllowed != nil && *x.RootAllowed != *y.RootAllowed {
			return false
		}
		x.RootAllowed, y.RootAllowed = nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}
