package warc

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// memberFile is three records, one gzip member each, and the members'
// offsets.
func memberFile(t *testing.T) ([]byte, []int64) {
	t.Helper()
	recs := [][]byte{
		warcRecord("warcinfo", "", []byte("isPartOf: scan-2024-05-18\r\n")),
		robotsResp("a.example", robotsBody),
		warcRecord("metadata", "https://a.example/robots.txt", []byte("host: a.example\r\noutcome: parsed\r\n")),
	}
	var data []byte
	var offs []int64
	for _, r := range recs {
		offs = append(offs, int64(len(data)))
		data = append(data, gzipMember(r)...)
	}
	return data, offs
}

func TestMemberReader(t *testing.T) {
	data, offs := memberFile(t)
	m := NewMemberReader(bytes.NewReader(data), 16)
	var types []string
	for i := 0; m.Next(); i++ {
		types = append(types, string(m.Header().Type()))
		if m.Offset() != offs[i] || len(m.Block()) != int(min(m.Header().ContentLength, 16)) {
			t.Errorf("record %d: offset %d (want %d), block %q of %d", i, m.Offset(), offs[i], m.Block(), m.Header().ContentLength)
		}
	}
	if m.Err() != nil || strings.Join(types, ",") != "warcinfo,response,metadata" {
		t.Fatalf("records %v, err %v", types, m.Err())
	}
	if m.Next() {
		t.Fatal("Next after the end")
	}
}

// TestMemberReaderDamage: a member cut by the end of the file is a
// *CutError at its offset, after the members before it; any other damage
// is an error naming the member's offset.
func TestMemberReaderDamage(t *testing.T) {
	data, offs := memberFile(t)
	last := offs[2]
	crc := bytes.Clone(data)
	crc[offs[2]-5]++ // the second member's CRC-32
	tests := []struct {
		name    string
		in      []byte
		records int
		cut     int64 // -1: not a cut
		errPart string
		err     error
	}{
		{"cut_in_the_last_members_header", data[:last+5], 2, last, "", nil},
		{"cut_in_the_last_members_data", data[:last+20], 2, last, "", nil},
		{"cut_before_the_last_members_trailer", data[:len(data)-3], 2, last, "", nil},
		{"cut_in_the_first_member", data[:7], 0, 0, "", nil},
		{"crc_mismatch", crc, 1, -1, "offset " + itoa(offs[1]) + ": ", gzip.ErrChecksum},
		{"garbage_after_the_last_member", cat(data, []byte("junk that is not gzip")), 3, -1, "offset " + itoa(int64(len(data))) + ": ", gzip.ErrHeader},
		{"member_without_a_record", cat(data[:last], gzipMember([]byte("no record here\r\n"))), 2, -1, "offset " + itoa(last) + ": ", ErrNotOneRecord},
		{"record_cut_inside_its_member", cat(data[:last], gzipMember([]byte("WARC/1.1\r\nContent-Length: 99\r\n\r\nshort"))), 2, -1, "offset " + itoa(last) + ": ", ErrNotOneRecord},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMemberReader(bytes.NewReader(tc.in), 1<<10)
			n := 0
			for m.Next() {
				n++
			}
			var cut *CutError
			isCut := errors.As(m.Err(), &cut)
			switch {
			case n != tc.records:
				t.Fatalf("%d records, want %d (err %v)", n, tc.records, m.Err())
			case tc.cut >= 0 && (!isCut || cut.Offset != tc.cut):
				t.Fatalf("err %v, want a cut at %d", m.Err(), tc.cut)
			case tc.cut < 0 && (isCut || !errors.Is(m.Err(), tc.err) || !strings.HasPrefix(m.Err().Error(), tc.errPart)):
				t.Fatalf("err %v, want %q wrapping %v", m.Err(), tc.errPart, tc.err)
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
