package parse

import (
	"bytes"
	"encoding/binary"
	"slices"
	"unsafe"
)

// Robots is the compiled form of one robots.txt: its groups, rules and
// sitemaps, indexed so that many agents and URLs can be decided against it
// without allocating.
//
// Build one with Parser.Compile (or feed Robots.Handler to Parser.Parse,
// possibly inside a Tee with other handlers). A Robots may be reused for
// another body; every slice it returns (Groups, Rules, Agents, Sitemaps,
// Decision.Rule, Decision.Groups) is valid until then. Once built, its read
// methods (Decide, Lookup, Groups, ...) are safe for concurrent use; building
// is not.
type Robots struct {
	groups   []Group
	rules    []Rule
	agents   []Agent
	sitemaps [][]byte
	sitemapO []span
	arena    []byte
	outcome  Outcome
	info     FileInfo
	sum      LineCounts

	// token index: open addressing over tokens, slots hold token id + 1.
	tokens []token
	slots  []int32

	// sets: a set is the list of groups that apply to an agent (RFC 9309
	// §2.2.1: groups naming the same agent are merged) with their rules in
	// decision order.
	sets      []ruleSet
	setGroups []int32
	order     []orderedRule
	starSet   SetID

	// build state
	scratch []int32
}

type span struct{ off, n int32 }

// sub returns the part of b that s names, capped so that appending to it
// cannot overwrite what follows.
func sub[T any](b []T, s span) []T { return b[s.off : s.off+s.n : s.off+s.n] }

type token struct {
	span
	hash uint32
	set  SetID
	// groups naming this token, filled in finish
	first, count int32
}

type ruleSet struct {
	groups span // into setGroups
	rules  span // into order
}

type orderedRule struct {
	length int32
	allow  bool
	rule   int32
	// prefix holds up to the first 8 literal octets of the pattern (those
	// before any "*" or final "$"), little-endian, and mask selects them: a
	// path whose first octets differ cannot match, which rejects most rules
	// with one comparison.
	prefix, mask uint64
}

// literalPrefix computes orderedRule.prefix and mask for a normalised
// pattern.
func literalPrefix(pat []byte) (prefix, mask uint64) {
	for i := 0; i < len(pat) && i < 8; i++ {
		c := pat[i]
		if c == '*' || c == '$' && i == len(pat)-1 {
			break
		}
		prefix |= uint64(c) << (8 * i)
		mask |= 0xFF << (8 * i)
	}
	return prefix, mask
}

// pathPrefix loads the first 8 octets of path (zero-padded), little-endian.
func pathPrefix(path []byte) uint64 {
	if len(path) >= 8 {
		return binary.LittleEndian.Uint64(path)
	}
	var v uint64
	for i, c := range path {
		v |= uint64(c) << (8 * i)
	}
	return v
}

// Group is one group of the file (RFC 9309 §2.1): consecutive user-agent
// lines and the rules that follow them.
type Group struct {
	Index int // position in Robots.Groups()
	Line  int // line of the first user-agent line
	// Star reports that one of the user-agent lines is "*".
	Star   bool
	Agents []Agent
	Rules  []Rule

	agents, rules span
}

// Agent is one user-agent line.
type Agent struct {
	Line  int
	Group int
	// Value is the value as written; Token the product token it names
	// (Entry.Token), lower-cased as tokens compare (empty when the value
	// starts with no token character, or is "*").
	Value []byte
	Token []byte
	Star  bool

	value, tok span
	tokID      int32
}

// Directive is the kind of a rule.
type Directive uint8

const (
	Disallow Directive = iota
	Allow
)

func (d Directive) String() string {
	if d == Allow {
		return "allow"
	}
	return "disallow"
}

// Rule is one allow or disallow line inside a group.
type Rule struct {
	Directive Directive
	Line      int
	Group     int
	// Raw is the value as written; Pattern its normalised form (see
	// pattern.go), ending in "$" when anchored.
	Raw     []byte
	Pattern []byte
	// Empty reports an empty value ("Disallow:"), which matches nothing
	// (RFC 9309 §2.2.2).
	Empty bool

	raw, pat span
}

// Wildcard reports that the pattern contains "*".
func (r *Rule) Wildcard() bool { return bytes.IndexByte(r.Pattern, '*') >= 0 }

// Anchored reports that the pattern ends in "$".
func (r *Rule) Anchored() bool { return len(r.Pattern) > 0 && r.Pattern[len(r.Pattern)-1] == '$' }

