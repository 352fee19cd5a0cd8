package pipeline

import (
	"errors"
	"github.com/robotstat/robotstat/internal/textesc"
	"strconv"

	"github.com/robotstat/robotstat/warc"
)

// Errors a run reports. Content and container errors (everything below except
// the environment block) are data: they are counted by Class, located in a
// *ReadError, and the run continues with the next record. Environment errors
// end the run and are returned from Run wrapped with %w context. The WARC
// and HTTP header errors are package warc's, under the same names, so that
// errors.Is finds them through either package.
var (
	// Container: the compressed or framed stream itself is broken.
	ErrGzip    = errors.New("broken gzip member") // bad header, corrupt deflate data, checksum mismatch
	ErrZstd    = errors.New("broken zstd frame")  // bad or truncated frame; skipped to the next frame
	ErrGarbage = warc.ErrGarbage                  // bytes that are neither a gzip member nor a WARC record; skipped to the next one
	ErrNotWARC = warc.ErrNotWARC                  // no WARC/ line anywhere: an HTML error page, a listing, a binary
	ErrTruncIn = warc.ErrTruncIn                  // the stream ended before Content-Length bytes of block (or inside a member, frame or tar entry)

	// Record: one WARC record is malformed; it is skipped.
	ErrHeaderTooLong = warc.ErrHeaderTooLong
	ErrHeaderNoEnd   = warc.ErrHeaderNoEnd
	ErrContentLength = warc.ErrContentLength

	// HTTP: the response header inside a record is malformed; the record is skipped.
	ErrStatusLine    = warc.ErrStatusLine
	ErrHTTPHeaderEnd = warc.ErrHTTPHeaderEnd
	ErrHTTPTooLong   = errors.New("HTTP header too long") // longer than Config.RecordLimit

	// Payload: the transfer or content coding is broken. The capture is still
	// delivered with the body decoded as far as it went.
	ErrChunked  = errors.New("broken chunked transfer coding")
	ErrEncoding = errors.New("broken content coding")

	// Row: a dump row (JSON Lines, CSV, tar member) is malformed; it is skipped.
	ErrRow = errors.New("malformed dump row")

	// Panel (Config.Panel): what Common Crawl's URL index says and what
	// its files hold disagree, or an index file cannot be read. The record
	// or file is skipped and the hosts whose answer depends on it are
	// counted as failed in the unit's Coverage.
	ErrIndexMismatch = errors.New("the record is not the capture the URL index names")
	ErrIndexCut      = errors.New("the file ends inside the record the URL index names")
	ErrIndexFile     = errors.New("unreadable URL index file")

	// Crawl: a WARC whose path names a crawl (crawl-data/CC-MAIN-YYYY-WW/)
	// has a warcinfo whose isPartOf names another. Its captures are filed
	// under the path's crawl (CrawlOfPath); the error locates the warcinfo.
	ErrCrawlMismatch = errors.New("the WARC names another crawl than its path")

	// Environment: returned from Run, never counted.
	ErrGaveUp   = errors.New("gave up fetching")                     // HTTP(S) input failed after Config.Retry.MaxTries tries
	ErrSlowDown = errors.New("server asks to slow down")             // S3-style 503 SlowDown (retried; wrapped in ErrGaveUp at the end)
	ErrFetch    = errors.New("fetch failed")                         // HTTP status that is not worth retrying (404, 410, ...)
	ErrChanged  = errors.New("the object changed while it was read") // a resume's answer is of another version (ETag, Last-Modified, length): not resumable, not retried
	ErrNotFound = errors.New("not found")                            // 404 or 410, wrapped in ErrFetch: the file is not there
	// ErrNoCrawl: a crawl name input (CC-MAIN-YYYY-WW) whose list of
	// robotstxt WARCs the base does not have (a 404, a missing file):
	// returned at once, not retried as a network fault is.
	ErrNoCrawl = errors.New("no such crawl")
	ErrRange   = errors.New("range not satisfiable")                // 416, wrapped in ErrFetch: the range begins past the file's end
	ErrRefused = errors.New("the server kept refusing")             // the last try of a give-up was a 403, 429 or 5xx (wrapped in ErrGaveUp)
	ErrStopped = errors.New("stopped: the endpoint keeps refusing") // Config.StopAfterRefused downloads in a row refused: ends the run, even under KeepGoing
	ErrShard   = errors.New("invalid shard")                        // ParseShard / Config.Validate
	ErrConfig  = errors.New("invalid pipeline configuration")       // Config.Validate
	ErrNoStdin = errors.New("standard input not configured")        // input "-" without Config.Stdin
	ErrNoS3    = errors.New("no S3 client configured")              // an s3:// input without Config.S3
	// ErrNoURLColumn: a CSV dump's header names neither the url nor the
	// host column (Config.Fields): no row of it can be read. It is one
	// counted row error at offset 0 (wrapped with ErrRow in a *ReadError),
	// naming the columns the header has; the run goes on.
	ErrNoURLColumn = errors.New("the CSV header names no url or host column")
	// ErrOutputDir: a folder named as an input is a robotstat output
	// folder (it has _robotstat/): its tables and records are not
	// robots.txt captures.
	ErrOutputDir = errors.New("is a robotstat output folder (it has _robotstat/), not input: give the folder of the WARCs or dumps it was made from; robotstat report, sites, status and compact read an output folder")
	// ErrNotHostName: a file named as an input has no container format
	// (not a WARC, dump, tar, manifest) and its name is not a host name, so
	// it is not a robots.txt named by host either (hostname.go).
	ErrNotHostName = errors.New("not a WARC, dump, tar archive, manifest or folder, and the name is not a host name (example.com, example.com-robots.txt, example.com/robots.txt)")
)

