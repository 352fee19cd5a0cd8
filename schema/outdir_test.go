package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutDirInTheWay: an --out that is a dangling symbolic link, or below
// a file, is refused saying what is in the way (issue 26.7: "file exists").
func TestOutDirInTheWay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "out")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, says string }{
		{link, "is a symbolic link to " + filepath.Join(dir, "nowhere") + ", which does not exist"},
		{filepath.Join(file, "out"), file + " is a file, not a folder"},
	} {
		l, err := Lock(tc.out, true)
		if err == nil {
			l.Unlock()
			t.Errorf("%s: locked", tc.out)
			continue
		}
		if !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want it to say %q", tc.out, err, tc.says)
		}
		if _, err := Create(Options{Dir: tc.out, RunID: "r1"}); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: Create: %v, want it to say %q", tc.out, err, tc.says)
		}
	}
}
