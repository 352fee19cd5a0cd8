package warc

import "errors"

// The data errors this package reports. None of them stops a Reader: each
// is passed to Reader.Report with where it happened, and reading goes on.
// ParseHTTPHeader returns its two. MemberReader's are its own (a
// *CutError, ErrNotOneRecord in members.go).
var (
	// Stream: the bytes between records.
	ErrGarbage = errors.New("garbage between records")    // bytes that are not a record; skipped to the next "WARC/"
	ErrNotWARC = errors.New("input is not a WARC")        // ErrGarbage before the first record: an HTML error page, a listing, a binary
	ErrTruncIn = errors.New("input ends inside a record") // the stream ended before Content-Length bytes of block

	// Record: one record's header is malformed; the record is skipped.
	ErrHeaderTooLong = errors.New("WARC header too long") // over 64 KiB
	ErrHeaderNoEnd   = errors.New("WARC header has no blank line")
	ErrContentLength = errors.New("missing or invalid WARC Content-Length")

	// HTTP: the response header at the start of a block (ParseHTTPHeader).
	ErrStatusLine    = errors.New("malformed HTTP status line")
	ErrHTTPHeaderEnd = errors.New("HTTP header has no blank line")
)

// ErrBreak is what a stream under a Reader returns from Read, once, where
// it skipped broken data (a gzip member that failed its checksum, a zstd
// frame cut short): the bytes before it and after it are not contiguous.
// The Reader takes it as data, not as the end: a block it cuts is
// truncated (ErrTruncIn), bytes it cuts are garbage, and reading goes on
// with the next Read.
var ErrBreak = errors.New("stream resynchronised after broken data")

// MaxExcerpt caps the excerpt passed with a reported error: enough to
// recognise an HTML page or a bad line, never a whole body.
const MaxExcerpt = 64
