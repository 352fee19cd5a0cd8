// Package reduce builds the tables that span captures: sites (one row per
// crawl and host, the answer that host's robots.txt gave in the crawl),
// site_bots (one row per site and catalog bot) and, once the dataset holds
// two crawls, site_history (one row per host and bot over every crawl;
// history.go), from every committed captures and verdicts file of a
// dataset. robotstat sites runs it, and
// analyze runs it at the end of an unsharded run.
//
// # Resolution (RFC 9309 §2.3.1 and Common Crawl's robotstxt subset)
//
// A site is a crawl and a host with at least one capture whose URL path is
// /robots.txt (captures.robots_path); those captures are its candidates.
// In a crawl that only panels read (robotstat panel: its completion
// records name a site list, schema.Index.PanelHosts), the listed hosts
// alone are sites: the captures of the other hosts their redirects lead to
// are followed, but are not sites of the panel.
// Every candidate is resolved:
//
//   - a 2xx (or a capture without a status) is parsed, a 4xx unavailable, a
//     5xx unreachable (429 as the captures say: --429-unreachable);
//   - a 3xx is followed through the same crawl's captures: its
//     redirect_target (the Location, resolved against the URL) is looked up
//     among the captures whose url is exactly that string, and the best of
//     what those lead to is taken, one redirect further; Common Crawl stores
//     redirect targets in the robotstxt subset, also on other hosts and
//     paths;
//   - at most five redirects are followed (§2.3.1.2: "SHOULD follow at least
//     five consecutive redirects"); a capture reached after the fifth that is
//     again a redirect, which is also where every loop ends, makes the
//     answer unavailable ("MAY assume that the robots.txt file is
//     unavailable"), reason redirect-limit;
//   - a redirect to a URL the crawl never captured is unresolved
//     (not-captured), and so is a 3xx without a Location (no-location).
//
// Where a URL has several captures (Common Crawl fetches a host's
// robots.txt in many segments), the best result is taken: by class, parsed
// > unavailable > unreachable > unresolved; then fewer redirects; then the
// latest fetch; then the smallest capture_id. A site's answer is its best
// candidate's: by the class of what it resolved to; then https before http;
// then the candidate's latest fetch; then the smallest capture_id. Every
// tie is broken, so the result never depends on the order of the rows
// (worker count, file order, shards).
//
// URLs are matched as written: a redirect_target and a capture's url are
// the same URL when they are the same string. scripts/sql/sites.sql is the
// same definition in DuckDB SQL over the captures table; CI checks that
// the two agree.
//
// # Memory
//
// A crawl's captures are spilled into partition files by the host part of
// their URL (most redirects stay on their host), and every stage holds one
// partition in memory: Options.PartitionCaptures captures at most, and
// Options.Workers partitions are resolved at once (parallel.go), each by a
// step of its own, so memory is Workers partitions.
// Redirects across partitions travel as request and answer records through
// further partition files, one round per redirect followed. The spill
// folder lies inside the dataset's root and is removed at the end.
//
// # Code
//
// sites.go is Sites and its inputs; crawl.go runs one crawl through four
// stages, one file each: captures.go (A: the captures into partitions),
// targets.go (B: where each redirect target leads, resolveTargets),
// candidates.go (C: each host's best candidate, the sites rows) and
// sitebots.go (D: the answers' verdicts, the site_bots rows and the history
// records); history.go builds site_history at the end. spill.go holds the
// partition files, records.go the one encoder and decoder of each kind of
// record in them. Within a stage each partition is a step that reads only
// its own partition and writes through sinks (crawl.go says how they may
// run at once).
package reduce
