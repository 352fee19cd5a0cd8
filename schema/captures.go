package schema

import (
	"time"

	"github.com/robotstat/robotstat/parse"
)

// CaptureRow is a row of the captures table: one row per capture (one
// fetched robots.txt, or the response a robots.txt fetch got), with what was
// fetched, how RFC 9309 treats the response, and counts over the body as
// parsed.
//
// A CaptureRow is a plain value; TableWriter.Write copies what it needs, so
// a batch may be reused once Write returns.
type CaptureRow struct {
	Key

	// The input the record was read from, relative to what was named: a
	// file of a folder is its path below the folder
	// ("a/example.org/robots.txt"), a relative manifest line the line, any
	// other file or URL its base name (the last element of its path).
	Source string `parquet:"source,dict"`
	// Byte offset of the record in that input as stored (for compressed
	// inputs, of its gzip member or zstd frame when records are compressed
	// one by one).
	RecordOffset int64 `parquet:"record_offset"`
	// WARC-Record-ID without angle brackets; NULL when the input is not a
	// WARC.
	WARCRecordID string `parquet:"warc_record_id,optional,dict"`
	// URL scheme, lower-cased: http or https.
	Scheme string `parquet:"scheme,dict"`
	// TCP port: the one in url, else the scheme's default (80 or 443).
	Port int32 `parquet:"port"`
	// Registered domain of host (eTLD+1 by the public suffix list). NULL
	// when host is an IP address or itself a public suffix.
	RegisteredDomain string `parquet:"registered_domain,optional,dict"`
	// Whether url's path is exactly /robots.txt (false for the target of a
	// redirect, or a capture named otherwise).
	RobotsPath bool `parquet:"robots_path"`
	// When the response was fetched (WARC-Date), UTC. NULL when unknown.
	FetchTime time.Time `parquet:"fetch_time,optional,timestamp(millisecond:utc)"`
	// IP address the response came from (WARC-IP-Address). NULL when
	// unknown.
	IP string `parquet:"ip,optional,dict"`
	// HTTP status code. NULL when the source records none (a WARC resource
	// record, a file on disk); the body is then treated as a 200.
	HTTPStatus int32 `parquet:"http_status,optional"`
	// How RFC 9309 treats the response: parsed (2xx, or no status: the
	// rules apply), unavailable (4xx: section 2.3.1.3, everything allowed),
	// unreachable (5xx: section 2.3.1.4, everything disallowed), redirect
	// (3xx: section 2.3.1.2, the rules are those of redirect_target).
	Outcome string `parquet:"outcome,dict"`
	// Common Crawl's class of the status, as its crawler classifies
	// robots.txt fetches: success (200), redirect (3xx), notfound (400, 404,
	// 410), unauthorized (401), forbidden (403), defer_visits (429 and 5xx,
	// which make its crawler postpone the site) or other (any other code,
	// other 2xx included, and no status).
	StatusClass string `parquet:"status_class,dict"`
	// Location of a 3xx response, resolved against url. NULL otherwise.
	RedirectTarget string `parquet:"redirect_target,optional,dict"`
	// Content-Type header as sent. NULL when absent.
	ContentType string `parquet:"content_type,optional,dict"`
	// WARC-Identified-Payload-Type (the archive's content sniffing). NULL
	// when absent.
	IdentifiedType string `parquet:"identified_type,optional,dict"`
	// WARC-Truncated reason (length, time, disconnect, unspecified): the
	// archive holds less than the server sent. NULL when not truncated.
	WARCTruncated string `parquet:"warc_truncated,optional,dict"`
	// True size of the decoded payload in bytes, even when the archive or
	// the parse limit kept less: where the archive kept less
	// (warc_truncated, a cut record), the response's Content-Length or
	// robotstat scan's Robotstat-Payload-Length; a content-coded payload
	// the archive cut reports what decoded, a lower bound.
	BodyBytes int64 `parquet:"body_bytes"`
	// Bytes actually parsed: body_bytes cut at the parse limit (--parse-limit,
	// default 500 KiB) and at what the archive holds.
	ParsedBytes int64 `parquet:"parsed_bytes"`
	// Whether body_bytes exceeds 500 KiB (512000 bytes), the least a crawler
	// must parse by RFC 9309 section 2.5.
	Over500KiB bool `parquet:"over_500kib"`
	// Digest of the payload: WARC-Payload-Digest as recorded (e.g.
	// sha1:BASE32), else sha1:BASE32 computed over the decoded body. NULL for
	// an empty body.
	BodyDigest string `parquet:"body_digest,optional,dict"`
	// Whether the body looks like an HTML page rather than a robots.txt.
	LooksHTML bool `parquet:"looks_html"`
	// Whether the body looks like binary data (NUL bytes or mostly
	// non-text).
	LooksBinary bool `parquet:"looks_binary"`
	// Whether the body starts with a UTF-8 byte order mark (RFC 9309 section
	// 2.2 allows one).
	BOM bool `parquet:"bom"`
	// Line ending style: lf, crlf, cr, mixed, or none (a single line).
	LineEndings string `parquet:"line_endings,dict"`
	// Lines in the parsed bytes.
	Lines int32 `parquet:"lines"`
	// Lines holding only white space.
	BlankLines int32 `parquet:"blank_lines"`
	// Lines holding only a comment (after optional white space).
	CommentLines int32 `parquet:"comment_lines"`
	// Lines of the form key: value (or key value where the colon is missing
	// but the key is recognised), whatever the key.
	DirectiveLines int32 `parquet:"directive_lines"`
	// Lines that are neither blank, comment nor directive lines.
	InvalidLines int32 `parquet:"invalid_lines"`
	// Groups (RFC 9309 section 2.1: one or more user-agent lines followed by
	// rules; stacked user-agent lines form one group).
	Groups int32 `parquet:"groups"`
	// user-agent lines.
	UserAgentLines int32 `parquet:"user_agent_lines"`
	// allow rules (lines inside a group).
	AllowRules int32 `parquet:"allow_rules"`
	// disallow rules (lines inside a group).
	DisallowRules int32 `parquet:"disallow_rules"`
	// allow and disallow rules whose pattern contains the * wildcard.
	RulesWithStar int32 `parquet:"rules_with_star"`
	// allow and disallow rules whose pattern contains $ (end anchor).
	RulesWithDollar int32 `parquet:"rules_with_dollar"`
	// sitemap lines.
	Sitemaps int32 `parquet:"sitemaps"`
	// Whether any crawl-delay line is present.
	HasCrawlDelay bool `parquet:"has_crawl_delay"`
	// Directive lines whose key is not user-agent, allow or disallow:
	// extensions (sitemap, crawl-delay, ...), accepted typos and unknown keys
	// (see the directives table's kind).
	NonstandardLines int32 `parquet:"nonstandard_lines"`
	// Directive lines whose key is an accepted misspelling (dissallow,
	// useragent, ...).
	TypoLines int32 `parquet:"typo_lines"`
	// Directive lines accepted although the colon after the key is missing.
	MissingColonLines int32 `parquet:"missing_colon_lines"`
	// Whether / is disallowed for an agent that only the * group matches
	// (RFC 9309 matching). False unless outcome is parsed.
	StarDisallowsRoot bool `parquet:"star_disallows_root"`
	// Name of the platform default the file matches (wordpress, shopify,
	// cloudflare-managed, ...). NULL when none matches.
	Template string `parquet:"template,optional,dict"`
	// Rank of host or registered_domain in the --sites list (1 is the most
	// popular). NULL when not listed or no list was given.
	Rank int64 `parquet:"rank,optional"`
}

// Values of captures.outcome: the names of RFC 9309's outcomes as package
// parse decides them (parse.Outcome.String).
const (
	OutcomeParsed      = parse.OutcomeNameParsed
	OutcomeUnavailable = parse.OutcomeNameUnavailable
	OutcomeUnreachable = parse.OutcomeNameUnreachable
	OutcomeRedirect    = parse.OutcomeNameRedirect
)

// Values of captures.status_class.
const (
	StatusClassSuccess      = "success"
	StatusClassRedirect     = "redirect"
	StatusClassNotFound     = "notfound"
	StatusClassUnauthorized = "unauthorized"
	StatusClassForbidden    = "forbidden"
	StatusClassDeferVisits  = "defer_visits"
	StatusClassOther        = "other"
)

// Values of captures.line_endings.
const (
	LineEndingsLF    = "lf"
	LineEndingsCRLF  = "crlf"
	LineEndingsCR    = "cr"
	LineEndingsMixed = "mixed"
	LineEndingsNone  = "none"
)
