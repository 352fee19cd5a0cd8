package pipeline

import (
	"archive/tar"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tarEntries is a tar of n files h0.example.txt ... each holding a
// 1500-byte robots.txt, and the offset of each entry's header.
func tarEntries(n int) ([]byte, []int) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	var at []int
	for i := range n {
		body := tarBody(i)
		tw.Flush()
		at = append(at, b.Len())
		tw.WriteHeader(&tar.Header{Name: "sites/h" + strconv.Itoa(i) + ".example.txt", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg, ModTime: time.Unix(1716027072, 0)})
		tw.Write([]byte(body))
	}
	tw.Close()
	return b.Bytes(), at
}

func tarBody(i int) string {
	line := "Disallow: /" + strconv.Itoa(i) + "/\n"
	return ("User-agent: *\n" + strings.Repeat(line, 1500/len(line)+1))[:1500]
}

// TestTarDamage: an entry the stream ends inside is a counted, truncated
// capture, not a complete one; after damage (a broken gzip member, garbage
// between entries) reading resumes at the next valid header.
func TestTarDamage(t *testing.T) {
	t.Parallel()
	tb, at := tarEntries(6)
	garbage := cat(tb[:at[2]], []byte(strings.Repeat("junk", 25)), tb[at[2]:])
	split := func(cuts ...int) [][]byte {
		var parts [][]byte
		prev := 0
		for _, c := range cuts {
			parts = append(parts, tb[prev:c])
			prev = c
		}
		return append(parts, tb[prev:])
	}
	// The tar in three gzip members cut at bytes 3000 and 6000 (inside
	// entries 1 and 2), the middle member broken: entry 1 is cut, entry 2
	// lost, entries 3-5 found again.
	parts := split(3000, 6000)
	broken := gzipMember(parts[1])
	broken[len(broken)/2] ^= 0xff
	threeMembers := cat(gzipMember(parts[0]), broken, gzipMember(parts[2]))

	tests := []struct {
		name, file string
		data       []byte
		entries    []int // in order
		cut        int   // the entry delivered truncated, or -1
		errs       map[Class]int64
	}{
		{"whole", "x.tar", tb, []int{0, 1, 2, 3, 4, 5}, -1, nil},
		{"cut_mid_entry", "x.tar", tb[:at[2]+512+700], []int{0, 1, 2}, 2, map[Class]int64{ClassRow: 1}},
		{"cut_mid_header", "x.tar", tb[:at[3]+100], []int{0, 1, 2}, -1, map[Class]int64{ClassRow: 1}},
		{"gzip_cut_mid_entry", "x.tar.gz", gzipMember(tb)[:len(gzipMember(tb))*2/3], nil, -2, map[Class]int64{ClassRow: 1, ClassContainer: 1}},
		{"broken_member_resync", "x.tar.gz", threeMembers, []int{0, 1, 3, 4, 5}, 1, map[Class]int64{ClassRow: 1, ClassContainer: 1}},
		{"garbage_between_entries", "x.tar", garbage, []int{0, 1, 2, 3, 4, 5}, -1, map[Class]int64{ClassRow: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			caps, sum, err := collect(t, Config{Workers: 2}, writeTemp(t, tc.file, tc.data))
			if err != nil {
				t.Fatal(err)
			}
			for c := Class(1); c < numClasses; c++ {
				if sum.Errors[c] != tc.errs[c] {
					t.Errorf("%s errors %d, want %d: %v", c, sum.Errors[c], tc.errs[c], sum.Diagnostics)
				}
			}
			if tc.cut == -2 { // some prefix, the last one perhaps cut
				if len(caps) == 0 {
					t.Fatal("nothing read before the cut")
				}
				for _, c := range caps[:len(caps)-1] {
					if c.BodyTruncated || c.BodyLen != 1500 {
						t.Errorf("%s: %+v", c.URL, c.Capture)
					}
				}
				return
			}
			if len(caps) != len(tc.entries) {
				t.Fatalf("%d captures, want entries %v: %v", len(caps), tc.entries, sum.Diagnostics)
			}
			for k, i := range tc.entries {
				c := caps[k]
				body := tarBody(i)
				if c.URL != "https://h"+strconv.Itoa(i)+".example/robots.txt" {
					t.Errorf("capture %d: %s, want entry %d", k, c.URL, i)
					continue
				}
				if i == tc.cut {
					if !c.BodyTruncated || c.BodyLen >= int64(len(body)) || !strings.HasPrefix(body, c.Body) {
						t.Errorf("%s: cut entry delivered as %d bytes, truncated %v", c.URL, c.BodyLen, c.BodyTruncated)
					}
					continue
				}
				if c.BodyTruncated || c.Body != body || c.BodyLen != int64(len(body)) {
					t.Errorf("%s: %d bytes, truncated %v", c.URL, c.BodyLen, c.BodyTruncated)
				}
			}
			for _, d := range sum.Diagnostics {
				if d.Class == ClassRow && !errors.Is(d, ErrRow) {
					t.Errorf("%v does not wrap ErrRow", d)
				}
			}
		})
	}
}

// TestTarHardLinks: a hard link entry (what tar writes for a second name of
// a file it already stored) is a capture of the bytes it links to, as the
// same files in a folder are (issue 26.4: 5 captures where the folder gave
// 10); a link whose target the archive never held is a counted row error,
// not a silent skip.
func TestTarHardLinks(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	dir := t.TempDir()
	for i := range 5 {
		name := "h" + strconv.Itoa(i) + ".example.txt"
		body := tarBody(i)
		tw.WriteHeader(&tar.Header{Name: "sites/" + name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg, ModTime: time.Unix(1716027072, 0)})
		tw.Write([]byte(body))
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		name := "h" + strconv.Itoa(i+5) + ".example.txt"
		tw.WriteHeader(&tar.Header{Name: "sites/" + name, Linkname: "sites/h" + strconv.Itoa(i) + ".example.txt", Typeflag: tar.TypeLink, ModTime: time.Unix(1716027072, 0)})
		if err := os.Link(filepath.Join(dir, "h"+strconv.Itoa(i)+".example.txt"), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	tw.WriteHeader(&tar.Header{Name: "sites/lost.example.txt", Linkname: "sites/elsewhere.example.txt", Typeflag: tar.TypeLink})
	tw.Close()

	folder, _, err := collect(t, Config{Workers: 2}, dir)
	if err != nil {
		t.Fatal(err)
	}
	caps, sum, err := collect(t, Config{Workers: 2}, writeTemp(t, "x.tar", b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(folder) != 10 || len(caps) != len(folder) {
		t.Fatalf("tar %d captures, folder %d; want 10 each: %v", len(caps), len(folder), sum.Diagnostics)
	}
	for i := range 10 {
		c := find(caps, "https://h"+strconv.Itoa(i)+".example/robots.txt")
		if c == nil || c.Body != tarBody(i%5) || c.BodyLen != 1500 || c.BodyTruncated {
			t.Errorf("h%d: %+v", i, c)
		}
	}
	if sum.Errors[ClassRow] != 1 || len(sum.Diagnostics) != 1 || !strings.Contains(sum.Diagnostics[0].Error(), "elsewhere.example.txt") {
		t.Errorf("row errors %d, diagnostics %v; want one naming the missing target", sum.Errors[ClassRow], sum.Diagnostics)
	}
}
