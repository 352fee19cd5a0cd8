package schema

import (
	"bytes"
	"fmt"
	"testing"
)

// TestBotsEncoderAllocs: once warmed up, the bots encoder takes a batch of
// rows, or of blocks, into a row group without allocating (dictionary strings go to
// reused arena chunks, the maps and id slices keep their memory across
// row groups); writing the row group out allocates only per column chunk
// (thrift headers, statistics), never per row.
func TestBotsEncoderAllocs(t *testing.T) {
	truth := true
	var rows []BotRow
	for c := range 80 {
		host := fmt.Sprintf("www.site%d.example", c)
		key := Key{CaptureID: fmt.Sprintf("%032x", c), Crawl: "CC-MAIN-2024-33", URL: "https://" + host + "/robots.txt", Host: host}
		for i := range 101 {
			rows = append(rows, BotRow{Key: key, Bot: fmt.Sprint("Bot", i), Operator: fmt.Sprint("Op", i/3), Category: CategorySearch, Matched: MatchedStar, RootAllowed: &truth, Verdict: VerdictPartial, Somesite: VerdictPartial, CIC: CICSome, CCClass: CCClassAllowPart})
		}
	}
	codec, err := newZstdCodec()
	if err != nil {
		t.Fatal(err)
	}
	e := newBotsEncoder(botsLayoutBots, DefaultDictionaryBytes)
	var out bytes.Buffer
	cycle := func() {
		e.add(rows)
		out.Reset()
		if err := e.writeFile(&out, codec, "test"); err != nil {
			t.Fatal(err)
		}
		e.reset()
	}
	cycle()
	if n := testing.AllocsPerRun(20, func() { e.add(rows); e.reset() }); n != 0 {
		t.Errorf("add: %v allocations per batch of %d rows, want 0", n, len(rows))
	}
	// the same captures as blocks, as analyze writes them
	var idents []BotIdent
	for _, r := range rows[:101] {
		idents = append(idents, BotIdent{Bot: r.Bot, Operator: r.Operator, Category: r.Category})
	}
	list := NewBotList(idents)
	var blocks []BotsBlock
	for c := 0; c < len(rows); c += 101 {
		blocks = append(blocks, BotsBlock{Key: rows[c].Key, Bots: list, Verdicts: []BotVerdict{{Matched: MatchedStar, RootAllowed: &truth, Verdict: VerdictPartial,
			Somesite: VerdictPartial, CIC: CICSome, CCClass: CCClassAllowPart}}, Index: make([]int32, 101)})
	}
	addBlocks := func() {
		for i := range blocks {
			e.addBlock(&blocks[i], 0, 101)
		}
		e.forget()
		e.reset()
	}
	addBlocks()
	if n := testing.AllocsPerRun(20, addBlocks); n != 0 {
		t.Errorf("addBlock: %v allocations per %d blocks, want 0", n, len(blocks))
	}
	// 340 measured: page headers, page index and footer through thrift,
	// per column chunk; a per-row allocation would add thousands.
	if n := testing.AllocsPerRun(20, cycle); n > 32*botsColumns {
		t.Errorf("add and writeFile: %v allocations per row group of %d rows, want at most %d", n, len(rows), 32*botsColumns)
	}
}
