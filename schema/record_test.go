package schema_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// TestRecord: a commit writes a completion record naming the run's files
// and rows, a rerun replaces it, a failed input is recorded as such, and
// readers list only the files some record names.
func TestRecord(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	rows := schematest.Generate(30)
	commit := func(run string, rows *schematest.Rows, o schema.Outcome) {
		t.Helper()
		ds := create(t, schema.Options{Dir: root, RunID: run, Input: "in/" + run, Metadata: map[string]string{"k": "v"}})
		if err := schematest.Write(ds, rows, 0); err != nil {
			t.Fatal(err)
		}
		if err := ds.CommitOutcome(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	commit("run1", rows, schema.Outcome{Summary: map[string]int{"captures": 30}})
	ix, err := schema.ReadIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	r := ix.Runs["run1"]
	var sum map[string]int
	if r == nil || r.State != schema.RecordDone || r.Input != "in/run1" || r.Options["k"] != "v" || json.Unmarshal(r.Summary, &sum) != nil || sum["captures"] != 30 {
		t.Fatalf("record: %+v", r)
	}
	var paths []string
	var captures int64
	for _, f := range r.Files {
		paths = append(paths, f.Path)
		if f.Table == schema.Captures {
			captures += f.Rows
		}
	}
	slices.Sort(paths)
	if want := wantFiles(rows, schema.DefaultTables(), "run1"); !slices.Equal(plainAll(paths), slashed(want)) {
		t.Errorf("record names\n%v\nwant\n%v", paths, want)
	}
	if captures != 30 {
		t.Errorf("record counts %d captures, want 30", captures)
	}

	// A rerun with fewer crawls: the record names only what is there now.
	one := &schematest.Rows{}
	for _, c := range rows.Captures {
		if c.Crawl == schematest.Crawls[0] {
			one.Captures = append(one.Captures, c)
		}
	}
	commit("run1", one, schema.Outcome{Err: errors.New("gave up fetching after 6 tries")})
	ix, _ = schema.ReadIndex(root)
	r = ix.Runs["run1"]
	if r.State != schema.RecordFailed || r.Error != "gave up fetching after 6 tries" {
		t.Errorf("failed run recorded as %q %q", r.State, r.Error)
	}
	for _, f := range r.Files {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f.Path))); err != nil {
			t.Errorf("record names a missing file: %v", err)
		}
	}

	// A file no record names (copied in, or left by a run killed while
	// committing) is not listed, and is counted as uncommitted.
	files, _ := schema.TableFiles(root, schema.Captures)
	src := files[0].Path
	stray := filepath.Join(filepath.Dir(src), "part-stray.parquet")
	b, _ := os.ReadFile(src)
	if err := os.WriteFile(stray, b, 0o644); err != nil {
		t.Fatal(err)
	}
	again, _ := schema.TableFiles(root, schema.Captures)
	if len(again) != len(files) {
		t.Errorf("TableFiles lists %d files with a stray one, %d without", len(again), len(files))
	}
	ix, _ = schema.ReadIndex(root)
	if _, n, _ := ix.TableFiles(schema.Captures); n != 1 {
		t.Errorf("%d uncommitted files, want 1", n)
	}

	// A corrupt record is an error naming it, not a silent empty dataset.
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(schema.RecordDir), "bad.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := schema.ReadIndex(root); err == nil {
		t.Error("a corrupt record read without error")
	}
}

func slashed(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.ToSlash(p)
	}
	slices.Sort(out)
	return out
}
