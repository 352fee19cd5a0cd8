// Package parse implements the Robots Exclusion Protocol, RFC 9309: a
// tokenizer that turns a robots.txt body into events, a compiled form of one
// file (Robots) that answers "may agent A fetch URL U?" without allocating,
// and the meaning of HTTP status codes for a robots.txt fetch. It does no I/O.
//
// # Design
//
// Parser.Parse never fails: whatever the body holds (HTML, binary, 5 MB of
// prose) is reported line by line to a Handler, as key/value records
// (UserAgent, Allow, Disallow, Sitemap, Other) and per-line metadata (Line,
// with LineFlags). The matcher (Robots), robotstat's statistics and its
// linter are all Handlers; several can share one pass with Tee. Handlers that
// need a few events embed NopHandler. This follows the handler design of
// Google's reference parser (github.com/google/robotstxt, robots.h).
//
// Byte offsets are kept on the hot path; line numbers are counted as lines go
// by. Slices handed to handlers alias the body or the Parser's scratch and are
// valid only during the call.
//
// # What RFC 9309 says, and where we are lenient
//
// Implemented as specified:
//
//   - §2.1, §2.2.1 groups: one or more consecutive user-agent lines followed
//     by rules; a user-agent line after a rule starts a new group. Blank
//     lines, comments and records other than allow/disallow between
//     user-agent lines do not end the run (§2.2.4: "a Sitemaps record MUST
//     NOT terminate a group"; see Deviation_other_record_ends_run).
//   - §2.2.1 all groups naming the agent's product token are merged; product
//     tokens match case-insensitively; without a named group the "*" groups
//     (merged) apply; without either, everything is allowed.
//   - §2.2.1 rules before the first user-agent line belong to no group and
//     are ignored (flagged LineBeforeGroup).
//   - §2.2.2 the most specific match wins: the longest pattern in octets
//     (after normalisation, counting "*" and "$"); allow wins a tie.
//   - §2.2.2 an empty allow or disallow value matches nothing.
//   - §2.2.2 /robots.txt is implicitly allowed (Deviation_robots_txt_implicit).
//   - §2.2.2 percent-encoding: patterns and paths are both normalised before
//     comparison (pattern.go): raw non-ASCII octets encoded, encoded
//     unreserved characters decoded, other escapes kept with upper-case hex.
//   - §2.2.3 "*" matches any run of octets; "$" anchors the end of the
//     pattern, and only at its end (elsewhere it is an ordinary character);
//     "%2A" and "%24" in a pattern match a literal "*" and "$" in the URL;
//     "#" starts a comment anywhere on a line.
//   - §2.2 EOL is LF, CRLF or a lone CR.
//   - §2.2.4 sitemap records are global, outside any group.
//   - §2.3.1 status codes: StatusOutcome and ChainOutcome.
//   - §2.5 only the first 500 KiB are parsed by default (Options.Limit); the
//     true size is reported in FileInfo.
//   - Keys match case-insensitively and exactly.
//
// Leniencies we share with Google's reference parser (each accepted input is
// flagged so statistics can count it):
//
//   - Google_bom (§2.2 has no BOM): a leading UTF-8 byte order mark, or a
//     prefix of one, is skipped.
//   - Google_typo_useragent, Google_typo_dissallow, Google_typo_site_map
//     (§2.2 keys): "useragent", "user agent", "user_agent"; "dissallow",
//     "dissalow", "disalow", "diasllow", "disallaw"; "site-map" are read as
//     the key they misspell (LineTypo).
//   - Google_missing_colon (§2.2 requires ":"): "Disallow /x" is read as
//     "Disallow: /x" when the line is exactly two words and the first is a
//     known key (LineMissingColon).
//   - Google_token_prefix (§2.2.1 says the value MUST be a product token):
//     a user-agent value names the longest prefix of letters, "_" and "-",
//     so "GPTBot/1.1" names gptbot and a whole User-Agent header names its
//     first token ("Mozilla").
//   - Google_star_prefix: "*" followed by white space or a comment is the
//     wildcard; "*bot" is not (it names no token).
//   - Google_pattern_leading_star (§2.2.2 path-pattern begins with "/"): a
//     pattern beginning with "*" is used as written ("*.pdf"). A pattern
//     beginning with any other character is kept but can never match a path,
//     which always begins with "/" (flagged LineBadPattern).
//   - Google_whitespace: values are trimmed of spaces, tabs, VT and FF.
//   - Google_429 (option StatusOptions.TooManyRequestsUnreachable, off by
//     default; §2.3.1.3 says 4xx is unavailable): 429 treated as 5xx.
//
// Deviations from Google's reference parser, where we follow the RFC or
// choose differently (each has a conformance test named after it):
//
//   - Deviation_other_record_ends_run (§2.2.4): Google's reference parser
//     ends a run of user-agent lines at a sitemap or any unknown record, so
//     "User-agent: bingbot / Crawl-delay: 30 / User-agent: x / Disallow: /"
//     leaves bingbot unrestricted there, while RFC 9309 makes bingbot and x
//     one group (disallowed). We follow the RFC by default; Options.Grouping =
//     GroupingGoogle reproduces Google for sensitivity analyses.
//   - Deviation_key_prefix (§2.2): Google reads any key that starts with a
//     known key as that key ("Disallowed: /x" disallows /x). We match keys
//     exactly; "Disallowed" is an Other record named "disallowed".
//   - Deviation_percent_decoding (§2.2.2, §2.2.3): Google decodes nothing,
//     so "Disallow: /%62" does not block "/b" and "Disallow: /a%2A" does not
//     block "/a*". We normalise both sides as the RFC's tables show.
//   - Deviation_raw_utf8_path (§2.2.2): Google encodes non-ASCII octets in
//     patterns but expects callers to pass encoded URLs; we encode raw UTF-8
//     in URLs too, so "/ツ" and "/%E3%83%84" are the same path.
//   - Deviation_robots_txt_implicit (§2.2.2): Google's library applies the
//     rules to /robots.txt itself; we always allow it.
//   - Deviation_index_html: Google treats "Allow: /d/index.html" as also
//     allowing "/d/$"; the RFC has no such rule and neither do we.
//   - Deviation_long_lines: Google truncates lines at 16,664 bytes; the RFC
//     sets no line limit, so we parse lines whole and flag them LineTooLong.
//   - Deviation_limit_cut_line (§2.5): a line the parse limit cuts in two is
//     not parsed (a cut pattern would be broader than the one written); it is
//     flagged LineTruncated.
//   - Deviation_invalid_key: a "key" holding characters no key has (HTML
//     before a colon, a URL) makes the line LineInvalid; Google reports it as
//     an unknown key. Rules are unaffected (and under GroupingGoogle such a
//     line does not end a run of user-agent lines, where Google's would).
//   - Deviation_missing_colon_unknown_key: Google accepts the missing colon
//     for any two-word line; we only for known keys (standard keys, their
//     typos, and the extensions listed in key.go), so prose is not counted as
//     directives.
//
// # Cost
//
// Parsing is linear in the body. Matching has no regexp and no backtracking
// (match.go): a decision costs at most O(len(path) * len(pattern)) per rule
// tried, rules are tried longest first and the first match decides.
package parse
