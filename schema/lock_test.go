package schema_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

func lock(t *testing.T, root string, exclusive bool) *schema.DirLock {
	t.Helper()
	l, err := schema.Lock(root, exclusive)
	if err != nil {
		t.Fatal(err)
	}
	if l.Unsupported != nil {
		t.Skipf("no flock here: %v", l.Unsupported)
	}
	t.Cleanup(func() { l.Unlock() })
	return l
}

// TestLockModes: exclusive excludes everything, shared only exclusive;
// the refusal says who holds the lock; Unlock lets the next one in.
func TestLockModes(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "out")
	ex := lock(t, root, true)
	for _, mode := range []bool{true, false} {
		_, err := schema.Lock(root, mode)
		if !errors.Is(err, schema.ErrLocked) || !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), root) {
			t.Errorf("exclusive %v beside an exclusive holder: %v", mode, err)
		}
	}
	if err := ex.Unlock(); err != nil {
		t.Fatal(err)
	}
	a := lock(t, root, false)
	lock(t, root, false) // shards share
	if _, err := schema.Lock(root, true); !errors.Is(err, schema.ErrLocked) || !strings.Contains(err.Error(), "sharded robotstat analyze") {
		t.Errorf("exclusive beside shared holders: %v", err)
	}
	a.Unlock()
	if b, err := os.ReadFile(filepath.Join(root, schema.LockFile)); err != nil || len(b) != 0 {
		t.Errorf("lock file after its holders: %q, %v", b, err)
	}
}

// TestLockDiesWithProcess: a writer killed with SIGKILL holds no lock
// (flock dies with its process), and the entry it left in the lock file
// tells the next holder that an exclusive writer was killed.
func TestLockDiesWithProcess(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a child process")
	}
	dir := t.TempDir()
	cmd, out := startHelper(t, "lock", dir)
	if !out.Scan() || out.Text() != "locked" {
		t.Fatal("helper did not lock")
	}
	_, err := schema.Lock(dir, false)
	if !errors.Is(err, schema.ErrLocked) || !strings.Contains(err.Error(), "process "+strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("beside a live holder: %v", err)
	}
	kill(t, cmd)
	b, _ := os.ReadFile(filepath.Join(dir, schema.LockFile))
	if !strings.HasPrefix(string(b), "process "+strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("lock file after the kill: %q", b)
	}
	l := lock(t, dir, false)
	l.Unlock()
	if b, _ := os.ReadFile(filepath.Join(dir, schema.LockFile)); len(b) != 0 {
		t.Errorf("a shared holder left the killed writer's entry: %q", b)
	}
}

