// Package verdict decides, for an agent and a compiled robots.txt
// (parse.Robots), whether the file blocks it fully, partly or not at all,
// under the four definitions the bots table reports side by side:
//
//   - Verdict, robotstat's own: full (no path may be fetched), partial or
//     none (every path may be fetched), decided with the real matcher on
//     witness paths derived from the rules (RFC 9309 §2.2.2: longest match,
//     allow wins a tie, "*" and "$");
//   - Somesite, Liu et al., "Somesite I Used To Crawl", IMC 2025: test "/",
//     every path written in the file's allow/disallow lines and a dummy path;
//   - CIC, Longpre et al., "Consent in Crisis", 2024: all if "Disallow: /"
//     and no allow, none if no effective disallow, some otherwise, values
//     with "?" ignored;
//   - CCClass, Common Crawl's robotstxt-experiments: disallow-all iff the
//     rules are exactly "Disallow: /", allow-all for the empty and
//     "Allow: /" forms, allow-part otherwise.
//
// All four are computed on the RFC 9309 grouping (stacked user-agent lines
// share a group, a token's groups are merged, "*" applies only when no group
// names the agent). A 4xx robots.txt gives none/none/none/allow-all, a 5xx
// full/full/all/disallow-all and an unresolved redirect unknown under every
// definition (RFC 9309 §2.3.1). stats/VERDICTS.md has the exact procedures,
// the sources and worked differences.
//
// The package imports only parse, so that everything that reads one
// robots.txt can use it: the stats package for the bots table, and the
// explanation robotstat tester compiles to WebAssembly, which must stay
// small. The value vocabularies (Full, CICAll, CCClassDisallowAll, ...) are
// the bots table's; package schema re-exports them under its column names.
package verdict
