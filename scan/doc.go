// Package scan fetches each host's /robots.txt the way RFC 9309 section 2.3
// describes a careful crawler, and archives every request, response and
// failure in WARC/1.1 files (ISO 28500:2017) that robotstat, or any WARC
// tool, reads back.
//
// # The procedure, per host
//
// For each scheme in Config.Schemes (https, then http) the scan fetches
// SCHEME://HOST/robots.txt with one GET (HTTP/1.1, Connection: close, no
// content coding asked for) and follows redirects (3xx with a Location,
// resolved against the request URL) up to Config.MaxRedirects (5) times,
// RFC 9309 section 2.3.1.2. The first response that is not a redirect
// settles the host: 2xx parsed (2.3.1.1), 4xx unavailable (2.3.1.3), 5xx
// unreachable (2.3.1.4). A network failure (DNS, connect, TLS, timeout,
// reset, a reply that is not HTTP) settles it as unreachable (2.3.1.4),
// except that a failure of the first fetch of a scheme other than the last
// moves on to the next scheme (https failing, http tried); a DNS failure
// does not, since the name is the same for both. A sixth consecutive redirect
// ends the host as unavailable (too-many-redirects), as does a redirect back
// to a URL of the same chain (loop). Bodies are kept up to Config.BodyLimit
// (512000 bytes, section 2.5) and read on, without being kept, up to
// Config.CountLimit to learn their true size.
//
// One request at a time goes to a host: hosts are deduplicated, each is
// handled by one worker, and a fetch holds the lock of its URL's host (a
// striped lock, so a redirect into a host another worker is scanning waits).
//
// # What is written
//
// Files DIR/scan-YYYYMMDDhhmmss-NNNNN.warc.gz (the run's start, UTC, and a
// serial), each starting with a warcinfo record (software, format,
// conformsTo, isPartOf, robots policy, operator and user agent, the
// options), one gzip member per record, rolled over at Config.FileSize.
// Every record has WARC-Record-ID (urn:uuid), WARC-Date (UTC, seconds),
// Content-Length and WARC-Block-Digest (sha1, base32); records of a fetch
// share its WARC-Date and IP address and are linked by WARC-Concurrent-To.
//
//   - request (application/http;msgtype=request): the bytes sent, written
//     once the request has gone out on the connection.
//
//   - response (application/http;msgtype=response): the bytes received, the
//     header as sent and the message body up to BodyLimit (transfer coding
//     kept as received), with WARC-Payload-Digest over the payload
//     (chunked framing removed) and WARC-Truncated: length when the body
//     was cut. BodyLimit counts payload, not chunked framing (kept up to
//     8 times the payload, so that 1-byte chunks still store BodyLimit
//     bytes of payload); a cut response also carries the extension field
//     Robotstat-Payload-Length, the payload's true length as counted (up
//     to CountLimit), which robotstat analyze reads as body_bytes where no
//     Content-Length says it. Redirects are responses like any other, and each redirect
//     target gets its own request and response, as in Common Crawl's
//     robotstxt WARCs.
//
//   - metadata, a failure (application/warc-fields): a fetch that got no
//     usable response but after which the scan went on with the next
//     scheme. WARC-Target-URI is the URL tried; the block is
//
//     fetchError: tls
//     fetchErrorDetail: tls: failed to verify certificate: ...
//     fetchTimeMs: 12
//     next: http://example.com/robots.txt
//
//   - metadata, the host's end record (application/warc-fields): one per
//     host, its last record. WARC-Target-URI is the last URL fetched,
//     WARC-Refers-To the response that settled the host (when one did).
//     The block is
//
//     host: example.com
//     outcome: parsed
//     fetches: 2
//     status: 200
//     payloadLength: 5242880
//
//     with, when the last fetch failed, fetchError, fetchErrorDetail,
//     fetchTimeMs and fetchStatus, and, for too-many-redirects and loop,
//     fetchError and fetchErrorDetail only (the responses are in the
//     archive). outcome is one of parsed, unavailable, unreachable and
//     redirect (a 3xx without a usable Location). payloadLength is the
//     true decoded length of the settling response's payload, counted up
//     to CountLimit; payloadLengthCapped: true says counting stopped there
//     (or at a failure after BodyLimit bytes were in).
//
// fetchError is one of dns, connect, tls, timeout, reset, protocol (the
// reply was not HTTP), too-many-redirects, loop and blocked (an address
// that is not of the public internet: see below). fetchStatus is the
// status a fetch without a response gets in robotstat's captures table:
// Heritrix's crawl-log codes where it has one (-1 DNS lookup failed, -2
// connect failed, -3 connection broken, -4 timeout, -5001 blocked from
// fetch by a setting) and robotstat's own otherwise (-10 tls, -11
// protocol). The pipeline turns a metadata record
// with a fetchStatus into a capture with that status, which RFC 9309 reads
// as unreachable; failure records that a fallback followed carry none, so a
// failed https fetch does not hide the http response that came next.
//
// # Deliberate choices
//
// A response cut off by a reset or a stall before BodyLimit bytes of body
// arrived is not stored as a response record: it is not a robots.txt a
// careful crawler may use (section 2.3.1.4), and a response record would be
// replayed and analysed as the file. The end record says what happened and
// keeps httpStatus and receivedBytes. A failure after BodyLimit bytes
// arrived leaves a complete robots.txt by section 2.5: the response is
// stored with WARC-Truncated: length.
//
// A scan does not reach into the network it runs in: an address from the
// DNS, the host list or a redirect that is loopback, private, link-local,
// unspecified, multicast or of another special-purpose range (RFC 6890;
// IPv4 mapped into IPv6 judged as IPv4) is not connected to unless
// Config.AllowPrivate is set: the fetch fails with kind blocked, no
// request sent, and no other scheme is tried. Addresses that
// Config.Resolve maps are the user's choice and always fetched. (Heritrix
// and wget fetch any address; a crawler run from inside a cloud or a
// campus network must not, or a redirect from any site reads its
// metadata service or intranet into a public archive.)
//
// Interim 1xx responses are read past and not stored: a WARC response
// record holds one response.
//
// # Resume
//
// Run reads the scan-*.warc.gz files already in Config.Dir and skips every
// host that has an end record. A killed run may leave a gzip member cut
// short at the end of its last file; Run cuts the file back to its last
// complete member, so every file is valid WARC for every tool, and the host
// whose records were cut is fetched again.
package scan
