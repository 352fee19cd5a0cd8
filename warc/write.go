package warc

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/klauspost/compress/gzip"
)

// RecordHeader holds the named fields of a record to write; empty ones are
// left out. The block digest and Content-Length are computed from the
// block.
type RecordHeader struct {
	Type         string
	ID           string // "<urn:uuid:...>" (NewRecordID)
	Date         time.Time
	TargetURI    string
	IP           string
	ConcurrentTo string
	RefersTo     string
	// RefersToTargetURI is WARC 1.1's WARC-Refers-To-Target-URI: the URI
	// the record was read from when it is a copy (a replay's address).
	RefersToTargetURI string
	Filename          string // warcinfo only
	ContentType       string
	PayloadDigest     string
	Truncated         string
	// PayloadLength is the payload's true length where the block holds
	// less of it (Truncated), written as the extension field
	// PayloadLengthField (ISO 28500 section 5: records may carry fields of
	// their own).
	PayloadLength string
}

// NewRecordID returns a fresh "<urn:uuid:...>" (RFC 9562 version 4).
func NewRecordID() string {
	var u [16]byte
	rand.Read(u[:]) // never fails (crypto/rand, Go 1.24+)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return UUID(u)
}

// UUID writes the 16 bytes of u as a record id, "<urn:uuid:...>".
func UUID(u [16]byte) string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return "<urn:uuid:" + string(b[:]) + ">"
}

// Date formats t as WARC-Date: UTC, second precision (section 5.4; 1.1
// allows finer, which WARC/1.0 readers refuse).
func Date(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// SHA1Digest returns "sha1:" and the base32 SHA-1 of the parts, the form
// Heritrix, Common Crawl, the CDX API and the WARC 1.1 examples use.
func SHA1Digest(parts ...[]byte) string {
	h := sha1.New()
	for _, p := range parts {
		h.Write(p)
	}
	var sum [sha1.Size]byte
	return "sha1:" + base32.StdEncoding.EncodeToString(h.Sum(sum[:0]))
}

// AppendRecord appends to dst the uncompressed WARC/1.1 record with header
// h and the block made of parts, and returns dst. The block digest is
// computed here.
func AppendRecord(dst []byte, h *RecordHeader, parts ...[]byte) []byte {
	b := appendHeader(dst, h, parts)
	for _, p := range parts {
		b = append(b, p...)
	}
	return append(b, recordEnd...)
}

// recordEnd follows every block.
const recordEnd = "\r\n\r\n"

// appendHeader appends the record's header, its blank line included.
func appendHeader(b []byte, h *RecordHeader, parts [][]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	b = append(b, "WARC/1.1\r\n"...)
	field := func(name, v string) {
		if v != "" {
			b = append(b, name...)
			b = append(b, ": "...)
			b = append(b, v...)
			b = append(b, "\r\n"...)
		}
	}
	field("WARC-Type", h.Type)
	field("WARC-Record-ID", h.ID)
	field("WARC-Date", Date(h.Date))
	field("WARC-Filename", h.Filename)
	field("WARC-Target-URI", h.TargetURI)
	field("WARC-IP-Address", h.IP)
	field("WARC-Concurrent-To", h.ConcurrentTo)
	field("WARC-Refers-To", h.RefersTo)
	field("WARC-Refers-To-Target-URI", h.RefersToTargetURI)
	field("WARC-Truncated", h.Truncated)
	field(PayloadLengthField, h.PayloadLength)
	field("WARC-Block-Digest", SHA1Digest(parts...))
	field("WARC-Payload-Digest", h.PayloadDigest)
	field("Content-Type", h.ContentType)
	field("Content-Length", strconv.Itoa(n))
	return append(b, "\r\n"...)
}

// Encoder turns records into gzip members, one record a member (the form
// Common Crawl's files and MemberReader's readers expect). It reuses its
// buffers and is not safe for concurrent use.
type Encoder struct {
	hdr []byte
	zw  *gzip.Writer
}

// NewEncoder returns an Encoder.
func NewEncoder() *Encoder {
	zw, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return &Encoder{zw: zw}
}

// Member appends to dst one gzip member holding the record AppendRecord
// writes of h and parts, and returns dst. The block is compressed from
// parts as they are, not copied.
func (e *Encoder) Member(dst []byte, h *RecordHeader, parts ...[]byte) []byte {
	e.hdr = appendHeader(e.hdr[:0], h, parts)
	out := bytes.NewBuffer(dst)
	e.zw.Reset(out)
	e.zw.Write(e.hdr)
	for _, p := range parts {
		e.zw.Write(p)
	}
	e.zw.Write([]byte(recordEnd))
	e.zw.Close() // writes to a bytes.Buffer cannot fail
	return out.Bytes()
}
