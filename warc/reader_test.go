package warc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
)

func TestReaderFields(t *testing.T) {
	data := cat(
		warcRecord("warcinfo", "", []byte("isPartOf: CC-MAIN-2024-22\r\n")),
		warcRecord("response", "<https://a.example/robots.txt>", httpResp("HTTP/1.1 200 OK", []byte(robotsBody)),
			"WARC-IP-Address: 192.0.2.1", "WARC-Payload-Digest: sha1:AAAA", "WARC-Truncated: length", "WARC-Identified-Payload-Type: text/plain"),
	)
	var errs []error
	w := NewReader(bytes.NewReader(data))
	w.Report = func(off, rec int64, err error, ex []byte) { errs = append(errs, err) }
	if !w.Next() || string(w.Header().Type()) != "warcinfo" || w.Index() != 0 || w.Offset() != 0 {
		t.Fatalf("first record: %q", w.Header().Raw)
	}
	if w.Header().TargetURI() != nil || w.Header().IPAddress() != nil {
		t.Errorf("absent fields: target %q ip %q, want nil", w.Header().TargetURI(), w.Header().IPAddress())
	}
	if !w.Next() {
		t.Fatal("no second record")
	}
	h := w.Header()
	for _, f := range []struct{ name, got, want string }{
		{"version", string(h.Version()), "WARC/1.1"}, {"type", string(h.Type()), "response"},
		{"target", string(h.TargetURI()), "https://a.example/robots.txt"}, {"date", string(h.Date()), "2024-05-18T10:11:12Z"},
		{"record id", string(h.RecordID()), "<urn:uuid:00000000-0000-0000-0000-000000000001>"},
		{"ip", string(h.IPAddress()), "192.0.2.1"}, {"digest", string(h.PayloadDigest()), "sha1:AAAA"},
		{"truncated", string(h.Truncated()), "length"}, {"identified", string(h.IdentifiedType()), "text/plain"},
		{"content type", string(h.ContentType()), "application/http; msgtype=response"},
	} {
		if f.got != f.want {
			t.Errorf("%s: got %q, want %q", f.name, f.got, f.want)
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

// TestHeaderFieldsTrimmed: values are trimmed of the white space of header
// lines as archives store them (CR CR LF, tabs), a present empty field is
// empty and not nil, and the last of two fields of one name wins.
func TestHeaderFieldsTrimmed(t *testing.T) {
	data := "WARC/1.0 \r\r\nWARC-Type:\tresponse \r\nwarc-target-uri: < http://a.example/robots.txt >\r\n" +
		"WARC-Truncated:\r\nWARC-Date: 1\r\nWARC-Date: 2\r\nContent-Length: 1\r\n\r\nx\r\n\r\n"
	w := NewReader(strings.NewReader(data))
	if !w.Next() {
		t.Fatalf("no record (%d errors)", w.NumErrors())
	}
	h := w.Header()
	if string(h.Version()) != "WARC/1.0" || string(h.Type()) != "response" || string(h.TargetURI()) != "http://a.example/robots.txt" ||
		string(h.Date()) != "2" || h.Truncated() == nil || len(h.Truncated()) != 0 || h.ContentLength != 1 {
		t.Fatalf("version %q type %q target %q date %q truncated %q (nil %v) length %d",
			h.Version(), h.Type(), h.TargetURI(), h.Date(), h.Truncated(), h.Truncated() == nil, h.ContentLength)
	}
}

// TestHeaderCopyTo: a copy keeps its fields after the reader has moved on
// (and overwritten its buffer), and copying into a warm header does not
// allocate.
func TestHeaderCopyTo(t *testing.T) {
	first := warcRecord("response", "https://a.example/robots.txt", httpResp("HTTP/1.1 200 OK", []byte("x")), "WARC-IP-Address: 192.0.2.1")
	data := cat(first, robotsResp("bb.example", "yyyy"))
	w := NewReader(bytes.NewReader(data))
	var dst Header
	if !w.Next() {
		t.Fatal("no record")
	}
	w.Header().CopyTo(&dst)
	length := w.Header().ContentLength
	if !w.Next() {
		t.Fatal("no second record")
	}
	if string(dst.TargetURI()) != "https://a.example/robots.txt" || string(dst.IPAddress()) != "192.0.2.1" || dst.ContentLength != length || length == w.Header().ContentLength {
		t.Fatalf("copy: target %q ip %q length %d", dst.TargetURI(), dst.IPAddress(), dst.ContentLength)
	}
	if testkit.Race {
		return
	}
	h := w.Header()
	if n := testing.AllocsPerRun(100, func() { h.CopyTo(&dst) }); n != 0 {
		t.Fatalf("%v allocations per copy", n)
	}
	if string(dst.TargetURI()) != "https://bb.example/robots.txt" || dst.IPAddress() != nil {
		t.Fatalf("second copy: target %q ip %q", dst.TargetURI(), dst.IPAddress())
	}
}

func TestReaderAllocs(t *testing.T) {
	if testkit.Race {
		t.Skip("the race detector allocates")
	}
	var recs [][]byte
	for range 50 {
		recs = append(recs, robotsResp("a.example", robotsBody, "Content-Type: text/plain"))
	}
	data := cat(recs...)
	var rd bytes.Reader
	w := NewReader(&rd)
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

// TestReaderRejectedHeaderLeavesNothing: a header rejected for its
// Content-Length after its WARC-Target-URI and WARC-Record-ID, then a good
// header with neither. The second must not show the first's fields, read
// into the same scratch buffer.
func TestReaderRejectedHeaderLeavesNothing(t *testing.T) {
	bad := "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:a>\r\nX-Pad: " + strings.Repeat("p", 200) +
		"\r\nWARC-Target-URI: http://a.example/robots.txt\r\nContent-Length: abc\r\n\r\nbody\r\n\r\n"
	good := "WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 4\r\n\r\nbody\r\n\r\n"
	w := NewReader(strings.NewReader(bad + good))
	if !w.Next() {
		t.Fatal("no record")
	}
	h := w.Header()
	if h.TargetURI() != nil || h.RecordID() != nil || h.ContentLength != 4 || w.Index() != 1 || w.NumErrors() != 1 {
		t.Fatalf("target %q id %q length %d index %d errors %d", h.TargetURI(), h.RecordID(), h.ContentLength, w.Index(), w.NumErrors())
	}
}

// TestReaderRepro reads the WARC reproductions of testdata/repro (copies
// of ../shared/repro, see its README): a header rejected for its
// Content-Length, then a good record with fewer fields, whose fields were
// once fragments of the rejected header (stale.warc) or out of its bounds
// (panic.warc, a panic in the pipeline's copy of the fields). Every field
// of the good record must be what its own header lines say, read here
// independently of the parser.
func TestReaderRepro(t *testing.T) {
	for _, name := range []string{"panic.warc", "stale.warc"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "repro", name))
			if err != nil {
				t.Fatal(err)
			}
			var reports []report
			w := NewReader(bytes.NewReader(data))
			w.Report = func(off, rec int64, err error, ex []byte) { reports = append(reports, report{off, rec, err}) }
			records := 0
			for w.Next() {
				records++
				checkFields(t, w.Header())
			}
			if w.Err() != nil || records != 1 || w.Index() != 1 || len(reports) != 1 ||
				!errors.Is(reports[0].err, ErrContentLength) || reports[0].record != 0 || reports[0].offset != 0 {
				t.Fatalf("%d records (last index %d), reports %v, err %v; want 1 record after one ErrContentLength at record 0",
					records, w.Index(), reports, w.Err())
			}
		})
	}
}

