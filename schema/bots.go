package schema

import (
	"strings"

	"github.com/robotstat/robotstat/verdict"
)

// BotRow is a row of the bots table: one row per capture and bot of the bot
// catalog, whether or not the file names the bot, with the verdict under
// each of the definitions the literature uses. All four verdicts are
// computed on the RFC 9309 grouping, in which stacked user-agent lines form
// one group and a token's groups are merged; the parsers of three of the
// cited studies get that wrong, so their published numbers may differ.
//
// A BotRow is a plain value; TableWriter.Write copies what it needs, so a
// batch may be reused once Write returns. RootAllowed may point into
// caller-owned memory that changes after Write returns.
type BotRow struct {
	Key

	// The bot's product token as the catalog spells it (e.g. GPTBot).
	Bot string `parquet:"bot,dict"`
	// Who runs the bot (e.g. OpenAI).
	Operator string `parquet:"operator,dict"`
	// The catalog's category: ai-training (crawls to train models),
	// ai-search (builds an AI search or answer index), ai-user-fetch (fetches
	// a page because a user asked an AI assistant), ai-optout-token (crawls
	// nothing; only carries an AI opt-out), ai-data (collects data sold or
	// published for AI use), search-dual-use (a classic web-search crawler
	// whose crawl also feeds AI with no separate token for the AI use, or a
	// token shared by a search crawler and an AI crawler: PetalBot, ExaBot),
	// generic-tool (names a general-purpose framework or library anyone runs,
	// not an operator: Scrapy), search (classic search engine, baseline), seo
	// (SEO or backlink crawler, baseline) or other. Only the ai-* categories
	// count as AI: search-dual-use and generic-tool are left out of AI
	// figures because a rule naming them cannot be read as aimed at AI.
	Category string `parquet:"category,dict"`
	// Which group applies: named (a group names the bot's token), star (only
	// the * group applies) or none (no group applies: everything allowed).
	Matched string `parquet:"matched,dict"`
	// Whether the bot may fetch / under RFC 9309, after the outcome (4xx
	// allows, 5xx disallows). NULL when verdict is unknown.
	RootAllowed *bool `parquet:"root_allowed,optional"`
	// robotstat's verdict: full (no path of the site may be fetched), partial
	// (some paths may not), none (every path may be fetched) or unknown (a
	// redirect robotstat could not follow). Decided by RFC 9309 matching over
	// the rules that apply (longest pattern wins, allow wins ties, * and $
	// honoured): full when a disallow pattern matches every path (/, /*, *)
	// and no allow pattern wins for any path, where an allow pattern wins for
	// some path unless every path it matches is also matched by a longer
	// disallow pattern; none when no disallow pattern other than the empty one
	// applies or every disallowed path is won back by an allow. A 4xx outcome
	// gives none and a 5xx gives full (section 2.3.1).
	Verdict string `parquet:"verdict,dict"`
	// Verdict as in Liu et al., "Somesite I Used To Crawl" (IMC 2025): /,
	// every path in the file's allow and disallow lines (trailing $ removed)
	// and a dummy path are tested; full if all are disallowed, none if none
	// is, partial otherwise; unknown as for verdict.
	Somesite string `parquet:"somesite,dict"`
	// Verdict as in Longpre et al., "Consent in Crisis" (2024): all if the
	// rules that apply include "disallow: /" and no allow, none if there is
	// no effective disallow, some otherwise; rules containing ? are ignored
	// and an unnamed bot takes the * verdict; unknown as for verdict.
	CIC string `parquet:"cic,dict"`
	// Class as in Common Crawl's robotstxt-experiments: disallow-all iff the
	// rules that apply are exactly "disallow: /", allow-all for no rules, an
	// empty disallow or "allow: /", allow-part otherwise, the * group as
	// fallback; unknown as for verdict.
	CCClass string `parquet:"cc_class,dict"`

	// The fields are those of BotIdent then BotVerdict, spelled out rather
	// than embedded: parquet-go v0.32 reads a NULL optional column of an
	// embedded struct back as a non-nil pointer (root_allowed of a redirect
	// came back false), while a flat field reads back nil. Ident, Verdicts
	// and NewBotRow convert.
}

