package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// VerdictsRow is a row of the verdicts table: one row per capture with the
// verdicts of every catalog bot in compact form, from which robotstat sites
// builds site_bots for the capture that answers each site. It is the bots
// table folded: a capture's bots take only a few distinct verdict tuples
// (the * group's, no group's, each named group's), so the row lists those
// tuples once and, per catalog bot, which tuple it takes. It is written by
// default and read by robotstat sites; to query verdicts, use site_bots (one
// row per site and bot) or the bots table (one per capture and bot, opt-in).
//
// The catalog the bot_tuple column follows is in each file's key/value
// metadata under robotstat.bots (MetaBots), as JSON.
type VerdictsRow struct {
	Key

	// The capture's distinct verdict tuples, separated by ";", each
	// "matched,root_allowed,verdict,somesite,cic,cc_class" in the bots
	// table's vocabularies (root_allowed: true, false, or empty for NULL).
	Tuples string `parquet:"tuples,dict"`
	// One character per catalog bot, in catalog order: the 0-based index of
	// the bot's tuple in tuples, written 0-9 then a-z then A-Z.
	BotTuple string `parquet:"bot_tuple,dict"`
}

// MetaBots is the key/value metadata key of a verdicts file's catalog: a
// JSON array of [token, operator, category] triples in catalog order.
const MetaBots = "robotstat.bots"

// tupleDigits are the characters of bot_tuple, in index order.
const tupleDigits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// MaxVerdictTuples is the most distinct tuples a verdicts row can hold. A
// file would need more than 61 groups that apply to catalog bots, each
// distinct, to pass it; such a capture's row is written with its bots past
// the limit taking the last tuple (AppendVerdicts reports it).
const MaxVerdictTuples = len(tupleDigits)

// AppendVerdicts appends the verdicts row of a bots block to dst, using
// buf for scratch, and returns them (the row's strings are new). It reports
// false when the block had more than MaxVerdictTuples tuples.
func AppendVerdicts(dst []VerdictsRow, b *BotsBlock, buf []byte) ([]VerdictsRow, []byte, bool) {
	ok := len(b.Verdicts) <= MaxVerdictTuples
	buf = buf[:0]
	for i := range b.Verdicts {
		if i > 0 {
			buf = append(buf, ';')
		}
		buf = appendTuple(buf, &b.Verdicts[i])
	}
	tuples := string(buf)
	buf = buf[:0]
	for _, k := range b.Index {
		buf = append(buf, tupleDigits[min(int(k), MaxVerdictTuples-1)])
	}
	return append(dst, VerdictsRow{Key: b.Key, Tuples: tuples, BotTuple: string(buf)}), buf, ok
}

func appendTuple(b []byte, v *BotVerdict) []byte {
	b = append(b, v.Matched...)
	b = append(b, ',')
	if v.RootAllowed != nil {
		if *v.RootAllowed {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
	}
	for _, s := range [...]string{v.Verdict, v.Somesite, v.CIC, v.CCClass} {
		b = append(b, ',')
		b = append(b, s...)
	}
	return b
}

var rootValues = [2]bool{false, true}

// ErrVerdicts is wrapped by ParseVerdicts for a malformed row.
var ErrVerdicts = errors.New("schema: malformed verdicts row")

// ParseVerdicts decodes a verdicts row: its tuples, and per catalog bot
// (n of them) the index of its tuple. RootAllowed points at package-level
// values.
func ParseVerdicts(r *VerdictsRow, n int) ([]BotVerdict, []int8, error) {
	var tuples []BotVerdict
	for t := range strings.SplitSeq(r.Tuples, ";") {
		f := strings.Split(t, ",")
		if len(f) != 6 {
			return nil, nil, fmt.Errorf("%w: capture %s: tuple %q", ErrVerdicts, r.CaptureID, t)
		}
		v := BotVerdict{Matched: f[0], Verdict: f[2], Somesite: f[3], CIC: f[4], CCClass: f[5]}
		switch f[1] {
		case "true":
			v.RootAllowed = &rootValues[1]
		case "false":
			v.RootAllowed = &rootValues[0]
		case "":
		default:
			return nil, nil, fmt.Errorf("%w: capture %s: root_allowed %q", ErrVerdicts, r.CaptureID, f[1])
		}
		tuples = append(tuples, v)
	}
	if len(r.BotTuple) != n {
		return nil, nil, fmt.Errorf("%w: capture %s has %d bots, the catalog %d", ErrVerdicts, r.CaptureID, len(r.BotTuple), n)
	}
	idx := make([]int8, n)
	for i := 0; i < n; i++ {
		k := strings.IndexByte(tupleDigits, r.BotTuple[i])
		if k < 0 || k >= len(tuples) {
			return nil, nil, fmt.Errorf("%w: capture %s: bot %d takes tuple %q of %d", ErrVerdicts, r.CaptureID, i, r.BotTuple[i], len(tuples))
		}
		idx[i] = int8(k)
	}
	return tuples, idx, nil
}

// BotsMetadata returns the MetaBots value of a catalog.
func BotsMetadata(l *BotList) string {
	out := make([][3]string, l.Len())
	for i := range out {
		id := l.At(i)
		out[i] = [3]string{id.Bot, id.Operator, id.Category}
	}
	b, _ := json.Marshal(out) // strings only: cannot fail
	return string(b)
}

// ParseBotsMetadata reads a MetaBots value back.
func ParseBotsMetadata(s string) (*BotList, error) {
	var in [][3]string
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return nil, fmt.Errorf("schema: %s metadata: %w", MetaBots, err)
	}
	ids := make([]BotIdent, len(in))
	for i, t := range in {
		ids[i] = BotIdent{Bot: t[0], Operator: t[1], Category: t[2]}
	}
	return NewBotList(ids), nil
}
