package schema

import (
	"testing"
	"unsafe"
)

// BenchmarkCleanRows: the UTF-8 check of rows as the writers take them
// (utf8.go), on captures and directives that are valid, the usual case.
func BenchmarkCleanRows(b *testing.B) {
	k := Key{CaptureID: "0123456789abcdef0123456789abcdef", Crawl: "CC-MAIN-2024-33", URL: "https://www.example.com/robots.txt", Host: "www.example.com"}
	caps := make([]CaptureRow, 64)
	dirs := make([]DirectiveRow, 64)
	for i := range caps {
		caps[i] = CaptureRow{Key: k, Source: "crawl-data/CC-MAIN-2024-33/segments/1722640353668.0/robotstxt/CC-MAIN-20240802234508-20240803024508-00000.warc.gz",
			ContentType: "text/plain; charset=utf-8", Outcome: "parsed", StatusClass: "success", LineEndings: "lf"}
		dirs[i] = DirectiveRow{Key: k, Directive: "disallow", FirstValue: "/wp-admin/", Kind: KindStandard, Canonical: "disallow"}
	}
	b.Run("captures", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(caps)) * int64(unsafe.Sizeof(caps[0])))
		for b.Loop() {
			cleanRows(caps)
		}
	})
	b.Run("directives", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(dirs)) * int64(unsafe.Sizeof(dirs[0])))
		for b.Loop() {
			cleanRows(dirs)
		}
	})
}

// TestCleanRowsAllocs: valid rows cost no allocation.
func TestCleanRowsAllocs(t *testing.T) {
	rows := []DirectiveRow{{Key: Key{URL: "https://a.example/robots.txt"}, FirstValue: "/x", Signals: []Signal{{Key: "search", Value: "yes"}}}}
	cleanRows(rows) // the plan, once
	if n := testing.AllocsPerRun(100, func() { cleanRows(rows) }); n != 0 {
		t.Errorf("cleanRows allocates %v times for valid rows", n)
	}
}
