package parse

import "bytes"

// Reason says why a Decision came out as it did.
type Reason uint8

const (
	// ReasonRule: a rule matched; Decision.Rule is it.
	ReasonRule Reason = iota
	// ReasonNoMatch: groups apply but none of their rules matches: allowed
	// (RFC 9309 §2.2.2).
	ReasonNoMatch
	// ReasonNoGroup: no group names the agent and there is no "*" group:
	// allowed (RFC 9309 §2.2.1).
	ReasonNoGroup
	// ReasonImplicit: the path is /robots.txt, which is implicitly allowed
	// (RFC 9309 §2.2.2; Deviation_robots_txt_implicit in doc.go).
	ReasonImplicit
	// ReasonUnavailable: the fetch was a 4xx: allow all (§2.3.1.3).
	ReasonUnavailable
	// ReasonUnreachable: the fetch was a 5xx or failed: disallow all
	// (§2.3.1.4).
	ReasonUnreachable
	// ReasonRedirect: the fetch was a redirect that was not followed; the
	// answer is undecided and Allowed is false.
	ReasonRedirect
)

var reasonNames = [...]string{
	ReasonRule:        "rule",
	ReasonNoMatch:     "no-match",
	ReasonNoGroup:     "no-group",
	ReasonImplicit:    "implicit",
	ReasonUnavailable: "unavailable",
	ReasonUnreachable: "unreachable",
	ReasonRedirect:    "redirect",
}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "invalid"
}

// Decision is the answer to "may this agent fetch this URL?". Rule and
// Groups point into the Robots that made it and are valid until that Robots
// is rebuilt.
type Decision struct {
	Allowed bool
	Reason  Reason
	// Match says how the agent found its groups; Set is the merged set
	// (NoSet with MatchNone).
	Match Match
	Set   SetID
	// Rule is the deciding rule when Reason is ReasonRule, else nil.
	Rule *Rule
	// Groups are the indices of the groups that applied (see
	// Robots.Groups), in file order.
	Groups []int32
}

// pathBufSize is the stack buffer for normalising a URL path. Longer paths
// that need normalising make one heap allocation.
const pathBufSize = 512

// Decide answers whether agent may fetch url. url may be an absolute URL
// ("https://example.com/a?b") or a path ("/a?b"); the scheme and authority
// are ignored, the fragment is dropped and an empty path is "/". See Lookup
// for how agent is read. Decide does not allocate (for paths up to 512 bytes
// after normalisation) and is safe for concurrent use.
func (r *Robots) Decide(agent, url string) Decision {
	id, m := r.Lookup(agent)
	return r.DecideSet(id, m, url)
}

// DecideSet is Decide for an agent already looked up, so that one Lookup
// serves many URLs.
func (r *Robots) DecideSet(id SetID, m Match, url string) Decision {
	d := Decision{Match: m, Set: id}
	if id != NoSet {
		d.Groups = r.SetGroups(id)
	}
	switch r.outcome {
	case OutcomeUnavailable:
		d.Allowed, d.Reason = true, ReasonUnavailable
		return d
	case OutcomeUnreachable:
		d.Reason = ReasonUnreachable
		return d
	case OutcomeRedirect:
		d.Reason = ReasonRedirect
		return d
	}
	var buf [pathBufSize]byte
	path := normalisedPath(buf[:0], stringBytes(url))
	if string(path) == "/robots.txt" {
		d.Allowed, d.Reason = true, ReasonImplicit
		return d
	}
	if id == NoSet {
		d.Allowed, d.Reason = true, ReasonNoGroup
		return d
	}
	head := pathPrefix(path)
	rules := sub(r.order, r.sets[id].rules)
	for i := range rules {
		o := &rules[i]
		if head&o.mask != o.prefix {
			continue
		}
		if ru := &r.rules[o.rule]; ru.matches(path) {
			d.Allowed, d.Reason, d.Rule = o.allow, ReasonRule, ru
			return d
		}
	}
	d.Allowed, d.Reason = true, ReasonNoMatch
	return d
}

// MatchPath reports whether rule ru matches a URL or path, with the same
// normalisation Decide uses. Statistics use it to evaluate a group's rules
// against probe paths.
func MatchPath(ru *Rule, url string) bool {
	if ru.Empty {
		return false
	}
	var buf [pathBufSize]byte
	return ru.matches(normalisedPath(buf[:0], stringBytes(url)))
}

// matches reports whether the rule's non-empty pattern matches a normalised
// path.
func (ru *Rule) matches(path []byte) bool {
	pat := ru.Pattern
	anchored := pat[len(pat)-1] == '$'
	if anchored {
		pat = pat[:len(pat)-1]
	}
	return matchPattern(pat, path, anchored)
}

// PathOf returns the part of url that robots.txt rules are matched against:
// the path and query, without scheme, authority and fragment (RFC 9309
// §2.2.2 matches "the path" including the query, per its examples). An
// absolute URL with no path yields "" (meaning "/"). The result aliases url.
func PathOf(url []byte) []byte {
	u := url
	switch {
	case len(u) > 1 && u[0] == '/' && u[1] == '/': // //authority/path
		u = afterAuthority(u[2:])
	case len(u) > 0 && u[0] != '/': // scheme://authority/path, else a relative path
		if i := bytes.Index(u, schemeSep); i >= 0 && isScheme(u[:i]) {
			u = afterAuthority(u[i+len(schemeSep):])
		}
	}
	if i := bytes.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	return u
}

var schemeSep = []byte("://")

// afterAuthority returns what follows the authority at the start of u.
func afterAuthority(u []byte) []byte {
	for i, c := range u {
		if c == '/' || c == '?' || c == '#' {
			return u[i:]
		}
	}
	return u[len(u):]
}

func isScheme(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	for i, c := range s {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// normalisedPath returns the normalised path of url (see pattern.go),
// starting with "/", using dst's storage when it must copy.
func normalisedPath(dst, url []byte) []byte {
	p := PathOf(url)
	if len(p) > 0 && p[0] == '/' && !needsNormalising(p, false) {
		return p
	}
	return appendNormalisedPath(dst, p)
}

// AppendPath appends to dst the path Decide matches for url: PathOf(url),
// "/" in front when it is empty or does not begin with "/", normalised as
// patterns are (pattern.go: raw non-ASCII and other octets that must be
// encoded are encoded, encoded unreserved characters decoded, escapes in
// upper-case hex). Explanations show it beside the URL.
func AppendPath(dst []byte, url string) []byte {
	p := PathOf(stringBytes(url))
	if len(p) > 0 && p[0] == '/' && !needsNormalising(p, false) {
		return append(dst, p...)
	}
	return appendNormalisedPath(dst, p)
}

// appendNormalisedPath appends the normalised form of path p, which PathOf
// returned, to dst.
func appendNormalisedPath(dst, p []byte) []byte {
	if len(p) == 0 || p[0] != '/' {
		dst = append(dst, '/')
	}
	return normalise(dst, p, false)
}
