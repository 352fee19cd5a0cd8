package modroot

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFind: the nearest go.mod at or above the folder wins; none is
// os.ErrNotExist.
func TestFind(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	inner := filepath.Join(root, "a", "b")
	nested := filepath.Join(root, "a", "b", "c", "d")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{root, inner} {
		if err := os.WriteFile(filepath.Join(m, "go.mod"), []byte("module x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for dir, want := range map[string]string{root: root, filepath.Join(root, "a"): root, inner: inner, nested: inner} {
		if got, err := Find(dir); err != nil || got != want {
			t.Errorf("Find(%s) = %s, %v; want %s", dir, got, err, want)
		}
	}
	if _, err := Find(string(filepath.Separator)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no go.mod: %v", err)
	}
}

// TestFromWorkingDir: a test runs in its package's folder, inside this
// module.
func TestFromWorkingDir(t *testing.T) {
	t.Parallel()
	got, err := FromWorkingDir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(got, "internal", "modroot", "modroot.go")); err != nil {
		t.Errorf("%s is not this module's root: %v", got, err)
	}
}
