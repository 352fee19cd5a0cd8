package schematest

import (
	"slices"
	"strings"

	"github.com/robotstat/robotstat/schema"
)

// Catalog is the fixture's bot catalog: every capture has one bots row per
// entry.
var Catalog = [...]schema.BotIdent{
	{Bot: "GPTBot", Operator: "OpenAI", Category: schema.CategoryAITraining},
	{Bot: "CCBot", Operator: "Common Crawl", Category: schema.CategoryAIData},
	{Bot: "ClaudeBot", Operator: "Anthropic", Category: schema.CategoryAITraining},
}

// catalogList is Catalog as the bots blocks list it.
var catalogList = schema.NewBotList(Catalog[:])

// fixture groups, by index: the * group, a stacked group naming GPTBot and
// CCBot, and a Google-Extended group with an empty disallow.
var groupAgents = [...][]string{{"*"}, {"GPTBot", "CCBot/2.0"}, {"Google-Extended"}}
var groupTokens = [...][]string{{"*"}, {"gptbot", "ccbot"}, {"google-extended"}}

// add appends the rows that describe capture i (whose captures row is c)
// to every table but captures.
func add(r *Rows, i int, c schema.CaptureRow) {
	k := c.Key
	parsed := c.Outcome == schema.OutcomeParsed
	named := map[string]bool{}
	if parsed {
		line := int32(1)
		for g := range int(c.Groups) {
			row := schema.GroupRow{
				Key:             k,
				GroupIndex:      int32(g),
				FirstLine:       line,
				UserAgents:      groupAgents[g],
				ProductTokens:   groupTokens[g],
				IsStar:          g == 0,
				DisallowRules:   1,
				EmptyDisallow:   g == 2,
				OtherDirectives: []string{},
			}
			if g == 0 {
				row.AllowRules = 1
			}
			if g == 1 && i%2 == 0 {
				d := 10.0
				row.CrawlDelay = &d
				row.OtherDirectives = []string{"crawl-delay"}
			}
			r.Groups = append(r.Groups, row)
			line += int32(len(groupAgents[g]))
			pattern := "/"
			switch g {
			case 0:
				pattern = "/private/"
				r.Rules = append(r.Rules, schema.RuleRow{Key: k, GroupIndex: 0, Line: line, Directive: schema.DirectiveAllow, Pattern: "/private/ok$", PatternNormalized: "/private/ok$"})
				line++
			case 2:
				pattern = ""
			}
			r.Rules = append(r.Rules, schema.RuleRow{Key: k, GroupIndex: int32(g), Line: line, Directive: schema.DirectiveDisallow, Pattern: pattern, PatternNormalized: pattern})
			line++
			for _, tok := range groupTokens[g] {
				named[tok] = true
				r.Agents = append(r.Agents, schema.AgentRow{
					Key: k, Token: tok, Groups: 1,
					AllowRules:    row.AllowRules,
					DisallowRules: 1,
					DisallowRoot:  pattern == "/",
					RootAllowed:   pattern != "/",
				})
			}
		}
		r.Sitemaps = append(r.Sitemaps, schema.SitemapRow{Key: k, Line: line + 1, SitemapURL: "https://" + k.Host + "/sitemap.xml"})
		r.Directives = append(r.Directives,
			schema.DirectiveRow{Key: k, Directive: "user-agent", Count: c.UserAgentLines, FirstLine: 1, FirstValue: "*", Kind: schema.KindStandard, Canonical: "user-agent"},
			schema.DirectiveRow{Key: k, Directive: "disallow", Count: c.DisallowRules, FirstLine: 3, FirstValue: "/private/", Kind: schema.KindStandard, Canonical: "disallow"},
			schema.DirectiveRow{Key: k, Directive: "sitemap", Count: 1, FirstLine: line + 1, FirstValue: "https://" + k.Host + "/sitemap.xml", Kind: schema.KindExtension, Canonical: "sitemap"},
		)
		if i%3 == 0 {
			r.Directives = append(r.Directives, schema.DirectiveRow{
				Key: k, Directive: "content-signal", Count: 1, FirstLine: 1, FirstValue: "search=yes, ai-train=no",
				Kind: schema.KindExtension, Canonical: "content-signal",
				Signals: []schema.Signal{{Key: "search", Value: "yes"}, {Key: "ai-train", Value: "no"}},
			})
			// The same pairs in the signals table: in the * group for even
			// captures, before any group for odd ones; every sixth capture
			// also has a path-scoped Content-Usage rule in the * group.
			sig := schema.SignalRow{Key: k, Directive: "content-signal", Line: 1}
			if i%2 == 0 {
				g := int32(0)
				sig.GroupIndex, sig.StarGroup = &g, true
			}
			for _, p := range [][2]string{{"search", "yes"}, {"ai-train", "no"}} {
				sig.Name, sig.Value = p[0], p[1]
				r.SignalRows = append(r.SignalRows, sig)
			}
			if i%6 == 0 {
				g := int32(0)
				r.SignalRows = append(r.SignalRows, schema.SignalRow{Key: k, Directive: "content-usage", Line: 2, GroupIndex: &g, StarGroup: true,
					Path: "/news/", Name: "train-ai", Value: "n"})
			}
		}
		if i%20 == 0 {
			r.Directives = append(r.Directives, schema.DirectiveRow{Key: k, Directive: "dissallow", Count: 1, FirstLine: 2, FirstValue: "/tmp/", Kind: schema.KindTypo, Canonical: "disallow"})
			r.Directives = append(r.Directives, schema.DirectiveRow{Key: k, Directive: "foo", Count: 1, FirstLine: 4, FirstValue: "bar", Kind: schema.KindUnknown})
			r.Diagnostics = append(r.Diagnostics, schema.DiagnosticRow{Key: k, Line: 4, Code: "missing-colon", Message: "line has no colon after the key", Value: "foo bar"})
		}
	}
	if i%25 == 0 { // an input error beside the capture, in its crawl
		off, rec := int64(i)*1000+7, int64(i)+1
		r.Errors = append(r.Errors, schema.ErrorRow{Crawl: k.Crawl, Input: "in/part.warc.gz", Source: "in/part.warc.gz",
			Offset: &off, Record: &rec, RecordID: "urn:uuid:broken", Class: "record", Message: "missing or invalid WARC Content-Length", Excerpt: "Content-Length: x"})
	}
	if c.LooksHTML {
		r.Diagnostics = append(r.Diagnostics, schema.DiagnosticRow{Key: k, Code: "html-body", Message: "body looks like an HTML page"})
	}
	block := schema.BotsBlock{Key: k, Bots: catalogList}
	for _, b := range Catalog {
		row := schema.BotRow{Key: k, Bot: b.Bot, Operator: b.Operator, Category: b.Category}
		var allowed bool
		switch c.Outcome {
		case schema.OutcomeParsed:
			switch {
			case named[strings.ToLower(b.Bot)]:
				row.Matched, row.Verdict, row.Somesite, row.CIC, row.CCClass = schema.MatchedNamed, schema.VerdictFull, schema.VerdictFull, schema.CICAll, schema.CCClassDisallowAll
			default:
				row.Matched, row.Verdict, row.Somesite, row.CIC, row.CCClass = schema.MatchedStar, schema.VerdictPartial, schema.VerdictPartial, schema.CICSome, schema.CCClassAllowPart
				allowed = true
			}
		case schema.OutcomeUnavailable:
			row.Matched, row.Verdict, row.Somesite, row.CIC, row.CCClass = schema.MatchedNone, schema.VerdictNone, schema.VerdictNone, schema.CICNone, schema.CCClassAllowAll
			allowed = true
		case schema.OutcomeUnreachable:
			row.Matched, row.Verdict, row.Somesite, row.CIC, row.CCClass = schema.MatchedNone, schema.VerdictFull, schema.VerdictFull, schema.CICAll, schema.CCClassDisallowAll
		default:
			row.Matched, row.Verdict, row.Somesite, row.CIC, row.CCClass = schema.MatchedNone, schema.VerdictUnknown, schema.VerdictUnknown, schema.VerdictUnknown, schema.VerdictUnknown
		}
		if row.Verdict != schema.VerdictUnknown {
			row.RootAllowed = &allowed
		}
		v := row.Verdicts()
		t := slices.IndexFunc(block.Verdicts, func(u schema.BotVerdict) bool {
			return u.Matched == v.Matched && u.Verdict == v.Verdict && (u.RootAllowed == nil) == (v.RootAllowed == nil) &&
				(u.RootAllowed == nil || *u.RootAllowed == *v.RootAllowed)
		})
		if t < 0 {
			t = len(block.Verdicts)
			block.Verdicts = append(block.Verdicts, v)
		}
		block.Index = append(block.Index, int32(t))
	}
	r.Bots = append(r.Bots, block)
	r.Verdicts, _ = schema.AppendVerdicts(r.Verdicts, &block, nil)
	// Every capture is a site of its own, answered by itself (a redirect
	// is left unresolved: the fixture has no target capture).
	site := schema.SiteRow{Crawl: k.Crawl, CrawlDate: crawlDate(k.Crawl), Host: k.Host, RegisteredDomain: c.RegisteredDomain, URL: k.URL,
		Outcome: c.Outcome, HTTPStatus: c.HTTPStatus, StatusClass: c.StatusClass, Candidates: 1, Rank: c.Rank}
	if c.Outcome == schema.OutcomeRedirect {
		site.Outcome, site.Reason = schema.OutcomeUnresolved, schema.ReasonNotCaptured
	} else {
		hops := int32(0)
		site.CaptureID, site.FinalURL, site.RedirectHops = k.CaptureID, k.URL, &hops
	}
	r.Sites = append(r.Sites, site)
	if c.RegisteredDomain != "" {
		// hosts differ per capture: each site stands for its domain in
		// the fixture (a format fixture, not robotstat sites' choice)
		r.Domains = append(r.Domains, schema.DomainRow{Crawl: k.Crawl, CrawlDate: site.CrawlDate, RegisteredDomain: c.RegisteredDomain, Host: k.Host, Hosts: 1})
	}
	for _, b := range block.AppendRows(nil) {
		r.SiteBots = append(r.SiteBots, schema.SiteBotRow{Crawl: k.Crawl, Host: k.Host, Bot: b.Bot, Operator: b.Operator, Category: b.Category,
			Matched: b.Matched, RootAllowed: b.RootAllowed, Verdict: b.Verdict, Somesite: b.Somesite, CIC: b.CIC, CCClass: b.CCClass})
		// Every host is a site of one crawl only (hosts differ per
		// capture): its history is that crawl.
		h := schema.SiteHistoryRow{Host: k.Host, RegisteredDomain: nullString(c.RegisteredDomain), Bot: b.Bot, Operator: b.Operator, Category: b.Category,
			Crawls: 1, FirstCrawl: nullString(k.Crawl), LastCrawl: nullString(k.Crawl), Rank: nullInt64(c.Rank)}
		if parsed {
			h.ParsedCrawls, h.LastVerdict = 1, nullString(b.Verdict)
			if b.Verdict == schema.VerdictFull {
				h.FirstFullCrawl, h.FirstFullMatched, h.LastFullCrawl, h.FullCrawls = nullString(k.Crawl), nullString(b.Matched), nullString(k.Crawl), 1
				if site.CrawlDate != 0 {
					d := site.CrawlDate
					h.FirstFullDate = &d
				}
			}
		}
		r.SiteHistory = append(r.SiteHistory, h)
	}
}

// nullString and nullInt64 return a pointer to v, nil (NULL) for the zero
// value.
func nullString(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

func nullInt64(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
}

// crawlDate is the date robotstat sites gives a fixture crawl: the fixture's
// named crawls are Common Crawl's; the unknown one has no date here.
func crawlDate(crawl string) int32 {
	if d, ok := schema.CrawlNameDate(crawl); ok {
		return schema.DateDays(d)
	}
	return 0
}
