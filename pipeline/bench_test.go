package pipeline

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/warc"
)

// ccLike builds n Common-Crawl-shaped request+response pairs, one gzip
// member per record (scripts/gencorpus makes the full-size corpus).
func ccLike(n int) []byte {
	var recs [][]byte
	for i := range n {
		host := "www" + strconv.Itoa(i) + ".example.com"
		recs = append(recs, warcRecord("request", "https://"+host+"/robots.txt", []byte("GET /robots.txt HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\nHost: "+host+"\r\n\r\n")))
		if i%6 == 5 {
			recs = append(recs, warcRecord("response", "https://"+host+"/robots.txt", httpResp("HTTP/1.1 404 Not Found", []byte("<html><body>Not Found</body></html>\n"), "Content-Type: text/html")))
			continue
		}
		body := bytes.Repeat([]byte(robotsBody), 1+i%40)
		recs = append(recs, warcRecord("response", "https://"+host+"/robots.txt", httpResp("HTTP/1.1 200 OK", body,
			"Content-Type: text/plain", "X-Crawler-Content-Encoding: gzip", "Content-Length: "+strconv.Itoa(len(body))),
			"WARC-IP-Address: 192.0.2.7", "WARC-Payload-Digest: sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"))
	}
	return gzipMembers(recs...)
}

// BenchmarkWARCReader reads WARC records through the container stream, as
// a decoder does (gzip member by member, package warc's Reader on top), one
// sub-benchmark per fixture; package warc's BenchmarkReader is the reader
// alone.
func BenchmarkWARCReader(b *testing.B) {
	fixtures := []struct {
		name string
		data []byte
	}{{"cc-like-gzip-members", ccLike(500)}}
	if d, err := os.ReadFile(corpus + "warc/real/heritrix-2008-blackbook.warc.gz"); err == nil {
		fixtures = append(fixtures, struct {
			name string
			data []byte
		}{"heritrix-2008", d})
	}
	if d, err := os.ReadFile(corpus + "warc/real/wget-iah-urls.warc"); err == nil {
		fixtures = append(fixtures, struct {
			name string
			data []byte
		}{"wget-plain", d})
	}
	for _, fx := range fixtures {
		b.Run(fx.name, func(b *testing.B) {
			var rd bytes.Reader
			var s stream
			s.report = func(int64, error, []byte) {}
			w := warc.NewReader(&s)
			w.Locate = s.offsetAt
			w.Boundary = s.boundaryAfter
			buf := make([]byte, 0, 64<<10)
			b.SetBytes(int64(len(fx.data)))
			b.ReportAllocs()
			for b.Loop() {
				rd.Reset(fx.data)
				s.reset(&rd, nil)
				w.Reset(&s)
				for w.Next() {
					buf, _, _ = w.ReadBlock(buf[:0], 1<<20)
				}
			}
		})
	}
}

// BenchmarkPayloadDecode removes the codings a response header names, one
// sub-benchmark per coding.
func BenchmarkPayloadDecode(b *testing.B) {
	body := bytes.Repeat([]byte(robotsBody), 20)
	for _, fx := range []struct {
		name, header string
		payload      []byte
	}{
		{"identity", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n", body},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunked(body, 512)},
		{"gzip", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n", gzipMember(body)},
		{"gzip-header-but-decoded", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n", body},
	} {
		b.Run(fx.name, func(b *testing.B) {
			var h warc.HTTPHeader
			warc.ParseHTTPHeader([]byte(fx.header), &h)
			var d payloadDecoder
			p := make([]byte, len(fx.payload))
			b.SetBytes(int64(len(fx.payload)))
			b.ReportAllocs()
			for b.Loop() {
				copy(p, fx.payload) // dechunking works in place
				d.decode(&h, p, int64(len(p)), DefaultBodyLimit)
			}
		})
	}
}

// BenchmarkRun is the whole pipeline on one CC-like file: decode in one
// goroutine, parse in the pool, a consumer that does nothing.
func BenchmarkRun(b *testing.B) {
	data := ccLike(2000)
	p := writeTemp(b, "bench.warc.gz", data)
	for _, w := range []int{1, 2} {
		b.Run("workers="+strconv.Itoa(w), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				sum, err := Run(context.Background(), Config{Workers: w, Responses: ResponsesAll}, []string{p}, func(int, *record.Capture) error { return nil })
				if err != nil || sum.Captures != 2000 {
					b.Fatal(err, sum.Captures)
				}
			}
		})
	}
}
