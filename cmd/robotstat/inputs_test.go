package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// avuimDir holds real robots.txt files named <host>-robots.txt (ISC, see
// its README.md).
const avuimDir = "../../stats/testdata/avuim"

// copyTree writes files (relative path -> content) under root.
func copyTree(t *testing.T, root string, files map[string][]byte) {
	t.Helper()
	for rel, b := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// avuimCrawls lays the avuim files out as two crawl folders of the same
// hosts, as a researcher keeps monthly mirrors: every file name occurs
// twice.
func avuimCrawls(t *testing.T) (map[string][]byte, int) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(avuimDir, "*-robots.txt"))
	if len(names) < 10 {
		t.Fatalf("%d avuim files", len(names))
	}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files["2025-01/"+filepath.Base(n)] = b
		files["2025-02/"+filepath.Base(n)] = b
	}
	return files, len(names)
}

// TestAnalyzeFolderTreeCaptureIDs: issue 10 item 1. Files of the same name
// in two folders were given one capture_id (the base name and offset 0), so
// joins on capture_id doubled. Each must have its own, named by its path
// below the folder given, the same wherever the tree lies and whatever
// --workers is.
func TestAnalyzeFolderTreeCaptureIDs(t *testing.T) {
	files, n := avuimCrawls(t)
	base := t.TempDir()
	treeA, treeB := filepath.Join(base, "here", "mirror"), filepath.Join(base, "elsewhere", "copy")
	copyTree(t, treeA, files)
	copyTree(t, treeB, files)
	ids := func(tree, out, workers string) map[string]string {
		t.Helper()
		_, stderr, code := run(t, "", "analyze", "--quiet", "--workers", workers, "--out", out, tree)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		bySource := map[string]string{}
		distinct := map[string]bool{}
		for _, r := range readCaptures(t, out) {
			bySource[r.Source] = r.CaptureID
			distinct[r.CaptureID] = true
		}
		if len(distinct) != 2*n || len(bySource) != 2*n {
			t.Errorf("%d captures under %s: %d distinct ids, %d distinct sources; want %d", 2*n, tree, len(distinct), len(bySource), 2*n)
		}
		return bySource
	}
	a := ids(treeA, filepath.Join(base, "outA"), "1")
	b := ids(treeB, filepath.Join(base, "outB"), "2")
	for rel := range files {
		if a[rel] == "" {
			t.Errorf("no capture with source %q (sources: %v)", rel, sortedKeys(a))
		} else if a[rel] != b[rel] {
			t.Errorf("%s: id %s in one place, %s in another", rel, a[rel], b[rel])
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
