package verdict

import (
	"bytes"
	"slices"
	"unsafe"

	"github.com/robotstat/robotstat/parse"
)

// rootAllowed holds the two values BotVerdict.RootAllowed points at.
var rootAllowed = [2]bool{false, true}

func rootPtr(allowed bool) *bool {
	if allowed {
		return &rootAllowed[1]
	}
	return &rootAllowed[0]
}

var (
	verdictsUnavailable = BotVerdict{Verdict: None, Somesite: None, CIC: CICNone, CCClass: CCClassAllowAll, RootAllowed: rootPtr(true)}
	verdictsUnreachable = BotVerdict{Verdict: Full, Somesite: Full, CIC: CICAll, CCClass: CCClassDisallowAll, RootAllowed: rootPtr(false)}
	verdictsRedirect    = BotVerdict{Verdict: Unknown, Somesite: Unknown, CIC: Unknown, CCClass: Unknown}
	verdictsNoGroup     = BotVerdict{Verdict: None, Somesite: None, CIC: CICNone, CCClass: CCClassAllowAll, RootAllowed: rootPtr(true)}
)

// Witness paths. probePath stands for "a path no rule was written for"; its
// characters are chosen to be unlikely in real patterns. somesiteDummy is
// the dummy path of Liu et al.'s code (robots_analysis_final.py).
const (
	probePath     = "/~rs~q~"
	probeSuffix   = "~rs~q~"
	somesiteDummy = "/dummy-testing-path-54321"
)

// Verdicter computes the verdicts of the agents of one compiled file, once per
// distinct group set (parse.SetID): all agents that fall back to "*", and
// all agents named only in one stacked group, share one computation.
//
// A Verdicter is reusable (Reset it for each file) and not safe for
// concurrent use.
type Verdicter struct {
	// AlwaysIndex decides every set through the rule index (index.go) from
	// its first witness, instead of only sets of more than 64 rules after
	// 32 direct decisions. The verdicts are the same either way (tests run
	// both and compare); only the cost differs.
	AlwaysIndex bool

	r *parse.Robots
	// sets holds, per SetID, what has been computed since Reset.
	sets []setMemo
	// somesite paths: every allow/disallow value of the file, "$" removed,
	// as [start,end) offsets into paths.
	paths []byte
	spans []int32
	// uniq are the distinct paths among spans[:scanned], in file order
	// (see distinct); seen holds them as strings aliasing paths.
	uniq    [][2]int32
	scanned int
	seen    map[string]struct{}
	// scratch for witnesses and cic's lists
	buf, url  []byte
	dis, alls [][]byte
	// large sets are decided through an index (index.go)
	idx       ruleIndex
	useIdx    bool
	bigSet    bool
	tries     int
	curSet    parse.SetID
	norm      []byte     // normalised somesite paths, for the index
	normSpans [][2]int32 // parallel to uniq
	normDone  bool
	np        parse.Parser
	nr        parse.Robots
	nbody     []byte
	// witness results of the current computation
	allowed, disallowed bool
}

// Reset prepares v for the file r was just built from. rawValues are the
// values of every allow and disallow line of the file as written (including
// those before the first user-agent line, which the somesite definition
// also tests); pass nil to use r.Rules(). Their order does not change any
// verdict, only how soon somesite settles: it tries the distinct values in
// the order given, so stats.Analyzer passes the disallow values first (most sets
// allow "/", and then the first disallowed value decides).
func (v *Verdicter) Reset(r *parse.Robots, rawValues [][]byte) {
	v.r = r
	n := r.NumSets()
	if cap(v.sets) < n {
		v.sets = make([]setMemo, n)
	}
	v.sets = v.sets[:n]
	clear(v.sets)
	// seen's keys alias paths: forget them before paths is overwritten.
	clear(v.seen)
	v.uniq, v.scanned = v.uniq[:0], 0
	v.paths = v.paths[:0]
	v.spans = v.spans[:0]
	if cap(v.buf) < 256 {
		v.buf = make([]byte, 0, 256)
		v.url = make([]byte, 0, 256)
	}
	add := func(val []byte) {
		if len(val) > 0 && val[len(val)-1] == '$' {
			val = val[:len(val)-1]
		}
		// Store the path somesite will test (distinct drops repeats).
		p := somesitePath(val)
		v.paths = append(v.paths, p...)
		v.spans = append(v.spans, int32(len(v.paths)))
	}
	if rawValues != nil {
		for _, val := range rawValues {
			add(val)
		}
	} else {
		for i := range r.Rules() {
			add(r.Rules()[i].Raw)
		}
	}
	v.normDone = false
}

