package reduce

import (
	"encoding/binary"
	"encoding/hex"

	"github.com/robotstat/robotstat/schema"
)

// verdictSet is one distinct verdicts row of a crawl, decoded: a catalog,
// its tuples and each bot's tuple, as a BotsBlock takes them.
type verdictSet struct {
	cat    int // index of bots among the crawl's catalogs
	bots   *schema.BotList
	tuples []schema.BotVerdict
	index  []int32
	codes  []byte // each bot's verdict as site_history codes it
}

func newVerdictSet(cat int, bots *schema.BotList, tuples []schema.BotVerdict, index []int32) verdictSet {
	codes := make([]byte, len(index))
	for i, k := range index {
		codes[i] = verdictCode(&tuples[k])
	}
	return verdictSet{cat: cat, bots: bots, tuples: tuples, index: index, codes: codes}
}

// verdictSets decodes each distinct verdicts row of a crawl once. Sets
// are never changed once made, so blocks may share them.
type verdictSets struct {
	catalogs []*schema.BotList
	byKey    map[string]int32 // catalog byte, tuples, NUL, bot_tuple -> sets index
	sets     []verdictSet
	classes  map[uint8]int32 // implied verdicts, by result class
	key      []byte
}

// maxVerdictSets bounds the sets kept from one partition to the next:
// past it (a crawl of that many distinct verdicts rows) the next partition
// decodes them again from scratch, which only costs time.
const maxVerdictSets = 1 << 18

func newVerdictSets(catalogs []*schema.BotList) *verdictSets {
	return &verdictSets{catalogs: catalogs, byKey: map[string]int32{}, classes: map[uint8]int32{}}
}

// of returns the set of a verdicts row of catalog ci.
func (v *verdictSets) of(ci int, tuples, botTuple []byte, id *[16]byte) (int32, error) {
	v.key = append(binary.AppendUvarint(v.key[:0], uint64(ci)), tuples...)
	v.key = append(append(v.key, 0), botTuple...)
	if k, ok := v.byKey[string(v.key)]; ok {
		return k, nil
	}
	row := schema.VerdictsRow{Key: schema.Key{CaptureID: hex.EncodeToString(id[:])}, Tuples: string(tuples), BotTuple: string(botTuple)}
	t, idx, err := schema.ParseVerdicts(&row, v.catalogs[ci].Len())
	if err != nil {
		return 0, err
	}
	index := make([]int32, len(idx))
	for i, x := range idx {
		index[i] = int32(x)
	}
	k := int32(len(v.sets))
	v.sets = append(v.sets, newVerdictSet(ci, v.catalogs[ci], t, index))
	v.byKey[string(v.key)] = k
	return k, nil
}

// implied returns the set of a site whose answer has no verdicts row: the
// first catalog's bots, all with the verdicts its outcome implies.
func (v *verdictSets) implied(class uint8) int32 {
	if k, ok := v.classes[class]; ok {
		return k
	}
	l := v.catalogs[0]
	k := int32(len(v.sets))
	v.sets = append(v.sets, newVerdictSet(0, l, []schema.BotVerdict{implied(class)}, make([]int32, l.Len())))
	v.classes[class] = k
	return k
}

// drop forgets every set, between partitions (the indexes of a
// partition's answers point into sets). Blocks already handed to the writer
// keep theirs: they hold the sets' slices, not indexes.
func (v *verdictSets) drop() {
	v.sets = nil
	clear(v.byKey)
	clear(v.classes)
}

var truth = [2]bool{false, true}

// implied returns the verdicts of a site whose answer has no verdicts row:
// those its outcome implies (RFC 9309 §2.3.1), as for a capture.
func implied(class uint8) schema.BotVerdict {
	switch class {
	case classUnavailable:
		return schema.BotVerdict{Matched: schema.MatchedNone, RootAllowed: &truth[1], Verdict: schema.VerdictNone,
			Somesite: schema.VerdictNone, CIC: schema.CICNone, CCClass: schema.CCClassAllowAll}
	case classUnreachable:
		return schema.BotVerdict{Matched: schema.MatchedNone, RootAllowed: &truth[0], Verdict: schema.VerdictFull,
			Somesite: schema.VerdictFull, CIC: schema.CICAll, CCClass: schema.CCClassDisallowAll}
	}
	return schema.BotVerdict{Matched: schema.MatchedNone, Verdict: schema.VerdictUnknown,
		Somesite: schema.VerdictUnknown, CIC: schema.VerdictUnknown, CCClass: schema.VerdictUnknown}
}
