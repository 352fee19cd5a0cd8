// Package record holds the one type that crosses from reading to counting:
// the Capture the pipeline package produces from any source and the stats
// package consumes. It has no logic, so that neither of those packages needs
// the other (data flows source -> record -> parse events -> stats -> rows).
package record

import "time"

// Capture is one fetched robots.txt (or a response that a robots.txt fetch
// was redirected to), as read from any source: a WARC response or resource
// record, a JSON Lines or CSV row, a tar member or a file in a folder.
//
// A Capture handed to a consumer is owned by the worker that received it and
// is reused for the next capture: Body (and only Body) aliases a per-worker
// buffer and is valid until the consumer returns. Copy it to keep it. The
// string fields are ordinary Go strings and may be kept.
type Capture struct {
	// Where the capture came from. Source is the input as named on the
	// command line or in a manifest (a path or a URL); Index counts records
	// (of every type) or rows from 0 within Source, -1 for a record read by
	// itself at its offset (a panel's, through Common Crawl's URL index).
	//
	// Offset locates the record in Source, one offset per record: in a
	// plain input, the byte offset of its first byte; in a compressed WARC
	// whose record begins a gzip member or zstd frame (one record per
	// member, as Common Crawl writes them), the stored offset of that
	// member, where a reader can seek; for a record inside a member or
	// stream that it shares with the records before it (a whole-file
	// .warc.gz, a frame holding several records), and for every row or
	// entry of a compressed dump (.jsonl.gz, .csv.zst, .tar.gz), its byte
	// offset in the decompressed input: the offset the plain file would
	// give it. Such a record has no stored offset of its own, and its
	// member's would be shared by all of them. In a file that mixes the two
	// layouts an offset of one kind may equal one of the other; Index is
	// unique within Source in every case.
	//
	// Path is Source as the user named it, relative to what was named: a
	// file found in a folder is its slash-separated path below that folder
	// ("a/example.org/robots.txt"), a relative manifest line the line as
	// written; any other file or URL is its base name (the last element of
	// the path or URL path), "-" for stdin. It is the same whatever the
	// working directory or mirror, so with Crawl and Offset it identifies a
	// record that has no WARC-Record-ID across reruns.
	Source string
	Path   string
	Offset int64
	Index  int64

	// Crawl names the collection: --crawl when given, else the WARC
	// warcinfo record's isPartOf, else empty.
	Crawl string

	// URL is the target URI as recorded (WARC-Target-URI, the dump's url
	// field, or https://HOST/robots.txt for a folder or tar of files named
	// by host). RobotsPath says the URL's path is exactly /robots.txt.
	URL        string
	RobotsPath bool

	// FetchTime is WARC-Date (UTC) or the dump's time field; zero if unknown.
	FetchTime time.Time
	// IP is WARC-IP-Address; empty if unknown.
	IP string

	// WARC metadata, empty when the source is not a WARC or the header is
	// absent. Truncated is the WARC-Truncated reason (length, time,
	// disconnect, unspecified).
	RecordID       string
	PayloadDigest  string
	Truncated      string
	IdentifiedType string

	// HTTP response. Status is 0 when the source has no status (a WARC
	// resource record, a dump without a status field, a file on disk);
	// consumers treat 0 as "content present, status unknown".
	Status      int
	Reason      string
	ContentType string
	Location    string

	// Body is the decoded payload (transfer- and content-codings removed),
	// cut at the configured parse limit. BodyLen is the payload's true
	// decoded length, which may exceed len(Body). BodyTruncated reports that
	// the archive itself recorded fewer bytes than the server sent
	// (WARC-Truncated, or a body shorter than its recorded length).
	Body          []byte
	BodyLen       int64
	BodyTruncated bool
}
