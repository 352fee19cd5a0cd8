// Package pipeline reads robots.txt captures out of the containers researchers
// have: WARC files (plain, gzip per record or per stream, zstd with or without
// the IIPC dictionary frame, read frame by frame), JSON Lines and CSV dumps, tar archives, folders
// of files named by host, manifests of paths or URLs, HTTP(S) URLs, s3://
// objects (through Config.S3), and Common Crawl crawls by name
// (CC-MAIN-YYYY-WW: the crawl's robotstxt.paths.gz and the WARCs it lists,
// from Config.CCBase, optionally sampled or cut to some segments; crawl.go),
// or, with Config.Panel, a site list's captures of each crawl, record by
// record, through the crawl's columnar URL index (package ccindex;
// ccpanel.go).
// It fans the captures out to a bounded pool of workers. It knows nothing about
// statistics or Parquet: consumers receive a *record.Capture and do with it what
// they will.
//
// Run is the entry point. Underneath it, two readers are usable on their own:
// WARCReader frames records (ISO 28500:2017, WARC 1.1 section 4-5; WARC/0.17,
// 0.18 and 1.0 read the same way) and ParseHTTPHeader reads the HTTP/1.x
// response header inside a record (RFC 9112 sections 2-5). Both are fuzzed,
// as are the container layer (gzip members, zstd frames), the CSV reader
// (against encoding/csv) and Run itself.
//
// Deliberate deviations, all to read what archives really contain:
//
//   - Lines may end in LF or CR CR LF as well as CRLF, in WARC and HTTP
//     headers alike; an HTTP status line may lack its reason phrase.
//   - Records may be separated by any run of CR and LF, not exactly CRLF
//     CRLF; anything else between records is a counted error, skipped up to
//     the next "WARC/" (found anywhere, so that NUL padding does not hide a
//     record) or the next gzip member.
//   - Transfer and content codings (RFC 9112 section 7.1 chunked; gzip,
//     deflate as zlib or bare, br) are removed only when the header names
//     them and the bytes really are encoded: Common Crawl stores payloads
//     decoded and renames the headers to X-Crawler-*, and other tools decode
//     without renaming.
//   - A gzip member or zstd frame is delivered only once it has decoded and
//     its checksum matched (up to 4 MiB decompressed), and a broken one is
//     rescanned from its second byte for the members it swallowed (RFC 1952
//     members are found by their magic; nothing else marks them).
//   - Where each record is compressed in a member of its own, a record's
//     Content-Length cannot run past its member into the next record.
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
// block in errors.go.
package pipeline
