package pipeline

import (
	"bytes"
	"io"
	"net/http/httputil"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func TestWARCReaderFields(t *testing.T) {
	data := cat(
		warcRecord("warcinfo", "", []byte("isPartOf: CC-MAIN-2024-22\r\n")),
		warcRecord("response", "<https://a.example/robots.txt>", httpResp("HTTP/1.1 200 OK", []byte(robotsBody)),
			"WARC-IP-Address: 192.0.2.1", "WARC-Payload-Digest: sha1:AAAA", "WARC-Truncated: length", "WARC-Identified-Payload-Type: text/plain"),
	)
	var errs []error
	w := NewWARCReader(bytes.NewReader(data))
	w.Report = func(off, rec int64, class Class, err error, ex []byte) { errs = append(errs, err) }
	if !w.Next() || string(w.Header().Type) != "warcinfo" || w.Index() != 0 || w.Offset() != 0 {
		t.Fatalf("first record: %+v", w.Header())
	}
	if !w.Next() {
		t.Fatal("no second record")
	}
	h := w.Header()
	for _, f := range []struct{ got, want string }{
		{string(h.Version), "WARC/1.1"}, {string(h.Type), "response"}, {string(h.TargetURI), "https://a.example/robots.txt"},
		{string(h.Date), "2024-05-18T10:11:12Z"}, {string(h.IPAddress), "192.0.2.1"}, {string(h.PayloadDigest), "sha1:AAAA"},
		{string(h.Truncated), "length"}, {string(h.IdentifiedType), "text/plain"}, {string(h.ContentType), "application/http; msgtype=response"},
	} {
		if f.got != f.want {
			t.Errorf("got %q, want %q", f.got, f.want)
		}
	}
	if w.Index() != 1 || w.Offset() != int64(len(warcRecord("warcinfo", "", []byte("isPartOf: CC-MAIN-2024-22\r\n")))) {
		t.Errorf("index %d offset %d", w.Index(), w.Offset())
	}
	block, err := io.ReadAll(w)
	if err != nil || !bytes.HasSuffix(block, []byte(robotsBody)) || int64(len(block)) != h.ContentLength {
		t.Fatalf("block %q %v", block, err)
	}
	if w.Next() || w.Err() != nil || len(errs) != 0 || w.NumErrors() != 0 {
		t.Fatalf("end: err %v reported %v", w.Err(), errs)
	}
}

func TestWARCReaderAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var recs [][]byte
	for range 50 {
		recs = append(recs, robotsResp("a.example", robotsBody, "Content-Type: text/plain"))
	}
	data := cat(recs...)
	var rd bytes.Reader
	w := NewWARCReader(&rd)
	buf := make([]byte, 0, 4096)
	n := 0
	allocs := testing.AllocsPerRun(20, func() {
		rd.Reset(data)
		w.Reset(&rd)
		n = 0
		for w.Next() {
			buf, _, _ = w.ReadBlock(buf[:0], 1<<20)
			n++
		}
	})
	if allocs != 0 || n != 50 {
		t.Fatalf("%v allocations per 50 records (read %d)", allocs, n)
	}
}

// TestStreamAllocs checks that reading gzip member by member does not
// allocate per member once the reader is warm.
func TestStreamAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var recs [][]byte
	for range 50 {
		recs = append(recs, robotsResp("a.example", robotsBody))
	}
	data := gzipMembers(recs...)
	var rd bytes.Reader
	var s stream
	s.report = func(int64, error, []byte) { t.Error("unexpected error") }
	w := NewWARCReader(&s)
	w.Locate = s.offsetAt
	w.Boundary = s.boundaryAfter
	buf := make([]byte, 0, 4096)
	run := func() {
		rd.Reset(data)
		s.reset(&rd, nil)
		w.Reset(&s)
		for w.Next() {
			buf, _, _ = w.ReadBlock(buf[:0], 1<<20)
		}
	}
	run()
	if allocs := testing.AllocsPerRun(10, run); allocs > 0 {
		t.Fatalf("%v allocations per 50 gzip members", allocs)
	}
}

