package sample

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/robotstat/robotstat/runs"
)

// TestUnpack: the sample is written whole under Name, and named by its
// content wherever it was unpacked; other inputs keep their names.
func TestUnpack(t *testing.T) {
	t.Parallel()
	var names []string
	for range 2 {
		dir := t.TempDir()
		inputs, name, err := Unpack(dir, runs.CanonicalInput)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, Name))
		if err != nil || len(inputs) != 1 || inputs[0] != filepath.Join(dir, Name) || !bytes.Equal(b, WARC()) {
			t.Fatalf("unpacked %v: %d bytes, %v", inputs, len(b), err)
		}
		names = append(names, name(inputs[0]))
		if other := filepath.Join(dir, "x.warc.gz"); name(other) != runs.CanonicalInput(other) {
			t.Errorf("another input is named %q", name(other))
		}
	}
	if want := "robotstat:sample:" + strconv.Itoa(len(WARC())); names[0] != want || names[1] != want {
		t.Errorf("names %q, want %q for both", names, want)
	}
	if w := WARC(); len(w) < 1000 || w[0] != 0x1f || w[1] != 0x8b {
		t.Errorf("the sample is %d bytes, not a gzipped WARC", len(w))
	}
}