// distinct reports whether the file has more than i distinct somesite
// paths, extending uniq as far as that needs: somesite tests each distinct
// path once (a blocklist of a hundred "Disallow: /" groups tests "/" once)
// and most sets are decided by the first few paths, so the rest are never
// compared.
func (v *Verdicter) distinct(i int) bool {
	for len(v.uniq) <= i && v.scanned < len(v.spans) {
		var start int32
		if v.scanned > 0 {
			start = v.spans[v.scanned-1]
		}
		end := v.spans[v.scanned]
		v.scanned++
		p := v.paths[start:end]
		if _, dup := v.seen[string(p)]; dup {
			continue
		}
		if v.seen == nil {
			v.seen = make(map[string]struct{}, 64)
		}
		v.seen[unsafe.String(unsafe.SliceData(p), len(p))] = struct{}{}
		v.uniq = append(v.uniq, [2]int32{start, end})
	}
	return i < len(v.uniq)
}

// setMemo is what one group set's computations found: its verdicts (Known
// once computed) and the decision for "/" (0 not yet decided, 1 allowed,
// -1 disallowed).
type setMemo struct {
	verdicts BotVerdict
	root     int8
}

// RootAllowed reports whether "/" may be fetched by an agent that Lookup
// resolved to (id, m), after the status outcome; false for a redirect.
// It is For(id, m).RootAllowed without computing the verdicts. A parsed
// file's answer is decided once per set until the next Reset: the agents
// and bots tables, captures.star_disallows_root and the first witness of
// robotstat and somesite all ask it.
func (v *Verdicter) RootAllowed(id parse.SetID, m parse.Match) bool {
	if id == parse.NoSet || v.r.Outcome() != parse.OutcomeParsed {
		return v.r.DecideSet(id, m, "/").Allowed
	}
	c := &v.sets[id]
	if c.root == 0 {
		c.root = -1
		if v.r.DecideSet(id, m, "/").Allowed {
			c.root = 1
		}
	}
	return c.root > 0
}

// For returns the verdicts for an agent that Lookup resolved to (id, m).
// Results are cached per SetID until the next Reset.
func (v *Verdicter) For(id parse.SetID, m parse.Match) BotVerdict {
	switch v.r.Outcome() {
	case parse.OutcomeUnavailable:
		return verdictsUnavailable
	case parse.OutcomeUnreachable:
		return verdictsUnreachable
	case parse.OutcomeRedirect:
		return verdictsRedirect
	}
	if id == parse.NoSet {
		return verdictsNoGroup
	}
	if c := &v.sets[id]; c.verdicts.Known() {
		return c.verdicts
	}
	var out BotVerdict
	// Most sets are decided after a few witnesses; the index is built only
	// for a large set that needs many (see index.go).
	v.curSet = id
	threshold := indexMinRules
	if v.AlwaysIndex {
		threshold = 0
	}
	v.useIdx, v.tries, v.bigSet = false, 0, v.setSize(id) > threshold
	out.RootAllowed = rootPtr(v.RootAllowed(id, m))
	if v.blocksEverything(id) {
		// A universal disallow and no allow: every path is disallowed, so
		// every witness and every somesite path would be.
		out.Verdict, out.Somesite = Full, Full
	} else {
		out.Verdict = v.robotstat(id, m)
		out.Somesite = v.somesite(id, m)
	}
	out.CIC = v.cic(id)
	out.CCClass = v.ccClass(id, m)
	v.sets[id].verdicts = out
	return out
}

// decide runs the real matcher on the path held in b (not retained). The
// path is passed inside an absolute URL so that a witness beginning with
// "//" is read as a path, not as a network-path reference.
func (v *Verdicter) decide(id parse.SetID, m parse.Match, b []byte) parse.Decision {
	v.url = append(append(v.url[:0], "http://h"...), b...)
	return v.r.DecideSet(id, m, unsafe.String(&v.url[0], len(v.url)))
}

