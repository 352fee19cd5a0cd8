package stats

import (
	"slices"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// setMatch is what a bot's verdicts depend on within one capture: the
// group set that applies to it and how it was matched.
type setMatch struct {
	set parse.SetID
	m   parse.Match
}

// botBlock returns the capture's bots rows as one block: the catalog, the
// distinct (group set, match) verdict tuples in the order the catalog
// reaches them, and each bot's tuple. The verdicts are computed once per
// tuple, not per bot, and the block once per capture (the bots and verdicts
// tables both take it); its slices are the Analyzer's scratch, valid until
// the next capture.
func (a *Analyzer) botBlock(k *capture) *schema.BotsBlock {
	if k.blockDone {
		return &a.block
	}
	r := &a.robots
	a.tuples, a.blockVerdicts, a.blockIndex = a.tuples[:0], a.blockVerdicts[:0], a.blockIndex[:0]
	for _, b := range a.opts.Catalog.Bots() {
		id, m := r.Lookup(b.Token)
		t := slices.Index(a.tuples, setMatch{id, m})
		if t < 0 {
			t = len(a.tuples)
			a.tuples = append(a.tuples, setMatch{id, m})
			v := a.vd.For(id, m)
			v.Matched = m.String()
			a.blockVerdicts = append(a.blockVerdicts, v)
		}
		a.blockIndex = append(a.blockIndex, int32(t))
	}
	a.block = schema.BotsBlock{Key: k.key, Bots: a.bots, Verdicts: a.blockVerdicts, Index: a.blockIndex}
	k.blockDone = true
	return &a.block
}

// botRows appends the capture's bots rows: its block, with its slices cut
// from the batch's arenas.
func (a *Analyzer) botRows(k *capture, dst *schema.Batch) {
	b := a.botBlock(k)
	vmark, imark := dst.BotVerdicts.Mark(), dst.BotIndexes.Mark()
	for _, v := range b.Verdicts {
		dst.BotVerdicts.Append(v)
	}
	for _, i := range b.Index {
		dst.BotIndexes.Append(i)
	}
	dst.Bots = append(dst.Bots, schema.BotsBlock{
		Key: b.Key, Bots: b.Bots,
		Verdicts: dst.BotVerdicts.Since(vmark), Index: dst.BotIndexes.Since(imark),
	})
}

// verdictRows appends the capture's verdicts row: its block, folded
// (schema.VerdictsRow).
func (a *Analyzer) verdictRows(k *capture, dst *schema.Batch) {
	dst.Verdicts, a.verdictBuf = schema.AppendVerdicts(dst.Verdicts, a.botBlock(k), a.verdictBuf)
}
