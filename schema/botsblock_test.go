package schema_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// TestWriteBots writes the same captures' bots rows twice, as rows through
// LocalWriter.Write and as blocks through WriteBots, and requires the same
// files byte for byte: same row groups, same dictionaries in the same
// order, same pages. The catalog changes between blocks (another slice,
// copied strings, another length), verdict tuples are listed in any order
// and some are not used, and the caller overwrites its key and catalog
// strings after each call. Where a dictionary limit cuts row groups, WriteBots cuts them
// after the block rather than after the row, so there the rows read back
// are compared instead.
func TestWriteBots(t *testing.T) {
	t.Parallel()
	truth, lie := true, false
	random := func(n int, seed uint64) []schema.BotsBlock {
		r := rand.New(rand.NewPCG(seed, seed))
		var catalog []schema.BotIdent
		for i := range 40 {
			catalog = append(catalog, schema.BotIdent{Bot: fmt.Sprintf("bot%d", i), Operator: fmt.Sprintf("op%d", i%7),
				Category: []string{"ai-training", "search", ""}[i%3]})
		}
		vocab := []string{"", "named", "star", "none", "full", "partial", "ünïcödé", strings.Repeat("x", 300)}
		pick := func() string { return vocab[r.IntN(len(vocab))] }
		renamed := slices.Clone(catalog)
		renamed[r.IntN(len(renamed))].Bot = "renamed"
		full, short, other := schema.NewBotList(catalog), schema.NewBotList(catalog[:1+r.IntN(len(catalog)-1)]), schema.NewBotList(renamed)
		blocks := make([]schema.BotsBlock, n)
		for i := range blocks {
			bots := full
			switch r.IntN(10) {
			case 0: // a shorter catalog
				bots = short
			case 1: // the same length, one token renamed
				bots = other
			case 2: // a list of its own, equal to the full one
				bots = schema.NewBotList(catalog)
			}
			verdicts := make([]schema.BotVerdict, 1+r.IntN(5))
			for k := range verdicts {
				verdicts[k] = schema.BotVerdict{Matched: pick(), Verdict: pick(), Somesite: pick(), CIC: pick(), CCClass: pick()}
				switch r.IntN(3) {
				case 0:
					verdicts[k].RootAllowed = &truth
				case 1:
					verdicts[k].RootAllowed = &lie
				}
			}
			index := make([]int32, bots.Len())
			for j := range index {
				index[j] = int32(r.IntN(len(verdicts)))
			}
			host := fmt.Sprintf("www.site%d.example", r.IntN(n))
			blocks[i] = schema.BotsBlock{
				Key: schema.Key{CaptureID: fmt.Sprintf("%032x", i), Crawl: []string{"", "CC-MAIN-2024-33", "CC-MAIN-2024-38"}[r.IntN(3)],
					URL: "https://" + host + "/robots.txt", Host: host},
				Bots: bots, Verdicts: verdicts, Index: index,
			}
		}
		return blocks
	}
	tests := []struct {
		name      string
		blocks    []schema.BotsBlock
		opts      schema.Options
		batch     int  // blocks per call
		identical bool // byte-identical files, else equal rows
	}{
		{name: "default_row_groups", blocks: random(4000, 1), batch: 80, identical: true},
		{name: "blocks_split_across_row_groups", blocks: random(500, 2), batch: 7, opts: schema.Options{RowGroupRows: 333}, identical: true},
		{name: "one_block_per_call", blocks: random(200, 3), batch: 1, identical: true},
		{name: "empty_block", blocks: []schema.BotsBlock{{Key: schema.Key{CaptureID: "c"}}}, batch: 1, identical: true},
		{name: "dictionary_limit_cuts_row_groups", blocks: random(600, 4), batch: 20, opts: schema.Options{DictionaryBytes: 2000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.opts
			o.Tables = []schema.TableName{schema.Bots}
			o.Dir = filepath.Join(t.TempDir(), "rows")
			asRows := create(t, o)
			o.Dir = filepath.Join(t.TempDir(), "blocks")
			asBlocks := create(t, o)
			lr, lb := schema.WriterOf[schema.BotRow](asRows).Local(), schema.WriterOf[schema.BotRow](asBlocks).Local()
			var want []schema.BotRow
			buf := make([]byte, 0, 1<<22)
			for blocks := tt.blocks; len(blocks) > 0; {
				n := min(tt.batch, len(blocks))
				var rows []schema.BotRow
				batch := make([]schema.BotsBlock, n)
				buf = buf[:0]
				for i, b := range blocks[:n] {
					rows = b.AppendRows(rows)
					want = b.AppendRows(want)
					b.Key.CaptureID = alias(&buf, b.Key.CaptureID)
					b.Key.URL = alias(&buf, b.Key.URL)
					b.Key.Host = alias(&buf, b.Key.Host)
					batch[i] = b
				}
				if err := lr.Write(rows); err != nil {
					t.Fatal(err)
				}
				if err := schema.WriteBots(lb, batch); err != nil {
					t.Fatal(err)
				}
				for i := range buf {
					buf[i] = '!' // the caller reuses its memory
				}
				blocks = blocks[n:]
			}
			for _, ds := range []*schema.Dataset{asRows, asBlocks} {
				if err := ds.Commit(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			got := sortRows(readTable[schema.BotRow](t, asBlocks))
			want = sortRows(want)
			if len(got) != len(want) {
				t.Fatalf("%d rows back, wrote %d", len(got), len(want))
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
				}
			}
			files := asBlocks.Files()
			if !reflect.DeepEqual(plainAll(files), plainAll(asRows.Files())) {
				t.Fatalf("files %v, as rows %v", files, asRows.Files())
			}
			rowFiles := asRows.Files()
			for i, f := range files {
				checkDictionaryEncoded(t, filepath.Join(asBlocks.Root(), f))
				if !tt.identical {
					continue
				}
				a, err := os.ReadFile(filepath.Join(asRows.Root(), rowFiles[i]))
				if err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(filepath.Join(asBlocks.Root(), f))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a, b) {
					t.Errorf("%s: %d bytes from blocks, %d from rows, not the same", f, len(b), len(a))
				}
			}
		})
	}
}

