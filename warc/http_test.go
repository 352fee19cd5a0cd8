package warc

import (
	"bufio"
	"bytes"
	"net/http"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
)

func TestParseHTTPHeader(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		n      int // -1: len(in)
		err    error
		status int
		reason string
		check  func(t *testing.T, h *HTTPHeader)
	}{
		{"RFC9112_4_status_line", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nbody", 45, nil, 200, "OK", func(t *testing.T, h *HTTPHeader) {
			if string(h.ContentType) != "text/plain" || string(h.Proto) != "HTTP/1.1" || h.ContentLength != -1 {
				t.Errorf("%+v", h)
			}
		}},
		{"missing_reason_phrase", "HTTP/1.1 404\r\n\r\n", 16, nil, 404, "", nil},
		{"reason_with_spaces", "HTTP/1.0 503 Service  Unavailable \r\n\r\n", -1, nil, 503, "Service  Unavailable", nil},
		{"lf_only", "HTTP/1.1 301 Moved\nLocation: /x\n\nz", 33, nil, 301, "Moved", func(t *testing.T, h *HTTPHeader) {
			if string(h.Location) != "/x" {
				t.Errorf("location %q", h.Location)
			}
		}},
		{"cr_cr_lf", "HTTP/1.1 200 OK\r\r\nContent-Length: 5\r\r\n\r\r\nhello", 41, nil, 200, "OK", func(t *testing.T, h *HTTPHeader) {
			if h.ContentLength != 5 {
				t.Errorf("content length %d", h.ContentLength)
			}
		}},
		{"leading_blank_line", "\r\nHTTP/1.1 200 OK\r\n\r\n", -1, nil, 200, "OK", nil},
		{"lowercase_proto_and_names", "http/1.1 200 ok\r\ncontent-encoding: gzip\r\ntransfer-encoding: chunked\r\n\r\n", -1, nil, 200, "ok", func(t *testing.T, h *HTTPHeader) {
			if string(h.ContentEncoding) != "gzip" || string(h.TransferEncoding) != "chunked" || h.Crawler {
				t.Errorf("%+v", h)
			}
		}},
		{"common_crawl_renames", "HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\nX-Crawler-Content-Length: 10\r\nContent-Length: 30\r\n\r\n", -1, nil, 200, "OK", func(t *testing.T, h *HTTPHeader) {
			if !h.Crawler || h.ContentEncoding != nil || h.ContentLength != 30 {
				t.Errorf("%+v", h)
			}
		}},
		{"common_crawl_rename_of_any_length", "HTTP/1.1 200 OK\r\nX-Crawler-ETag: \"x\"\r\n\r\n", -1, nil, 200, "OK", func(t *testing.T, h *HTTPHeader) {
			if !h.Crawler {
				t.Errorf("%+v", h)
			}
		}},
		{"line_without_colon_ignored", "HTTP/1.1 200 OK\r\ngarbage line\r\nLocation: x\r\n\r\n", -1, nil, 200, "OK", nil},
		{"nul_bytes", "HTTP/1.1 200 OK\r\nX-A: \x00\x00\r\n\r\n", -1, nil, 200, "OK", nil},
		{"no_blank_line", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n", -1, ErrHTTPHeaderEnd, 200, "OK", nil},
		{"status_line_only", "HTTP/1.1 204 No Content", -1, ErrHTTPHeaderEnd, 204, "No Content", nil},
		{"not_http", "ICY 200 OK\r\n\r\n", 0, ErrStatusLine, 0, "", nil},
		{"four_digit_status", "HTTP/1.1 2000 OK\r\n\r\n", 0, ErrStatusLine, 0, "", nil},
		{"status_below_100", "HTTP/1.1 099 Low\r\n\r\n", 0, ErrStatusLine, 0, "", nil},
		{"empty", "", 0, ErrStatusLine, 0, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h HTTPHeader
			n, err := ParseHTTPHeader([]byte(tc.in), &h)
			want := tc.n
			if want < 0 {
				want = len(tc.in)
			}
			if err != tc.err || n != want || h.Status != tc.status || string(h.Reason) != tc.reason {
				t.Fatalf("got n=%d err=%v status=%d reason=%q; want %d %v %d %q", n, err, h.Status, h.Reason, want, tc.err, tc.status, tc.reason)
			}
			if tc.check != nil {
				tc.check(t, &h)
			}
		})
	}
}

func TestParseHTTPHeaderAllocs(t *testing.T) {
	if testkit.Race {
		t.Skip("the race detector allocates")
	}
	block := []byte("HTTP/1.1 302 Found\r\nLocation: https://www.example.com/robots.txt\r\nContent-Type: text/html\r\nX-Crawler-Content-Encoding: gzip\r\nContent-Length: 0\r\n\r\n")
	var h HTTPHeader
	if n := testing.AllocsPerRun(100, func() { ParseHTTPHeader(block, &h) }); n != 0 {
		t.Fatalf("%v allocations per header", n)
	}
}

// FuzzHTTPHeader checks the parser's invariants and compares it with
// net/http's stricter reader: whatever both accept, they agree on.
func FuzzHTTPHeader(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\n"))
	f.Add([]byte("HTTP/1.0 404\nLocation: x\n\n"))
	f.Add([]byte("HTTP/1.1 301 Moved\r\r\nLocation: /a\r\r\n\r\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var h HTTPHeader
		n, err := ParseHTTPHeader(b, &h)
		if n < 0 || n > len(b) {
			t.Fatalf("n=%d out of range", n)
		}
		if err == nil {
			if h.Status < 100 || h.Status > 999 {
				t.Fatalf("status %d", h.Status)
			}
			if n < 2 || b[n-1] != '\n' {
				t.Fatalf("header does not end in a line feed at %d", n)
			}
		}
		if err == ErrStatusLine && n != 0 {
			t.Fatalf("status error with n=%d", n)
		}
		resp, herr := http.ReadResponse(bufio.NewReader(bytes.NewReader(b)), nil)
		if herr == nil && err == nil && bytes.HasPrefix(b, []byte("HTTP/")) {
			if resp.StatusCode != h.Status {
				t.Fatalf("net/http status %d, ours %d", resp.StatusCode, h.Status)
			}
			if loc := resp.Header.Get("Location"); loc != "" && len(resp.Header.Values("Location")) == 1 && loc != string(h.Location) {
				t.Fatalf("net/http Location %q, ours %q", loc, h.Location)
			}
		}
	})
}
