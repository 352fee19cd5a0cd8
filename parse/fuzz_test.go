package parse

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzParse checks the tokenizer's invariants on any input: it never panics,
// lines are numbered 1, 2, 3... with increasing offsets inside the body,
// record slices point into the line they came from, and the summary counts
// what was reported.
func FuzzParse(f *testing.F) {
	for _, c := range conformance {
		if len(c.robots) < 4096 {
			f.Add([]byte(c.robots))
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		h := &invariants{t: t, body: body}
		NewParser(Options{}).Parse(body, h)
		if !h.ended {
			t.Fatal("End not called")
		}
		var r Robots
		NewParser(Options{}).Compile(body, &r)
		for _, a := range []string{"a", "*", "GPTBot"} {
			r.Decide(a, "/a/b?c")
		}
	})
}

type invariants struct {
	t         *testing.T
	body      []byte
	lastNum   int
	lastOff   int
	lines     int
	directive int
	pending   *Entry
	ended     bool
}

func (h *invariants) Start(f *FileInfo) {
	if f.Size != len(h.body) || f.Parsed > f.Size {
		h.t.Fatalf("FileInfo %+v for %d bytes", *f, len(h.body))
	}
	h.lastOff = -1
}

func (h *invariants) entry(e *Entry) {
	if e.Line != h.lastNum+1 {
		h.t.Fatalf("entry on line %d after line %d", e.Line, h.lastNum)
	}
	cp := *e
	h.pending = &cp
	if len(e.Value) > 0 && !within(h.body, e.Value) || !within(h.body, e.RawKey) {
		h.t.Fatalf("entry slices outside the body")
	}
	if e.Flags&LineDirective == 0 {
		h.t.Fatalf("entry without LineDirective")
	}
}

func within(body, s []byte) bool {
	if len(s) == 0 {
		return true
	}
	start := bytes.Index(body, s)
	return start >= 0
}

func (h *invariants) UserAgent(e *Entry) { h.entry(e) }
func (h *invariants) Allow(e *Entry)     { h.entry(e) }
func (h *invariants) Disallow(e *Entry)  { h.entry(e) }
func (h *invariants) Sitemap(e *Entry)   { h.entry(e) }
func (h *invariants) Other(e *Entry)     { h.entry(e) }

func (h *invariants) Line(l *LineInfo) {
	if l.Num != h.lastNum+1 || l.Offset <= h.lastOff || l.Offset+l.Len > len(h.body) {
		h.t.Fatalf("line %d at %d (len %d) after line %d at %d", l.Num, l.Offset, l.Len, h.lastNum, h.lastOff)
	}
	if bytes.ContainsAny(h.body[l.Offset:l.Offset+l.Len], "\r\n") {
		h.t.Fatalf("line %d contains a line terminator", l.Num)
	}
	if h.pending != nil && (h.pending.Line != l.Num || h.pending.Offset != l.Offset) {
		h.t.Fatalf("entry for line %d reported with line %d", h.pending.Line, l.Num)
	}
	if (h.pending != nil) != (l.Flags&LineDirective != 0) {
		h.t.Fatalf("line %d: directive flag %v but entry %v", l.Num, l.Flags&LineDirective != 0, h.pending != nil)
	}
	if l.Flags&LineBlank != 0 && l.Flags&(LineDirective|LineInvalid|LineComment) != 0 {
		h.t.Fatalf("line %d: blank with other flags %b", l.Num, l.Flags)
	}
	if h.pending != nil {
		h.directive++
	}
	h.pending = nil
	h.lastNum, h.lastOff = l.Num, l.Offset
	h.lines++
}

func (h *invariants) End(s *LineCounts) {
	if s.Lines != h.lines || s.Directive != h.directive {
		h.t.Fatalf("summary %+v, saw %d lines %d directives", *s, h.lines, h.directive)
	}
	if s.LF+s.CRLF+s.CR > s.Lines {
		h.t.Fatalf("more terminators than lines: %+v", *s)
	}
	h.ended = true
}

