package schema

import "fmt"

// BotsBlock is the bots rows of one capture in compact form. Row i is
//
//	BotRow{Key: Key, Bot: Bots[i].Bot, Operator: Bots[i].Operator,
//	       Category: Bots[i].Category, <the fields of Verdicts[Index[i]]>}
//
// A capture's 101 rows (one per catalog bot) share their key, their bot
// columns are the same for every capture, and they take only a few distinct
// verdict tuples (the bots named in the file, the `*` group's, no group's),
// so the block holds each of those once. WriteBots encodes a block column
// by column, without building or reading the 101 BotRows; AppendRows
// builds them for callers that want rows.
type BotsBlock struct {
	Key Key
	// Bots lists the catalog: one entry per row. Callers pass the same
	// slice for every capture; the encoder reuses the dictionary ids of an
	// entry whose strings are the very same (same address) as the previous
	// block's at that position.
	Bots []BotIdent
	// Verdicts are the distinct verdict tuples of the rows.
	Verdicts []BotVerdict
	// Index gives each row's tuple: Verdicts[Index[i]] for row i;
	// len(Index) == len(Bots).
	Index []int32
}

// BotIdent is the catalog part of a bots row.
type BotIdent struct {
	Bot, Operator, Category string
}

// BotVerdict is the verdict part of a bots row: its fields are BotRow's
// fields of the same names.
type BotVerdict struct {
	Matched     string
	RootAllowed *bool
	Verdict     string
	Somesite    string
	CIC         string
	CCClass     string
}

// Rows returns how many rows the block stands for.
func (b *BotsBlock) Rows() int { return len(b.Bots) }

// AppendRows appends the block's rows to dst.
func (b *BotsBlock) AppendRows(dst []BotRow) []BotRow {
	for i, id := range b.Bots {
		v := &b.Verdicts[b.Index[i]]
		dst = append(dst, BotRow{
			Key: b.Key, Bot: id.Bot, Operator: id.Operator, Category: id.Category,
			Matched: v.Matched, RootAllowed: v.RootAllowed, Verdict: v.Verdict,
			Somesite: v.Somesite, CIC: v.CIC, CCClass: v.CCClass,
		})
	}
	return dst
}

// check reports a block whose Index does not fit its Bots and Verdicts.
func (b *BotsBlock) check() error {
	if len(b.Index) != len(b.Bots) {
		return fmt.Errorf("schema: bots block of capture %s has %d bots and %d indexes", b.Key.CaptureID, len(b.Bots), len(b.Index))
	}
	for _, k := range b.Index {
		if k < 0 || int(k) >= len(b.Verdicts) {
			return fmt.Errorf("schema: bots block of capture %s refers to verdict %d of %d", b.Key.CaptureID, k, len(b.Verdicts))
		}
	}
	return nil
}

// WriteBots writes blocks of bots rows through l, as l.Write would write
// their rows (AppendRows) and into the same row groups, with one
// difference: a row group ends early, after the block in which a
// dictionary passed Options.DictionaryBytes (Write ends it after the row),
// so a row group's dictionary may pass that limit by one capture's
// strings.
//
// Errors are Write's, plus a malformed block (Index out of range), which
// is a programming error and fails the dataset too.
func WriteBots(l *LocalWriter[BotRow], blocks []BotsBlock) error {
	if l == nil {
		return nil
	}
	t := l.t
	if err := t.ds.usable(); err != nil {
		return err
	}
	maxRows := t.ds.opts.RowGroupRows
	defer func() {
		for _, p := range l.parts {
			p.bots.forget()
		}
	}()
	for i := range blocks {
		b := &blocks[i]
		if err := b.check(); err != nil {
			return t.ds.fail(err)
		}
		p, err := l.partOf(b.Key.Crawl)
		if err != nil {
			return err
		}
		// A block that crosses the row limit is split, so that every
		// shipped row group but the last is full, as with Write.
		for from := 0; from < b.Rows(); {
			to := min(b.Rows(), from+int(maxRows-p.rows))
			p.bots.addBlock(b, from, to)
			if err := l.took(p, to-from, p.bots.full); err != nil {
				return err
			}
			from = to
		}
	}
	return nil
}
