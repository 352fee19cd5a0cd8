package report

import "sort"

// topCounter counts keys (agent tokens, directive keys) per report group in
// memory bounded by maxKeys, whatever the number of distinct keys: when it
// holds more than maxKeys keys it keeps the maxKeys/2 with the highest
// totals and forgets the rest. A forgotten key that comes back starts from
// zero, so a count can be low by at most slack, the sum over prunings of
// the highest total forgotten; keys above slack are ranked right. The
// result depends only on the order rows arrive in, which the report fixes.
//
// Real files name a long tail of one-off agents and keys (typos, site
// names, garbage): pruning drops that tail and keeps the heads exactly.
//
// Not safe for concurrent use.
type topCounter struct {
	maxKeys int
	counts  map[string]*topEntry
	slack   int64
}

type topEntry struct {
	counts []int64 // by group
	extra  [2]string
}

func newTopCounter(maxKeys int) *topCounter {
	return &topCounter{maxKeys: max(maxKeys, 2), counts: make(map[string]*topEntry)}
}

// add counts one occurrence of key in group g. extra holds two descriptive
// strings for the key (its catalog bot and category, its kind and
// canonical form), kept from the first occurrence that sets them.
func (t *topCounter) add(key string, g int, extra [2]string) {
	e := t.counts[key]
	if e == nil {
		if len(t.counts) >= t.maxKeys {
			t.prune()
		}
		e = &topEntry{}
		t.counts[key] = e
	}
	for len(e.counts) <= g {
		e.counts = append(e.counts, 0)
	}
	e.counts[g]++
	if e.extra == [2]string{} {
		e.extra = extra
	}
}

func (e *topEntry) total() int64 {
	var n int64
	for _, c := range e.counts {
		n += c
	}
	return n
}

func (t *topCounter) prune() {
	type kv struct {
		k string
		n int64
	}
	all := make([]kv, 0, len(t.counts))
	for k, e := range t.counts {
		all = append(all, kv{k, e.total()})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].k < all[j].k
	})
	keep := t.maxKeys / 2
	var worst int64
	for _, x := range all[keep:] {
		worst = max(worst, x.n)
		delete(t.counts, x.k)
	}
	t.slack += worst
}

// topKey is one key of top's answer.
type topKey struct {
	key    string
	extra  [2]string
	counts []int64 // by group, len groups
	total  int64
}

// top returns the n keys with the highest counts in group by, or over all
// groups when by is negative (ties by key), with their counts in each of
// groups groups.
func (t *topCounter) top(n, groups, by int) []topKey {
	out := make([]topKey, 0, len(t.counts))
	for k, e := range t.counts {
		c := make([]int64, groups)
		copy(c, e.counts)
		total := e.total()
		if by >= 0 {
			total = c[by]
		}
		out = append(out, topKey{key: k, extra: e.extra, counts: c, total: total})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].total != out[j].total {
			return out[i].total > out[j].total
		}
		return out[i].key < out[j].key
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}