// SetID names the merged set of groups that applies to an agent; NoSet when
// none does.
type SetID int32

const NoSet SetID = -1

// Match says how an agent found its groups (RFC 9309 §2.2.1).
type Match uint8

const (
	// MatchNone: no group names the agent and there is no "*" group.
	MatchNone Match = iota
	// MatchStar: no group names the agent; the "*" groups apply.
	MatchStar
	// MatchNamed: one or more groups name the agent's product token.
	MatchNamed
)

func (m Match) String() string {
	switch m {
	case MatchStar:
		return "star"
	case MatchNamed:
		return "named"
	}
	return "none"
}

// Handler returns the Handler that builds r from parse events. Building
// starts at Start (which resets r) and finishes at End.
func (r *Robots) Handler() Handler { return (*builder)(r) }

// Compile parses body into r, replacing what r held. It is the same as
// p.Parse(body, r.Handler()).
func (p *Parser) Compile(body []byte, r *Robots) {
	p.Parse(body, r.Handler())
}

// Groups returns the groups in file order.
func (r *Robots) Groups() []Group { return r.groups }

// Rules returns every rule in file order (rules before the first user-agent
// line belong to no group and are not included).
func (r *Robots) Rules() []Rule { return r.rules }

// Agents returns every user-agent line in file order.
func (r *Robots) Agents() []Agent { return r.agents }

// Sitemaps returns the sitemap values in file order. Sitemaps are global,
// not part of any group (RFC 9309 §2.2.4).
func (r *Robots) Sitemaps() [][]byte { return r.sitemaps }

// Info returns the FileInfo and LineCounts of the last parse.
func (r *Robots) Info() (FileInfo, LineCounts) { return r.info, r.sum }

// Outcome returns how decisions are made (see SetOutcome).
func (r *Robots) Outcome() Outcome { return r.outcome }

// SetOutcome sets how Decide answers: OutcomeParsed (the default after a
// parse) uses the rules, OutcomeUnavailable allows everything, OutcomeUnreachable
// disallows everything, OutcomeRedirect answers undecided (RFC 9309 §2.3.1).
func (r *Robots) SetOutcome(o Outcome) { r.outcome = o }

// NumSets returns the number of distinct group sets; SetIDs range over
// [0, NumSets). Many agents share one set (all that fall back to "*", all
// named in one stacked group), so per-set work is per-distinct-group work.
func (r *Robots) NumSets() int { return len(r.sets) }

// SetGroups returns the indices of the groups merged into set id.
func (r *Robots) SetGroups(id SetID) []int32 {
	if id < 0 || int(id) >= len(r.sets) {
		return nil
	}
	return sub(r.setGroups, r.sets[id].groups)
}

// SetRules calls fn for each rule of set id in decision order: longest
// pattern first, allow before disallow at equal length, then file order.
// Empty rules are not included.
func (r *Robots) SetRules(id SetID, fn func(*Rule) bool) {
	if id < 0 || int(id) >= len(r.sets) {
		return
	}
	for _, o := range sub(r.order, r.sets[id].rules) {
		if !fn(&r.rules[o.rule]) {
			return
		}
	}
}

// StarSet returns the set of the "*" groups, or NoSet.
func (r *Robots) StarSet() SetID { return r.starSet }

// Lookup finds the set of groups that applies to agent (RFC 9309 §2.2.1):
// the merged groups naming its product token, else the merged "*" groups,
// else none. agent is a product token such as "GPTBot" or "MJ12bot"; it is
// read as a user-agent line is (ProductToken: letters, digits, "_", "-"),
// so anything after the token is ignored ("GPTBot/1.1" looks up gptbot) and
// a whole User-Agent header looks up its first token ("Mozilla"); Google's
// reference parser compares the agent whole instead
// (Deviation_agent_token_prefix in doc.go). To find the crawler's token in a
// whole header, see explain.ReadAgent. An agent of "*" gets the "*" groups.
// Matching is case-insensitive.
func (r *Robots) Lookup(agent string) (SetID, Match) {
	tok := ProductToken(stringBytes(agent))
	if len(tok) > 0 && len(r.slots) > 0 {
		h := hashToken(tok)
		mask := uint32(len(r.slots) - 1)
		for i := h & mask; ; i = (i + 1) & mask {
			s := r.slots[i]
			if s == 0 {
				break
			}
			t := &r.tokens[s-1]
			if t.hash == h && equalToken(sub(r.arena, t.span), tok) {
				return t.set, MatchNamed
			}
		}
	}
	if r.starSet != NoSet {
		return r.starSet, MatchStar
	}
	return NoSet, MatchNone
}

