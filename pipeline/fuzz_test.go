package pipeline

import (
	"bytes"
	stdgzip "compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/robotstat/robotstat/record"
)

// Native fuzz targets over the container layer and the whole pipeline
// (gzip members, zstd frames and WARC framing together, and the dumps).
// They are seeded with the reproductions in testdata/repro and inputs made
// here; go test ./... runs the seeds, and
//
//	go test ./pipeline -run '^$' -fuzz FuzzContainer -fuzztime 10m -parallel 1
//	go test ./pipeline -run '^$' -fuzz FuzzRun -fuzztime 10m -parallel 1
//
// fuzz them (see testdata/repro/README.md for what they found).

// reproFiles returns the files of testdata/repro whose names end in one of
// the suffixes.
func reproFiles(f *testing.F, suffixes ...string) map[string][]byte {
	f.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "repro", "*"))
	if err != nil {
		f.Fatal(err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		for _, s := range suffixes {
			if strings.HasSuffix(p, s) {
				b, err := os.ReadFile(p)
				if err != nil {
					f.Fatal(err)
				}
				out[filepath.Base(p)] = b
			}
		}
	}
	return out
}

// dictLayout is an IIPC .warc.zst: a skippable frame holding a raw
// dictionary, stored as is or (as the IIPC files do) zstd-compressed, then
// one frame per record compressed with it.
func dictLayout(compressed bool) []byte {
	dict := []byte(strings.Repeat("WARC/1.1\r\nWARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\nUser-agent: *\nDisallow: /\n", 4))
	stored := dict
	if compressed {
		stored = zstdBytes(dict)
	}
	hdr := make([]byte, 8)
	binary.LittleEndian.PutUint32(hdr, 0x184D2A5D)
	binary.LittleEndian.PutUint32(hdr[4:], uint32(len(stored)))
	data := append(hdr, stored...)
	for _, h := range []string{"a.example", "b.example"} {
		data = append(data, zstdBytes(robotsResp(h, robotsBody), zstd.WithEncoderDictRaw(0, dict))...)
	}
	return data
}

func containerSeeds() [][]byte {
	a, b := robotsResp("a.example", robotsBody), robotsResp("b.example", "User-agent: x\n")
	return [][]byte{
		gzipMembers(a, b),
		gzipMember(cat(a, b)),
		cat(gzipMember(a), []byte("junk\x1f\x8b\x08\x04\x00\x00\x00\x00\x00\xff\xff\x7f"), gzipMember(b)),
		cat(zstdBytes(a), zstdBytes(b)),
		zstdBytes(cat(a, b)),
		dictLayout(false),
		dictLayout(true),
		cat(a, b),
	}
}

// FuzzContainer reads arbitrary bytes through the stream (gzip member by
// member, zstd frame by frame, or plain): no panic, progress, no
// environment error from memory, reports located inside the input; and a
// clean run of gzip members reads exactly what the standard library's
// gzip reader reads from it, with nothing reported.
func FuzzContainer(f *testing.F) {
	for _, b := range reproFiles(f, ".gz", ".zst") {
		f.Add(b)
	}
	for _, b := range containerSeeds() {
		f.Add(b)
	}
	buf := make([]byte, 4096)
	var s stream // reused, as a pooled decoder's is: its 1 MiB window is not made per input
	var rd bytes.Reader
	f.Fuzz(func(t *testing.T, b []byte) {
		reports := 0
		s.report = func(off int64, err error, ex []byte) {
			reports++
			if off < 0 || off > int64(len(b)) {
				t.Fatalf("report at %d of %d bytes: %v", off, len(b), err)
			}
			if !errors.Is(err, ErrGzip) && !errors.Is(err, ErrZstd) && !errors.Is(err, ErrGarbage) {
				t.Fatalf("report of an unknown kind: %v", err)
			}
		}
		rd.Reset(b)
		if err := s.reset(&rd, nil); err != nil && !errors.Is(err, ErrZstd) {
			t.Fatalf("reset: %v", err)
		}
		defer s.close()
		var out []byte
		var total int64
		for empty := 0; ; {
			n, err := s.Read(buf)
			total += int64(n)
			if len(out) < 1<<20 {
				out = append(out, buf[:n]...)
			}
			if total > 64<<20 {
				return // a bomb: far enough
			}
			if err == io.EOF {
				break
			}
			if err != nil && err != errBreak {
				t.Fatalf("environment error from memory: %v", err)
			}
			if n == 0 && err == nil {
				if empty++; empty > 100 {
					t.Fatal("no progress")
				}
			}
		}
		if total != s.dpos {
			t.Fatalf("delivered %d bytes, stream says %d", total, s.dpos)
		}
		if len(b) == 0 || len(out) >= 1<<20 || !bytes.HasPrefix(b, gzipMagic) {
			return
		}
		zr, err := stdgzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return
		}
		want, err := io.ReadAll(io.LimitReader(zr, 1<<20))
		if err != nil || len(want) >= 1<<20 {
			return
		}
		if reports != 0 || !bytes.Equal(out, want) {
			t.Fatalf("clean gzip members: read %d bytes (%d reports), compress/gzip %d", len(out), reports, len(want))
		}
	})
}

