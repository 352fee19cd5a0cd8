package explain

import (
	"fmt"
	"strings"

	"github.com/robotstat/robotstat/parse"
)

// Decision explains one answer to "may Agent fetch URL?".
type Decision struct {
	Agent string `json:"agent"`
	URL   string `json:"url"`
	// Token is the product token Agent is read as (ReadAgent), in lower
	// case ("" when it names none, and for "*"); AgentNote says how it was
	// read when Agent is not a bare token.
	Token     string `json:"token"`
	AgentNote string `json:"agent_note,omitempty"`
	// Path is what the rules were matched against: the URL's path and
	// query, percent-normalised (parse.AppendPath).
	Path string `json:"path"`

	Allowed bool `json:"allowed"`
	// Verdict is "allowed" or "disallowed", the first word of check's line.
	Verdict string `json:"verdict"`
	// Reason is parse.Reason's name: rule, no-match, no-group, implicit,
	// unavailable, unreachable.
	Reason string `json:"reason"`
	// Match is how the agent found its groups: named, star or none.
	Match string `json:"match"`
	// Why says in a sentence which groups apply and why.
	Why string `json:"why"`
	// Groups are the groups that apply, merged, in file order.
	Groups []Group `json:"groups"`
	// Rule is the deciding rule (Reason "rule"), else nil.
	Rule *Rule `json:"rule,omitempty"`
	// Matched is every non-empty rule of the applying groups that matches
	// Path, in decision order: longest pattern first, allow before disallow
	// at equal length, then file order. When Reason is "rule" the first is
	// Rule; each says in Note why it decided or lost.
	Matched []Rule `json:"matched"`
	// Tried is the number of non-empty rules in the applying groups.
	Tried int `json:"tried"`
	// Text is `robotstat check --explain`'s explanation of the decision.
	Text string `json:"text"`
}

// Group is a group of the file (RFC 9309 §2.1).
type Group struct {
	Index int `json:"index"`
	// Line is the line of its first user-agent line.
	Line   int     `json:"line"`
	Agents []Agent `json:"agents"`
	// Rules counts its allow and disallow lines.
	Rules int `json:"rules"`
}

// Agent is one user-agent line of a group.
type Agent struct {
	Line  int    `json:"line"`
	Value string `json:"value"`
	// Token is the product token the line names, lower case ("" for "*"
	// and for a value that names none).
	Token string `json:"token"`
	Star  bool   `json:"star"`
	// Applies marks the line that makes the group apply to the agent asked
	// about: it names the agent's token, or (matched via *) it is "*".
	Applies bool `json:"applies,omitempty"`
}

// Rule is one allow or disallow line.
type Rule struct {
	Line      int    `json:"line"`
	Directive string `json:"directive"`
	// Value is the pattern as written, Pattern its normalised form (RFC
	// 9309 §2.2.2), ending in "$" when anchored; Length is Pattern's length
	// in octets, the rule's priority.
	Value    string `json:"value"`
	Pattern  string `json:"pattern"`
	Length   int    `json:"length"`
	Wildcard bool   `json:"wildcard,omitempty"`
	Anchored bool   `json:"anchored,omitempty"`
	// GroupLine is the line of its group's first user-agent line.
	GroupLine int `json:"group_line"`
	// Text is the line as written (empty from Decide, which has no body;
	// Explainer.Explain fills it in), ReadAs how a line read through a
	// leniency was read ("disallow: /a" for "Dissallow /a").
	Text   string `json:"text,omitempty"`
	ReadAs string `json:"read_as,omitempty"`
	// Decides marks the deciding rule; Note says why a matching rule
	// decided or lost.
	Decides bool   `json:"decides,omitempty"`
	Note    string `json:"note,omitempty"`
}