func TestPayloadDecodeAllocs(t *testing.T) {
	if raceEnabled {
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
			var h HTTPHeader
			ParseHTTPHeader([]byte(tc.header), &h)
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

// FuzzWARCReader feeds arbitrary bytes (also as gzip members) to the record
// reader: it must not panic, must make progress, must keep blocks within
// their Content-Length, and must account for every byte.
func FuzzWARCReader(f *testing.F) {
	f.Add(robotsResp("a.example", robotsBody))
	f.Add(cat(robotsResp("a.example", "x"), []byte("garbage\x00\x00WARC/1.0\r\n"), robotsResp("b.example", "y")))
	f.Add([]byte("WARC/1.0\nContent-Length: 3\n\nabc\n\nWARC/0.17\r\nContent-Length: 99\r\n\r\nshort"))
	if b, err := os.ReadFile(corpus + "warc/real/wget-iah-urls.warc"); err == nil {
		f.Add(b[:4096])
	}
	var zbuf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&zbuf, gzip.BestSpeed) // reused: a new writer per input made minimising crawl
	f.Fuzz(func(t *testing.T, b []byte) {
		zbuf.Reset()
		zw.Reset(&zbuf)
		zw.Write(b)
		zw.Close()
		for _, data := range [][]byte{b, zbuf.Bytes()} {
			var s stream
			s.report = func(int64, error, []byte) {}
			if err := s.reset(bytes.NewReader(data), nil); err != nil {
				continue
			}
			w := NewWARCReader(&s)
			w.Locate = s.offsetAt
			w.Boundary = s.boundaryAfter
			var buf []byte
			last := int64(-1)
			for w.Next() {
				if w.Index() <= last {
					t.Fatalf("index %d after %d", w.Index(), last)
				}
				last = w.Index()
				h := w.Header()
				for _, v := range [][]byte{h.Version, h.Type, h.TargetURI, h.Date, h.RecordID, h.IPAddress, h.PayloadDigest, h.Truncated, h.IdentifiedType, h.ContentType} {
					// Every field is a slice of this header's Raw, which
					// is what the pipeline copies (setWARC).
					if a := cap(h.Raw) - cap(v); v != nil && (a < 0 || a+len(v) > len(h.Raw) || !bytes.Equal(h.Raw[a:a+len(v)], v)) {
						t.Fatalf("field %q is not in the header %q", v, h.Raw)
					}
				}
				cl := w.Header().ContentLength
				var n int64
				var err error
				buf, n, err = w.ReadBlock(buf[:0], 64)
				if err != nil || n > cl || int64(len(buf)) > min(cl, 64) || (n < cl) != w.Truncated() {
					t.Fatalf("block: n %d len %d cl %d truncated %v err %v", n, len(buf), cl, w.Truncated(), err)
				}
				if w.Index() > int64(len(data)) {
					t.Fatal("more records than bytes")
				}
			}
			if w.Err() != nil {
				t.Fatalf("environment error from memory: %v", w.Err())
			}
			if s.dpos < int64(len(b)) && s.kind == containerPlain {
				t.Fatalf("stopped at %d of %d bytes", s.dpos, len(b))
			}
		}
	})
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

// TestWARCReaderRejectedHeaderLeavesNothing: a header rejected for its
// Content-Length after its WARC-Target-URI and WARC-Record-ID, then a good
// header with neither. The second must not show the first's fields, which
// aliased the scratch buffer the second was read into.
func TestWARCReaderRejectedHeaderLeavesNothing(t *testing.T) {
	bad := "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:a>\r\nX-Pad: " + strings.Repeat("p", 200) +
		"\r\nWARC-Target-URI: http://a.example/robots.txt\r\nContent-Length: abc\r\n\r\nbody\r\n\r\n"
	good := "WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 4\r\n\r\nbody\r\n\r\n"
	w := NewWARCReader(strings.NewReader(bad + good))
	if !w.Next() {
		t.Fatal("no record")
	}
	h := w.Header()
	if h.TargetURI != nil || h.RecordID != nil || h.ContentLength != 4 || w.Index() != 1 || w.NumErrors() != 1 {
		t.Fatalf("target %q id %q length %d index %d errors %d", h.TargetURI, h.RecordID, h.ContentLength, w.Index(), w.NumErrors())
	}
}
