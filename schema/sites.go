package schema

// SiteRow is a row of the sites table: one row per crawl and host with at
// least one capture of its /robots.txt, with the answer that host's
// robots.txt gave in that crawl, resolved as RFC 9309 says (redirects
// followed through the crawl's captures, at most five; the best candidate
// chosen when the crawl fetched it more than once). robotstat sites builds
// it from the captures and verdicts tables (see schema/README.md for the
// rules and a worked example of each); every share robotstat report prints
// is a share of these rows.
type SiteRow struct {
	// Crawl of the captures; NULL when unknown. Also the Hive partition key.
	Crawl string `parquet:"crawl,optional,dict"`
	// The crawl's date, the same in every row of a crawl (CrawlDate): for a
	// Common Crawl name CC-MAIN-YYYY-WW the Monday of ISO week WW of year
	// YYYY, else the UTC day of the median fetch time of the crawl's
	// captures. NULL when the crawl has neither. Trends are ordered and
	// spaced by it.
	CrawlDate int32 `parquet:"crawl_date,date,optional"`
	// Host, lower-cased, without port.
	Host string `parquet:"host,dict"`
	// Registered domain of host (eTLD+1 by the public suffix list). NULL
	// when host is an IP address or itself a public suffix.
	RegisteredDomain string `parquet:"registered_domain,optional,dict"`
	// capture_id of the capture that answered: the chosen candidate, or the
	// last capture its redirects led to. NULL when outcome is unresolved,
	// or unavailable because of the redirects.
	CaptureID string `parquet:"capture_id,optional,dict"`
	// URL of the site's own /robots.txt capture that was chosen (the
	// candidate), http or https.
	URL string `parquet:"url,dict"`
	// URL of the capture that answered (url itself when the candidate
	// answered). NULL when capture_id is.
	FinalURL string `parquet:"final_url,optional,dict"`
	// Redirects followed from url to final_url (0 when the candidate
	// answered itself). NULL when outcome is unresolved, or unavailable
	// because of the redirects.
	RedirectHops *int32 `parquet:"redirect_hops,optional"`
	// The site's answer, RFC 9309 section 2.3.1: parsed (2xx: its rules
	// apply), unavailable (4xx, or more than five redirects or a redirect
	// loop: everything allowed), unreachable (5xx, and 429 with
	// --429-unreachable: everything disallowed) or unresolved (a redirect
	// to a URL the crawl never captured: the answer is unknown).
	Outcome string `parquet:"outcome,dict"`
	// HTTP status of the capture that answered (of the candidate when
	// unresolved or unavailable because of the redirects). NULL when it
	// recorded none.
	HTTPStatus int32 `parquet:"http_status,optional"`
	// Common Crawl's class of http_status (see captures.status_class).
	StatusClass string `parquet:"status_class,dict"`
	// Why the site has this answer when it is not a capture's:
	// redirect-limit (more than five redirects, or a loop, which never ends
	// within five), not-captured (a redirect target the crawl has no
	// capture of), no-location (a 3xx without a Location). NULL otherwise.
	Reason string `parquet:"reason,optional,dict"`
	// Captures of the host's /robots.txt in the crawl: the candidates the
	// answer was chosen from.
	Candidates int32 `parquet:"candidates"`
	// Rank of the host (or its registered domain) in the --sites list
	// analyze was given; NULL when unranked or no list was given.
	Rank int64 `parquet:"rank,optional"`
}

// SiteBotRow is a row of the site_bots table: one row per site (crawl and
// host, as in sites) and catalog bot, with the bot's verdicts under each
// definition on the capture that answered the site: the verdicts of the
// bots table, for sites. A site whose outcome is unavailable gives none /
// allow-all and unreachable full / disallow-all, as for a capture; an
// unresolved site gives unknown under every definition.
type SiteBotRow struct {
	// Crawl of the site; NULL when unknown. Also the Hive partition key.
	Crawl string `parquet:"crawl,optional,dict"`
	// Host of the site.
	Host string `parquet:"host,dict"`
	// The bot's product token as the catalog spells it (e.g. GPTBot).
	Bot string `parquet:"bot,dict"`
	// Who runs the bot (e.g. OpenAI).
	Operator string `parquet:"operator,dict"`
	// The catalog's category (see bots.category).
	Category string `parquet:"category,dict"`
	// Which group applies: named, star or none (see bots.matched).
	Matched string `parquet:"matched,dict"`
	// Whether the bot may fetch / (see bots.root_allowed). NULL when verdict
	// is unknown.
	RootAllowed *bool `parquet:"root_allowed,optional"`
	// robotstat's verdict: full, partial, none or unknown (see bots.verdict).
	Verdict string `parquet:"verdict,dict"`
	// Liu et al.'s verdict (see bots.somesite).
	Somesite string `parquet:"somesite,dict"`
	// Longpre et al.'s verdict (see bots.cic).
	CIC string `parquet:"cic,dict"`
	// Common Crawl's class (see bots.cc_class).
	CCClass string `parquet:"cc_class,dict"`
}

func (r SiteRow) crawl() string    { return r.Crawl }
func (r SiteBotRow) crawl() string { return r.Crawl }

// Values of sites.outcome besides OutcomeParsed, OutcomeUnavailable and
// OutcomeUnreachable.
const OutcomeUnresolved = "unresolved"

// Values of sites.reason.
const (
	ReasonRedirectLimit = "redirect-limit"
	ReasonNotCaptured   = "not-captured"
	ReasonNoLocation    = "no-location"
)