// robotstat decides full/partial/none by probing witness paths with the real
// matcher (RFC 9309 §2.2.2: longest match, allow wins ties, "*" and "$").
//
// A path can only be disallowed by a matching non-empty disallow rule, so a
// set without one is "none". Otherwise the witnesses are "/", a probe path
// no rule was written for, and for every rule of the set its pattern with
// each "*" deleted (the shortest path it matches) and, unless it is anchored
// with "$", that path with the probe suffix appended (a longer path it
// matches). /robots.txt itself, always allowed (§2.2.2), is not a witness.
// An allowed witness proves the verdict is not full and a disallowed one that
// it is not none: full when no witness is allowed, none when none is
// disallowed, partial otherwise.
//
// Why this suffices: an allow rule A lets some path through only if a path
// it matches escapes every longer disallow; A's shortest path and its
// extension by an unrelated suffix are the paths a longer disallow is least
// and most likely to miss, so when both are disallowed every path A matches
// is (up to adversarial rule sets that enumerate A's extensions, which real
// files do not). The same argument, with roles swapped, covers disallow
// rules and "none".
func (v *Verdicter) robotstat(id parse.SetID, m parse.Match) string {
	groups := v.r.Groups()
	sg := v.r.SetGroups(id)
	hasDisallow := false
	for _, g := range sg {
		for i := range groups[g].Rules {
			if ru := &groups[g].Rules[i]; ru.Directive == parse.Disallow && !ru.Empty {
				hasDisallow = true
			}
		}
	}
	if !hasDisallow {
		return None
	}
	v.allowed, v.disallowed = false, false
	if v.note(v.RootAllowed(id, m)) || v.try(id, m, append(v.buf[:0], probePath...)) {
		return Partial
	}
	// Look first among the rules that can supply what is still missing:
	// allow rules make a blocked root partial, disallow rules an allowed one.
	order := [...]parse.Directive{parse.Allow, parse.Disallow}
	if v.allowed {
		order = [...]parse.Directive{parse.Disallow, parse.Allow}
	}
	for _, want := range order {
		for _, g := range sg {
			for i := range groups[g].Rules {
				ru := &groups[g].Rules[i]
				if ru.Directive != want || ru.Empty {
					continue
				}
				v.maybeIndex()
				if v.witnesses(id, m, ru.Pattern) {
					return Partial
				}
			}
		}
	}
	return v.tally()
}

// maybeIndex switches a large set to the index once it has needed more
// than lazyIndexAfter witnesses, and reports whether the index is in use.
func (v *Verdicter) maybeIndex() bool {
	if v.bigSet && !v.useIdx && (v.tries >= lazyIndexAfter || v.AlwaysIndex) {
		v.idx.build(v.r, v.curSet)
		v.useIdx = true
	}
	return v.useIdx
}

// setSize counts the rules of a set, empty ones included.
func (v *Verdicter) setSize(id parse.SetID) int {
	n := 0
	groups := v.r.Groups()
	for _, g := range v.r.SetGroups(id) {
		n += len(groups[g].Rules)
	}
	return n
}

// normalisePaths brings the somesite paths to the normalised form the index
// compares (RFC 9309 §2.2.2, as parse normalises URL paths): the parser's
// pattern normalisation, which differs from the path normalisation only in
// keeping "*" and a final "$", whose path forms are %2A and %24.
func (v *Verdicter) normalisePaths() {
	v.distinct(len(v.spans)) // every path
	v.nbody = append(v.nbody[:0], "user-agent: x\n"...)
	for _, o := range v.uniq {
		p := somesiteLine(v.paths[o[0]:o[1]])
		v.nbody = append(v.nbody, "allow: /"...)
		v.nbody = append(v.nbody, p...)
		v.nbody = append(v.nbody, '\n')
	}
	v.np.Compile(v.nbody, &v.nr)
	rules := v.nr.Rules()
	v.norm = v.norm[:0]
	v.normSpans = v.normSpans[:0]
	for i := range v.uniq {
		start := int32(len(v.norm))
		if i < len(rules) {
			pat := rules[i].Pattern
			for j, c := range pat {
				switch {
				case c == '*':
					v.norm = append(v.norm, "%2A"...)
				case c == '$' && j == len(pat)-1:
					v.norm = append(v.norm, "%24"...)
				default:
					v.norm = append(v.norm, c)
				}
			}
		}
		v.normSpans = append(v.normSpans, [2]int32{start, int32(len(v.norm))})
	}
	v.normDone = true
}

