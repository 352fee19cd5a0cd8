package warc

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite the committed fuzz seeds under testdata/fuzz")

// TestWriteFuzzSeeds regenerates testdata/fuzz/<Target>/seed-* with
// go test ./warc -run TestWriteFuzzSeeds -update-seeds (inputs the fuzzer
// found, named otherwise, are kept). The seeds are real fragments
// (wget-iah-urls.warc, Apache-2.0, see testdata/README.md) and made-up
// damage; the zstd one is what a stream that is not decompressed looks
// like to the reader.
func TestWriteFuzzSeeds(t *testing.T) {
	if !*updateSeeds {
		t.Skip("run with -update-seeds to regenerate")
	}
	zstdBytes := func(p []byte) []byte {
		e, err := zstd.NewWriter(nil)
		if err != nil {
			t.Fatal(err)
		}
		return e.EncodeAll(p, nil)
	}
	warc := [][]byte{
		robotsResp("a.example", robotsBody),
		cat(robotsResp("a.example", "x"), []byte("garbage\x00\x00WARC/1.0\r\n"), robotsResp("b.example", "y")),
		[]byte("WARC/1.0\nWARC-Type: response\nContent-Length: 3\n\nabc\n\nWARC/0.17\r\nContent-Length: 99\r\n\r\nshort"),
		[]byte("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example/robots.txt\r\nContent-Length: 20\r\nHTTP/1.1 200 OK\r\nUser-agent: *\r\n\r\n"),
		[]byte("WARC/1.0\r\nContent-Length: 12x\r\n\r\nfoo\r\n\r\n"),
		[]byte("<!DOCTYPE html>\n<html><body>503</body></html>\n"),
		cat(robotsResp("a.example", "User-agent: *\x00\n"), make([]byte, 40), robotsResp("b.example", "z")),
		warcRecord("warcinfo", "", []byte("isPartOf: CC-MAIN-2024-22\r\n")),
		cat(zstdBytes(robotsResp("a.example", "z")), []byte("gap"), zstdBytes(robotsResp("b.example", "y"))),
	}
	if b, err := os.ReadFile(corpus + "warc/real/wget-iah-urls.warc"); err == nil {
		warc = append(warc, b[:3000])
	}
	http := [][]byte{
		[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\n"),
		[]byte("HTTP/1.0 404\nLocation: x\n\n"),
		[]byte("HTTP/1.1 301 Moved\r\r\nLocation: /a\r\r\n\r\r\n"),
		[]byte("HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\nX-Crawler-Content-Length: 10\r\nContent-Length: 30\r\n\r\n"),
		[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"),
		[]byte("\r\nHTTP/1.1 2000 OK\r\n\r\n"),
	}
	for target, seeds := range map[string][][]byte{"FuzzReader": warc, "FuzzHTTPHeader": http} {
		dir := filepath.Join("testdata", "fuzz", target)
		old, _ := filepath.Glob(filepath.Join(dir, "seed-*"))
		for _, o := range old {
			os.Remove(o)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, s := range seeds {
			sum := sha256.Sum256(s)
			name := filepath.Join(dir, "seed-"+hex.EncodeToString(sum[:8]))
			if err := os.WriteFile(name, []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
