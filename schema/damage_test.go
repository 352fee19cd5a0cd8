package schema_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// TestDamagedFiles: a committed file that was deleted, emptied or cut
// after its commit is named by Index.Damaged with what is wrong, and
// TableFiles refuses its table saying what to run (issue 26.3: status said
// "done" and sites rebuilt from 175,000 of 200,000 captures). Records
// written before sizes were recorded still read: their files are checked
// for being there and not empty; with rows, footers are read and compared.
func TestDamagedFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	var files [3][]string
	for i, in := range []string{"a.warc.gz", "b.warc.gz", "c.warc.gz"} {
		ds := create(t, schema.Options{Dir: root, RunID: "run" + string(rune('1'+i)), Input: in, Tables: []schema.TableName{schema.Captures}})
		if err := schema.WriterOf[schema.CaptureRow](ds).Write([]schema.CaptureRow{schematest.Capture(2 * i), schematest.Capture(2*i + 1)}); err != nil {
			t.Fatal(err)
		}
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		files[i] = ds.Files()
	}
	ix, err := schema.ReadIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ix.Runs {
		for _, f := range r.Files {
			st, err := os.Stat(filepath.Join(root, f.Path))
			if err != nil || f.Size != st.Size() || f.Size == 0 {
				t.Fatalf("%s: record says %d bytes, file %v %v", f.Path, f.Size, st, err)
			}
		}
	}
	if d, err := ix.Damaged(true); err != nil || len(d) != 0 {
		t.Fatalf("intact dataset: %v %v", d, err)
	}
	// run1's file deleted, run2's emptied, run3's cut by one byte.
	p := func(i int) string { return filepath.Join(root, files[i][0]) }
	if err := os.Remove(p(0)); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p(1), 0); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p(2))
	if err := os.Truncate(p(2), st.Size()-1); err != nil {
		t.Fatal(err)
	}
	ix, _ = schema.ReadIndex(root)
	d, err := ix.Damaged(false)
	if err != nil || len(d) != 3 {
		t.Fatalf("damage %v, err %v; want 3", d, err)
	}
	for i, want := range []string{"missing", "0 bytes, its record says", "bytes, its record says"} {
		if !strings.Contains(d[i].Why, want) || d[i].Input != []string{"a.warc.gz", "b.warc.gz", "c.warc.gz"}[i] {
			t.Errorf("damage %d: %+v, want %q", i, d[i], want)
		}
	}
	if r := d[0].Redo(root); r != "robotstat analyze --redo --out "+root+" a.warc.gz (with the options of the first run)" {
		t.Errorf("redo %q", r)
	}
	_, _, err = ix.TableFiles(schema.Captures)
	if !errors.Is(err, schema.ErrDamaged) || !strings.Contains(err.Error(), files[0][0]+": missing") || !strings.Contains(err.Error(), "--redo") {
		t.Errorf("TableFiles: %v, want ErrDamaged naming the files and the redo", err)
	}

	// A record from before sizes: its emptied file is still found, an
	// intact one is not flagged; the row check reads footers.
	rec := filepath.Join(root, "_robotstat", "inputs", "run2.json")
	b, _ := os.ReadFile(rec)
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, f := range m["files"].([]any) {
		delete(f.(map[string]any), "size")
	}
	b, _ = json.Marshal(m)
	if err := os.WriteFile(rec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err = schema.ReadIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := ix.Damaged(false); len(d) != 3 || d[1].Why != "0 bytes" {
		t.Errorf("old record: %v", d)
	}
	garbage := make([]byte, st.Size())
	if err := os.WriteFile(p(1), garbage, 0o644); err != nil { // old record: no size to compare
		t.Fatal(err)
	}
	ix, _ = schema.ReadIndex(root)
	if d, _ := ix.Damaged(false); len(d) != 2 {
		t.Errorf("without rows: %v, want the other two", d)
	}
	if d, _ := ix.Damaged(true); len(d) != 3 || !strings.Contains(d[1].Why, "not a Parquet file") {
		t.Errorf("with rows: %v, want the garbage file too", d)
	}
}