// somesiteLine is a stored somesite path without its leading "/" (added
// back by normalisePaths) and without bytes that would end the line.
func somesiteLine(p []byte) []byte {
	if len(p) > 0 && p[0] == '/' {
		p = p[1:]
	}
	if i := bytes.IndexAny(p, "\n\r#"); i >= 0 {
		return p[:i]
	}
	return p
}

// blocksEverything reports a set with no non-empty allow rule and a
// disallow rule whose pattern matches every path ("/", "/*", "*", "/*$",
// ...): a shortcut, not a definition; robotstat and somesite would find the
// same by probing.
func (v *Verdicter) blocksEverything(id parse.SetID) bool {
	groups := v.r.Groups()
	universal := false
	for _, g := range v.r.SetGroups(id) {
		for i := range groups[g].Rules {
			ru := &groups[g].Rules[i]
			if ru.Empty {
				continue
			}
			if ru.Directive == parse.Allow {
				return false
			}
			if !universal {
				universal = isUniversal(ru.Pattern)
			}
		}
	}
	return universal
}

// isUniversal reports whether a normalised pattern matches every path: an
// optional "/" followed only by "*", with at least one "*" when there is a
// "$" at the end.
func isUniversal(pat []byte) bool {
	anchored := len(pat) > 0 && pat[len(pat)-1] == '$'
	if anchored {
		pat = pat[:len(pat)-1]
	}
	if len(pat) > 0 && pat[0] == '/' {
		pat = pat[1:]
	} else if len(pat) == 0 {
		return false
	}
	for _, c := range pat {
		if c != '*' {
			return false
		}
	}
	return !anchored || len(pat) > 0
}

// try decides one witness path and reports whether both an allowed and a
// disallowed witness have now been seen.
func (v *Verdicter) try(id parse.SetID, m parse.Match, b []byte) bool {
	v.tries++
	if v.useIdx {
		if string(b) == "/robots.txt" {
			return false
		}
		return v.note(v.idx.allowed(b))
	}
	d := v.decide(id, m, b)
	if d.Reason == parse.ReasonImplicit {
		return false
	}
	return v.note(d.Allowed)
}

// tally is the verdict the witnesses noted so far give: full when none was
// allowed, none when none was disallowed, partial otherwise.
func (v *Verdicter) tally() string {
	switch {
	case !v.allowed:
		return Full
	case !v.disallowed:
		return None
	}
	return Partial
}

// note records one witness's decision and reports whether both an allowed
// and a disallowed witness have now been seen. "/" is noted from
// RootAllowed; as a decision not made again, it is not counted in tries.
func (v *Verdicter) note(allowed bool) bool {
	if allowed {
		v.allowed = true
	} else {
		v.disallowed = true
	}
	return v.allowed && v.disallowed
}

// witnesses tries the witness paths of one normalised pattern: each "*"
// once as nothing (the shortest path the pattern matches) and once as a
// probe character, each with and (unless anchored with "$") without the
// probe suffix appended.
func (v *Verdicter) witnesses(id parse.SetID, m parse.Match, pat []byte) bool {
	anchored := len(pat) > 0 && pat[len(pat)-1] == '$'
	if anchored {
		pat = pat[:len(pat)-1]
	}
	for _, fill := range [...]string{"", "~"} {
		b := v.buf[:0]
		if len(pat) == 0 || pat[0] != '/' && !(pat[0] == '*' && fill == "" && len(pat) > 1 && pat[1] == '/') {
			b = append(b, '/')
		}
		for _, c := range pat {
			if c == '*' {
				b = append(b, fill...)
			} else {
				b = append(b, c)
			}
		}
		v.buf = b
		if v.try(id, m, b) {
			return true
		}
		if !anchored {
			v.buf = append(v.buf, probeSuffix...)
			if v.try(id, m, v.buf) {
				return true
			}
		}
		if bytes.IndexByte(pat, '*') < 0 {
			break
		}
	}
	return false
}

