package testkit

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

func TestFirstDiffs(t *testing.T) {
	for _, tc := range []struct {
		name, got, want, says string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"changed_line", "a\nb\nc", "a\nB\nc", "line 2:\n got  \"b\"\n want \"B\""},
		{"longer", "a\nb", "a", "line 2:\n got  \"b\"\n want \"\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FirstLineDiff(tc.got, tc.want); !strings.HasSuffix(got, tc.says) || (tc.says == "") != (got == "") {
				t.Errorf("FirstLineDiff = %q, want ...%q", got, tc.says)
			}
		})
	}
	for _, tc := range []struct {
		name      string
		got, want []string
		says      string
	}{
		{"equal", []string{"a", "b"}, []string{"a", "b"}, ""},
		{"missing", []string{"a"}, []string{"a", "b"}, "missing b"},
		{"extra", []string{"a", "b"}, []string{"a"}, "extra b"},
		{"differs", []string{"a", "c"}, []string{"a", "b"}, "\n got  c\n want b"},
	} {
		t.Run("rows_"+tc.name, func(t *testing.T) {
			if got := FirstDiff(tc.got, tc.want); got != tc.says {
				t.Errorf("FirstDiff = %q, want %q", got, tc.says)
			}
		})
	}
}

// TestParquetRows: rows that differ in one value, in a null against an
// empty string, or in a list's split, give different strings; equal rows
// equal strings, whatever the row groups.
func TestParquetRows(t *testing.T) {
	type row struct {
		S    string   `parquet:"s,dict"`
		P    *string  `parquet:"p,optional"`
		N    int64    `parquet:"n"`
		F    float64  `parquet:"f"`
		List []string `parquet:"list,list"`
	}
	empty := ""
	rows := []row{
		{S: "a", N: 1, F: 0.5, List: []string{"x", "y"}},
		{S: "a", N: 1, F: 0.5, List: []string{"xy"}},
		{S: "a", P: &empty, N: 1, F: 0.5},
		{S: "a", N: 1, F: 0.5},
		{S: "a", N: 2, F: 0.5},
		{S: "a", N: 1, F: 0.5, List: []string{"x", "y"}}, // the first again
	}
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := parquet.WriteFile(path, rows, parquet.MaxRowsPerRowGroup(4)); err != nil {
		t.Fatal(err)
	}
	got := ParquetRows(t, path, "crawl\t")
	if len(got) != len(rows) {
		t.Fatalf("%d rows, want %d", len(got), len(rows))
	}
	if got[0] != got[5] {
		t.Errorf("equal rows in two row groups differ:\n%s\n%s", got[0], got[5])
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(got)))
	if len(distinct) != 5 {
		t.Errorf("%d distinct rows, want 5:\n%s", len(distinct), strings.Join(distinct, "\n"))
	}
	for _, r := range got {
		if !strings.HasPrefix(r, "crawl\t") {
			t.Errorf("row %q lacks its prefix", r)
		}
	}
}
