package warc

import (
	"bytes"
	"strconv"

	"github.com/klauspost/compress/gzip"
)

// Builders for made-up inputs.

const robotsBody = "User-agent: *\nDisallow: /private/\n\nSitemap: https://example.com/sitemap.xml\n"

// corpus is the shared real data, beside the repository (CI has it too).
const corpus = "../../shared/corpus/"

// warcRecord returns one WARC/1.1 record with the given block.
func warcRecord(typ, uri string, block []byte, extra ...string) []byte {
	var b bytes.Buffer
	b.WriteString("WARC/1.1\r\nWARC-Type: " + typ + "\r\n")
	if uri != "" {
		b.WriteString("WARC-Target-URI: " + uri + "\r\n")
	}
	b.WriteString("WARC-Date: 2024-05-18T10:11:12Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n")
	for _, e := range extra {
		b.WriteString(e + "\r\n")
	}
	if typ == "response" {
		b.WriteString("Content-Type: application/http; msgtype=response\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n")
	b.Write(block)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

// httpResp returns an HTTP response: status line, header lines, blank
// line, body, all with CRLF.
func httpResp(status string, body []byte, headers ...string) []byte {
	var b bytes.Buffer
	b.WriteString(status + "\r\n")
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

func robotsResp(host, body string, headers ...string) []byte {
	return warcRecord("response", "https://"+host+"/robots.txt", httpResp("HTTP/1.1 200 OK", []byte(body), headers...))
}

func gzipMember(p []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