// Decide explains the decision of r for agent and url. agent is read by
// ReadAgent with bots (a catalog; nil reads a whole User-Agent header by its
// first token). status is the HTTP status r's file was served with (for the
// text of a 4xx or 5xx; r's outcome must already be set from it). The
// decision is r.Decide's for the token read.
func Decide(r *parse.Robots, agent string, bots []Bot, url string, status int) Decision {
	token, note := ReadAgent(agent, bots)
	id, m := r.Lookup(token)
	pd := r.DecideSet(id, m, url)
	d := Decision{
		Agent: agent, URL: url,
		Token:     lowerToken(token),
		AgentNote: note,
		Path:      string(parse.AppendPath(nil, url)),
		Allowed:   pd.Allowed,
		Verdict:   "disallowed",
		Reason:    pd.Reason.String(),
		Match:     pd.Match.String(),
		Groups:    []Group{},
		Matched:   []Rule{},
	}
	if d.Allowed {
		d.Verdict = "allowed"
	}
	groups := r.Groups()
	for _, gi := range pd.Groups {
		d.Groups = append(d.Groups, newGroup(&groups[gi], d.Token, pd.Match))
	}
	d.Why = why(&d, len(pd.Groups), status)
	if pd.Rule != nil {
		ru := newRule(pd.Rule, groups[pd.Rule.Group].Line)
		ru.Decides = true
		ru.Note = "longest match (" + octets(ru.Length) + ")"
		d.Rule = &ru
	}
	if r.Outcome() == parse.OutcomeParsed && id != parse.NoSet {
		d.matched(r, id, &pd)
	}
	d.Text = d.text(status)
	return d
}

func newGroup(g *parse.Group, token string, m parse.Match) Group {
	out := Group{Index: g.Index, Line: g.Line, Rules: len(g.Rules)}
	for i := range g.Agents {
		a := &g.Agents[i]
		ag := Agent{Line: a.Line, Value: string(a.Value), Token: string(a.Token), Star: a.Star}
		switch m {
		case parse.MatchNamed:
			ag.Applies = token != "" && ag.Token == token
		case parse.MatchStar:
			ag.Applies = a.Star
		}
		out.Agents = append(out.Agents, ag)
	}
	return out
}

// matched lists the rules of set id that match the decision's path, in
// decision order, with the reason each decided or lost.
func (d *Decision) matched(r *parse.Robots, id parse.SetID, pd *parse.Decision) {
	groups := r.Groups()
	r.SetRules(id, func(ru *parse.Rule) bool {
		d.Tried++
		if parse.MatchPath(ru, d.URL) {
			d.Matched = append(d.Matched, newRule(ru, groups[ru.Group].Line))
		}
		return true
	})
	if len(d.Matched) == 0 {
		return
	}
	if pd.Reason != parse.ReasonRule {
		// Only /robots.txt gets here with matching rules.
		for i := range d.Matched {
			d.Matched[i].Note = "matches, but /robots.txt is implicitly allowed (RFC 9309 §2.2.2)"
		}
		return
	}
	// The deciding rule is the decision's own; in decision order it is the
	// first that matches (a test holds the two to it).
	win := d.Rule
	for i := range d.Matched {
		ru := &d.Matched[i]
		switch {
		case ru.Line == win.Line:
			ru.Decides = true
		case ru.Length < win.Length:
			ru.Note = fmt.Sprintf("shorter (%s < %d): loses to line %d", octets(ru.Length), win.Length, win.Line)
		case ru.Directive != win.Directive:
			ru.Note = fmt.Sprintf("same length (%s): allow wins a tie (RFC 9309 §2.2.2), so line %d decides", octets(ru.Length), win.Line)
			win.Note = fmt.Sprintf("longest match (%s); allow wins the tie with line %d", octets(win.Length), ru.Line)
		default:
			ru.Note = fmt.Sprintf("same length and directive as line %d: the same answer; the first in file order is reported", win.Line)
		}
	}
	for i := range d.Matched {
		if d.Matched[i].Decides {
			d.Matched[i].Note = win.Note
		}
	}
}

// octets says n octets, the unit of a pattern's length (RFC 9309 §2.2.2).
func octets(n int) string {
	if n == 1 {
		return "1 octet"
	}
	return fmt.Sprintf("%d octets", n)
}

