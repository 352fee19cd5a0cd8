package schema

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFoldersRemoveEmpty: only the folders created since NoteFolders that
// are empty go; the root goes only if it was created too.
func TestFoldersRemoveEmpty(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := filepath.Join(base, "out")
	mk := func(rel string) {
		if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk("captures/crawl=old")
	mk("empty-before")
	os.WriteFile(filepath.Join(root, "captures/crawl=old/part-a.parquet"), []byte("x"), 0o644)
	f, err := NoteFolders(root)
	if err != nil {
		t.Fatal(err)
	}
	mk("captures/crawl=new")  // created, empty: goes
	mk("groups/crawl=new")    // created, empty, with its parent: both go
	mk("agents/crawl=filled") // created, holds a file: stays
	os.WriteFile(filepath.Join(root, "agents/crawl=filled/part-b.parquet"), []byte("x"), 0o644)
	if err := f.RemoveEmpty(); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != root {
			rel, _ := filepath.Rel(root, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	want := []string{"agents", "agents/crawl=filled", "captures", "captures/crawl=old", "empty-before"}
	if !slices.Equal(got, want) {
		t.Errorf("folders %v, want %v", got, want)
	}

	fresh := filepath.Join(base, "fresh")
	f, err = NoteFolders(fresh)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(fresh, "captures", "crawl=x"), 0o755)
	if err := f.RemoveEmpty(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("the root this run made is still there: %v", err)
	}
	if _, err := os.Stat(base); err != nil {
		t.Errorf("the root's parent is gone: %v", err)
	}
}