// Class groups data errors for counting. The zero value is not a class.
type Class uint8

// The error classes, in the order the summary prints them.
const (
	ClassContainer Class = iota + 1 // gzip/zstd stream, garbage gaps, not a WARC
	ClassRecord                     // WARC record header, length, record end
	ClassHTTP                       // HTTP response header inside a record
	ClassPayload                    // chunked / gzip / deflate / br payload
	ClassRow                        // JSON Lines, CSV or tar row
	ClassIndex                      // a URL index file, or a record it names (Config.Panel)
	ClassCrawl                      // a WARC header names another crawl than the path (ErrCrawlMismatch)
	numClasses
)

var classNames = [numClasses]string{"", "container", "record", "http", "payload", "row", "index", "crawl"}

// String returns the class name used in summaries and diagnostics.
func (c Class) String() string {
	if c < numClasses {
		return classNames[c]
	}
	return "class(" + strconv.Itoa(int(c)) + ")"
}

// ReadError locates one data error: in Source, at byte Offset (-1 when it
// is the whole file's, as an unreadable URL index file of a panel; a record's
// or row's located as in Capture.Offset; a broken gzip member, zstd frame
// or garbage gap at its stored offset), in record Record (counted from 0
// within Source; -1 when the error is not inside a record), whose
// WARC-Record-ID is RecordID (as in the header; empty when the error is not
// inside a WARC record whose header was read). Excerpt holds at most
// maxExcerpt bytes of the offending input, for the message. Path is Source
// as record.Capture.Path names it (relative to what the user named), so
// that an error joins the captures of its file.
//
// A *ReadError is immutable once reported and may be kept and shared.
type ReadError struct {
	Source   string
	Path     string
	Offset   int64
	Record   int64
	RecordID string
	Class    Class
	Err      error
	Excerpt  string
}

// maxExcerpt caps the excerpt quoted in a ReadError: enough to recognise an
// HTML page or a bad line, never a whole body (the cap of package warc's
// excerpts, which ReadErrors quote).
const maxExcerpt = warc.MaxExcerpt

func (e *ReadError) Error() string {
	b := make([]byte, 0, 128)
	b = append(b, textesc.Message(e.Source)...) // a file name may hold control characters
	if e.Offset >= 0 {                          // -1: the whole file (a panel's unreadable index file)
		b = append(b, ':')
		b = strconv.AppendInt(b, e.Offset, 10)
	}
	if e.Record >= 0 {
		b = append(b, ": record "...)
		b = strconv.AppendInt(b, e.Record, 10)
	}
	b = append(b, ": "...)
	b = append(b, e.Class.String()...)
	b = append(b, ": "...)
	if e.Err != nil {
		b = append(b, textesc.Message(e.Err.Error())...)
	}
	if e.Excerpt != "" {
		b = append(b, " near "...)
		b = strconv.AppendQuote(b, e.Excerpt)
	}
	return string(b)
}

func (e *ReadError) Unwrap() error { return e.Err }

// excerpt returns a capped copy of p for a ReadError.
func excerpt(p []byte) string {
	if len(p) > maxExcerpt {
		p = p[:maxExcerpt]
	}
	return string(p)
}