type report struct {
	offset, record int64
	err            error
}

// checkFields compares each of h's fields with the value of the last line
// of Raw that names it, found with the strings package.
func checkFields(t *testing.T, h *Header) {
	t.Helper()
	want := func(name string) (string, bool) {
		v, ok := "", false
		for _, line := range strings.Split(string(h.Raw), "\n") {
			k, val, found := strings.Cut(line, ":")
			if found && strings.EqualFold(strings.TrimSpace(k), name) {
				v, ok = strings.Trim(val, " \t\r\n"), true
			}
		}
		return v, ok
	}
	for _, f := range []struct {
		name string
		got  []byte
	}{
		{"WARC-Type", h.Type()}, {"WARC-Date", h.Date()}, {"WARC-Record-ID", h.RecordID()},
		{"WARC-IP-Address", h.IPAddress()}, {"WARC-Payload-Digest", h.PayloadDigest()}, {"WARC-Truncated", h.Truncated()},
		{"WARC-Identified-Payload-Type", h.IdentifiedType()}, {"Content-Type", h.ContentType()},
	} {
		v, ok := want(f.name)
		if ok != (f.got != nil) || string(f.got) != v {
			t.Errorf("%s: got %q (present %v), the header says %q (present %v)", f.name, f.got, f.got != nil, v, ok)
		}
	}
	if v, ok := want("WARC-Target-URI"); ok != (h.TargetURI() != nil) || string(h.TargetURI()) != strings.Trim(strings.TrimSuffix(strings.TrimPrefix(v, "<"), ">"), " \t") {
		t.Errorf("WARC-Target-URI: got %q, the header says %q", h.TargetURI(), v)
	}
}