// leftoverFixture is a dataset with committed runs and what killed
// writers leave, of every kind Lock recovers:
//
//   - run a (an analyze input): a killed rerun's renamed file and a
//     temporary file;
//   - run sites (robotstat sites, in the sites tables' folders): a rerun
//     killed after its record, before the files it replaced were removed,
//     and one killed between its renames and its record, with a temporary
//     file and a record's temporary file;
//   - a compaction of runs c and d killed after its record, before the
//     absorbed files were removed, and a copy of a merged file no record
//     names (a compaction killed between its renames and its record).
//
// It returns, per table, the rows of the committed view.
func leftoverFixture(t *testing.T, root string) map[schema.TableName]int64 {
	t.Helper()
	commit := func(run string, tables []schema.TableName, write func(*schema.Dataset) error) {
		t.Helper()
		ds := create(t, schema.Options{Dir: root, RunID: run, Tables: tables, Version: "v-test"})
		if err := write(ds); err != nil {
			t.Fatal(err)
		}
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for i, run := range []string{"a", "c", "d"} {
		commit(run, []schema.TableName{schema.Captures, schema.Groups}, func(ds *schema.Dataset) error { return schematest.WriteSink(ds, schematest.Range(i*10, i*10+10)) })
	}
	sites := func(n int) func(*schema.Dataset) error {
		return func(ds *schema.Dataset) error {
			var rows []schema.SiteRow
			for i := range n {
				rows = append(rows, schema.SiteRow{Crawl: "c1", Host: fmt.Sprintf("h%d.example", i), URL: fmt.Sprintf("https://h%d.example/robots.txt", i), Outcome: schema.OutcomeParsed, StatusClass: "2xx", Candidates: 1})
			}
			return schema.WriterOf[schema.SiteRow](ds).Write(rows)
		}
	}
	commit("sites", []schema.TableName{schema.Sites}, sites(5))
	old := partFile(t, filepath.Join(root, "sites", "crawl=c1"), "sites")
	oldBytes, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	commit("sites", []schema.TableName{schema.Sites}, sites(7))
	cur := partFile(t, filepath.Join(root, "sites", "crawl=c1"), "sites")
	curBytes, _ := os.ReadFile(cur)
	pdir := filepath.Dir(cur)
	write := func(p string, b []byte) {
		t.Helper()
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(old, oldBytes) // killed after its record
	write(filepath.Join(pdir, "part-sites.feedf00d.parquet"), curBytes)
	write(filepath.Join(pdir, ".part-sites.feedf00d.parquet.0011.tmp"), curBytes[:100])
	write(filepath.Join(root, schema.RecordDir, ".sites.json.0022.tmp"), []byte("{"))
	apart := filepath.Join(root, "captures", "crawl=CC-MAIN-2024-33")
	aBytes, _ := os.ReadFile(partFile(t, apart, "a"))
	write(filepath.Join(apart, "part-a.0badc0de.parquet"), aBytes)
	write(filepath.Join(apart, ".part-a.0badc0de.parquet.33.tmp"), nil)

	// The compaction: fail its removals, then put a merged file's copy
	// under a name of another commit part.
	absorbed := map[string][]byte{}
	for _, run := range []string{"c", "d"} {
		rec, err := schema.ReadIndex(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rec.Runs[run].Files {
			p := filepath.Join(root, filepath.FromSlash(f.Path))
			b, _ := os.ReadFile(p)
			absorbed[p] = b
		}
	}
	fault := func(step string) error {
		if step == "remove" {
			return errors.New("killed")
		}
		return nil
	}
	sum, err := schema.Compact(context.Background(), schema.WithCompactFault(schema.CompactOptions{Dir: root, Eligible: func(r *schema.Record) bool { return r.RunID == "c" || r.RunID == "d" }}, fault))
	if err != nil || sum.Runs != 2 {
		t.Fatalf("compact: %v, %d runs", err, sum.Runs)
	}
	for p, b := range absorbed {
		write(p, b) // as a kill before any removal leaves them
	}
	merged := partFile(t, apart, sum.RunID)
	mBytes, _ := os.ReadFile(merged)
	write(filepath.Join(apart, "part-"+sum.RunID+".00000001.parquet"), mBytes)

	ix, err := schema.ReadIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[schema.TableName]int64{}
	for id, r := range ix.Runs {
		if ix.AbsorbedBy(id) != "" {
			continue
		}
		for _, f := range r.Files {
			want[f.Table] += f.Rows
		}
	}
	return want
}

// globRows is what a query that globs table/**/*.parquet counts.
func globRows(t *testing.T, root string, tables ...schema.TableName) map[schema.TableName]int64 {
	t.Helper()
	got := map[schema.TableName]int64{}
	for _, tb := range tables {
		got[tb] = countRows(t, filepath.Join(root, string(tb)))
	}
	return got
}

// TestLockRecovers (issue 26.2): taking the lock rolls back or forward
// what killed commits and compactions left, as far as the holder may. The
// exclusive holder (robotstat sites, compact, an unsharded analyze) is
// alone and removes everything; a shared one (a shard) removes what only
// exclusive holders write: the sites tables' leftovers always, a killed
// compaction's when the lock file says an exclusive writer was killed.
// Before, no later sites, analyze or compact removed a killed sites
// build's files: a *.parquet glob counted its rows twice, for good.
func TestLockRecovers(t *testing.T) {
	t.Parallel()
	tables := []schema.TableName{schema.Captures, schema.Sites, schema.Groups}
	cases := []struct {
		name      string
		exclusive bool
		dirty     bool
		// what is left after: run a's two, and the compaction's three
		// (two absorbed files per table are counted through captures only)
		keepA, keepCompaction bool
	}{
		{"exclusive", true, false, false, false},
		{"shared", false, false, true, true},
		{"shared_after_a_killed_exclusive_writer", false, true, true, false},
	}
	fixture := t.TempDir()
	want := leftoverFixture(t, fixture)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "out")
			if err := os.CopyFS(root, os.DirFS(fixture)); err != nil {
				t.Fatal(err)
			}
			before, err := schema.FindLeftovers(root)
			if err != nil {
				t.Fatal(err)
			}
			if before.Temps != 3 || before.Unnamed != 4 || before.Absorbed == 0 {
				t.Fatalf("FindLeftovers before: %+v", before)
			}
			if got := globRows(t, root, tables...); got[schema.Sites] == want[schema.Sites] || got[schema.Captures] == want[schema.Captures] {
				t.Fatalf("the fixture's glob view %v equals the committed view %v: nothing to recover", got, want)
			}
			if c.dirty {
				os.WriteFile(filepath.Join(root, schema.LockFile), []byte("process 1 since 2026-01-01T00:00:00Z\n"), 0o644)
			}
			l := lock(t, root, c.exclusive)
			after, err := schema.FindLeftovers(root)
			if err != nil {
				t.Fatal(err)
			}
			wantLeft := 0
			if c.keepA {
				wantLeft += 2
			}
			if c.keepCompaction {
				// and the sites record's temporary file: a shard reads
				// no more of the records than the sites run's
				wantLeft += 1 + before.Absorbed + 1
			}
			if left := after.Temps + after.Unnamed + after.Absorbed; left != wantLeft || l.Recovered != before.Temps+before.Unnamed+before.Absorbed-wantLeft {
				t.Errorf("left %+v (want %d), recovered %d of %+v", after, wantLeft, l.Recovered, before)
			}
			got := globRows(t, root, tables...)
			if got[schema.Sites] != want[schema.Sites] {
				t.Errorf("sites: a glob reads %d rows, the committed view %d", got[schema.Sites], want[schema.Sites])
			}
			if whole := !c.keepA && !c.keepCompaction; whole && (got[schema.Captures] != want[schema.Captures] || got[schema.Groups] != want[schema.Groups]) {
				t.Errorf("a glob reads %v, the committed view %v", got, want)
			}
			if !c.keepA && !c.keepCompaction {
				noLeftovers(t, root)
			}
			// The committed view is what it was.
			ix, err := schema.ReadIndex(root)
			if err != nil {
				t.Fatal(err)
			}
			for _, tb := range tables {
				files, _, err := ix.TableFiles(tb)
				if err != nil {
					t.Fatal(err)
				}
				var n int64
				for _, f := range files {
					n += openFile(t, f.Path).NumRows()
				}
				if n != want[tb] {
					t.Errorf("%s: the committed view holds %d rows, want %d", tb, n, want[tb])
				}
			}
		})
	}
}

