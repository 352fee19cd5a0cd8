package verdict

import (
	"bytes"
	"unsafe"

	"github.com/robotstat/robotstat/parse"
)

// Deciding many witness paths against a large group set with
// parse.Robots.DecideSet costs O(rules) per path (it tries the rules
// longest first until one matches), so O(rules²) per set: 14 s for a
// 160 KB file of 10,000 rules that all have to be probed. ruleIndex answers
// the same question in O(len(path)) map lookups plus the rules that can
// match: a rule can only match a path that starts with the rule's literal
// prefix (the pattern up to its first "*"), so the candidates for a path are
// found by looking up each prefix of the path.
//
// The answer is RFC 9309 §2.2.2's: the matching rule with the longest
// pattern (octets of the normalised pattern, "*" and "$" included) wins, an
// allow rule wins a tie, no match allows. /robots.txt is left to the caller
// (witnesses equal to it are skipped before).

// indexMinRules is the set size from which the index pays for itself, and
// lazyIndexAfter the number of witnesses decided directly before it is
// built: most sets are decided by their first few witnesses.
const (
	indexMinRules  = 64
	lazyIndexAfter = 32
)

type ruleIndex struct {
	byPrefix map[string][]*parse.Rule
	any      []*parse.Rule // patterns beginning with "*": candidates for every path
	url      []byte
	// matches counts the candidate rules run through the matcher since
	// build: the work the index does, which its worst-case test bounds.
	matches int
}

// build indexes the non-empty rules of set id.
func (x *ruleIndex) build(r *parse.Robots, id parse.SetID) {
	if x.byPrefix == nil {
		x.byPrefix = make(map[string][]*parse.Rule, 256)
	}
	clear(x.byPrefix)
	x.any = x.any[:0]
	x.matches = 0
	groups := r.Groups()
	for _, g := range r.SetGroups(id) {
		for i := range groups[g].Rules {
			ru := &groups[g].Rules[i]
			if ru.Empty {
				continue
			}
			p := literalPrefix(ru.Pattern)
			if len(p) == 0 {
				x.any = append(x.any, ru)
				continue
			}
			x.byPrefix[string(p)] = append(x.byPrefix[string(p)], ru)
		}
	}
}

// literalPrefix is the part of a normalised pattern before its first "*"
// (without a final "$").
func literalPrefix(pat []byte) []byte {
	if n := len(pat); n > 0 && pat[n-1] == '$' {
		pat = pat[:n-1]
	}
	if i := bytes.IndexByte(pat, '*'); i >= 0 {
		return pat[:i]
	}
	return pat
}

// allowed decides a normalised path (beginning with "/").
func (x *ruleIndex) allowed(path []byte) bool {
	x.url = append(append(x.url[:0], "http://h"...), path...)
	u := unsafe.String(&x.url[0], len(x.url))
	best, bestAllow := -1, true
	consider := func(ru *parse.Rule) {
		n := len(ru.Pattern)
		allow := ru.Directive == parse.Allow
		if n < best || n == best && (bestAllow || !allow) {
			return
		}
		x.matches++
		if parse.MatchPath(ru, u) {
			best, bestAllow = n, allow
		}
	}
	for _, ru := range x.any {
		consider(ru)
	}
	for k := 1; k <= len(path); k++ {
		for _, ru := range x.byPrefix[string(path[:k])] {
			consider(ru)
		}
	}
	return bestAllow
}
