package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite the committed fuzz seeds under testdata/fuzz")

// TestWriteFuzzSeeds regenerates testdata/fuzz/FuzzDechunk/ with
// go test -run TestWriteFuzzSeeds -update-seeds: made-up chunked framing,
// good and broken. (The WARC reader's and the HTTP header parser's seeds
// are package warc's.)
func TestWriteFuzzSeeds(t *testing.T) {
	t.Parallel()
	if !*updateSeeds {
		t.Skip("run with -update-seeds to regenerate")
	}
	chunks := [][]byte{
		chunked([]byte(robotsBody), 5),
		[]byte("3;ext=1\r\nabc\r\n0\r\nTrailer: x\r\n\r\n"),
		[]byte("5\nhello\n0\n\n"),
		[]byte("5\r\nUser-\r\nzz\r\nagent\r\n0\r\n\r\n"),
	}
	for target, seeds := range map[string][][]byte{"FuzzDechunk": chunks} {
		dir := filepath.Join("testdata", "fuzz", target)
		old, _ := filepath.Glob(filepath.Join(dir, "seed-*")) // keep inputs the fuzzer found
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
