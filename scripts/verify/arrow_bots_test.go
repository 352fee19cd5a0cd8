package verify

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/robotstat/robotstat/schema"
)

// TestArrowReadsAnalyzeBots reads the bots table of the sample's output
// (--tables all) with Arrow. analyze writes that table with schema's own bots
// encoder (one dictionary page and one data page per column chunk, copied
// into the file by parquet-go), not with parquet-go's row writer that the
// fixture's files come from, so Arrow's reading of it is checked here,
// value by value against schema.ReadFile (root_allowed against the
// verdict). DuckDB reads it in the README's
// queries (TestDocQueries).
func TestArrowReadsAnalyzeBots(t *testing.T) {
	files, err := schema.TableFiles(sampleAllRoot, schema.Bots)
	if err != nil || len(files) == 0 {
		t.Fatalf("sample bots files: %v, %v", files, err)
	}
	cols := []string{"capture_id", "crawl", "url", "host", "bot", "operator", "category", "matched", "verdict", "somesite", "cic", "cc_class"}
	for _, f := range files {
		rel, err := filepath.Rel(sampleAllRoot, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(rel, func(t *testing.T) {
			var want []schema.BotRow
			err := schema.ReadFile(context.Background(), f.Path, cols, func(rows []schema.BotRow) error {
				want = append(want, rows...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			a := openArrow(t, sampleAllRoot, rel)
			if n := a.data.NumRows(); n != int64(len(want)) || n == 0 {
				t.Fatalf("Arrow read %d rows, schema.ReadFile %d", n, len(want))
			}
			str := func(name string) *array.String { return column(t, a.data, name).(*array.String) }
			strCols := map[string]func(r *schema.BotRow) string{
				"capture_id": func(r *schema.BotRow) string { return r.CaptureID },
				"url":        func(r *schema.BotRow) string { return r.URL },
				"host":       func(r *schema.BotRow) string { return r.Host },
				"bot":        func(r *schema.BotRow) string { return r.Bot },
				"operator":   func(r *schema.BotRow) string { return r.Operator },
				"category":   func(r *schema.BotRow) string { return r.Category },
				"matched":    func(r *schema.BotRow) string { return r.Matched },
				"verdict":    func(r *schema.BotRow) string { return r.Verdict },
				"somesite":   func(r *schema.BotRow) string { return r.Somesite },
				"cic":        func(r *schema.BotRow) string { return r.CIC },
				"cc_class":   func(r *schema.BotRow) string { return r.CCClass },
			}
			for name, get := range strCols {
				c := str(name)
				for i := range want {
					if c.IsNull(i) || c.Value(i) != get(&want[i]) {
						t.Fatalf("row %d: %s = %q (null %v), want %q", i, name, c.Value(i), c.IsNull(i), get(&want[i]))
					}
				}
			}
			crawl := str("crawl")
			root := column(t, a.data, "root_allowed").(*array.Boolean)
			for i, w := range want {
				if (w.Crawl == "") != crawl.IsNull(i) || w.Crawl != "" && crawl.Value(i) != w.Crawl {
					t.Fatalf("row %d: crawl %q (null %v), want %q", i, crawl.Value(i), crawl.IsNull(i), w.Crawl)
				}
				// schema.ReadFile cannot read *bool; root_allowed is checked
				// against what the verdict implies: NULL exactly when it is
				// unknown, false under full, true under none.
				switch {
				case (w.Verdict == schema.VerdictUnknown) != root.IsNull(i),
					w.Verdict == schema.VerdictFull && root.Value(i),
					w.Verdict == schema.VerdictNone && !root.Value(i):
					t.Fatalf("row %d: root_allowed %v (null %v) with verdict %s", i, root.Value(i), root.IsNull(i), w.Verdict)
				}
			}
		})
	}
}