// stringBytes views s as a byte slice without copying. The slice must never
// be written to; it is only handed to read-only matching code.
func stringBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// builder is Robots seen as a Handler.
type builder Robots

func (b *builder) Start(f *FileInfo) {
	r := (*Robots)(b)
	r.groups = r.groups[:0]
	r.rules = r.rules[:0]
	r.agents = r.agents[:0]
	r.sitemaps = r.sitemaps[:0]
	r.sitemapO = r.sitemapO[:0]
	r.arena = r.arena[:0]
	r.tokens = r.tokens[:0]
	r.sets = r.sets[:0]
	r.setGroups = r.setGroups[:0]
	r.order = r.order[:0]
	r.starSet = NoSet
	r.outcome = OutcomeParsed
	r.info = *f
	r.sum = LineCounts{}
}

func (b *builder) store(v []byte) span {
	off := len(b.arena)
	b.arena = append(b.arena, v...)
	return span{int32(off), int32(len(v))}
}

func (b *builder) UserAgent(e *Entry) {
	// The Parser numbers the groups (Entry.Group): a user-agent line with
	// the next number starts one.
	if e.Group >= len(b.groups) {
		b.groups = append(b.groups, Group{Index: len(b.groups), Line: e.Line,
			agents: span{int32(len(b.agents)), 0}, rules: span{int32(len(b.rules)), 0}})
	}
	g := &b.groups[e.Group]
	a := Agent{Line: e.Line, Group: g.Index, Star: IsStar(e.Value)}
	a.value = b.store(e.Value)
	if !a.Star {
		// The Parser read the token (Entry.Token: robotstat's reading, or
		// Google's under GroupingGoogle); it is kept lower-cased.
		off := len(b.arena)
		b.arena = AppendLowerToken(b.arena, e.Token)
		a.tok = span{int32(off), int32(len(b.arena) - off)}
	} else {
		g.Star = true
	}
	b.agents = append(b.agents, a)
	g.agents.n++
}

func (b *builder) rule(e *Entry, d Directive) {
	if e.Group < 0 {
		return // RFC 9309 §2.2.1: rules outside a group are ignored.
	}
	g := &b.groups[e.Group]
	ru := Rule{Directive: d, Line: e.Line, Group: g.Index, Empty: len(e.Value) == 0}
	ru.raw = b.store(e.Value)
	if needsNormalising(e.Value, true) {
		off := len(b.arena)
		b.arena = normalise(b.arena, e.Value, true)
		ru.pat = span{int32(off), int32(len(b.arena) - off)}
	} else {
		ru.pat = ru.raw // already canonical: share the bytes
	}
	b.rules = append(b.rules, ru)
	g.rules.n++
}

func (b *builder) Allow(e *Entry)    { b.rule(e, Allow) }
func (b *builder) Disallow(e *Entry) { b.rule(e, Disallow) }

func (b *builder) Sitemap(e *Entry) {
	b.sitemapO = append(b.sitemapO, b.store(e.Value))
}

func (b *builder) Other(*Entry)   {}
func (b *builder) Line(*LineInfo) {}

func (b *builder) End(s *LineCounts) {
	r := (*Robots)(b)
	r.sum = *s
	// The arena no longer grows: turn spans into slices.
	for i := range r.agents {
		a := &r.agents[i]
		a.Value = sub(r.arena, a.value)
		a.Token = sub(r.arena, a.tok)
	}
	for i := range r.rules {
		ru := &r.rules[i]
		ru.Raw = sub(r.arena, ru.raw)
		ru.Pattern = sub(r.arena, ru.pat)
	}
	for i := range r.groups {
		g := &r.groups[i]
		g.Agents = sub(r.agents, g.agents)
		g.Rules = sub(r.rules, g.rules)
	}
	for _, sp := range r.sitemapO {
		r.sitemaps = append(r.sitemaps, sub(r.arena, sp))
	}
	b.index()
}

