package warc

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// ccLike builds n Common-Crawl-shaped request+response pairs, uncompressed
// (package pipeline's benchmark of the same name reads them gzipped, one
// member per record; scripts/gencorpus makes the full-size corpus).
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
	return cat(recs...)
}

// BenchmarkReader frames records and reads their blocks from decompressed
// bytes, one sub-benchmark per fixture: the reader's own cost, without
// inflation (package pipeline's BenchmarkWARCReader adds its gzip stream).
func BenchmarkReader(b *testing.B) {
	fixtures := []struct {
		name string
		data []byte
	}{{"cc-like", ccLike(500)}}
	if d, err := os.ReadFile(corpus + "warc/real/heritrix-2008-blackbook.warc.gz"); err == nil {
		if zr, err := gzip.NewReader(bytes.NewReader(d)); err == nil {
			if d, err := io.ReadAll(zr); err == nil {
				fixtures = append(fixtures, struct {
					name string
					data []byte
				}{"heritrix-2008", d})
			}
		}
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
			w := NewReader(&rd)
			buf := make([]byte, 0, 64<<10)
			b.SetBytes(int64(len(fx.data)))
			b.ReportAllocs()
			for b.Loop() {
				rd.Reset(fx.data)
				w.Reset(&rd)
				for w.Next() {
					buf, _, _ = w.ReadBlock(buf[:0], 1<<20)
				}
			}
		})
	}
}

func BenchmarkParseHTTPHeader(b *testing.B) {
	block := []byte("HTTP/1.1 200 OK\r\nDate: Sat, 18 May 2024 10:11:12 GMT\r\nServer: nginx\r\nContent-Type: text/plain\r\nX-Crawler-Content-Encoding: gzip\r\nX-Crawler-Content-Length: 912\r\nVary: Accept-Encoding\r\nContent-Length: 2981\r\n\r\n")
	var h HTTPHeader
	b.SetBytes(int64(len(block)))
	b.ReportAllocs()
	for b.Loop() {
		ParseHTTPHeader(block, &h)
	}
}
