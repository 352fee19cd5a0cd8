package stats

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/robotstat/robotstat/parse"
)

// Template fingerprints recognise platform defaults (WordPress, Shopify,
// Cloudflare's managed file, ...) from the rules a file holds, not from a
// hash of its body: a default that a site extended, reordered, re-commented
// or served with CRLF line ends is still recognised, and a rule set written
// by hand that happens to equal a default is attributed to the platform,
// which is what a researcher separating "the site decided" from "the
// platform decided" wants.

// TemplateSet is a list of fingerprints, tried in order. It is immutable
// once built and safe for concurrent use.
type TemplateSet struct {
	version   string
	templates []template
	rules     []tmplRule
	// index maps directive byte + normalised pattern to the rules that
	// carry it.
	index map[string][]int32
}

type template struct {
	name     string
	all, any []int32
	minAny   int
	keys     []string
	// consecutive: the rules of all sit in consecutive groups, in order.
	consecutive bool
}

type tmplRule struct {
	agent  string // lower-case product token, or "*"
	single bool   // the rule counts only in a group with one user-agent line
}

type templateFile struct {
	Format    string `json:"format"`
	Version   string `json:"version"`
	About     string `json:"about,omitempty"`
	Templates []struct {
		Name              string      `json:"name"`
		Platform          string      `json:"platform"`
		All               [][3]string `json:"all"`
		Any               [][3]string `json:"any"`
		MinAny            int         `json:"min_any"`
		Keys              []string    `json:"keys"`
		SingleAgentGroups bool        `json:"single_agent_groups"`
		ConsecutiveGroups bool        `json:"consecutive_groups"`
	} `json:"templates"`
}

//go:embed templates.json
var templatesJSON []byte

var defaultTemplates = mustReadEmbedded("templates.json", templatesJSON, ReadTemplates)

// DefaultTemplates returns the embedded fingerprints (templates.json).
func DefaultTemplates() *TemplateSet { return defaultTemplates }

// ReadTemplates reads fingerprints in the JSON form of templates.json.
func ReadTemplates(r io.Reader) (*TemplateSet, error) {
	var f templateFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTemplates, err)
	}
	if f.Format != "robotstat-templates" || f.Version == "" {
		return nil, fmt.Errorf("%w: format %q version %q", ErrTemplates, f.Format, f.Version)
	}
	ts := &TemplateSet{version: f.Version, index: make(map[string][]int32)}
	p := parse.NewParser(parse.Options{})
	var rb parse.Robots
	seen := map[string]bool{}
	for _, t := range f.Templates {
		if t.Name == "" || seen[t.Name] {
			return nil, fmt.Errorf("%w: missing or repeated name %q", ErrTemplates, t.Name)
		}
		seen[t.Name] = true
		if len(t.All) == 0 && len(t.Any) == 0 {
			return nil, fmt.Errorf("%w: %s has no rules", ErrTemplates, t.Name)
		}
		if t.MinAny < 0 || t.MinAny > len(t.Any) || len(t.Any) > 0 && t.MinAny == 0 {
			return nil, fmt.Errorf("%w: %s: min_any %d with %d any rules", ErrTemplates, t.Name, t.MinAny, len(t.Any))
		}
		tp := template{name: t.Name, minAny: t.MinAny, consecutive: t.ConsecutiveGroups}
		for _, k := range t.Keys {
			tp.keys = append(tp.keys, strings.ToLower(k))
		}
		add := func(spec [3]string) (int32, error) {
			agent, dir, pat := strings.ToLower(strings.TrimSpace(spec[0])), strings.ToLower(spec[1]), spec[2]
			if agent != "*" && (agent == "" || string(parse.ProductToken([]byte(agent))) != agent) {
				return 0, fmt.Errorf("%w: %s: agent %q is not a product token", ErrTemplates, t.Name, spec[0])
			}
			var d byte
			switch dir {
			case "allow":
				d = 'a'
			case "disallow":
				d = 'd'
			default:
				return 0, fmt.Errorf("%w: %s: directive %q", ErrTemplates, t.Name, spec[1])
			}
			// Normalise the pattern exactly as the parser does for a file.
			p.Compile([]byte("user-agent: x\n"+dir+": "+pat+"\n"), &rb)
			if len(rb.Rules()) != 1 {
				return 0, fmt.Errorf("%w: %s: pattern %q", ErrTemplates, t.Name, pat)
			}
			key := string(d) + string(rb.Rules()[0].Pattern)
			id := int32(len(ts.rules))
			ts.rules = append(ts.rules, tmplRule{agent: agent, single: t.SingleAgentGroups})
			ts.index[key] = append(ts.index[key], id)
			return id, nil
		}
		for _, s := range t.All {
			id, err := add(s)
			if err != nil {
				return nil, err
			}
			tp.all = append(tp.all, id)
		}
		for _, s := range t.Any {
			id, err := add(s)
			if err != nil {
				return nil, err
			}
			tp.any = append(tp.any, id)
		}
		ts.templates = append(ts.templates, tp)
	}
	if len(ts.templates) == 0 {
		return nil, fmt.Errorf("%w: no templates", ErrTemplates)
	}
	return ts, nil
}