func newRule(ru *parse.Rule, groupLine int) Rule {
	return Rule{
		Line: ru.Line, Directive: ru.Directive.String(),
		Value: string(ru.Raw), Pattern: string(ru.Pattern), Length: len(ru.Pattern),
		Wildcard: ru.Wildcard(), Anchored: ru.Anchored(), GroupLine: groupLine,
	}
}

// why says which groups apply and why, as RFC 9309 §2.2.1 decides, or,
// for a status whose body is not read (RFC 9309 §2.3.1), that no group is
// read: the file may show a * group that a 5xx does not let apply.
func why(d *Decision, n int, status int) string {
	tok := d.Token
	if tok == "" {
		tok = d.Agent
	}
	switch d.Reason {
	case parse.ReasonUnreachable.String():
		return fmt.Sprintf("status %d: unreachable: every path disallowed (RFC 9309 §2.3.1.4); the body is not read as rules, so no group of it applies", status)
	case parse.ReasonUnavailable.String():
		return fmt.Sprintf("status %d: unavailable: every path allowed (RFC 9309 §2.3.1.3); the body is not read as rules, so no group of it applies", status)
	case parse.ReasonRedirect.String():
		return fmt.Sprintf("status %d: a redirect: no group applies until it is followed (RFC 9309 §2.3.1.2)", status)
	}
	switch d.Match {
	case parse.MatchNamed.String():
		if n == 1 {
			return fmt.Sprintf("a group names %s, so its rules apply and the * group does not (RFC 9309 §2.2.1)", tok)
		}
		return fmt.Sprintf("%d groups name %s; they are merged into one and the * group does not apply (RFC 9309 §2.2.1)", n, tok)
	case parse.MatchStar.String():
		who := "no group names " + tok
		if d.Token == "" {
			who = fmt.Sprintf("%q names no product token", d.Agent)
			if d.Agent == "*" {
				who = "the agent is *"
			}
		}
		if n == 1 {
			return who + ", so the * group applies (RFC 9309 §2.2.1)"
		}
		return fmt.Sprintf("%s, so the %d * groups apply, merged into one (RFC 9309 §2.2.1)", who, n)
	}
	return fmt.Sprintf("no group names %s and there is no * group: nothing restricts it (RFC 9309 §2.2.1)", tok)
}

// text is check --explain's one line for d.
func (d *Decision) text(status int) string {
	var b strings.Builder
	switch d.Reason {
	case parse.ReasonUnavailable.String():
		fmt.Fprintf(&b, "status %d: robots.txt unavailable, everything allowed (RFC 9309 §2.3.1.3)", status)
		return b.String()
	case parse.ReasonUnreachable.String():
		fmt.Fprintf(&b, "status %d: robots.txt unreachable, everything disallowed (RFC 9309 §2.3.1.4)", status)
		return b.String()
	case parse.ReasonRedirect.String():
		fmt.Fprintf(&b, "status %d: a redirect, undecided until it is followed (RFC 9309 §2.3.1.2)", status)
		return b.String()
	case parse.ReasonImplicit.String():
		return "/robots.txt is implicitly allowed (RFC 9309 §2.2.2)"
	case parse.ReasonNoGroup.String():
		fmt.Fprintf(&b, "no group names %q and there is no * group", d.Token)
		return b.String()
	case parse.ReasonRule.String():
		fmt.Fprintf(&b, "line %d: %s: %s", d.Rule.Line, d.Rule.Directive, d.Rule.Value)
		if d.Rule.Value != d.Rule.Pattern {
			fmt.Fprintf(&b, " (normalised %s)", d.Rule.Pattern)
		}
	case parse.ReasonNoMatch.String():
		b.WriteString("no rule matched")
	}
	b.WriteString("; ")
	if d.Match == parse.MatchStar.String() {
		b.WriteString("matched by *: ")
	} else {
		b.WriteString("matched by name: ")
	}
	for i, g := range d.Groups {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "group at line %d [", g.Line)
		for j, a := range g.Agents {
			if j > 0 {
				b.WriteString(" ")
			}
			b.WriteString(a.Value)
		}
		b.WriteString("]")
	}
	return b.String()
}
