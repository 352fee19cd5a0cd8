// Command mksample writes robotstat's embedded sample,
// internal/sample/robotstat-sample.warc.gz: a small WARC in the shape of
// Common Crawl's robotstxt subset (warcinfo, then request + response pairs,
// one gzip member per record) holding
//
//   - every robots.txt response (200 and 404) of a real 2008 Heritrix crawl,
//     ../shared/corpus/warc/real/heritrix-2008-blackbook.warc.gz (from
//     archivesunleashed/aut, Apache-2.0), with their original WARC dates,
//     addresses and HTTP blocks, re-wrapped as WARC/1.0 records, and
//   - made-up captures on reserved .example hosts that show each case robotstat
//     tells apart (see cases below).
//
// The output is deterministic: run it again and the file is byte-identical.
//
//	go run ./scripts/mksample            # from the repository root
package main

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/robotstat/robotstat/warc"
)

func main() {
	in := flag.String("heritrix", "../shared/corpus/warc/real/heritrix-2008-blackbook.warc.gz", "the Heritrix WARC to take real robots.txt responses from")
	out := flag.String("out", "internal/sample/robotstat-sample.warc.gz", "where to write the sample")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "mksample:", err)
		os.Exit(1)
	}
}

// crawl is the sample's collection name (warcinfo isPartOf), and so the
// crawl partition of its output.
const crawl = "robotstat-sample"

func run(in, out string) error {
	var buf bytes.Buffer
	w := &writer{out: &buf, n: 0}
	w.warcinfo()
	real, err := heritrix(in)
	if err != nil {
		return err
	}
	for _, r := range real {
		w.pair(r.uri, r.date, r.ip, r.http)
	}
	date := time.Date(2026, 11, 2, 3, 4, 5, 0, time.UTC)
	for i, c := range cases {
		w.pair(c.url, date.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), "192.0.2."+fmt.Sprint(10+i), httpResponse(c))
	}
	if w.err != nil {
		return w.err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "mksample: wrote %s: %d real and %d made-up captures, %d bytes\n", out, len(real), len(cases), buf.Len())
	return nil
}

// realCapture is one robots.txt response of the Heritrix crawl.
type realCapture struct {
	uri, date, ip string
	http          []byte
}

// heritrix returns the robots.txt responses of the Heritrix WARC, in order.
func heritrix(path string) ([]realCapture, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	r := warc.NewReader(zr)
	var out []realCapture
	for r.Next() {
		h := r.Header()
		if string(h.Type()) != "response" || !strings.HasSuffix(string(h.TargetURI()), "/robots.txt") {
			continue
		}
		c := realCapture{uri: string(h.TargetURI()), date: warcDate(string(h.Date())), ip: string(h.IPAddress())}
		block, _, err := r.ReadBlock(nil, 1<<20)
		if err != nil {
			return nil, err
		}
		c.http = block
		out = append(out, c)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if r.NumErrors() != 0 {
		return nil, fmt.Errorf("%s: %d read errors", path, r.NumErrors())
	}
	return out, nil
}

// warcDate turns WARC/0.17's 14-digit date into WARC/1.0's ISO 8601 form.
func warcDate(s string) string {
	if t, err := time.Parse("20060102150405", s); err == nil {
		return t.UTC().Format(time.RFC3339)
	}
	return s
}

// writer writes gzip-per-record WARC/1.0 records.
type writer struct {
	out io.Writer
	n   int
	err error
}

// id is a deterministic record id (a name-based UUID would do as well; the
// sample needs only uniqueness and stability).
func (w *writer) id() string {
	w.n++
	sum := sha1.Sum([]byte(fmt.Sprintf("robotstat-sample-%d", w.n)))
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
}

func (w *writer) record(fields [][2]string, block []byte) {
	if w.err != nil {
		return
	}
	var h strings.Builder
	h.WriteString("WARC/1.0\r\n")
	for _, f := range fields {
		h.WriteString(f[0] + ": " + f[1] + "\r\n")
	}
	fmt.Fprintf(&h, "Content-Length: %d\r\n\r\n", len(block))
	zw, _ := gzip.NewWriterLevel(w.out, gzip.BestCompression)
	zw.ModTime = time.Time{}
	bw := bufio.NewWriter(zw)
	bw.WriteString(h.String())
	bw.Write(block)
	bw.WriteString("\r\n\r\n")
	if err := bw.Flush(); err != nil {
		w.err = err
		return
	}
	w.err = zw.Close()
}

func (w *writer) warcinfo() {
	info := "isPartOf: " + crawl + "\r\n" +
		"description: robotstat's embedded sample: real robots.txt responses of a 2008 Heritrix crawl (archivesunleashed/aut, Apache-2.0) and made-up captures on .example hosts\r\n" +
		"format: WARC File Format 1.0\r\n" +
		"operator: robotstat\r\n"
	w.record([][2]string{
		{"WARC-Type", "warcinfo"},
		{"WARC-Date", "2026-11-02T03:00:00Z"},
		{"WARC-Filename", "robotstat-sample.warc.gz"},
		{"WARC-Record-ID", w.id()},
		{"Content-Type", "application/warc-fields"},
	}, []byte(info))
}

// pair writes a request and its response, as Common Crawl does.
func (w *writer) pair(uri, date, ip string, http []byte) {
	host := uri
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	host, path, _ := strings.Cut(host, "/")
	req := "GET /" + path + " HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\nAccept: text/plain\r\nHost: " + host + "\r\n\r\n"
	reqID := w.id()
	w.record([][2]string{
		{"WARC-Type", "request"},
		{"WARC-Date", date},
		{"WARC-Record-ID", reqID},
		{"WARC-Target-URI", uri},
		{"Content-Type", "application/http; msgtype=request"},
	}, []byte(req))
	fields := [][2]string{
		{"WARC-Type", "response"},
		{"WARC-Date", date},
		{"WARC-Record-ID", w.id()},
		{"WARC-Concurrent-To", reqID},
		{"WARC-Target-URI", uri},
	}
	if ip != "" {
		fields = append(fields, [2]string{"WARC-IP-Address", ip})
	}
	if _, body, ok := bytes.Cut(http, []byte("\r\n\r\n")); ok {
		sum := sha1.Sum(body)
		fields = append(fields, [2]string{"WARC-Payload-Digest", "sha1:" + base32.StdEncoding.EncodeToString(sum[:])})
	}
	fields = append(fields, [2]string{"Content-Type", "application/http; msgtype=response"})
	w.record(fields, http)
}