// index builds the token table and the merged sets.
func (b *builder) index() {
	r := (*Robots)(b)
	// One set per group first, so that SetID g is group g alone.
	for g := range r.groups {
		r.setGroups = append(r.setGroups, int32(g))
		r.addSetRange(int32(g))
	}
	// Distinct tokens, in lower case, found through an open-addressing table
	// sized to at most half full.
	n := 16
	for n < 2*len(r.agents) {
		n <<= 1
	}
	r.slots = slices.Grow(r.slots[:0], n)[:n]
	clear(r.slots)
	mask := uint32(n - 1)
	for i := range r.agents {
		a := &r.agents[i]
		a.tokID = -1
		if len(a.Token) == 0 {
			continue
		}
		h := hashToken(a.Token)
		for j := h & mask; ; j = (j + 1) & mask {
			s := r.slots[j]
			if s == 0 {
				r.tokens = append(r.tokens, token{span: a.tok, hash: h, set: NoSet})
				r.slots[j] = int32(len(r.tokens))
				a.tokID = int32(len(r.tokens) - 1)
				break
			}
			t := &r.tokens[s-1]
			if t.hash == h && string(sub(r.arena, t.span)) == string(a.Token) {
				a.tokID = s - 1
				break
			}
		}
	}
	// The groups naming each token, by a counting sort over the agents
	// (which come in group order). scratch holds, per token, the last group
	// counted (+1) and then the fill position; the group lists follow.
	nt := len(r.tokens)
	r.scratch = slices.Grow(r.scratch[:0], nt)[:nt]
	last := r.scratch
	clear(last)
	total := int32(0)
	for i := range r.agents {
		a := &r.agents[i]
		if a.tokID < 0 || last[a.tokID] == int32(a.Group)+1 {
			continue
		}
		last[a.tokID] = int32(a.Group) + 1
		r.tokens[a.tokID].count++
		total++
	}
	single := true
	for t := range r.tokens {
		tk := &r.tokens[t]
		if tk.count == 1 {
			tk.set = SetID(last[t] - 1)
		} else {
			single = false
		}
	}
	if !single {
		// Lay the lists out after the per-token section of scratch.
		r.scratch = slices.Grow(r.scratch[:nt], nt+int(total))[:nt+int(total)]
		last = r.scratch[:nt]
		lists := r.scratch[nt:]
		pos := int32(0)
		for t := range r.tokens {
			r.tokens[t].first = pos
			pos += r.tokens[t].count
		}
		clear(last)
		for i := range r.agents {
			a := &r.agents[i]
			if a.tokID < 0 || last[a.tokID] == int32(a.Group)+1 {
				continue
			}
			tk := &r.tokens[a.tokID]
			// last doubles as "groups placed so far" through first.
			last[a.tokID] = int32(a.Group) + 1
			lists[tk.first] = int32(a.Group)
			tk.first++
		}
		for t := range r.tokens {
			tk := &r.tokens[t]
			tk.first -= tk.count
			if tk.count < 2 {
				continue
			}
			start := len(r.setGroups)
			r.setGroups = append(r.setGroups, lists[tk.first:tk.first+tk.count]...)
			tk.set = r.addSetRange(int32(start))
		}
	}
	// The "*" groups, merged.
	start := len(r.setGroups)
	for g := range r.groups {
		if r.groups[g].Star {
			r.setGroups = append(r.setGroups, int32(g))
		}
	}
	switch len(r.setGroups) - start {
	case 0:
		r.starSet = NoSet
	case 1:
		r.starSet = SetID(r.setGroups[start])
		r.setGroups = r.setGroups[:start]
	default:
		r.starSet = r.addSetRange(int32(start))
	}
}

// addSetRange makes a set of setGroups[start:] and orders its rules.
func (r *Robots) addSetRange(start int32) SetID {
	groups := span{start, int32(len(r.setGroups)) - start}
	ostart := len(r.order)
	for _, g := range sub(r.setGroups, groups) {
		gr := &r.groups[g]
		for i := gr.rules.off; i < gr.rules.off+gr.rules.n; i++ {
			ru := &r.rules[i]
			if ru.Empty {
				continue
			}
			pre, mask := literalPrefix(sub(r.arena, ru.pat))
			r.order = append(r.order, orderedRule{length: ru.pat.n, allow: ru.Directive == Allow, rule: i, prefix: pre, mask: mask})
		}
	}
	slices.SortFunc(r.order[ostart:], compareOrdered)
	r.sets = append(r.sets, ruleSet{groups: groups, rules: span{int32(ostart), int32(len(r.order) - ostart)}})
	return SetID(len(r.sets) - 1)
}

// compareOrdered puts the rule that wins first (RFC 9309 §2.2.2): the
// longest pattern in octets; at equal length allow before disallow; then
// file order, so that the reported rule is stable.
func compareOrdered(a, b orderedRule) int {
	if a.length != b.length {
		return int(b.length - a.length)
	}
	if a.allow != b.allow {
		if a.allow {
			return -1
		}
		return 1
	}
	return int(a.rule - b.rule)
}