// FuzzDecide compares Robots.Decide with refDecide, a deliberately simple
// reference: linear group search, a dynamic-programming wildcard matcher and
// a scan of every rule for the longest match.
func FuzzDecide(f *testing.F) {
	for _, c := range conformance {
		if len(c.robots) < 4096 && len(c.url) < 4096 {
			f.Add(c.robots, c.agent, c.url)
		}
	}
	f.Add("User-agent: *\nDisallow: /*a*a*a*a*b$\nAllow: /*a$\n", "x", "/aaaaab")
	f.Fuzz(func(t *testing.T, body, agent, url string) {
		var r Robots
		NewParser(Options{}).Compile([]byte(body), &r)
		got := r.Decide(agent, url)
		want, why := refDecide(&r, agent, url)
		if got.Allowed != want {
			t.Fatalf("Decide(%q, %q) = %v (%v), reference %v (%s)\nrobots.txt:\n%s", agent, url, got.Allowed, got.Reason, want, why, body)
		}
	})
}

// refDecide decides from the compiled groups and rules, without the index,
// the sets or the ordered rules.
func refDecide(r *Robots, agent, url string) (bool, string) {
	path := string(normalisedPath(nil, []byte(url)))
	if path == "/robots.txt" {
		return true, "implicit"
	}
	tok := refToken(agent)
	var groups []Group
	for _, g := range r.Groups() {
		for _, a := range g.Agents {
			if tok != "" && !a.Star && refToken(string(a.Value)) == tok {
				groups = append(groups, g)
				break
			}
		}
	}
	if len(groups) == 0 {
		for _, g := range r.Groups() {
			if g.Star {
				groups = append(groups, g)
			}
		}
	}
	best, allowed, why := -1, true, "no match"
	for _, g := range groups {
		for _, ru := range g.Rules {
			if ru.Empty || !refMatch(string(ru.Pattern), path) {
				continue
			}
			n := len(ru.Pattern)
			if n > best || n == best && ru.Directive == Allow {
				best, allowed, why = n, ru.Directive == Allow, ru.Directive.String()+" "+string(ru.Pattern)
			}
		}
	}
	return allowed, why
}

// refToken reads a product token the slow, obvious way: runes while they
// are ASCII letters, digits, "_" and "-" or other letters, marks and
// numbers (a broken UTF-8 sequence decodes as U+FFFD, not a letter), then
// strings.ToLower.
func refToken(s string) string {
	end := len(s)
	for i, c := range s {
		ok := c == '_' || c == '-' || c < utf8.RuneSelf && (unicode.IsLetter(c) || unicode.IsDigit(c)) ||
			c >= utf8.RuneSelf && (unicode.IsLetter(c) || unicode.IsMark(c) || unicode.IsNumber(c))
		if !ok {
			end = i
			break
		}
	}
	return strings.ToLower(s[:end])
}

// refMatch is the textbook dynamic program: m[i][j] says pattern[:i]
// matches path[:j].
func refMatch(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	} else {
		pattern += "*"
	}
	prev := make([]bool, len(path)+1)
	prev[0] = true
	for i := 0; i < len(pattern); i++ {
		cur := make([]bool, len(path)+1)
		for j := 0; j <= len(path); j++ {
			if pattern[i] == '*' {
				cur[j] = prev[j] || (j > 0 && cur[j-1])
			} else if j > 0 {
				cur[j] = prev[j-1] && pattern[i] == path[j-1]
			}
		}
		prev = cur
	}
	return prev[len(path)]
}

// FuzzProductToken compares the token reading with refToken, the obvious
// one: the token read, its lower case, its hash and its comparison with
// another value's token must agree with strings.ToLower of refToken.
func FuzzProductToken(f *testing.F) {
	for _, s := range []string{"MJ12bot/v1", "Jävla-Foobot", "JÄVLA-FOOBOT", "\u212Abot", "kbot", "GPTBot\u00a0x", "J\xe4vla", "Львів-bot", "*", ""} {
		f.Add(s, strings.ToUpper(s))
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ta, tb := ProductToken([]byte(a)), ProductToken([]byte(b))
		ra, rb := refToken(a), refToken(b)
		if low := string(AppendLowerToken(nil, ta)); low != ra {
			t.Fatalf("token of %q lower-cases to %q, reference %q", a, low, ra)
		}
		if got := equalToken(ta, tb); got != (ra == rb) {
			t.Fatalf("equalToken(%q, %q) = %v, reference tokens %q %q", ta, tb, got, ra, rb)
		}
		if ra == rb && hashToken(ta) != hashToken(tb) {
			t.Fatalf("%q and %q are the same token with different hashes", ta, tb)
		}
	})
}
