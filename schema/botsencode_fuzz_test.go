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
		var opts schema.Options // Tables: checkEncoder
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

		checkEncoder(t, opts, schema.Bots, blocks, want)
		// site_bots: the same blocks as the rows of sites (crawl and host
		// of the block's key, no capture_id or url).
		sites := make([]schema.SiteBotRow, len(want))
		for i, r := range want {
			sites[i] = schema.SiteBotRow{Crawl: r.Crawl, Host: r.Host, Bot: r.Bot, Operator: r.Operator, Category: r.Category,
				Matched: r.Matched, RootAllowed: r.RootAllowed, Verdict: r.Verdict, Somesite: r.Somesite, CIC: r.CIC, CCClass: r.CCClass}
		}
		checkEncoder(t, opts, schema.SiteBots, blocks, sites)
	})
}

// checkEncoder writes blocks to table with WriteBots and their rows, want,
// with parquet-go's writer, and checks that both files read back, crawl by
// crawl, as want.
func checkEncoder[T interface {
	schema.BotRow | schema.SiteBotRow
	schema.Row
}](t *testing.T, opts schema.Options, table schema.TableName, blocks []schema.BotsBlock, want []T) {
	t.Helper()
	opts.Tables = []schema.TableName{table}
	opts.Dir = t.TempDir()
	ours := create(t, opts)
	if err := schema.WriteBots(schema.WriterOf[T](ours).Local(), blocks); err != nil {
		t.Fatal(err)
	}
	opts.Dir = t.TempDir()
	theirs := create(t, opts)
	if err := schema.WriterOf[T](theirs).Write(want); err != nil {
		t.Fatal(err)
	}
	for _, ds := range []*schema.Dataset{ours, theirs} {
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	// Files hold their crawl's rows in order; compare per crawl.
	got, ref, exp := byCrawl(readTable[T](t, ours)), byCrawl(readTable[T](t, theirs)), byCrawl(want)
	for _, c := range []string{"", "CC-MAIN-2024-33", "CC-MAIN-2024-38"} {
		if !equalRows(got[c], exp[c]) {
			t.Fatalf("%s, crawl %q: the bots encoder's file reads back %d rows unlike the %d written", table, c, len(got[c]), len(exp[c]))
		}
		if !equalRows(ref[c], exp[c]) {
			t.Fatalf("%s, crawl %q: parquet-go's file reads back %d rows unlike the %d written", table, c, len(ref[c]), len(exp[c]))
		}
	}
}

func blockIdents(l *schema.BotList) []schema.BotIdent {
	out := make([]schema.BotIdent, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

func byCrawl[T any](rows []T) map[string][]T {
	m := map[string][]T{}
	for _, r := range rows {
		c := reflect.ValueOf(r).FieldByName("Crawl").String()
		m[c] = append(m[c], r)
	}
	return m
}

// equalRows compares rows by value, RootAllowed by what it points at.
func equalRows[T any](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := reflect.ValueOf(&a[i]).Elem(), reflect.ValueOf(&b[i]).Elem()
		xr, yr := x.FieldByName("RootAllowed").Interface().(*bool), y.FieldByName("RootAllowed").Interface().(*bool)
		if (xr == nil) != (yr == nil) || xr != nil && *xr != *yr {
			return false
		}
		xc, yc := reflect.New(x.Type()).Elem(), reflect.New(y.Type()).Elem()
		xc.Set(x)
		yc.Set(y)
		xc.FieldByName("RootAllowed").SetZero()
		yc.FieldByName("RootAllowed").SetZero()
		if !reflect.DeepEqual(xc.Interface(), yc.Interface()) {
			return false
		}
	}
	return true
}
