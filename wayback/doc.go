// Package wayback reads monthly robots.txt histories out of the Internet
// Archive's Wayback Machine: its CDX API (one query per site over the whole
// range of months) and its raw replays (the id_ form, which returns the
// archived status, headers and bytes). It is the source behind robotstat
// panel SITES wayback:FROM..TO; package pipeline turns what it reads into
// captures through the same WARC decoding a whole-file analyze uses.
//
// For each listed host and month (a crawl named wayback-YYYY-MM, dated the
// month's first day) the answer is the first capture in that month of the
// host's own /robots.txt, over http or https, the host exactly as listed
// (the CDX canonicalises URLs to SURT form, so one query returns http,
// https and www. captures alike; rows are told apart by their original
// URL). A redirect is followed through the archive, at most
// parse.MaxRedirects hops as RFC 9309 §2.3.1.2 says: a target the site's
// CDX rows already list is read from its capture nearest in time (as the
// archive itself picks one), any other through the archive's
// /web/<timestamp>id_/<target> form.
//
// Deliberate choices:
//
//   - Each distinct body is fetched once per URL: a capture whose CDX digest
//     was already read for its URL reuses that body (a redirect capture is
//     replayed anyway: its Location is not in the digest).
//   - A replay is the archive's answer only when it carries
//     Memento-Datetime (RFC 7089 §2.1.1): an archived 503 is a capture, the
//     archive's own 503 or 429 is a refusal to retry. A 3xx without it is
//     the archive sending us to the nearest capture, not a hop.
//   - Every request's answer is archived (Archive) before it is used, as a
//     WARC record with the capture's original date, and read back from
//     there on a rerun: nothing is fetched twice after a resume.
//   - Bad input is data: a CDX answer that is not the JSON described, a
//     replay whose status or digest disagrees with its CDX row, a cut body
//     are each an Error, located by URL, never a capture.
package wayback