// NewBotRow returns the row of bot id with verdicts v on capture k.
func NewBotRow(k Key, id BotIdent, v BotVerdict) BotRow {
	return BotRow{Key: k, Bot: id.Bot, Operator: id.Operator, Category: id.Category,
		Matched: v.Matched, RootAllowed: v.RootAllowed, Verdict: v.Verdict,
		Somesite: v.Somesite, CIC: v.CIC, CCClass: v.CCClass}
}

// Ident returns the row's bot.
func (r *BotRow) Ident() BotIdent {
	return BotIdent{Bot: r.Bot, Operator: r.Operator, Category: r.Category}
}

// Verdicts returns the row's verdicts.
func (r *BotRow) Verdicts() BotVerdict {
	return BotVerdict{Matched: r.Matched, RootAllowed: r.RootAllowed, Verdict: r.Verdict,
		Somesite: r.Somesite, CIC: r.CIC, CCClass: r.CCClass}
}

// Values of bots.matched.
const (
	MatchedNamed = "named"
	MatchedStar  = "star"
	MatchedNone  = "none"
)

// Values of bots.verdict and bots.somesite: package verdict's, which
// decides them (it imports only parse, so that code reading one robots.txt
// outside a dataset can use it without Parquet).
const (
	VerdictFull    = verdict.Full
	VerdictPartial = verdict.Partial
	VerdictNone    = verdict.None
	VerdictUnknown = verdict.Unknown
)

// Values of bots.cic (and VerdictUnknown).
const (
	CICAll  = verdict.CICAll
	CICSome = verdict.CICSome
	CICNone = verdict.CICNone
)

// Values of bots.cc_class (and VerdictUnknown).
const (
	CCClassDisallowAll = verdict.CCClassDisallowAll
	CCClassAllowAll    = verdict.CCClassAllowAll
	CCClassAllowPart   = verdict.CCClassAllowPart
)

// Values of bots.category and agents.category. The ai-* values are the AI
// categories; every other value, the two ambiguous ones included, is not AI.
const (
	CategoryAITraining    = "ai-training"     // crawls to train models
	CategoryAISearch      = "ai-search"       // crawls to build an AI search index
	CategoryAIUserFetch   = "ai-user-fetch"   // fetches a page because a user asked an assistant
	CategoryAIOptoutToken = "ai-optout-token" // a token that crawls nothing and only carries an opt-out
	CategoryAIData        = "ai-data"         // collects data that is sold or published for AI use
	// A classic web-search crawler's token that also serves AI: the operator
	// documents that the same crawl feeds AI features and offers no separate
	// token for them (PetalBot, Diffbot, Bravebot), or the token is shared by
	// a search engine's crawler and an AI crawler (ExaBot: Exalead's search
	// crawler, and Exa's AI crawler per the ai.robots.txt registry). Not AI:
	// a site that names it may mean the search engine.
	CategorySearchDualUse = "search-dual-use"
	// A token that names a general-purpose crawling framework or HTTP library
	// rather than an operator (Scrapy): anyone sends it, for any purpose.
	// Not AI: a rule naming it says nothing about AI.
	CategoryGenericTool = "generic-tool"
	CategorySearch      = "search" // a classic search engine crawler (baseline)
	CategorySEO         = "seo"    // an SEO or backlink crawler (baseline)
	CategoryOther       = "other"
)

// IsAICategory reports whether a category is one of the AI ones (ai-*):
// what the report's AI tables count. search-dual-use and generic-tool are
// not, so that a token that also names a search engine or a framework does
// not count as an AI crawler.
func IsAICategory(category string) bool { return strings.HasPrefix(category, "ai-") }
