// Package ccindextest builds Common-Crawl-shaped crawls for tests: WARC
// files of robots.txt fetches (WriteWARC), a mirror laid out as Common
// Crawl lays out a crawl (Mirror), its columnar URL index written with
// parquet-go in Common Crawl's schema, sorted by url_surtkey, over several
// files and row groups, with or without statistics and page index
// (WriteIndex, from the rows ScanWARC reads out of any WARC files), and an
// HTTP server for it on 127.0.0.1 with Range support and injectable
// faults (Server).
//
// ScanWARC reads WARC files on its own (gzip member by member, its own
// header parsing), not through package pipeline, so that the offsets the
// index gives are checked by a second reader.
package ccindextest

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Capture is one robots.txt fetch to write: a request and a response
// record, each its own gzip member, as Common Crawl writes them.
type Capture struct {
	URL      string
	Status   int    // HTTP status; 0 writes a metadata record with fetchStatus -1 (no response)
	Location string // Location header of a 3xx, as sent
	Body     string
	Time     time.Time // WARC-Date; zero: the file's start plus a second per capture
	// Raw, when set, is the whole HTTP response block (status line,
	// headers, body), written as it is.
	Raw string
}

// WriteWARC writes caps as a robotstxt WARC file of crawl at path: a
// warcinfo record naming the crawl (isPartOf), then a request and a
// response record per capture. Record ids are derived from the path and
// the capture's place, so the same call writes the same bytes.
func WriteWARC(path, crawl string, caps []Capture) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	zw, _ := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	seq := 0
	id := func() string {
		seq++
		h := sha256.Sum256([]byte(path + "\x00" + strconv.Itoa(seq)))
		x := hex.EncodeToString(h[:16])
		return "<urn:uuid:" + x[:8] + "-" + x[8:12] + "-4" + x[13:16] + "-8" + x[17:20] + "-" + x[20:32] + ">"
	}
	member := func(header string, block []byte) {
		zw.Reset(w)
		zw.Write([]byte(header))
		zw.Write([]byte("Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n"))
		zw.Write(block)
		zw.Write([]byte("\r\n\r\n"))
		zw.Close()
	}
	start := time.Date(2024, 5, 18, 0, 0, 0, 0, time.UTC)
	info := id()
	member("WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Date: "+start.Format(time.RFC3339)+"\r\nWARC-Record-ID: "+info+
		"\r\nContent-Type: application/warc-fields\r\n", []byte("isPartOf: "+crawl+"\r\npublisher: Common Crawl\r\nformat: WARC File Format 1.1\r\n"))
	for i, c := range caps {
		t := c.Time
		if t.IsZero() {
			t = start.Add(time.Duration(i+1) * time.Second)
		}
		date := t.UTC().Format(time.RFC3339)
		_, rest, _ := strings.Cut(c.URL, "://")
		host, p, _ := strings.Cut(rest, "/")
		req := "GET /" + p + " HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\nHost: " + host + "\r\n\r\n"
		reqID := id()
		member("WARC/1.0\r\nWARC-Type: request\r\nWARC-Date: "+date+"\r\nWARC-Record-ID: "+reqID+
			"\r\nContent-Type: application/http; msgtype=request\r\nWARC-Warcinfo-ID: "+info+"\r\nWARC-Target-URI: "+c.URL+"\r\n", []byte(req))
		if c.Status == 0 && c.Raw == "" {
			member("WARC/1.0\r\nWARC-Type: metadata\r\nWARC-Date: "+date+"\r\nWARC-Record-ID: "+id()+
				"\r\nContent-Type: application/warc-fields\r\nWARC-Target-URI: "+c.URL+"\r\n", []byte("fetchStatus: -1\r\n"))
			continue
		}
		block := c.Raw
		if block == "" {
			var h strings.Builder
			h.WriteString("HTTP/1.1 " + strconv.Itoa(c.Status) + " " + reason(c.Status) + "\r\nContent-Type: text/plain\r\n")
			if c.Location != "" {
				h.WriteString("Location: " + c.Location + "\r\n")
			}
			h.WriteString("Content-Length: " + strconv.Itoa(len(c.Body)) + "\r\n\r\n")
			block = h.String() + c.Body
		}
		_, body, _ := strings.Cut(block, "\r\n\r\n")
		member("WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: "+date+"\r\nWARC-Record-ID: "+id()+
			"\r\nContent-Type: application/http; msgtype=response\r\nWARC-Warcinfo-ID: "+info+"\r\nWARC-Concurrent-To: "+reqID+
			"\r\nWARC-Target-URI: "+c.URL+"\r\nWARC-Payload-Digest: "+digest([]byte(body))+"\r\nWARC-Identified-Payload-Type: text/plain\r\n", []byte(block))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func digest(p []byte) string {
	s := sha1.Sum(p)
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

func reason(status int) string {
	switch {
	case status == 200:
		return "OK"
	case status >= 300 && status < 400:
		return "Moved"
	case status == 404:
		return "Not Found"
	case status >= 500:
		return "Server Error"
	}
	return "Status"
}

// Record is one WARC record ScanWARC found: its gzip member's offset and
// length in the file, and the header fields and HTTP response parts an
// index row is made of.
type Record struct {
	Offset, Length int64
	Type           string // WARC-Type
	URL            string // WARC-Target-URI
	Date           time.Time
	Digest         string // WARC-Payload-Digest without "sha1:"
	Identified     string // WARC-Identified-Payload-Type
	Truncated      string // WARC-Truncated
	Status         int    // HTTP status of a response, 0 if none
	Location       string
	ContentType    string
}

// countReader counts the bytes read from a file.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ScanWARC reads a WARC file written one record per gzip member (as Common
// Crawl writes them) and returns its records in file order. A member that
// does not decode ends the scan with an error.
func ScanWARC(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := &countReader{r: f}
	br := bufio.NewReader(cr)
	var out []Record
	var zr *gzip.Reader
	for {
		start := cr.n - int64(br.Buffered())
		if _, err := br.Peek(1); err == io.EOF {
			return out, nil
		}
		if zr == nil {
			zr, err = gzip.NewReader(br)
		} else {
			err = zr.Reset(br)
		}
		if err != nil {
			return out, fmt.Errorf("%s: member at %d: %w", path, start, err)
		}
		zr.Multistream(false)
		data, err := io.ReadAll(zr)
		if err != nil {
			return out, fmt.Errorf("%s: member at %d: %w", path, start, err)
		}
		end := cr.n - int64(br.Buffered())
		rec, err := parseRecord(data)
		if err != nil {
			return out, fmt.Errorf("%s: member at %d: %w", path, start, err)
		}
		rec.Offset, rec.Length = start, end-start
		out = append(out, rec)
	}
}

func parseRecord(data []byte) (Record, error) {
	var r Record
	head, block, ok := bytes.Cut(data, []byte("\r\n\r\n"))
	if !ok {
		return r, fmt.Errorf("WARC header without end")
	}
	fields := headerFields(string(head))
	r.Type, r.URL = fields["warc-type"], strings.Trim(fields["warc-target-uri"], "<>")
	r.Date, _ = time.Parse(time.RFC3339, fields["warc-date"])
	r.Digest = strings.TrimPrefix(fields["warc-payload-digest"], "sha1:")
	r.Identified, r.Truncated = fields["warc-identified-payload-type"], fields["warc-truncated"]
	if r.Type == "response" {
		n, _ := strconv.Atoi(fields["content-length"])
		block = block[:min(n, len(block))]
		hh, _, _ := bytes.Cut(block, []byte("\r\n\r\n"))
		status, rest, _ := strings.Cut(string(hh), "\r\n")
		if parts := strings.Fields(status); len(parts) >= 2 {
			r.Status, _ = strconv.Atoi(parts[1])
		}
		hf := headerFields(rest)
		r.Location, r.ContentType = hf["location"], hf["content-type"]
	}
	return r, nil
}

// headerFields reads "Name: value" lines, names in lower case.
func headerFields(s string) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(s, "\r\n") {
		if k, v, ok := strings.Cut(l, ":"); ok {
			m[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	return m
}
