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
	// No tuple is listed twice.
	Tuples string `parquet:"tuples,dict"`
	// Per catalog bot, in catalog order, the 0-based index of the bot's
	// tuple in tuples, in base 62 with the digits 0-9, a-z, A-Z: one digit
	// per bot when there are at most 62 tuples; otherwise "~", then the
	// number of digits per bot w (a base-62 digit, 2 or more), then w digits
	// per bot, most significant first, so that any number of tuples fits.
	BotTuple string `parquet:"bot_tuple,dict"`
}

// MetaBots is the key/value metadata key of a verdicts file's catalog: a
// JSON array of [token, operator, category] triples in catalog order.
const MetaBots = "robotstat.bots"

// tupleDigits are the digits of bot_tuple, in value order; wideMark starts
// the wide form.
const (
	tupleDigits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	wideMark    = '~'
)

// AppendVerdicts appends the verdicts row of a bots block to dst, using buf
// for scratch, and returns them (the row's strings are new). Tuples with the
// same values (two group sets that give the same verdicts) are listed once.
// Any number of tuples is encoded exactly: a capture with more than 62
// distinct tuples takes bot_tuple's wide form.
func AppendVerdicts(dst []VerdictsRow, b *BotsBlock, buf []byte) ([]VerdictsRow, []byte) {
	// Each of the block's verdicts is encoded once; remap sends it to the
	// first tuple with the same text.
	var spanArr [64][2]int32
	var remapArr [64]int32
	spans, remap := spanArr[:0], remapArr[:0]
	buf = buf[:0]
	for i := range b.Verdicts {
		start := len(buf)
		if len(spans) > 0 {
			buf = append(buf, ';')
		}
		buf = appendTuple(buf, &b.Verdicts[i])
		text := buf[start:]
		if len(spans) > 0 {
			text = text[1:]
		}
		k := -1
		for j, sp := range spans {
			if string(buf[sp[0]:sp[1]]) == string(text) {
				k = j
				break
			}
		}
		if k >= 0 {
			buf = buf[:start] // a repeat: dropped
		} else {
			k = len(spans)
			spans = append(spans, [2]int32{int32(len(buf) - len(text)), int32(len(buf))})
		}
		remap = append(remap, int32(k))
	}
	tuples := string(buf)
	buf = buf[:0]
	width := 1
	for n := len(tupleDigits); n < len(spans); n *= len(tupleDigits) {
		width++
	}
	if width > 1 {
		buf = append(buf, wideMark, tupleDigits[width])
	}
	for _, k := range b.Index {
		end := len(buf) + width
		buf = append(buf, make([]byte, width)...) // no allocation: the growth is in place
		for t, i := int(remap[k]), end-1; i >= end-width; i-- {
			buf[i] = tupleDigits[t%len(tupleDigits)]
			t /= len(tupleDigits)
		}
	}
	return append(dst, VerdictsRow{Key: b.Key, Tuples: tuples, BotTuple: string(buf)}), buf
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
// (n of them) the index of its tuple, in either form of bot_tuple.
// RootAllowed points at package-level values.
func ParseVerdicts(r *VerdictsRow, n int) ([]BotVerdict, []int32, error) {
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
	codes, width := r.BotTuple, 1
	if len(codes) > 0 && codes[0] == wideMark {
		if len(codes) < 2 {
			return nil, nil, fmt.Errorf("%w: capture %s: bot_tuple %q has no width", ErrVerdicts, r.CaptureID, r.BotTuple)
		}
		width = strings.IndexByte(tupleDigits, codes[1])
		if width < 2 || width > 9 { // 62^9 does not overflow k
			return nil, nil, fmt.Errorf("%w: capture %s: bot_tuple width %q", ErrVerdicts, r.CaptureID, codes[1])
		}
		codes = codes[2:]
	}
	if len(codes) != n*width {
		return nil, nil, fmt.Errorf("%w: capture %s has %d bots, the catalog %d", ErrVerdicts, r.CaptureID, len(codes)/width, n)
	}
	idx := make([]int32, n)
	for i := 0; i < n; i++ {
		k := 0
		for _, c := range []byte(codes[i*width : (i+1)*width]) {
			d := strings.IndexByte(tupleDigits, c)
			if d < 0 {
				return nil, nil, fmt.Errorf("%w: capture %s: bot %d: %q is not a bot_tuple digit", ErrVerdicts, r.CaptureID, i, c)
			}
			k = k*len(tupleDigits) + d
		}
		if k >= len(tuples) {
			return nil, nil, fmt.Errorf("%w: capture %s: bot %d takes tuple %d of %d", ErrVerdicts, r.CaptureID, i, k, len(tuples))
		}
		idx[i] = int32(k)
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
