package schema

// ErrorRow is a row of the errors table: one row per data error robotstat
// analyze found while reading an input (a broken gzip member, a WARC record
// with a wrong length, an HTTP header that never ends, a malformed dump
// row), located, and one per input that could not be read to its end. The
// run summary counts these; the table lets a run over 70,000 files be
// audited in SQL. Its rows are committed with the rest of their input's
// rows, so a rerun that redoes an input replaces its errors too.
//
// Offset and Record are pointers because 0 is a real offset and a real
// record; nil writes NULL. TableWriter.Write copies what it needs.
type ErrorRow struct {
	// Crawl of the input's captures (the first by name when they have
	// several), else --crawl. NULL when unknown (an input without captures
	// read without --crawl). Also the Hive partition key.
	Crawl string `parquet:"crawl,optional,dict"`
	// The input as robotstat analyze's completion records name it (a path
	// as given, a manifest line as resolved, a URL).
	Input string `parquet:"input,dict"`
	// The file or stream the error is in, named as captures.source names
	// it (relative to what was named: a folder's file by its path below
	// the folder, any other input by its base name), so that errors join
	// their file's captures; for class input, the input as in input.
	Source string `parquet:"source,dict"`
	// Byte offset of the error in source: of its record (as
	// captures.record_offset), or of the broken gzip member, zstd frame or
	// garbage; in the decompressed stream for whole-file compression. NULL
	// for an input that could not be read (class input) and for a URL index
	// file robotstat panel could not read (class index).
	Offset *int64 `parquet:"byte_offset,optional"`
	// Record or row the error is in, counted from 0 within source. NULL
	// when the error is not inside a record (a broken gzip member, garbage
	// between records), and for a record robotstat panel read on its own
	// (by its offset, not its place in the file).
	Record *int64 `parquet:"record_index,optional"`
	// WARC-Record-ID of the record without angle brackets (as
	// captures.warc_record_id). NULL when the error is not inside a WARC
	// record whose header was read.
	RecordID string `parquet:"warc_record_id,optional,dict"`
	// Class of the error: container, record, http, payload, row, index (a
	// URL index file robotstat panel could not read, or a record it names
	// that is cut or is not the URL its row says), crawl (a WARC's warcinfo
	// isPartOf names another crawl than its path's crawl-data/CC-MAIN-YYYY-WW/,
	// under which its captures are filed) (as the run summary counts them),
	// or input for an input that could not be read to its
	// end (its captures before the failure are kept).
	Class string `parquet:"class,dict"`
	// What is wrong, e.g. "broken gzip member: unexpected EOF".
	Message string `parquet:"message,dict"`
	// At most 64 bytes of the offending input, for recognising an HTML page
	// or a bad line. NULL when there is none.
	Excerpt string `parquet:"excerpt,optional,dict"`
}

func (r ErrorRow) crawl() string { return r.Crawl }
