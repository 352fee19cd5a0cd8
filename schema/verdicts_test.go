package schema_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// verdictsBlock is a block of n bots where bot i takes tuple i%tuples, each
// tuple distinct (its verdict column says which it is).
func verdictsBlock(n, tuples int) *schema.BotsBlock {
	ids := make([]schema.BotIdent, n)
	b := &schema.BotsBlock{Key: schema.Key{CaptureID: "c"}, Index: make([]int32, n)}
	for t := range tuples {
		yes := t%2 == 0
		b.Verdicts = append(b.Verdicts, schema.BotVerdict{Matched: "named", RootAllowed: &yes, Verdict: fmt.Sprint("v", t),
			Somesite: "full", CIC: "all", CCClass: "disallow-all"})
	}
	for i := range n {
		ids[i] = schema.BotIdent{Bot: fmt.Sprint("bot", i)}
		b.Index[i] = int32(i % tuples)
	}
	b.Bots = schema.NewBotList(ids)
	return b
}

// TestVerdictsRowRoundTrip: whatever the number of distinct tuples, every
// bot decodes to exactly its own verdicts: up to 62 tuples in one digit per
// bot, past that in the wide form, which has no limit (before issue 21 the
// bots past the 62nd tuple silently took the last one).
func TestVerdictsRowRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		bots, tuples int
		prefix       string // of bot_tuple
		perBot       int    // digits per bot
	}{
		{1, 1, "0", 1},
		{91, 5, "01234", 1},
		{62, 62, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 1},
		{63, 63, "~2000102", 2},
		{200, 200, "~2000102", 2},
		{4000, 3845, "~3000001002", 3}, // 62*62 = 3844 tuples fit in two digits, one more needs three
	} {
		t.Run(fmt.Sprint(c.bots, "_bots_", c.tuples, "_tuples"), func(t *testing.T) {
			b := verdictsBlock(c.bots, c.tuples)
			rows, _ := schema.AppendVerdicts(nil, b, nil)
			r := &rows[0]
			if !strings.HasPrefix(r.BotTuple, c.prefix) {
				t.Errorf("bot_tuple starts %.20q, want %q", r.BotTuple, c.prefix)
			}
			header := 0
			if c.perBot > 1 {
				header = 2
			}
			if len(r.BotTuple) != header+c.perBot*c.bots {
				t.Errorf("bot_tuple is %d octets, want %d", len(r.BotTuple), header+c.perBot*c.bots)
			}
			tuples, idx, err := schema.ParseVerdicts(r, c.bots)
			if err != nil {
				t.Fatal(err)
			}
			if len(tuples) != c.tuples {
				t.Errorf("%d tuples decoded, want %d", len(tuples), c.tuples)
			}
			for i, k := range idx {
				got, want := tuples[k], b.Verdicts[b.Index[i]]
				if got.Verdict != want.Verdict || *got.RootAllowed != *want.RootAllowed || got.Matched != want.Matched {
					t.Fatalf("bot %d decodes to %+v, want %+v", i, got, want)
				}
			}
		})
	}
}

// TestVerdictsRowListsTupleOnce: two group sets with the same verdicts
// share one tuple, so a row holds only as many tuples as distinct verdicts.
func TestVerdictsRowListsTupleOnce(t *testing.T) {
	t.Parallel()
	no := false
	full := schema.BotVerdict{Matched: "named", RootAllowed: &no, Verdict: "full", Somesite: "full", CIC: "all", CCClass: "disallow-all"}
	star := schema.BotVerdict{Matched: "star", Verdict: "none", Somesite: "none", CIC: "none", CCClass: "allow-all"}
	b := &schema.BotsBlock{Bots: schema.NewBotList(make([]schema.BotIdent, 5)),
		Verdicts: []schema.BotVerdict{full, star, full, full, star}, Index: []int32{0, 1, 2, 3, 4}}
	rows, _ := schema.AppendVerdicts(nil, b, nil)
	if want := "named,false,full,full,all,disallow-all;star,,none,none,none,allow-all"; rows[0].Tuples != want || rows[0].BotTuple != "01001" {
		t.Errorf("row %q %q, want %q 01001", rows[0].Tuples, rows[0].BotTuple, want)
	}
}

func TestParseVerdictsRefuses(t *testing.T) {
	t.Parallel()
	tuple := "named,false,full,full,all,disallow-all"
	for _, c := range []struct{ name, tuples, botTuple string }{
		{"too_few_bots", tuple, "00"},
		{"too_many_bots", tuple, "0000"},
		{"past_the_tuples", tuple, "010"},
		{"not_a_digit", tuple, "0-0"},
		{"wide_without_width", tuple, "~"},
		{"wide_width_one", tuple, "~1000"},
		{"wide_too_short", tuple, "~20000"},
		{"wide_past_the_tuples", tuple, "~2000001"},
		{"bad_root", "named,maybe,full,full,all,disallow-all", "000"},
		{"short_tuple", "named,false", "000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &schema.VerdictsRow{Key: schema.Key{CaptureID: "c"}, Tuples: c.tuples, BotTuple: c.botTuple}
			if _, _, err := schema.ParseVerdicts(r, 3); !errors.Is(err, schema.ErrVerdicts) {
				t.Errorf("ParseVerdicts(%q, %q) = %v, want ErrVerdicts", c.tuples, c.botTuple, err)
			}
		})
	}
	r := &schema.VerdictsRow{Tuples: tuple, BotTuple: "~2000000"}
	if _, idx, err := schema.ParseVerdicts(r, 3); err != nil || len(idx) != 3 {
		t.Errorf("a valid wide row: %v %v", idx, err)
	}
}