// FuzzRun runs the whole pipeline over arbitrary bytes stored under one of
// the input names (the name picks the format, the content the container):
// content never fails the run, every capture and every diagnostic is
// consistent, and no panic in any goroutine.
func FuzzRun(f *testing.F) {
	names := []string{"x.warc.gz", "x.warc", "x.warc.zst", "x.jsonl", "x.csv", "x.tar"}
	kind := map[string]uint8{".gz": 0, ".warc": 1, ".zst": 2, ".jsonl": 3, ".csv": 4, ".tar": 5}
	for name, b := range reproFiles(f, ".warc", ".gz", ".zst", ".csv") {
		f.Add(kind[filepath.Ext(name)], b)
	}
	for _, b := range containerSeeds() {
		f.Add(uint8(0), b)
	}
	f.Add(uint8(3), []byte(`{"url":"https://a.example/robots.txt","status":200,"body":"User-agent: *\nDisallow: /\n"}`+"\n"))
	var tb bytes.Buffer
	tarFile(&tb, map[string]string{"a.example.txt": robotsBody, "b.example": "User-agent: b\n"})
	f.Add(uint8(5), tb.Bytes())
	dir := f.TempDir()
	const bodyLimit = 4096
	f.Fuzz(func(t *testing.T, k uint8, b []byte) {
		name := filepath.Join(dir, names[int(k)%len(names)])
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		index := map[int64]bool{}
		var delivered int64
		var bad error
		sum, err := Run(context.Background(), Config{Workers: 2, Responses: ResponsesAll, BodyLimit: bodyLimit, MaxDiagnostics: 1 << 20}, []string{name},
			func(w int, c *record.Capture) error {
				mu.Lock()
				defer mu.Unlock()
				delivered++
				switch {
				case c.Source != name:
					bad = errors.New("source " + c.Source)
				case len(c.Body) > bodyLimit || c.BodyLen < int64(len(c.Body)):
					bad = errors.New("body of " + c.URL + " longer than its limit or its length")
				case c.Index < 0 || index[c.Index]:
					bad = errors.New("index taken twice: " + c.URL)
				case c.Offset < 0:
					bad = errors.New("negative offset: " + c.URL)
				}
				index[c.Index] = true
				return nil
			})
		if err != nil {
			t.Fatalf("content failed the run: %v", err)
		}
		if bad != nil {
			t.Fatal(bad)
		}
		if sum.Captures != delivered || sum.Files != 1 || int64(len(sum.Diagnostics)) != sum.ErrorCount() {
			t.Fatalf("summary %+v, %d delivered", sum, delivered)
		}
		if (sum.FilesWithErrors == 1) != sum.HadErrors() {
			t.Fatalf("FilesWithErrors %d with %d errors", sum.FilesWithErrors, sum.ErrorCount())
		}
		for _, d := range sum.Diagnostics {
			if d.Source != name || d.Class < ClassContainer || d.Class >= numClasses || d.Err == nil || len(d.Excerpt) > maxExcerpt || d.Offset < 0 {
				t.Fatalf("diagnostic %+v", d)
			}
		}
	})
}
