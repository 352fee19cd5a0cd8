// Package stats turns robots.txt captures into the rows robotstat writes:
// one row per capture, group, named agent, catalog bot and directive key,
// and, on request, per rule, sitemap and diagnostic. It does no I/O: the
// catalog, template and rank loaders read from an io.Reader, and the rows
// are handed to the schema package's writers by the caller. The bots rows
// (one per capture and catalog bot, 91 per capture with the embedded
// catalog) leave as one schema.BotsBlock per capture, for schema.WriteBots;
// Rows.BotRows expands them.
//
// Every number is computed on the RFC 9309 reading of the file, by the parse
// package, in one parse pass per capture (parse.Tee of the compiled
// parse.Robots and this package's own handler).
//
// # What the numbers mean
//
// HTTP status (RFC 9309 §2.3.1, parse.StatusOutcome): a 2xx answer, or a
// capture without a status, is parsed; 4xx means "unavailable", every path
// allowed (§2.3.1.3); 5xx or no answer means "unreachable", every path
// disallowed (§2.3.1.4); 3xx is a redirect, which Common Crawl records as
// one capture and its target as another, so its verdicts are unknown. 429 is
// a 4xx unless Options.TooManyRequestsUnreachable (Google's reading). Only
// parsed answers are parsed: the body of a 3xx/4xx/5xx is sniffed (HTML,
// binary, digest) but yields no lines, groups or rules.
//
// Groups (§2.1, §2.2.1): consecutive user-agent lines form one group
// ("stacked" agents share the rules that follow); all groups naming a
// product token are merged; an agent no group names falls back to the
// merged "*" groups. Every per-agent and per-bot number uses this grouping,
// and per distinct group set (parse.SetID), not per bot: the ~100 catalog
// bots of a typical file share one or two computations.
//
// Verdicts (bots table), each a reproduction of a published definition on
// the RFC grouping, decided by package verdict (verdict.Verdicter); see
// VERDICTS.md for the full text, the sources and how they differ:
//
//   - verdict, robotstat's own: full (no path may be fetched), partial or
//     none (every path may be fetched), decided with the real matcher on
//     witness paths derived from the rules;
//   - somesite, Liu et al., "Somesite I Used To Crawl", IMC 2025: test "/",
//     every path written in the file's allow/disallow lines and a dummy path;
//   - cic, Longpre et al., "Consent in Crisis", 2024: all if "Disallow: /"
//     and no allow, none if no effective disallow, some otherwise, values
//     with "?" ignored;
//   - cc_class, Common Crawl's robotstxt-experiments: disallow-all iff the
//     rules are exactly "Disallow: /", allow-all for the empty and
//     "Allow: /" forms, allow-part otherwise.
//
// A 4xx gives none/none/none/allow-all, a 5xx full/full/all/disallow-all
// and a 3xx unknown under every definition, so that the four columns are
// comparable row by row; filter captures.outcome = 'parsed' to reproduce a
// study's population of fetched files.
//
// Bot catalog (catalog.json, embedded and versioned): the bots the bots
// table reports on, with operator, category, and the source and date each
// entry was checked at; derived in part from the ai.robots.txt registry (MIT). ReadCatalog/LoadCatalog read a user's file
// (robotstat analyze --bots), WriteCatalog prints it (robotstat bots).
//
// Templates (templates.json): platform defaults recognised from their rule
// sets, not from body hashes; see TemplateSet.
//
// Sites: host is lower-cased and IDNA-encoded; the registered domain is the
// public suffix list's eTLD+1 (golang.org/x/net/publicsuffix); the rank
// comes from a Tranco-style list (ReadRanks), by host, else by registered
// domain.
//
// Sniffing: lint.LooksHTML, lint.LooksBinary and LineEndings document their
// rules; the diagnostics table is lint.Linter's findings.
//
// # Deviations
//
//   - The studies' own parsers are not reproduced, only their definitions:
//     their grouping errors (see VERDICTS.md) are not carried over, and
//     robotstat's leniencies (typos such as "Dissallow", a missing colon,
//     see the parse package) apply to all four definitions.
//   - body_digest is computed over the body the capture carries, which the
//     pipeline may have cut at its parse limit; WARC-Payload-Digest, when
//     recorded, is used as is.
//
// # Cost
//
// Per capture: one linear parse; per distinct group set, witness decisions
// that stop at the first allowed and disallowed witness; a set of more than
// 64 rules that needs more than 32 witnesses is switched to a prefix index
// (index.go), so no file costs O(rules²) pattern matches; per catalog bot
// one hash lookup. Row strings come from a bounded interning table, so
// repeated keys, tokens and patterns do not allocate: about four
// allocations per capture on real files (README.md has the figures).
package stats