// TestReaderReports: each damage is reported once, located, with the
// record it belongs to (-1 between records), and reading resumes at the
// next "WARC/".
func TestReaderReports(t *testing.T) {
	good := robotsResp("a.example", "x")
	tests := []struct {
		name    string
		in      []byte
		records int // good records read
		want    []report
	}{
		{"not_a_warc", []byte("<!DOCTYPE html>\n<html>503</html>\n"), 0, []report{{0, -1, ErrNotWARC}}},
		{"garbage_between_records", cat(good, []byte("junk\x00\x00"), good), 2, []report{{int64(len(good)), -1, ErrGarbage}}},
		{"nul_padding_before_record", cat(good, make([]byte, 40), good), 2, []report{{int64(len(good)), -1, ErrGarbage}}},
		{"bad_content_length", cat([]byte("WARC/1.0\r\nContent-Length: 12x\r\n\r\nfoo\r\n\r\n"), good), 1, []report{{0, 0, ErrContentLength}}},
		{"no_content_length", cat([]byte("WARC/1.0\r\nWARC-Type: response\r\n\r\n"), good), 1, []report{{0, 0, ErrContentLength}}},
		{"header_without_blank_line", []byte("WARC/1.0\r\nContent-Length: 3\r\n"), 0, []report{{0, 0, ErrHeaderNoEnd}}},
		{"header_runs_into_block", cat([]byte("WARC/1.0\r\nContent-Length: 20\r\nHTTP/1.1 200 OK\r\n\r\n"), good), 1, []report{{0, 0, ErrHeaderNoEnd}}},
		{"header_too_long", cat([]byte("WARC/1.0\r\nX: "+strings.Repeat("x", 70<<10)+"\r\n\r\n"), good), 1, []report{{0, 0, ErrHeaderTooLong}}},
		{"block_cut_by_the_end", cat(good, []byte("WARC/1.0\r\nContent-Length: 99\r\n\r\nshort")), 2, []report{{int64(len(good)), 1, ErrTruncIn}}},
		{"lf_only_and_cr_cr_lf", []byte("WARC/1.0\nContent-Length: 3\n\nabc\n\nWARC/1.0\r\r\nContent-Length: 1\r\r\n\r\r\nz"), 2, nil},
		{"any_run_of_separators", cat(good, []byte("\r\n\n\n\r\r"), good), 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []report
			w := NewReader(bytes.NewReader(tc.in))
			w.Report = func(off, rec int64, err error, ex []byte) {
				if len(ex) > MaxExcerpt {
					t.Errorf("excerpt of %d bytes", len(ex))
				}
				got = append(got, report{off, rec, err})
			}
			n := 0
			for w.Next() {
				if _, _, err := w.ReadBlock(nil, 1<<20); err != nil {
					t.Fatal(err)
				}
				n++
			}
			if w.Err() != nil || n != tc.records || len(got) != len(tc.want) || int(w.NumErrors()) != len(tc.want) {
				t.Fatalf("%d records, reports %v (err %v); want %d, %v", n, got, w.Err(), tc.records, tc.want)
			}
			for i := range got {
				if !errors.Is(got[i].err, tc.want[i].err) || got[i].offset != tc.want[i].offset || got[i].record != tc.want[i].record {
					t.Errorf("report %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestReaderBoundary: where records are compressed one per member, a
// record that begins at a member start and whose Content-Length runs into
// the next member that begins with "WARC/" is cut there (Overrun,
// ErrContentLength) and the next record is read whole (repro
// w06_cl_huge_18digits.warc.gz, read through the pipeline's gzip stream in
// package pipeline's TestRepro).
func TestReaderBoundary(t *testing.T) {
	a, b := robotsResp("a.example", "x"), robotsResp("b.example", "y")
	huge := bytes.Replace(a, []byte("Content-Length: "), []byte("Content-Length: 99999999"), 1)
	data := cat(huge, b)
	s := newTestStream(data, []int64{0, int64(len(huge))}, nil)
	var got []report
	w := NewReader(s)
	w.Boundary = s.boundary
	w.Report = func(off, rec int64, err error, ex []byte) { got = append(got, report{off, rec, err}) }
	if !w.Next() {
		t.Fatal("no record")
	}
	block, n, err := w.ReadBlock(nil, 1<<20)
	if err != nil || !w.Overrun() || n != int64(len(huge)-bytes.Index(huge, []byte("\r\n\r\n"))-4) || len(block) != int(n) {
		t.Fatalf("first block: %d bytes stored (%d read), overrun %v, err %v", n, len(block), w.Overrun(), err)
	}
	if !w.Next() || string(w.Header().TargetURI()) != "https://b.example/robots.txt" || w.Offset() != int64(len(huge)) || w.Overrun() {
		t.Fatalf("second record: %q at %d", w.Header().TargetURI(), w.Offset())
	}
	if block, _, _ := w.ReadBlock(nil, 1<<20); !bytes.HasSuffix(block, []byte("y")) {
		t.Fatalf("second block %q", block)
	}
	if w.Next() || len(got) != 1 || !errors.Is(got[0].err, ErrContentLength) || got[0].record != 0 {
		t.Fatalf("reports %v", got)
	}
}

// TestReaderBreak: ErrBreak inside a block cuts the record (Truncated,
// ErrTruncIn) without ending the stream; the record after the break is
// read.
func TestReaderBreak(t *testing.T) {
	a, b := robotsResp("a.example", "xxxxxxxx"), robotsResp("b.example", "y")
	cut := len(a) - 6
	s := newTestStream(cat(a[:cut], b), nil, []int64{int64(cut)})
	var got []report
	w := NewReader(s)
	w.Report = func(off, rec int64, err error, ex []byte) { got = append(got, report{off, rec, err}) }
	if !w.Next() {
		t.Fatal("no record")
	}
	if _, _, err := w.ReadBlock(nil, 1<<20); err != nil || !w.Truncated() {
		t.Fatalf("first block: truncated %v, err %v", w.Truncated(), err)
	}
	if !w.Next() || string(w.Header().TargetURI()) != "https://b.example/robots.txt" {
		t.Fatalf("second record: %q (reports %v)", w.Header().TargetURI(), got)
	}
	if w.Next() || w.Err() != nil || len(got) != 1 || !errors.Is(got[0].err, ErrTruncIn) || got[0].record != 0 {
		t.Fatalf("reports %v, err %v", got, w.Err())
	}
}

// testStream stands for a decompressing stream under a Reader: it delivers
// data in reads of varying size, knows where its members begin (boundary,
// for Reader.Boundary) and returns ErrBreak once at each break offset, as
// a stream does where it skipped a broken member.
type testStream struct {
	data    []byte
	pos     int64
	members []int64 // decompressed offsets at which a member begins, ascending
	breaks  []int64 // offsets at which Read returns ErrBreak, ascending
	reads   int
}

func newTestStream(data []byte, members, breaks []int64) *testStream {
	return &testStream{data: data, members: members, breaks: breaks}
}

func (s *testStream) Read(p []byte) (int, error) {
	if len(s.breaks) > 0 && s.breaks[0] == s.pos {
		s.breaks = s.breaks[1:]
		return 0, ErrBreak
	}
	if s.pos >= int64(len(s.data)) {
		return 0, io.EOF
	}
	end := int64(len(s.data))
	if len(s.breaks) > 0 {
		end = s.breaks[0]
	}
	s.reads++
	n := min(int64(len(p)), end-s.pos, int64(1+s.reads*37%4096))
	copy(p, s.data[s.pos:s.pos+n])
	s.pos += n
	return int(n), nil
}

func (s *testStream) boundary(pos int64) int64 {
	for _, m := range s.members {
		if m > pos {
			return m
		}
	}
	return -1
}

// TestReaderNothingLostSilently holds issue 26.4's framing cases: a record
// whose header names two different Content-Lengths is rejected (RFC 9110
// section 8.6: a recipient may accept repeated identical values only; the
// last one once won and swallowed the five good records after it), and a
// header without its blank line ends where the next record's "WARC/"
// line, or in a per-record-compressed file the next member, begins,
// instead of taking that line as its own and losing the next record.
func TestReaderNothingLostSilently(t *testing.T) {
	good := robotsResp("a.example", "x")
	var five []byte
	for range 5 {
		five = cat(five, good)
	}
	cl := "Content-Length: " + itoa(int64(len(httpResp("HTTP/1.1 200 OK", []byte("x"))))) + "\r\n"
	twoCL := bytes.Replace(good, []byte(cl), []byte(cl+"Content-Length: 999999\r\n"), 1)
	sameCL := bytes.Replace(good, []byte(cl), []byte(cl+cl), 1)
	noBlank := []byte("WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: https://c.example/robots.txt\r\nContent-Length: 0\r\n")
	noBlankBlock := []byte("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 26\r\nUser-agent: *\r\nDisallow: /\r\n")
	tests := []struct {
		name    string
		parts   [][]byte // one member each when members is set
		members bool
		records int
		want    []report
	}{
		{"conflicting_content_lengths", [][]byte{twoCL, five}, false, 5, []report{{0, 0, ErrContentLength}}},
		{"conflicting_content_lengths_members", [][]byte{twoCL, good, good, good, good, good}, true, 5, []report{{0, 0, ErrContentLength}}},
		{"repeated_equal_content_lengths", [][]byte{sameCL, good}, false, 2, nil},
		{"no_blank_line_then_record", [][]byte{noBlank, good}, false, 1, []report{{0, 0, ErrHeaderNoEnd}}},
		{"no_blank_line_then_record_members", [][]byte{noBlank, good}, true, 1, []report{{0, 0, ErrHeaderNoEnd}}},
		{"no_blank_line_block_of_fields_members", [][]byte{noBlankBlock, good}, true, 1, []report{{0, 0, ErrHeaderNoEnd}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := cat(tc.parts...)
			var members []int64
			if tc.members {
				at := int64(0)
				for _, p := range tc.parts {
					members = append(members, at)
					at += int64(len(p))
				}
			}
			s := newTestStream(data, members, nil)
			var got []report
			w := NewReader(s)
			if tc.members {
				w.Boundary = s.boundary
			}
			w.Report = func(off, rec int64, err error, ex []byte) { got = append(got, report{off, rec, err}) }
			n := 0
			for w.Next() {
				block, _, err := w.ReadBlock(nil, 1<<20)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasSuffix(block, []byte("\r\n\r\nx")) {
					t.Errorf("record %d: block %q", w.Index(), block)
				}
				n++
			}
			if w.Err() != nil || n != tc.records || len(got) != len(tc.want) {
				t.Fatalf("%d records, reports %v (err %v); want %d, %v", n, got, w.Err(), tc.records, tc.want)
			}
			for i := range got {
				if !errors.Is(got[i].err, tc.want[i].err) || got[i].offset != tc.want[i].offset || got[i].record != tc.want[i].record {
					t.Errorf("report %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}
