package warc

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"unsafe"
)

// FuzzReader feeds arbitrary bytes to the record reader, as they are and
// through a stream whose members begin at every "WARC/" (records
// compressed one per member, Reader.Boundary) and that breaks at every
// 1f 8b (a broken gzip member skipped, ErrBreak): no panic, progress,
// blocks within their Content-Length, every field inside its header, every
// report located in the input and of a known kind, and every byte of a
// plain input read. go test ./... runs the committed seeds
// (testdata/fuzz/FuzzReader, see seeds_test.go); fuzz it with
//
//	go test ./warc -run '^$' -fuzz '^FuzzReader$' -fuzztime 10m -parallel 1
func FuzzReader(f *testing.F) {
	f.Add(robotsResp("a.example", robotsBody))
	f.Add(cat(robotsResp("a.example", "x"), []byte("garbage\x00\x00WARC/1.0\r\n"), robotsResp("b.example", "y")))
	f.Add([]byte("WARC/1.0\nContent-Length: 3\n\nabc\n\nWARC/0.17\r\nContent-Length: 99\r\n\r\nshort"))
	f.Add(cat(robotsResp("a.example", "xx\x1f\x8bxx"), robotsResp("b.example", "y")))
	if b, err := os.ReadFile(corpus + "warc/real/wget-iah-urls.warc"); err == nil {
		f.Add(b[:4096])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var members, breaks []int64
		for i := 0; i < len(b); {
			j := bytes.Index(b[i:], warcPrefix)
			if j < 0 {
				break
			}
			members = append(members, int64(i+j))
			i += j + 1
		}
		// A break skips nothing here: the bytes on either side of it are
		// what the reader must take as not contiguous.
		for i := 0; i+1 < len(b); i++ {
			if b[i] == 0x1f && b[i+1] == 0x8b {
				breaks = append(breaks, int64(i))
			}
		}
		for _, framed := range []bool{false, true} {
			s := newTestStream(b, nil, nil)
			if framed {
				s = newTestStream(b, members, breaks)
			}
			w := NewReader(s)
			if framed {
				w.Boundary = s.boundary
			}
			w.Report = func(off, rec int64, err error, ex []byte) {
				switch {
				case off < 0 || off > int64(len(b)):
					t.Fatalf("report at %d of %d bytes: %v", off, len(b), err)
				case len(ex) > MaxExcerpt:
					t.Fatalf("excerpt of %d bytes", len(ex))
				case rec < 0 && !errors.Is(err, ErrGarbage) && !errors.Is(err, ErrNotWARC):
					t.Fatalf("report outside a record: %v", err)
				case rec >= 0 && !errors.Is(err, ErrHeaderTooLong) && !errors.Is(err, ErrHeaderNoEnd) &&
					!errors.Is(err, ErrContentLength) && !errors.Is(err, ErrTruncIn):
					t.Fatalf("report of record %d: %v", rec, err)
				}
			}
			var buf []byte
			last := int64(-1)
			for w.Next() {
				if w.Index() <= last {
					t.Fatalf("index %d after %d", w.Index(), last)
				}
				last = w.Index()
				h := w.Header()
				for _, v := range [][]byte{h.Version(), h.Type(), h.TargetURI(), h.Date(), h.RecordID(), h.IPAddress(), h.PayloadDigest(), h.Truncated(), h.IdentifiedType(), h.ContentType()} {
					if v != nil && !inside(v, h.Raw) {
						t.Fatalf("field %q is not in the header %q", v, h.Raw)
					}
				}
				cl := h.ContentLength
				var n int64
				var err error
				buf, n, err = w.ReadBlock(buf[:0], 64)
				if err != nil || n > cl || int64(len(buf)) > min(cl, 64) || (n < cl) != (w.Truncated() || w.Overrun()) {
					t.Fatalf("block: n %d len %d cl %d truncated %v overrun %v err %v", n, len(buf), cl, w.Truncated(), w.Overrun(), err)
				}
				if w.Index() > int64(len(b)) {
					t.Fatal("more records than bytes")
				}
			}
			if w.Err() != nil {
				t.Fatalf("environment error from memory: %v", w.Err())
			}
			if s.pos < int64(len(b)) {
				t.Fatalf("stopped at %d of %d bytes", s.pos, len(b))
			}
		}
	})
}

// inside reports whether v is a slice of the memory of raw.
func inside(v, raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(v))), uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	return p >= lo && p+uintptr(len(v)) <= lo+uintptr(len(raw))
}
