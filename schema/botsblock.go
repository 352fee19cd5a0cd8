package schema

import (
	"fmt"
	"github.com/robotstat/robotstat/internal/textesc"
	"strings"

	"github.com/robotstat/robotstat/verdict"
)

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
	// Bots lists the catalog: one entry per row. Callers make it once
	// (NewBotList) and give every capture's block the same list, whose
	// dictionary ids the encoder then looks up once per row group.
	Bots *BotList
	// Verdicts are the distinct verdict tuples of the rows.
	Verdicts []BotVerdict
	// Index gives each row's tuple: Verdicts[Index[i]] for row i;
	// len(Index) == len(Bots).
	Index []int32
}

// BotIdent is the catalog part of a bots row (BotRow's columns of the
// same names).
type BotIdent struct {
	Bot, Operator, Category string
}

// BotList is the catalog part of a capture's bots rows, shared by the blocks
// of every capture that lists the same bots. It is immutable (NewBotList
// copies), so an encoder may keep what it derived from a list for as long as
// it sees the same list; that is what makes sharing one list cheap, and why
// blocks hold a *BotList rather than a slice the caller could change.
//
// A BotList is safe for concurrent use.
type BotList struct{ idents []BotIdent }

// NewBotList returns a list of copies of idents, strings included, so that
// nothing the caller does to its memory later changes the list.
func NewBotList(idents []BotIdent) *BotList {
	l := &BotList{idents: make([]BotIdent, len(idents))}
	for i, id := range idents {
		// UTF-8 as every string written (utf8.go): the rows of these
		// bots, written either way, must read the same.
		l.idents[i] = BotIdent{Bot: strings.Clone(textesc.Data(id.Bot)), Operator: strings.Clone(textesc.Data(id.Operator)), Category: strings.Clone(textesc.Data(id.Category))}
	}
	return l
}

// Len returns the number of bots; a nil list has none.
func (l *BotList) Len() int {
	if l == nil {
		return 0
	}
	return len(l.idents)
}

// At returns bot i.
func (l *BotList) At(i int) BotIdent { return l.idents[i] }

// BotVerdict is the verdict part of a bots row: verdict.BotVerdict, the one
// type in which robotstat passes a bot's verdicts around. Its fields are
// BotRow's of the same names (documented there); RootAllowed is nil exactly
// when the verdicts are unknown (a redirect robotstat could not follow).
type BotVerdict = verdict.BotVerdict

// Rows returns how many rows the block stands for.
func (b *BotsBlock) Rows() int { return b.Bots.Len() }

// AppendRows appends the block's rows to dst.
func (b *BotsBlock) AppendRows(dst []BotRow) []BotRow {
	for i, k := range b.Index {
		dst = append(dst, NewBotRow(b.Key, b.Bots.At(i), b.Verdicts[k]))
	}
	return dst
}

// check reports a block whose Index does not fit its Bots and Verdicts.
func (b *BotsBlock) check() error {
	if len(b.Index) != b.Bots.Len() {
		return fmt.Errorf("schema: bots block of capture %s has %d bots and %d indexes", b.Key.CaptureID, b.Bots.Len(), len(b.Index))
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
func WriteBots[T interface {
	BotRow | SiteBotRow
	Row
}](l *LocalWriter[T], blocks []BotsBlock) error {
	if l == nil {
		return nil
	}
	t := l.t
	if err := t.ds.usable(); err != nil {
		return err
	}
	maxRows := t.ds.opts.RowGroupRows
	cleanRows(blocks) // keys and verdicts; NewBotList made the catalog part UTF-8
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