// TestFoldersRemoveTheirLock: a failed run into a folder it created
// removes that folder although it holds the run's lock file.
func TestFoldersRemoveTheirLock(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "out")
	f, err := schema.NoteFolders(root)
	if err != nil {
		t.Fatal(err)
	}
	l := lock(t, root, true)
	if err := f.RemoveEmpty(); err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--out after a failed first run: %v", err)
	}
	// A lock taken after (a next run) finds its file again.
	lock(t, root, true)
	if _, err := os.Stat(filepath.Join(root, schema.LockFile)); err != nil {
		t.Error(err)
	}
}

// TestDirLockNotes: nothing to say of a plain lock; an unlockable file
// system and the files recovered are said, with up to the examples kept.
func TestDirLockNotes(t *testing.T) {
	t.Parallel()
	if n := (&schema.DirLock{}).Notes("out"); len(n) != 0 {
		t.Errorf("a plain lock: %q", n)
	}
	l := &schema.DirLock{Unsupported: errors.New("no flock"), Recovered: 4, RecoveredExamples: []string{"a", "b", "c"}}
	want := []string{
		"out is not locked (no flock): make sure no other robotstat writes into it meanwhile",
		"removed 4 files a killed robotstat left in out (a, b, c, ...)",
	}
	if got := l.Notes("out"); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	l = &schema.DirLock{Recovered: 1, RecoveredExamples: []string{"a"}}
	if got := l.Notes("out"); len(got) != 1 || got[0] != "removed 1 file a killed robotstat left in out (a)" {
		t.Errorf("one file: %q", got)
	}
}
