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

// botRows appends the capture's bots rows as one block: the catalog, the
// distinct (group set, match) verdict tuples in the order the catalog
// reaches them, and each bot's tuple. The verdicts are computed once per
// tuple, not per bot.
func (a *Analyzer) botRows(k *capture, dst *schema.Batch) {
	r := &a.robots
	vmark, imark := dst.Verdicts.Mark(), dst.Indexes.Mark()
	a.tuples = a.tuples[:0]
	for _, b := range a.opts.Catalog.Bots() {
		id, m := r.Lookup(b.Token)
		t := slices.Index(a.tuples, setMatch{id, m})
		if t < 0 {
			t = len(a.tuples)
			a.tuples = append(a.tuples, setMatch{id, m})
			v := a.vd.For(id, m)
			v.Matched = m.String()
			dst.Verdicts.Append(v)
		}
		dst.Indexes.Append(int32(t))
	}
	dst.Bots = append(dst.Bots, schema.BotsBlock{
		Key: k.key, Bots: a.bots,
		Verdicts: dst.Verdicts.Since(vmark), Index: dst.Indexes.Since(imark),
	})
}
