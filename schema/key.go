package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Key identifies the capture a row describes. Every row type embeds it
// first, so capture_id, crawl, url and host lead every table, and any table
// can be queried alone or joined to captures on capture_id.
//
// A Key is a plain value: copy it into each row of a capture.
type Key struct {
	// Identifier of the capture, unique within a dataset and stable across
	// runs over the same input: the first 32 hex digits (lower case) of the
	// SHA-256 of "warc:" and the WARC-Record-ID without angle brackets, or,
	// for a record without an id (dump rows, tar entries, files of a
	// folder), of "src:", the crawl, a newline, source (the input's path
	// relative to what was named), "@" and record_offset.
	CaptureID string `parquet:"capture_id,dict"`
	// Crawl (collection) the capture belongs to: robotstat's --crawl, else
	// the WARC warcinfo isPartOf. NULL when unknown. Also the Hive partition
	// key: files live under crawl=NAME/, or crawl=__HIVE_DEFAULT_PARTITION__/
	// when NULL.
	Crawl string `parquet:"crawl,optional,dict"`
	// URL of the robots.txt fetch as recorded (WARC-Target-URI or the dump's
	// url field).
	URL string `parquet:"url,dict"`
	// Host part of url, lower-cased, without port.
	Host string `parquet:"host,dict"`
}

// crawl reports the partition the row belongs to. It is promoted to every
// row type, which is what lets TableWriter route rows without reflection.
func (k Key) crawl() string { return k.Crawl }

// CaptureID returns the capture_id of a capture: the SHA-256 of a
// description of where the record lives, cut to 128 bits and written as 32
// lower-case hex digits. With a WARC-Record-ID (angle brackets and
// surrounding space ignored) the description is "warc:" followed by the id,
// so the same record has the same id wherever its file is. Without one (a
// dump row, a tar entry, a file of a folder) it is "src:", the crawl, a
// newline, path (the input relative to what the user named,
// record.Capture.Path: the captures table's source), "@" and the decimal
// offset: unique within a dataset, since a crawl's inputs have distinct
// paths and an input's records distinct offsets, and the same on every run
// over the same inputs, wherever they are mounted.
//
// 128 bits keep the chance of any collision below 1e-18 for a billion
// captures; 64 would give a few percent.
func CaptureID(recordID, crawl, path string, offset int64) string {
	var buf [256]byte
	b := buf[:0]
	if id := TrimRecordID(recordID); id != "" {
		b = append(b, "warc:"...)
		b = append(b, id...)
	} else {
		b = append(b, "src:"...)
		b = append(b, crawl...)
		b = append(b, '\n')
		b = append(b, path...)
		b = append(b, '@')
		b = strconv.AppendInt(b, offset, 10)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// TrimRecordID returns a WARC-Record-ID as the warc_record_id columns
// (captures, errors) and CaptureID take it: without the angle brackets of
// its syntax ("<" uri ">", WARC 1.1 section 5.2) and the space around
// them, so that the errors of a record join its capture.
func TrimRecordID(id string) string {
	id = strings.TrimSpace(id)
	return strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
}