// somesite follows Liu et al. (IMC'25, robots_analysis_final.py): test "/",
// every value of the file's allow and disallow lines with a trailing "$"
// removed and a dummy path; full when all are disallowed, none when none
// is, partial otherwise. The matcher is robotstat's RFC 9309 matcher applied
// to the RFC grouping (theirs was Google's reference parser, which groups
// the same way); the path tested for each value is the one their pipeline
// ends up testing (somesitePath).
func (v *Verdicter) somesite(id parse.SetID, m parse.Match) string {
	v.allowed, v.disallowed = false, false
	if v.note(v.RootAllowed(id, m)) || v.try(id, m, append(v.buf[:0], somesiteDummy...)) {
		return Partial
	}
	for i := 0; v.distinct(i); i++ {
		if v.maybeIndex() && !v.normDone {
			v.normalisePaths()
		}
		o := v.uniq[i]
		p := v.paths[o[0]:o[1]]
		if v.useIdx {
			n := v.normSpans[i]
			p = v.norm[n[0]:n[1]]
		}
		b := v.buf[:0]
		if len(p) == 0 || p[0] != '/' {
			b = append(b, '/')
		}
		v.buf = append(b, p...)
		if v.try(id, m, v.buf) {
			return Partial
		}
	}
	return v.tally()
}

// cic follows Longpre et al. 2024 (Data Provenance Initiative,
// src/web_analysis/parse_robots.py, interpret_agent): over the rules that
// apply, in file order, drop every allow and disallow value containing "?";
// none if no disallow is left, or the only one is empty, or the allow values
// equal the disallow values; all if a disallow value is "/" and no allow is
// left; some otherwise. An agent no group names takes the "*" groups' answer
// (For is called with the star set), none without them.
func (v *Verdicter) cic(id parse.SetID) string {
	v.dis, v.alls = v.dis[:0], v.alls[:0]
	groups := v.r.Groups()
	for _, g := range v.r.SetGroups(id) {
		for i := range groups[g].Rules {
			ru := &groups[g].Rules[i]
			if bytes.IndexByte(ru.Raw, '?') >= 0 {
				continue
			}
			if ru.Directive == parse.Disallow {
				v.dis = append(v.dis, ru.Raw)
			} else {
				v.alls = append(v.alls, ru.Raw)
			}
		}
	}
	if len(v.dis) == 0 || len(v.dis) == 1 && len(v.dis[0]) == 0 || slices.EqualFunc(v.alls, v.dis, bytes.Equal) {
		return CICNone
	}
	if len(v.alls) == 0 {
		for _, d := range v.dis {
			if string(d) == "/" {
				return CICAll
			}
		}
	}
	return CICSome
}

// ccClass follows Common Crawl's robotstxt-experiments
// (src/jupyter/metrics-top-k-sample.ipynb, classify_robotstxt_rules): the
// allow and disallow values that apply, as a multiset, are exactly
// {disallow: "/"} for disallow-all; exactly one of {allow: "/"},
// {allow: "*"}, {allow: "/*"}, {allow: ""}, {disallow: ""} for allow-all;
// anything else is allow-part. Their rule extraction records an agent only
// when a rule follows it, so a named set without rules falls back to the "*"
// set; with no rules at all the answer is allow-all.
func (v *Verdicter) ccClass(id parse.SetID, m parse.Match) string {
	var only *parse.Rule
	n := 0
	groups := v.r.Groups()
	for _, g := range v.r.SetGroups(id) {
		for i := range groups[g].Rules {
			only = &groups[g].Rules[i]
			n++
		}
	}
	switch {
	case n == 0:
		if m == parse.MatchNamed {
			if star := v.r.StarSet(); star != parse.NoSet && star != id {
				return v.ccClass(star, parse.MatchStar)
			}
		}
		return CCClassAllowAll
	case n > 1:
		return CCClassAllowPart
	}
	raw := string(only.Raw)
	if only.Directive == parse.Disallow {
		switch raw {
		case "/":
			return CCClassDisallowAll
		case "":
			return CCClassAllowAll
		}
		return CCClassAllowPart
	}
	switch raw {
	case "/", "*", "/*", "":
		return CCClassAllowAll
	}
	return CCClassAllowPart
}

// somesitePath is the path Liu et al.'s pipeline ends up testing for one
// allow/disallow value: their code takes the value's first white-space
// separated word, appends it to the site URL (trailing slash removed) and
// hands the URL to Google's parser, which reads the path from the first
// "/", "?" or ";" after the host. So "/a" tests "/a", "" and "*.pdf" test
// "/" (the characters join the host name), "*/tmp/" tests "/tmp/" and
// "*?x" tests "/?x". The caller adds the leading "/" where needed.
func somesitePath(val []byte) []byte {
	if i := bytes.IndexAny(val, " \t"); i >= 0 {
		val = val[:i]
	}
	if i := bytes.IndexAny(val, "/?;"); i >= 0 {
		return val[i:]
	}
	return nil
}
