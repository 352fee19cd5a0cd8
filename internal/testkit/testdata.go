package testkit

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/robotstat/robotstat/internal/modroot"
)

// root is the module's root, found from the working directory (a test runs
// in its package's folder) by the go.mod file.
var root = sync.OnceValues(modroot.FromWorkingDir)

// Root is the module's root folder.
func Root(t testing.TB) string {
	t.Helper()
	r, err := root()
	if err != nil {
		t.Fatalf("testkit: no go.mod above the working directory: %v", err)
	}
	return r
}

// Testdata is the path of a fixture in the module's top-level testdata/
// folder, the one for fixtures more than one package reads (see its
// README.md): Testdata(t, "sites") is the sites fixture's folder.
func Testdata(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Root(t), "testdata"}, elem...)...)
}

// Shared is the path of elem in ../shared beside the checkout, which holds
// what is too large or not licensed to commit (the corpus of real
// robots.txt files and WARCs, the repro files). A test that needs it skips
// when it is not there.
func Shared(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{filepath.Dir(Root(t)), "shared"}, elem...)...)
}

// CorpusFiles lists the real robots.txt files of the shared corpus
// (../shared/corpus/robots, see its README for sources and licences),
// falling back to the attributed copies in testdata/avuim; it skips the
// test when there are none.
func CorpusFiles(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob(Shared(t, "corpus", "robots", "*", "*robots.txt"))
	if len(files) == 0 {
		files, _ = filepath.Glob(Testdata(t, "avuim", "*-robots.txt"))
	}
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	return files
}

// AvuimFiles lists the avuim files of the shared corpus, which the tests
// that pin corpus-wide counts read; it skips the test without them or with
// -short.
func AvuimFiles(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob(Shared(t, "corpus", "robots", "avuim-2025", "*-robots.txt"))
	if len(files) == 0 || testing.Short() {
		t.Skip("shared corpus not present or -short")
	}
	return files
}
