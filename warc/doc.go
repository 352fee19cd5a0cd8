// Package warc reads WARC records and the HTTP responses inside them from
// a decompressed stream: record framing as ISO 28500:2017 (WARC 1.1)
// sections 4 and 5 define it, WARC/0.17, 0.18 and 1.0 read the same way,
// and the HTTP/1.x response header at the start of a response block (RFC
// 9112 sections 2-5). Package pipeline reads archives as found through it
// (under its own gzip/zstd stream, which tells Reader where members begin
// and where broken data was skipped); package scan reads back the files it
// wrote.
//
//   - Reader frames records: Next finds a record's header (Header: the
//     fields robotstat reads, located in the header's bytes), Read or
//     ReadBlock reads its block. Damage is reported as data and reading
//     resynchronises; it never stops on content.
//   - ParseHTTPHeader reads a response's status line and the header fields
//     robotstat reads.
//   - FieldValue reads one field of an application/warc-fields block
//     (warcinfo, metadata; section 6.2).
//   - MemberReader reads a file compressed record at a time (annex D.2:
//     one gzip member per record) and holds it to that layout, for files
//     whose writer is known (scan's own): a member cut by the end of the
//     file is a *CutError naming where to cut the file back to, any other
//     damage an error. It is the one reader here that decompresses.
//   - AppendRecord writes a WARC/1.1 record (RecordHeader: the fields
//     robotstat writes, the block digest computed), and Encoder writes it
//     as one gzip member: the one writer of scan's files and of the
//     Wayback source's records and archived answers.
//
// Deliberate deviations, all to read what archives really contain:
//
//   - Lines may end in LF or CR CR LF as well as CRLF, in WARC and HTTP
//     headers alike; field names match case-insensitively; values are
//     trimmed of spaces, tabs, CR and LF.
//   - Records may be separated by any run of CR and LF, not exactly CRLF
//     CRLF; anything else between records is reported once per gap
//     (ErrGarbage, or ErrNotWARC before the first record) and skipped up
//     to the next "WARC/", found anywhere (not only at a line start), so
//     that NUL padding does not hide a record.
//   - WARC-Target-URI may be wrapped in <> (WARC/0.17 drafts); the
//     brackets are dropped.
//   - A header is held up to 64 KiB (ErrHeaderTooLong beyond); a line that
//     is not a field before the blank line ends it (ErrHeaderNoEnd), and
//     reading resumes with that line. Folded lines are accepted and not
//     joined: no field robotstat reads is folded.
//   - Where records are compressed one per member (Reader.Boundary), a
//     record's Content-Length cannot run past its member into a member
//     that begins the next record: the block is cut there
//     (ErrContentLength, Reader.Overrun), instead of swallowing the
//     records after it.
//   - An HTTP status line may lack its reason phrase, have extra spaces
//     or follow empty lines; a header line without a colon is ignored; a
//     header that runs to the end of the block is returned as far as it
//     went (ErrHTTPHeaderEnd). Common Crawl's X-Crawler-* renaming of the
//     fields it decoded is reported (HTTPHeader.Crawler).
//
// Errors are data or environment. Data errors (the sentinels in
// errors.go) are passed to Reader.Report, located by stored offset and
// record index, with an excerpt of at most MaxExcerpt bytes, and counted
// (Reader.NumErrors); only a failing stream stops a Reader (Reader.Err).
// Reader, ParseHTTPHeader and Header.CopyTo allocate nothing per record
// once warm (AllocsPerRun tests); the fuzz targets FuzzReader and
// FuzzHTTPHeader (against net/http) have their seeds in testdata/fuzz.
package warc
