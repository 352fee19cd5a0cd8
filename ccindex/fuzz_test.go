package ccindex_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/robotstat/robotstat/ccindex"
	"github.com/robotstat/robotstat/ccindex/ccindextest"
)

// FuzzSURT: any string gives a key without panicking, and the same key
// every time.
func FuzzSURT(f *testing.F) {
	for _, s := range []string{"https://www.example.com/robots.txt", "http://[::1]:8080/a?b=c&a", "http://%31%36%38%2e1/", "www.x", "", "http:////h", "mailto:a@b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		if a, b := ccindex.SURT(u), ccindex.SURT(u); a != b {
			t.Fatalf("SURT(%q) = %q, then %q", u, a, b)
		}
		ccindex.HostKey(u)
	})
}

// FuzzLookup: an index file with any bytes changed, or cut, gives rows or
// an error, never a panic.
func FuzzLookup(f *testing.F) {
	base := f.TempDir()
	files, err := ccindextest.WriteIndex(base, "CC-MAIN-2024-22", syntheticRows(200), ccindextest.Options{RowGroupRows: 50, PageBytes: 512, DictBytes: 512})
	if err != nil {
		f.Fatal(err)
	}
	good, _ := os.ReadFile(filepath.Join(base, filepath.FromSlash(files[0])))
	f.Add(good, 0, byte(0), len(good))
	f.Add(good, len(good)-20, byte(0xff), len(good))
	f.Add(good, 100, byte(7), len(good)/2)
	q := ccindex.NewQuery([]string{"h0001.example", "h0150.example"}, []string{"https://h0005.example/moved/robots.txt"})
	f.Fuzz(func(t *testing.T, data []byte, at int, b byte, cut int) {
		data = bytes.Clone(data)
		if at >= 0 && at < len(data) {
			data[at] ^= b
		}
		if cut >= 0 && cut < len(data) {
			data = data[:cut]
		}
		ccindex.Lookup(context.Background(), bytes.NewReader(data), int64(len(data)), q)
	})
}