// TestWriteBotsBadBlock: a block whose Index does not fit fails the
// dataset with an error that names the capture.
func TestWriteBotsBadBlock(t *testing.T) {
	t.Parallel()
	for _, b := range []schema.BotsBlock{
		{Key: schema.Key{CaptureID: "short"}, Bots: schema.NewBotList(make([]schema.BotIdent, 2)), Verdicts: make([]schema.BotVerdict, 1), Index: []int32{0}},
		{Key: schema.Key{CaptureID: "outside"}, Bots: schema.NewBotList(make([]schema.BotIdent, 1)), Verdicts: make([]schema.BotVerdict, 1), Index: []int32{1}},
	} {
		ds := create(t, schema.Options{Tables: []schema.TableName{schema.Bots}})
		err := schema.WriteBots(schema.WriterOf[schema.BotRow](ds).Local(), []schema.BotsBlock{b})
		if err == nil || !strings.Contains(err.Error(), b.Key.CaptureID) {
			t.Errorf("block %s: error %v", b.Key.CaptureID, err)
		}
		if err := ds.Commit(context.Background()); err == nil {
			t.Errorf("block %s: Commit after the error succeeded", b.Key.CaptureID)
		}
		ds.Abort()
	}
}

// TestWriteBotsReusedCatalogMemory: the caller may overwrite the catalog's
// strings once WriteBots returns; a later call whose catalog string has the
// same address and length but other bytes must not reuse the ids found for
// the old bytes.
func TestWriteBotsReusedCatalogMemory(t *testing.T) {
	t.Parallel()
	ds := create(t, schema.Options{Tables: []schema.TableName{schema.Bots}})
	l := schema.WriterOf[schema.BotRow](ds).Local()
	buf := make([]byte, 0, 16)
	ops := []string{"aaa", "bbb", "ccc"}
	for i, op := range ops {
		buf = buf[:0]
		b := schema.BotsBlock{
			Key:      schema.Key{CaptureID: fmt.Sprint(i)},
			Bots:     schema.NewBotList([]schema.BotIdent{{Bot: "bot", Operator: alias(&buf, op)}}),
			Verdicts: []schema.BotVerdict{{Verdict: schema.VerdictNone}}, Index: []int32{0},
		}
		if err := schema.WriteBots(l, []schema.BotsBlock{b}); err != nil {
			t.Fatal(err)
		}
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := readTable[schema.BotRow](t, ds)
	if len(got) != len(ops) {
		t.Fatalf("%d rows back, wrote %d", len(got), len(ops))
	}
	for i, op := range ops {
		if got[i].Operator != op {
			t.Errorf("row %d: operator %q, want %q", i, got[i].Operator, op)
		}
	}
}
