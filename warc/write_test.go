package warc

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// TestWriteReadsBack: a record AppendRecord writes reads back through
// Reader with its fields, its block and the digest computed for it, and
// Encoder.Member is the same record in a gzip member.
func TestWriteReadsBack(t *testing.T) {
	h := RecordHeader{Type: "response", ID: UUID([16]byte{1, 2, 3}), Date: time.Date(2024, 7, 5, 1, 2, 3, 4, time.UTC),
		TargetURI: "https://a.example/robots.txt", RefersToTargetURI: "https://archive.example/web/1id_/x",
		ContentType: "application/http;msgtype=response", PayloadDigest: SHA1Digest([]byte("body"))}
	parts := [][]byte{[]byte("HTTP/1.1 200 OK\r\n\r\n"), []byte("body")}
	rec := AppendRecord([]byte("before"), &h, parts...)
	if !bytes.HasPrefix(rec, []byte("beforeWARC/1.1\r\n")) {
		t.Fatalf("not appended: %q", rec)
	}
	rec = rec[len("before"):]
	r := NewReader(bytes.NewReader(rec))
	if !r.Next() {
		t.Fatalf("no record: %v", r.Err())
	}
	hd := r.Header()
	if string(hd.Type()) != "response" || string(hd.TargetURI()) != h.TargetURI || string(hd.Date()) != "2024-07-05T01:02:03Z" ||
		string(hd.RecordID()) != "<urn:uuid:01020300-0000-0000-0000-000000000000>" || string(hd.PayloadDigest()) != h.PayloadDigest {
		t.Errorf("fields read back: type %q uri %q date %q id %q digest %q", hd.Type(), hd.TargetURI(), hd.Date(), hd.RecordID(), hd.PayloadDigest())
	}
	block, n, err := r.ReadBlock(nil, 1<<20)
	if err != nil || n != int64(len(block)) || string(block) != "HTTP/1.1 200 OK\r\n\r\nbody" {
		t.Errorf("block %q (%d), %v", block, n, err)
	}
	if !bytes.Contains(rec, []byte("WARC-Block-Digest: "+SHA1Digest(parts...)+"\r\n")) ||
		!bytes.Contains(rec, []byte("WARC-Refers-To-Target-URI: "+h.RefersToTargetURI+"\r\n")) {
		t.Errorf("block digest or refers-to target missing:\n%s", rec)
	}
	if r.Next() {
		t.Error("a second record")
	}

	m := NewEncoder().Member(nil, &h, parts...)
	zr, err := gzip.NewReader(bytes.NewReader(m))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, rec) {
		t.Errorf("member holds %q, %v; want the record", got, err)
	}
	if SHA1Digest([]byte("")) != "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ" {
		t.Errorf("SHA1Digest of nothing: %s", SHA1Digest(nil))
	}
}
