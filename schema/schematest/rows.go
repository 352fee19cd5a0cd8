package schematest

import (
	"slices"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/schema"
)

// TableRows is every row of table tb in the files a reader of root finds
// (schema.TableFiles), each prefixed with its crawl partition (a row in
// another crawl's folder is a wrong row), sorted: a multiset. Two datasets
// hold the same rows, each as many times, exactly when their TableRows are
// equal. Values are compared as the files store them
// (testkit.ParquetRows), every column included.
func TableRows(t testing.TB, root string, tb schema.TableName) []string {
	t.Helper()
	files, err := schema.TableFiles(root, tb)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		out = append(out, testkit.ParquetRows(t, f.Path, f.Crawl+"\t")...)
	}
	slices.Sort(out)
	return out
}
