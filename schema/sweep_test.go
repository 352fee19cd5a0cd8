package schema_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// TestSweep: Sweep removes, for the run ids it is given, hidden temporary
// files and files no completion record names (what a commit killed
// between its renames and its record leaves), and keeps every committed
// file and everything of other run ids.
func TestSweep(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	rows := schematest.Generate(12)
	for _, run := range []string{"a", "b"} {
		ds := create(t, schema.Options{Dir: root, RunID: run})
		if err := schematest.Write(ds, rows, 0); err != nil {
			t.Fatal(err)
		}
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	committed := walkNames(t, root)
	part := filepath.Dir(filepath.Join(root, committed[0]))
	// Leftovers of a killed rerun of a, and of b.
	leftovers := []string{"part-a.0123abcd.parquet", "part-a.0123abcd-1.parquet", ".part-a.0123abcd.parquet.99.tmp", "part-b.0123abcd.parquet"}
	for _, name := range leftovers {
		if err := os.WriteFile(filepath.Join(part, name), []byte("PAR1"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Not table files at all: never touched.
	os.WriteFile(filepath.Join(part, "notes.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(part, "part-a.parquet"), nil, 0o644) // no commit part

	n, err := schema.Sweep(root, func(id string) bool { return id == "a" })
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("removed %d files, want 3", n)
	}
	rel, _ := filepath.Rel(root, part)
	want := append(slices.Clone(committed), filepath.Join(rel, "part-b.0123abcd.parquet"), filepath.Join(rel, "notes.txt"), filepath.Join(rel, "part-a.parquet"))
	slices.Sort(want)
	if got := walkNames(t, root); !slices.Equal(got, want) {
		t.Errorf("after Sweep:\n%v\nwant\n%v", got, want)
	}
	for _, f := range committed {
		if !strings.HasPrefix(filepath.Base(f), "part-") {
			t.Fatalf("unexpected committed file %s", f)
		}
	}
}

// TestOmitEmpty: a run without rows commits its record and, with
// OmitEmpty, no file; without it, one zero-row file per table.
func TestOmitEmpty(t *testing.T) {
	t.Parallel()
	for _, omit := range []bool{true, false} {
		root := t.TempDir()
		ds := create(t, schema.Options{Dir: root, RunID: "empty", OmitEmpty: omit})
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		ix, err := schema.ReadIndex(root)
		if err != nil {
			t.Fatal(err)
		}
		r := ix.Runs["empty"]
		if r == nil || r.State != schema.RecordDone {
			t.Fatalf("omit %v: record %+v", omit, r)
		}
		files := walkNames(t, root)
		if omit && (len(files) != 0 || len(r.Files) != 0) {
			t.Errorf("OmitEmpty wrote %v", files)
		}
		if !omit && len(files) != len(schema.DefaultTables()) {
			t.Errorf("without OmitEmpty: %d files, want one per default table", len(files))
		}
	}
	// With some rows, OmitEmpty still gives every table its file.
	root := t.TempDir()
	ds := create(t, schema.Options{Dir: root, RunID: "some", OmitEmpty: true})
	if err := schema.WriterOf[schema.CaptureRow](ds).Write([]schema.CaptureRow{schematest.Capture(1)}); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if files := walkNames(t, root); len(files) != len(schema.DefaultTables()) {
		t.Errorf("%d files, want one per default table: %v", len(files), files)
	}
}
