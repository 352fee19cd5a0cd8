package report

import "github.com/robotstat/robotstat/schema"

// Signals: what a parsed site's robots.txt says about AI use besides its
// rules, read from the signals table rows of its answering capture, and
// set beside what its rules do to the AI-training bots.
//
// Content-Signal (Cloudflare, contentsignals.org): ai-train, ai-input and
// search take yes or no (compared without regard to case); use= (immediate,
// reference, full) is the key seen in the wild since 2026. Where the line
// sits is reported as it is (in the * group, in a named group, outside any
// group), because the policy text does not scope it; for the site's
// stance, every line counts, the most restrictive value winning.
//
// Content-Usage (draft-ietf-aipref-attach-05, labels of
// draft-ietf-aipref-vocab-08: train-ai, ai-use, search with y or n): a
// rule of a group. For the site's stance on training, each group's rules
// are matched against the path "/" as Allow and Disallow are (the longest
// path that matches wins; a rule without a path matches every path, with
// length 0; on a tie n wins, the vocabulary's most restrictive
// combination), then the groups are combined most restrictively. A line
// outside any group is not a rule under the draft: it is counted, not
// read. Labels vocab-08 does not define (ai, train-genai, bots, tdm ...
// from earlier drafts) are counted as such and not read (vocab-08 §6.4:
// unknown labels are ignored). Keys are lower-cased by analyze, so
// "Train-AI=n", which a Structured Fields parser rejects, is read as
// train-ai=n; parse/doc.go lists this leniency.
//
// The site's AI-training preference by signal is refused when it has
// ai-train=no or train-ai=n at "/", else allowed when it has ai-train=yes
// or train-ai=y there, else not stated. By its rules, the site blocks
// every, some or none of the catalog's ai-training bots fully (robotstat
// verdict). They contradict each other when the signal allows training
// while the rules block every AI-training bot (or, in part, some of them).
// A signal refusing training beside rules that let the bots in does not
// contradict them: saying "crawl me, do not train on me" is what the
// signals are for.

// stance is what a capture's signals rows say.
type stance struct {
	cs, csStar, csNamed, csOutside bool
	aiTrain, aiInput, search       int8 // -1 no, +1 yes, 0 not stated or another value
	use                            bool // use= with a value the policy names
	cu, cuRule, cuOutside, cuPath  bool
	cuOther                        bool // a Content-Usage label vocab-08 does not define
	cuTrain                        int8 // train-ai at "/": -1 n, +1 y, 0 unknown
	groups                         []cuGroup
}

// cuGroup is the train-ai rule of one group that best matches "/" so far.
type cuGroup struct {
	group int32
	len   int
	val   int8
}

// Training preferences by signal, and blocking of the AI-training bots by
// the rules, by index.
const (
	stanceRefuse = iota
	stanceAllow
	stanceNone
	numStances
)

const (
	blockEvery = iota
	blockSome
	blockNone
	numBlocks
)

// training returns the site's AI-training preference by signal.
func (st *stance) training() int {
	switch {
	case st == nil:
		return stanceNone
	case st.aiTrain < 0 || st.cuTrain < 0:
		return stanceRefuse
	case st.aiTrain > 0 || st.cuTrain > 0:
		return stanceAllow
	}
	return stanceNone
}

// restrictive combines two stated values: no wins.
func restrictive(a, b int8) int8 {
	switch {
	case a < 0 || b < 0:
		return -1
	case a > 0 || b > 0:
		return 1
	}
	return 0
}

func yesNo(v string) int8 {
	switch {
	case equalFold(v, "no"):
		return -1
	case equalFold(v, "yes"):
		return 1
	}
	return 0
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[i] {
			return false
		}
	}
	return true
}

// matchesRoot returns the length of a Content-Usage path that matches "/"
// under RFC 9309 patterns ("/", "/*", "*", "/$" ...), and false for one
// that does not.
func matchesRoot(p string) (int, bool) {
	rest := p
	anchored := len(rest) > 0 && rest[len(rest)-1] == '$'
	if anchored {
		rest = rest[:len(rest)-1]
	}
	lit := ""
	star := false
	for i := 0; i < len(rest); i++ {
		if rest[i] == '*' {
			star = true
			continue
		}
		lit += rest[i : i+1]
	}
	switch {
	case lit == "/" && (!anchored || star || rest == "/"):
		return len(p), true
	case lit == "" && star:
		return len(p), true
	}
	return 0, false
}

// add reads one signals row into the stance.
func (st *stance) add(r *schema.SignalRow) {
	outside := r.GroupIndex == nil
	switch r.Directive {
	case "content-signal":
		st.cs = true
		switch {
		case outside:
			st.csOutside = true
		case r.StarGroup:
			st.csStar = true
		default:
			st.csNamed = true
		}
		switch r.Name {
		case "ai-train":
			st.aiTrain = restrictive(st.aiTrain, yesNo(r.Value))
		case "ai-input":
			st.aiInput = restrictive(st.aiInput, yesNo(r.Value))
		case "search":
			st.search = restrictive(st.search, yesNo(r.Value))
		case "use":
			switch {
			case equalFold(r.Value, "immediate"), equalFold(r.Value, "reference"), equalFold(r.Value, "full"):
				st.use = true
			}
		}
	case "content-usage":
		st.cu = true
		if outside {
			st.cuOutside = true
			return
		}
		st.cuRule = true
		if r.Path != "" {
			st.cuPath = true
		}
		switch r.Name {
		case "train-ai", "ai-use", "search":
		default:
			st.cuOther = true
			return
		}
		if r.Name != "train-ai" {
			return
		}
		var v int8
		switch r.Value {
		case "n":
			v = -1
		case "y":
			v = 1
		default:
			return
		}
		n := 0
		if r.Path != "" {
			var ok bool
			if n, ok = matchesRoot(r.Path); !ok {
				return
			}
		}
		for i := range st.groups {
			g := &st.groups[i]
			if g.group != *r.GroupIndex {
				continue
			}
			switch {
			case n > g.len:
				g.len, g.val = n, v
			case n == g.len:
				g.val = restrictive(g.val, v)
			}
			return
		}
		st.groups = append(st.groups, cuGroup{group: *r.GroupIndex, len: n, val: v})
	}
}

