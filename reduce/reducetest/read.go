package reducetest

import (
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/schema"
)

// ReadTable returns the rows of every committed file of table under root,
// read with parquet-go's own typed reader rather than the schema reader
// robotstat reads its tables with, in TableFiles' order (by crawl, then
// file). A file that does not read fails the test.
func ReadTable[T schema.Row](t testing.TB, root string, table schema.TableName) []T {
	t.Helper()
	files, err := schema.TableFiles(root, table)
	if err != nil {
		t.Fatal(err)
	}
	var rows []T
	for _, f := range files {
		r, err := parquet.ReadFile[T](f.Path)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r...)
	}
	return rows
}
