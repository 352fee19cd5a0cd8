// Package pipeline reads robots.txt captures out of the containers researchers
// have: WARC files (plain, gzip per record or per stream, zstd with or without
// the IIPC dictionary frame, read frame by frame), JSON Lines and CSV dumps, tar archives, folders
// of files named by host, manifests of paths or URLs, and HTTP(S) URLs. It
// fans the captures out to a bounded pool of workers. It knows nothing about
// statistics or Parquet: consumers receive a *Capture and do with it what
// they will.
//
// Run is the entry point. Underneath it, two readers are usable on their own
// and are fuzzed: WARCReader frames records (ISO 28500:2017, WARC 1.1
// section 4-5; WARC/0.17, 0.18 and 1.0 read the same way) and ParseHTTPHeader
// reads the HTTP/1.x response header inside a record (RFC 9112 sections 2-5).
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
//   - Retry-After is honoured up to Config.Retry.MaxDelay, not without bound.
//
// Errors are data or environment. Data errors (a broken gzip member, a
// malformed record, a bad row) are located in a *ReadError, counted by Class
// in the Summary, and the run goes on; Config.Strict makes the first one fatal.
// Environment errors (an input that cannot be opened or fetched, a cancelled
// context, a failing consumer) end the run. The sentinel errors are in one
// block in errors.go.
package pipeline
