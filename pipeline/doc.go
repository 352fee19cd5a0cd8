// Package pipeline reads robots.txt captures out of the containers researchers
// have: WARC files (plain, gzip per record or per stream, zstd with or without
// the IIPC dictionary frame, read frame by frame), JSON Lines and CSV dumps, tar archives, folders
// of files named by host, manifests of paths or URLs, HTTP(S) URLs, s3://
// objects (through Config.S3), and Common Crawl crawls by name
// (CC-MAIN-YYYY-WW: the crawl's robotstxt.paths.gz and the WARCs it lists,
// from Config.CCBase, optionally sampled or cut to some segments; crawl.go),
// or, with Config.Panel, a site list's captures of each crawl, record by
// record, through the crawl's columnar URL index (package ccindex;
// ccpanel.go), and a site list's months out of the Wayback Machine
// (wayback:FROM..TO: package wayback; wayback.go).
// It fans the captures out to a bounded pool of workers. It knows nothing about
// statistics or Parquet: consumers receive a *record.Capture and do with it what
// they will.
//
// Run is the entry point. WARC records are framed and their HTTP headers
// read by package warc, whose doc lists what it reads beyond the standard
// (line endings, separators, garbage skipped to the next "WARC/", a
// record's length cut at the end of its gzip member); this package feeds it
// the decompressed stream, tells it where members begin and where broken
// data was skipped, and counts what it reports. The container layer (gzip
// members, zstd frames), the CSV reader (against encoding/csv) and Run
// itself are fuzzed here.
//
// Deliberate deviations, all to read what archives really contain:
//
//   - Transfer and content codings (RFC 9112 section 7.1 chunked; gzip,
//     deflate as zlib or bare, br) are removed only when the header names
//     them and the bytes really are encoded: Common Crawl stores payloads
//     decoded and renames the headers to X-Crawler-*, and other tools decode
//     without renaming.
//   - A gzip member or zstd frame is delivered only once it has decoded and
//     its checksum matched (up to 4 MiB decompressed), and a broken one is
//     rescanned from its second byte for the members it swallowed (RFC 1952
//     members are found by their magic; nothing else marks them). Garbage
//     between members is a counted error, skipped to the next member.
//   - CSV (RFC 4180) is read as encoding/csv reads it with LazyQuotes, but a
//     record is held up to 16 MiB: a quote that is never closed costs its
//     row, not the rest of the dump.
//   - Retry-After is honoured up to Config.Retry.MaxDelay, not without bound,
//     and no sooner than Config.Retry.BaseDelay; every request has connect,
//     header and idle timeouts, and a redirect loop is not retried.
//   - 403 is retried like 429 and 5xx, although RFC 9110 section 15.5.4
//     says a client should not repeat it with the same credentials: Common
//     Crawl's CDN answers 403 when its rate limits trip. All
//     downloads share one request budget (Config.Rate) and a bound on how
//     many run at once (Config.Downloads), and a run whose endpoint refused
//     Config.StopAfterRefused downloads in a row stops.
//   - A panel's record is read by itself, by the offset and length its index
//     row gives, and handed on only when it is the response the row names:
//     its capture is the one the whole file gives it, but for
//     Capture.Index, which is -1 (its place in the file is not read).
//
// Errors are data or environment. Data errors (a broken gzip member, a
// malformed record, a bad row) are located in a *ReadError, counted by Class
// in the Summary, and the run goes on; Config.Strict makes the first one fatal.
// Environment errors (an input that cannot be opened or fetched, a cancelled
// context, a failing consumer) end the run. The sentinel errors are in one
// block in errors.go (the WARC and HTTP header ones are package warc's,
// under the same names); a WARC error between records is ClassContainer,
// one inside a record ClassRecord.
package pipeline