// done combines the groups' train-ai at "/".
func (st *stance) done() {
	for _, g := range st.groups {
		st.cuTrain = restrictive(st.cuTrain, g.val)
	}
	st.groups = nil
}

// AddSignals reads signals rows of the current crawl; they must come
// before its sites rows. A capture's rows may come in any order and apart
// (analyze's workers write row groups of their own, and a capture's rows
// may be split between two of them): each capture's train-ai groups are
// combined only at the end of the crawl's signals (endSignals), so the
// result does not depend on the order of the rows.
func (s *Tally) AddSignals(rows []schema.SignalRow) {
	s.mustBeOpen("signals")
	if s.sitesBegun || s.othersBegun {
		panic("report: signals rows after sites rows of the same crawl")
	}
	for i := range rows {
		r := &rows[i]
		if s.sig == nil || r.CaptureID != s.sigID {
			if s.capSignals == nil {
				s.capSignals = map[uint64]*stance{}
			}
			k := captureKey(r.CaptureID)
			s.sig = s.capSignals[k]
			if s.sig == nil {
				s.sig = &stance{}
				s.capSignals[k] = s.sig
			}
			s.sigID = r.CaptureID
		}
		s.sig.add(r)
	}
}

// endSignals combines the train-ai groups of every capture read, once all
// of the crawl's signals rows are in; it waits for the crawl's sites.
func (s *Tally) endSignals() {
	if s.sig == nil {
		return
	}
	for _, st := range s.capSignals {
		st.done()
	}
	s.sig, s.sigID = nil, ""
}

// signalRows are the facts the signals table counts, of parsed sites.
var signalRows = [...]struct {
	labels [2]string
	test   func(*stance) bool
	rare   bool // left out when no site has it
}{
	{[2]string{"Content-Signal", "any line"}, func(s *stance) bool { return s.cs }, false},
	{[2]string{"", "in the * group"}, func(s *stance) bool { return s.csStar }, true},
	{[2]string{"", "in a group naming bots"}, func(s *stance) bool { return s.csNamed }, true},
	{[2]string{"", "outside any group (file-wide)"}, func(s *stance) bool { return s.csOutside }, true},
	{[2]string{"", "ai-train=no"}, func(s *stance) bool { return s.aiTrain < 0 }, false},
	{[2]string{"", "ai-train=yes"}, func(s *stance) bool { return s.aiTrain > 0 }, true},
	{[2]string{"", "ai-input=no"}, func(s *stance) bool { return s.aiInput < 0 }, true},
	{[2]string{"", "ai-input=yes"}, func(s *stance) bool { return s.aiInput > 0 }, true},
	{[2]string{"", "search=no"}, func(s *stance) bool { return s.search < 0 }, true},
	{[2]string{"", "search=yes"}, func(s *stance) bool { return s.search > 0 }, true},
	{[2]string{"", "use= (immediate, reference, full)"}, func(s *stance) bool { return s.use }, true},
	{[2]string{"Content-Usage", "any line"}, func(s *stance) bool { return s.cu }, false},
	{[2]string{"", "a rule in a group"}, func(s *stance) bool { return s.cuRule }, true},
	{[2]string{"", "outside any group (not a rule)"}, func(s *stance) bool { return s.cuOutside }, true},
	{[2]string{"", "a rule with a path"}, func(s *stance) bool { return s.cuPath }, true},
	{[2]string{"", "train-ai=n at /"}, func(s *stance) bool { return s.cuTrain < 0 }, true},
	{[2]string{"", "train-ai=y at /"}, func(s *stance) bool { return s.cuTrain > 0 }, true},
	{[2]string{"", "a label vocab-08 does not define"}, func(s *stance) bool { return s.cuOther }, true},
}

// crossRows label the cells of signal stance × blocking, in table order.
var crossRows = [...]struct {
	stance, block int
	reading       string
}{
	{stanceRefuse, blockEvery, "agree"},
	{stanceRefuse, blockSome, "agree in part"},
	{stanceRefuse, blockNone, "signal only"},
	{stanceAllow, blockEvery, "contradict"},
	{stanceAllow, blockSome, "contradict in part"},
	{stanceAllow, blockNone, "agree"},
	{stanceNone, blockEvery, "rules only"},
	{stanceNone, blockSome, "rules only, in part"},
	{stanceNone, blockNone, "neither"},
}

var stanceLabels = [numStances]string{"refused", "allowed", "not stated"}
var blockLabels = [numBlocks]string{"every one", "some", "none"}