// Version returns the template file's version.
func (ts *TemplateSet) Version() string { return ts.version }

// Names returns the template names in the order they are tried.
func (ts *TemplateSet) Names() []string {
	out := make([]string, len(ts.templates))
	for i, t := range ts.templates {
		out[i] = t.name
	}
	return out
}

// templateMatcher is the per-Analyzer scratch for matching one file.
type templateMatcher struct {
	hits []bool
	// group holds, per rule, the first group where it was found.
	group []int32
	key   []byte
}

// match returns the name of the first template r matches, or "". hasKey
// reports whether a directive key (lower case) appears in the file.
func (m *templateMatcher) match(ts *TemplateSet, r *parse.Robots, hasKey func(string) bool) string {
	if ts == nil || len(ts.templates) == 0 {
		return ""
	}
	if cap(m.hits) < len(ts.rules) {
		m.hits = make([]bool, len(ts.rules))
	}
	m.hits = m.hits[:len(ts.rules)]
	clear(m.hits)
	if cap(m.group) < len(ts.rules) {
		m.group = make([]int32, len(ts.rules))
	}
	m.group = m.group[:len(ts.rules)]
	any := false
	groups := r.Groups()
	for i := range r.Rules() {
		ru := &r.Rules()[i]
		d := byte('d')
		if ru.Directive == parse.Allow {
			d = 'a'
		}
		m.key = append(append(m.key[:0], d), ru.Pattern...)
		ids, ok := ts.index[string(m.key)]
		if !ok {
			continue
		}
		g := &groups[ru.Group]
		for _, id := range ids {
			tr := &ts.rules[id]
			if tr.single && len(g.Agents) != 1 {
				continue
			}
			if !m.hits[id] && groupNames(g, tr.agent) {
				m.hits[id] = true
				m.group[id] = int32(ru.Group)
				any = true
			}
		}
	}
	if !any {
		// Every template needs at least one rule (ReadTemplates).
		return ""
	}
	for ti := range ts.templates {
		t := &ts.templates[ti]
		ok := true
		for _, id := range t.all {
			if !m.hits[id] {
				ok = false
				break
			}
		}
		if ok && t.consecutive {
			for i, id := range t.all {
				if m.group[id] != m.group[t.all[0]]+int32(i) {
					ok = false
					break
				}
			}
		}
		if !ok {
			continue
		}
		n := 0
		for _, id := range t.any {
			if m.hits[id] {
				n++
			}
		}
		if n < t.minAny {
			continue
		}
		for _, k := range t.keys {
			if !hasKey(k) {
				ok = false
				break
			}
		}
		if ok {
			return t.name
		}
	}
	return ""
}

// groupNames reports whether group g names agent (a lower-case product
// token, or "*" for the wildcard).
func groupNames(g *parse.Group, agent string) bool {
	if agent == "*" {
		return g.Star
	}
	for i := range g.Agents {
		if string(g.Agents[i].Token) == agent {
			return true
		}
	}
	return false
}
