package stats

import (
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// groupRows appends one groups row per group of the file (RFC 9309 §2.1):
// its user-agent values as written, their product tokens, rule counts, its
// first Crawl-delay and the other keys inside it.
func (a *Analyzer) groupRows(k *capture, dst *schema.Batch) {
	r := &a.robots
	col := &a.col
	strs := &dst.Strings
	oi := 0
	for gi := range r.Groups() {
		g := &r.Groups()[gi]
		row := schema.GroupRow{Key: k.key, GroupIndex: int32(g.Index), FirstLine: int32(g.Line), IsStar: g.Star}
		mark := strs.Mark()
		for i := range g.Agents {
			strs.Append(a.in.str(g.Agents[i].Value))
		}
		row.UserAgents = strs.Since(mark)
		mark = strs.Mark()
		for i := range g.Agents {
			ag := &g.Agents[i]
			var tok string
			switch {
			case ag.Star:
				tok = "*"
			case len(ag.Token) > 0:
				tok = a.in.str(ag.Token)
			default:
				continue
			}
			dup := false
			for _, t := range strs.Since(mark) {
				if t == tok {
					dup = true
					break
				}
			}
			if !dup {
				strs.Append(tok)
			}
		}
		row.ProductTokens = strs.Since(mark)
		for i := range g.Rules {
			ru := &g.Rules[i]
			if ru.Directive == parse.Allow {
				row.AllowRules++
			} else {
				row.DisallowRules++
				if ru.Empty {
					row.EmptyDisallow = true
				}
			}
		}
		if gi < len(col.delays) && col.delays[gi].set {
			dst.Floats.Append(col.delays[gi].v)
			row.CrawlDelay = dst.Floats.Last()
		}
		mark = strs.Mark()
		for oi < len(col.others) && col.others[oi].group < int32(gi) {
			oi++
		}
		for oi < len(col.others) && col.others[oi].group == int32(gi) {
			strs.Append(col.others[oi].key)
			oi++
		}
		if strs.Mark() > mark {
			row.OtherDirectives = strs.Since(mark)
		}
		dst.Groups = append(dst.Groups, row)
	}
}
