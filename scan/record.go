package scan

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/robotstat/robotstat/warc"
)

// WARC record types and media types this package writes (ISO 28500:2017
// sections 6 and 8).
const (
	typeWarcinfo = "warcinfo"
	typeRequest  = "request"
	typeResponse = "response"
	typeMetadata = "metadata"

	mediaRequest  = "application/http;msgtype=request"
	mediaResponse = "application/http;msgtype=response"
	mediaFields   = "application/warc-fields"
)

// recordHeader holds the named fields of one record; empty ones are left
// out.
type recordHeader struct {
	Type          string
	ID            string // "<urn:uuid:...>"
	Date          time.Time
	TargetURI     string
	IP            string
	ConcurrentTo  string
	RefersTo      string
	Filename      string // warcinfo only
	ContentType   string
	PayloadDigest string
	Truncated     string
	// PayloadLength is the payload's true length where the block holds
	// less of it (Truncated), written as the extension field
	// warc.PayloadLengthField (ISO 28500 section 5: records may carry
	// fields of their own).
	PayloadLength string
}

// newRecordID returns a fresh "<urn:uuid:...>" (RFC 9562 version 4).
func newRecordID() string {
	var u [16]byte
	rand.Read(u[:]) // never fails (crypto/rand, Go 1.24+)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
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

// warcDate formats t as WARC-Date: UTC, second precision (section 5.4; 1.1
// allows finer, which WARC/1.0 readers refuse).
func warcDate(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// sha1Digest returns "sha1:" and the base32 SHA-1 of the parts, the form
// Heritrix, Common Crawl and the WARC 1.1 examples use.
func sha1Digest(parts ...[]byte) string {
	h := sha1.New()
	for _, p := range parts {
		h.Write(p)
	}
	var sum [sha1.Size]byte
	return "sha1:" + base32.StdEncoding.EncodeToString(h.Sum(sum[:0]))
}

// encoder turns records into gzip members. It reuses its buffers and is
// not safe for concurrent use: each worker has its own.
type encoder struct {
	hdr bytes.Buffer
	zw  *gzip.Writer
}

func newEncoder() *encoder {
	zw, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return &encoder{zw: zw}
}

// member appends to dst one gzip member holding the record with header h
// and the block made of parts, and returns dst. The block digest is
// computed here.
func (e *encoder) member(dst []byte, h *recordHeader, parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	b := &e.hdr
	b.Reset()
	b.WriteString("WARC/1.1\r\n")
	field := func(name, v string) {
		if v != "" {
			b.WriteString(name)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteString("\r\n")
		}
	}
	field("WARC-Type", h.Type)
	field("WARC-Record-ID", h.ID)
	field("WARC-Date", warcDate(h.Date))
	field("WARC-Filename", h.Filename)
	field("WARC-Target-URI", h.TargetURI)
	field("WARC-IP-Address", h.IP)
	field("WARC-Concurrent-To", h.ConcurrentTo)
	field("WARC-Refers-To", h.RefersTo)
	field("WARC-Truncated", h.Truncated)
	field(warc.PayloadLengthField, h.PayloadLength)
	field("WARC-Block-Digest", sha1Digest(parts...))
	field("WARC-Payload-Digest", h.PayloadDigest)
	field("Content-Type", h.ContentType)
	field("Content-Length", strconv.Itoa(n))
	b.WriteString("\r\n")

	out := bytes.NewBuffer(dst)
	e.zw.Reset(out)
	e.zw.Write(b.Bytes())
	for _, p := range parts {
		e.zw.Write(p)
	}
	e.zw.Write([]byte("\r\n\r\n"))
	e.zw.Close() // writes to a bytes.Buffer cannot fail
	return out.Bytes()
}

// fields builds an application/warc-fields block ("name: value" CRLF
// lines). Values are single lines: CR and LF in one are replaced by spaces.
type fields struct{ b []byte }

func (f *fields) add(name, value string) {
	if value == "" {
		return
	}
	f.b = append(f.b, name...)
	f.b = append(f.b, ": "...)
	for i := 0; i < len(value); i++ {
		c := value[i]
		if c == '\r' || c == '\n' {
			c = ' '
		}
		f.b = append(f.b, c)
	}
	f.b = append(f.b, "\r\n"...)
}

func (f *fields) addInt(name string, v int64) { f.add(name, strconv.FormatInt(v, 10)) }
