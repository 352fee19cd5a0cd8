package pipeline

import (
	"bytes"
	"io"
	"net/http/httputil"
	"testing"

	"github.com/robotstat/robotstat/warc"

	"github.com/robotstat/robotstat/internal/testkit"
)

func TestPayloadDecodeAllocs(t *testing.T) {
	if testkit.Race {
		t.Skip("the race detector allocates")
	}
	var d payloadDecoder
	for _, tc := range []struct {
		name   string
		header string
		body   []byte
	}{
		{"identity", "HTTP/1.1 200 OK\r\n\r\n", []byte(robotsBody)},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunked([]byte(robotsBody), 7)},
		{"gzip", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n", gzipMember([]byte(robotsBody))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h warc.HTTPHeader
			warc.ParseHTTPHeader([]byte(tc.header), &h)
			p := make([]byte, len(tc.body))
			run := func() {
				copy(p, tc.body) // dechunking works in place
				if r := d.decode(&h, p, int64(len(p)), DefaultBodyLimit); string(r.body) != robotsBody {
					t.Fatalf("body %q", r.body)
				}
			}
			run()
			if n := testing.AllocsPerRun(50, run); n != 0 {
				t.Fatalf("%v allocations per payload", n)
			}
		})
	}
}

// FuzzDechunk compares chunked decoding with net/http's reader: whatever
// net/http decodes completely, dechunk decodes to the same bytes.
func FuzzDechunk(f *testing.F) {
	f.Add(chunked([]byte(robotsBody), 5))
	f.Add([]byte("3;ext=1\r\nabc\r\n0\r\nTrailer: x\r\n\r\n"))
	f.Add([]byte("5\nhello\n0\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		want, err := io.ReadAll(httputil.NewChunkedReader(bytes.NewReader(b)))
		got, ok, truncated := dechunk(bytes.Clone(b))
		if len(got) > len(b) {
			t.Fatalf("output longer than input")
		}
		if err == nil && (!ok || truncated || !bytes.Equal(got, want)) {
			t.Fatalf("net/http %q, dechunk %q ok %v truncated %v", want, got, ok, truncated)
		}
	})
}
