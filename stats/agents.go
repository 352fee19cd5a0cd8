package stats

import (
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// agentRows appends one agents row per distinct product token the file
// names (and "*"), with the numbers of the group set that applies to it.
func (a *Analyzer) agentRows(k *capture, dst *schema.Batch) {
	r := &a.robots
	clear(a.seen)
	groups := r.Groups()
	if n := r.NumSets(); cap(a.setStats) < n {
		a.setStats = make([]agentSetStats, n)
	} else {
		a.setStats = a.setStats[:n]
	}
	clear(a.setStats)
	a.noSetStats = agentSetStats{}
	for i := range r.Agents() {
		ag := &r.Agents()[i]
		var tok string
		var id parse.SetID
		var m parse.Match
		switch {
		case ag.Star:
			tok, id, m = "*", r.StarSet(), parse.MatchStar
		case len(ag.Token) > 0:
			tok = a.in.str(ag.Token)
			id, m = r.Lookup(tok)
		default:
			continue
		}
		if _, ok := a.seen[tok]; ok {
			continue
		}
		a.seen[tok] = struct{}{}
		row := schema.AgentRow{Key: k.key, Token: tok}
		// Tokens of one stacked group share a set: count its rules once.
		var st *agentSetStats
		if id != parse.NoSet {
			st = &a.setStats[id]
		} else {
			st = &a.noSetStats
		}
		if !st.done {
			*st = agentSetStats{done: true}
			sg := r.SetGroups(id)
			st.groups = int32(len(sg))
			for _, g := range sg {
				for j := range groups[g].Rules {
					ru := &groups[g].Rules[j]
					if ru.Directive == parse.Allow {
						st.allow++
					} else {
						st.disallow++
						if string(ru.Pattern) == "/" {
							st.disallowRoot = true
						}
					}
				}
			}
			st.rootAllowed = a.vd.RootAllowed(id, m)
		}
		row.Groups, row.AllowRules, row.DisallowRules = st.groups, st.allow, st.disallow
		row.DisallowRoot, row.RootAllowed = st.disallowRoot, st.rootAllowed
		if !ag.Star {
			if b, ok := a.opts.Catalog.Lookup(ag.Token); ok {
				row.Bot, row.Operator, row.Category = b.Token, b.Operator, b.Category
			}
		}
		dst.Agents = append(dst.Agents, row)
	}
}

// agentSetStats are the agents-table numbers of one group set.
type agentSetStats struct {
	done                      bool
	groups, allow, disallow   int32
	disallowRoot, rootAllowed bool
}
