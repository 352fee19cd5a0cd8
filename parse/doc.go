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
//     tokens match case-insensitively and whole (a token never matches
//     another that merely shares its prefix: crawler3 is not crawler1);
//     without a named group the "*" groups (merged) apply; without either,
//     everything is allowed. What counts as a token is agent.go's reading
//     (Deviation_token_digits, Deviation_token_non_ascii).
//   - §2.2.1 rules before the first user-agent line belong to no group and
//     are ignored (flagged LineBeforeGroup).
//   - §2.2.2 the most specific match wins: the longest pattern in octets
//     (after normalisation, counting "*" and "$"); allow wins a tie.
//   - §2.2.2 an empty allow or disallow value matches nothing.
//   - §2.2.2 /robots.txt is implicitly allowed (Deviation_robots_txt_implicit).
//   - §2.2.2 the URL's path and query are matched, whatever its scheme
//     (RFC 9309 applies to any URI: "ftp://example.net/a" is matched at
//     "/a"); an empty URL, or one without a path, is "/"; a malformed escape
//     ("/100%", "/x%zz") is kept as written and matches a pattern written so.
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
// Where this says what Google's reference parser does, it cites
// github.com/google/robotstxt robots.cc at commit 12c3de885f9b by function;
// the one point on which another version, c8ac4b1d93183, differs is noted.
// Where it says what two other widely used parsers do, it means Scrapy's
// protego (src/protego: _protego.py, _ruleset.py, _utils.py) and
// crawler-commons (SimpleRobotRulesParser with its default exact user-agent
// matching, and SimpleRobotRules), as their sources and test suites read on
// 2026-12-01.
// As robots.cc does and the RFC allows, allow wins a tie
// (RobotsMatcher::disallow needs a strictly higher disallow priority) and "$"
// anchors only as a pattern's last character (RobotsMatchStrategy::Matches).
//
// Leniencies we share with Google's reference parser (each accepted input is
// flagged so statistics can count it):
//
//   - Google_bom (§2.2 has no BOM): a leading UTF-8 byte order mark, or a
//     prefix of one, is skipped, as robots.cc does (RobotsTxtParser::Parse,
//     the bom_pos loop).
//   - Google_typo_useragent, Google_typo_dissallow, Google_typo_site_map
//     (§2.2 keys): "useragent" and "user agent"; "dissallow", "dissalow",
//     "disalow", "diasllow", "disallaw"; "site-map" are read as the key they
//     misspell (LineTypo), as robots.cc does (ParsedRobotsKey::KeyIsUserAgent,
//     KeyIsDisallow, KeyIsSitemap). Other spellings of the separator are our
//     own choice: see Deviation_key_separator below.
//   - Google_missing_colon (§2.2 requires ":"): "Disallow /x" is read as
//     "Disallow: /x" when the line is exactly two words, as robots.cc does
//     (RobotsTxtParser::GetKeyAndValueFrom); that the first word must be a
//     known key is our own (Deviation_missing_colon_unknown_key).
//   - Google_token_prefix (§2.2.1 says the value MUST be a product token): a
//     user-agent value in the file names its leading product token, as
//     robots.cc does (RobotsMatcher::ExtractUserAgent, called from
//     HandleUserAgent): "GPTBot/1.1" names gptbot, "Googlebot*" names
//     googlebot, "Googlebot Images" names googlebot, and a whole User-Agent
//     header names its first token ("Mozilla"). crawler-commons reads a
//     value that is not a token the same way (its partial match). robots.cc's
//     token also ends at a digit or a non-ASCII letter; ours does not
//     (Deviation_token_digits, Deviation_token_non_ascii). Reading the agent
//     asked about the same way is our own (Deviation_agent_token_prefix).
//   - Google_star_prefix: "*" alone or followed by white space is the
//     wildcard, as robots.cc does (RobotsMatcher::HandleUserAgent, the
//     isspace(user_agent[1]) test, after comments are cut); "*bot" is not
//     the wildcard and names no token.
//   - Google_pattern_leading_star (§2.2.2 path-pattern begins with "/"): a
//     pattern beginning with "*" is used as written ("*.pdf"), as robots.cc
//     does (RobotsMatchStrategy::Matches, which anchors any pattern at the
//     start of the path). A pattern beginning with any other character is
//     kept but can never match a path, which always begins with "/" there
//     too (GetPathParamsQuery); we flag it LineBadPattern.
//   - Google_whitespace: keys and values are trimmed of spaces, tabs, VT and
//     FF, as robots.cc does (StripWhitespaceSlowly, absl::StripAsciiWhitespace).
//   - Google_429 (option StatusOptions.TooManyRequestsUnreachable, off by
//     default; §2.3.1.3 says 4xx is unavailable): 429 treated as 5xx. This is
//     not in robots.cc, which never sees a status code; it reproduces what
//     Google's crawler documentation is cited for, which we could not read to
//     confirm, so it stays an option and the default follows the RFC.
//
// Deviations from Google's reference parser, robotstat's own choices (each
// has a conformance test named after it, and says which of protego and
// crawler-commons agree with it):
//
//   - Deviation_other_record_ends_run (§2.2.4: "a Sitemaps record MUST NOT
//     terminate a group"): robots.cc at 12c3de88 ends a run of user-agent
//     lines at a sitemap or any unknown record (HandleSitemap and
//     HandleUnknownAction set seen_separator_), so "User-agent: bingbot /
//     Crawl-delay: 30 / User-agent: x / Disallow: /" leaves bingbot
//     unrestricted; at c8ac4b1d those two handlers are empty and it groups as
//     the RFC does. We follow the RFC, as crawler-commons does (only allow
//     and disallow end a run); protego ends a run at crawl-delay and unknown
//     records, not at sitemap and host. Options.Grouping = GroupingGoogle
//     reproduces 12c3de88 for sensitivity analyses.
//   - Deviation_key_prefix (§2.2): robots.cc reads any key that starts with
//     a known key as that key (StartsWithIgnoreCase in the KeyIs functions),
//     so "Disallowed: /x" disallows /x. Our own choice, because the RFC
//     matches keys exactly and "User-agents"/"Disallowed" lines are more
//     often prose than directives; "Disallowed" is an Other record. protego
//     (a fixed set of keys) and crawler-commons (a known key must be
//     followed by ":" or white space) agree.
//   - Deviation_key_separator: our own choice, because they are the same
//     misspelling: "user_agent", "user<TAB>agent" and runs of spaces or "_"
//     ("user  agent") fold to "user-agent" like "user agent" (normaliseKey),
//     flagged LineTypo. robots.cc and protego accept only "user agent" with
//     one space and crawler-commons not even that; all three read the
//     others as unknown keys.
//   - Deviation_agent_token_prefix: our own choice, because callers hand
//     Robots.Lookup whatever User-Agent they have: the agent asked about is
//     read by its product token too ("GPTBot/1.1" looks up gptbot,
//     "MJ12bot/v1.4.8" looks up mj12bot). robots.cc compares the agent asked
//     about whole (EqualsIgnoreCase in HandleUserAgent), leaving callers to
//     pass a token (IsValidUserAgentToObey), and so does crawler-commons,
//     whose callers pass tokens; protego agrees with us: it finds a group's
//     name in the agent string at the start of a word (_RuleSet.applies_to).
//     A whole User-Agent header looks up its first token here ("Mozilla");
//     explain.ReadAgent, which robotstat check and the tester use, finds the
//     catalog bot such a header names ("Mozilla/5.0 (compatible;
//     GPTBot/1.1)" is GPTBot).
//   - Deviation_token_digits (§2.2.1's ABNF has no digits): a product token
//     may hold ASCII digits anywhere ("MJ12bot", "360Spider", "AI2Bot",
//     "img2dataset", the 1996 draft's "1bot") and names only itself: an
//     agent asked about as crawler3 does not get crawler1's group, MJ12bot
//     and AI2Bot get their own, Ai2Bot-Dolma is not AI2Bot. robots.cc ends
//     the token at the first digit on the file's side only
//     (ExtractUserAgent), so "User-agent: MJ12bot" names mj and no crawler
//     asking as MJ12bot ever finds its group (google/robotstxt#46). protego
//     and crawler-commons compare whole values and agree with us, except
//     that crawler-commons also lets a line that is not an RFC token match
//     its letters ("User-agent: crawler1" names crawler, as for Google),
//     where protego and we do not. robotstat 0.1.0 before issue 21 ended
//     the token at the first digit on both sides, which merged "Agent1" ...
//     "Agent5" into one group (stats/VERDICTS.md measures what changed);
//     GroupingGoogle reads the file's side as robots.cc does, for
//     sensitivity analyses.
//   - Deviation_token_non_ascii (§2.2.1's ABNF is ASCII): letters, marks
//     and numbers outside ASCII, in valid UTF-8, are token characters too
//     and compare by Unicode's simple lower case: "Jävla-Foobot" is
//     jävla-foobot, which "JÄVLA-FOOBOT" finds and "jävla-fanbot" does not.
//     protego and crawler-commons lower-case Unicode and compare whole
//     values, so they agree; robots.cc's "Jävla-Foobot" names j. Other
//     characters end a token as ASCII punctuation does: a no-break space or
//     "™" after a name, and an octet that is not UTF-8 (Latin-1
//     "J\xe4vla" names j: its first letter is all that can be read).
//   - Deviation_percent_decoding (§2.2.2, §2.2.3): robots.cc decodes nothing
//     (MaybeEscapePattern only upper-cases escapes and encodes octets with
//     the high bit set), so "Disallow: /%62" does not block "/b" and
//     "Disallow: /a%2A" does not block "/a*"; nor does it encode a space or
//     control in a pattern (Deviation_percent_encoding_space_in_url). We
//     normalise both sides as the RFC's tables show (pattern.go), as protego
//     (_quote_path, _quote_pattern) and crawler-commons (escapePath on both
//     sides) do.
//   - Deviation_percent_case_in_url, Deviation_raw_utf8_path (§2.2.2):
//     robots.cc normalises only the pattern; the URL is used as given
//     (AllowedByRobots: "the user is asked to provide it in escaped form"),
//     so "Disallow: /a%2fb" does not block "/a%2fb" (the pattern becomes
//     %2F, the URL keeps %2f) and raw UTF-8 in a URL never matches. Our own
//     choice, because captured URLs come in every form: the URL gets the
//     same normalisation as the pattern. protego and crawler-commons
//     normalise the URL too.
//   - Deviation_robots_txt_implicit (§2.2.2 "/robots.txt is implicitly
//     allowed"): robots.cc has no such rule and applies the file to
//     /robots.txt itself; we follow the RFC, as crawler-commons does
//     (SimpleRobotRules.isAllowed); protego applies the rules to it.
//   - Deviation_index_html: robots.cc (RobotsMatcher::HandleAllow) reads an
//     allow pattern whose last segment starts with "/index.htm" that does not
//     match as also allowing the directory ("Allow: /d/index.html" allows
//     "/d/$"); the RFC has no such rule and neither do we, nor
//     crawler-commons; protego has Google's (_RuleSet.allow).
//   - Deviation_long_lines: robots.cc keeps only the first 16,663 bytes of a
//     line (RobotsTxtParser::Parse, kMaxLineLen = 2083*8 with the NUL), so a
//     cut pattern can match URLs the whole one does not
//     (Deviation_long_lines_cut_pattern_would_match); the RFC sets no line
//     limit, so we parse lines whole and flag those over 16,664 bytes
//     (Options.LongLine) LineTooLong. protego and crawler-commons read lines
//     whole too.
//   - Deviation_nul_does_not_end_line, Deviation_nul_after_star: robots.cc
//     handles each line as a C string, so a NUL ends it ("Disallow: /a\x00b"
//     is "Disallow: /a"; "User-agent: *\x00" is the wildcard). Our own
//     choice, because a NUL is content like any other byte (a sign of a
//     binary body, flagged LineControl): it is kept and, in a pattern,
//     encoded as %00. protego and crawler-commons keep a NUL inside a line;
//     "User-agent: *\x00" is not the wildcard for protego either, while
//     crawler-commons's String.trim strips the NUL and reads "*".
//   - Deviation_schemeless_url_is_a_path: robots.cc reads "example.com/a" as
//     host and path "/a", and "xyz/foo.js" as "/foo.js" (GetPathParamsQuery:
//     what comes before the first "/" of a URL without "://" is a host). Our
//     own choice: a URL with neither a scheme nor "//" is a relative
//     reference (RFC 3986 §4.2), which we resolve against the robots.txt's
//     own URL (§5.2: it replaces "robots.txt" in "/robots.txt"), so
//     "xyz/foo.js" is "/xyz/foo.js" and "example.com/a" is "/example.com/a"
//     rather than a guessed host. protego reads it as a path too
//     (urllib.parse finds no host in it); crawler-commons answers for "/"
//     whatever java.net.URL rejects (SimpleRobotRules.getPath).
//   - Deviation_limit_cut_line (§2.5): our own choice, because a cut pattern
//     would be broader than the one written: a line the parse limit cuts in
//     two is not parsed and is flagged LineTruncated. (robots.cc, protego and
//     crawler-commons have no size limit, so none of them cuts a line; the
//     500 KiB limit is the RFC's.)
//   - Deviation_invalid_key: our own choice, so HTML and URLs are not
//     counted as records: a "key" holding characters no key has (HTML before
//     a colon, a URL) makes the line LineInvalid; robots.cc reports it as an
//     unknown key (GetKeyAndValueFrom accepts any non-empty key). Rules are
//     unaffected (and under GroupingGoogle such a line does not end a run of
//     user-agent lines, where 12c3de88's would). crawler-commons agrees (an
//     unknown line leaves the group alone); protego counts an unknown
//     directive, which ends a run of user-agent lines.
//   - Deviation_missing_colon_unknown_key: robots.cc accepts the missing
//     colon for any two-word line (GetKeyAndValueFrom); our own choice,
//     because prose is not directives: only for known keys (standard keys,
//     their typos, and the extensions listed in key.go). protego (a line
//     without a colon is a record only when its first words are a known
//     key) and crawler-commons (such a line is ignored) agree.
//
// # AI-use preferences: Content-Signal and Content-Usage
//
// Two vocabularies of 2025-26 put AI-use preferences into robots.txt as
// records of their own. The parser reads both as extension keys (key.go)
// and hands them to handlers as Other records with their group (Entry.Group;
// like any non-rule record they do not end a run of user-agent lines,
// §2.2.4). stats.ParseSignals splits a value into pairs, the signals table
// keeps each pair with its line, group and (Content-Usage) path, and the
// report reads them (report/signals.go). The versions read:
//
//   - Content-Signal: Cloudflare's Content Signals Policy, contentsignals.org
//     (September 2025): comma-separated ai-train, ai-input and search, each
//     yes or no; and use= (immediate, reference, full), the key Cloudflare
//     added in 2026 and seen in the wild, read as such. The policy places
//     the line in a user-agent group and does not say how it is scoped;
//     robotstat reports where it sits (the * group, a group naming bots,
//     outside any group) and reads every line for a site's stance, the most
//     restrictive value winning. Values compare without regard to case.
//   - Content-Usage: draft-ietf-aipref-attach-05 (19 August 2026) §3, a rule
//     of a group: an optional path (a value that starts with "/" runs to the
//     first white space; without one the rule covers every path) and a
//     statement of preference, matched against a path like Allow and
//     Disallow (longest path wins; robotstat reads the statement at "/", and
//     on a tie n wins, the vocabulary's most restrictive combination). A
//     Content-Usage line outside any group is not a rule under the draft: it
//     is counted, not read. The statement is read with the labels of
//     draft-ietf-aipref-vocab-08 (14 September 2026): train-ai, ai-use and
//     search, each y or n. The labels changed in every draft (-01: tdm, ai,
//     genai, search, inference; -02: all, train-ai, train-genai, ai-use,
//     search; -03: bots, train-ai, train-genai, search; -04: bots, train-ai,
//     ai-output, search; -05 to -07: train-ai, search); labels vocab-08 does
//     not define are counted as such and not read, as its §6.4 says of
//     unknown labels. attach-00's form, one path-less line per group, reads
//     as a path-less rule.
//
// Where robotstat is more lenient than the drafts, on purpose, because the
// pairs are shared with directives.signals and because a researcher counts
// what sites wrote: keys are lower-cased before they are compared (a
// Structured Fields dictionary rejects "Train-AI=n", making every category
// unknown) and white space around "=" is accepted (also a parse failure
// there). A path with "," or "=" in it is split wrongly (ParseSignals
// splits on both before it knows a path); and the draft's rule that
// preferences attach only to crawlable paths is not applied to "/".
//
// # Cost
//
// Parsing is linear in the body. Matching has no regexp and no backtracking
// (match.go): a decision costs at most O(len(path) * len(pattern)) per rule
// tried, rules are tried longest first and the first match decides.
package parse
