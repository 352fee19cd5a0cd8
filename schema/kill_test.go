package schema_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// The kill tests run a real writer in a child process (this test binary
// re-executed with ROBOTSTAT_KILL_HELPER set) and SIGKILL it: no deferred
// cleanup runs, exactly like an OOM kill or a pulled plug, short of the
// page cache, which fsync covers.
const killHelperEnv = "ROBOTSTAT_KILL_HELPER"

// killRows is what the helper writes per commit: the fixture of killRowsN
// captures, in every table.
const killRowsN = 600

// killRowsStep is how many more captures odd rounds of the commit helper
// write.
const killRowsStep = 150

// TestKillHelper is the child process; it does nothing in a normal run.
func TestKillHelper(t *testing.T) {
	t.Parallel()
	mode, dir, ok := strings.Cut(os.Getenv(killHelperEnv), ":")
	if !ok {
		t.Skip("helper process for TestKilledWriter")
	}
	if mode == "lock" { // hold the exclusive lock until killed
		if _, err := schema.Lock(dir, true); err != nil {
			t.Fatal(err)
		}
		fmt.Println("locked")
		select {}
	}
	for round := 0; ; round++ {
		// Rounds alternate between two fixtures of different sizes, so a
		// committed view that mixes two rounds shows in the row counts.
		rows := schematest.Generate(killRowsN + round%2*killRowsStep)
		ds, err := schema.Create(schema.Options{Dir: dir, RunID: "r1", Tables: schema.AllTables(), RowGroupRows: 100})
		if err != nil {
			t.Fatal(err)
		}
		switch mode {
		case "write": // write forever, never commit
			fmt.Println("writing")
			for {
				if err := schematest.Write(ds, rows, 50); err != nil {
					t.Fatal(err)
				}
			}
		case "commit": // write and commit in a loop
			if err := schematest.Write(ds, rows, 50); err != nil {
				t.Fatal(err)
			}
			if err := ds.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			fmt.Println("committed", round)
		}
	}
}

func startHelper(t *testing.T, mode, dir string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := testkit.Self(t, []string{killHelperEnv + "=" + mode + ":" + dir}, "-test.run=^TestKillHelper$", "-test.count=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(out)
}

func kill(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := testkit.Kill(cmd); err != nil && err.Error() != "signal: killed" {
		t.Fatal(err)
	}
}

// checkComplete opens every *.parquet under root (hidden names included:
// none may exist) and checks that each is a whole file and that each
// partition's files together hold exactly the rows one commit writes to it.
// It returns how many partitions were complete and how many temporary files
// were found.
func checkComplete(t *testing.T, root string, rows *schematest.Rows) (complete, temps int) {
	t.Helper()
	perDir := map[string]int64{}
	for _, tb := range schema.AllTables() {
		counts := map[string]int64{}
		schematest.ForEachKey(rows, tb, func(k schema.Key) { counts[k.Crawl]++ })
		for c, n := range counts {
			perDir[filepath.Join(string(tb), partition(c))] = n
		}
	}
	got := map[string]int64{}
	for _, p := range walkNames(t, root) {
		base := filepath.Base(p)
		switch {
		case strings.HasPrefix(filepath.ToSlash(p), schema.RecordDir+"/"):
			// completion records: checkCommitted reads them
		case strings.HasSuffix(p, ".tmp") && strings.HasPrefix(base, ".part-r1"):
			temps++
		case strings.HasSuffix(p, ".parquet") && strings.HasPrefix(base, "part-r1"):
			if _, ok := perDir[filepath.Dir(p)]; !ok {
				t.Fatalf("unexpected file %s", p)
			}
			got[filepath.Dir(p)] += openFile(t, filepath.Join(root, p)).NumRows()
		default:
			t.Fatalf("unexpected file %s", p)
		}
	}
	for dir, n := range got {
		if n != perDir[dir] {
			t.Fatalf("%s holds %d rows, want %d", dir, n, perDir[dir])
		}
		complete++
	}
	return complete, temps
}

func TestKilledWriter(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs child processes")
	}
	rows := schematest.Generate(killRowsN)

	t.Run("before_commit", func(t *testing.T) {
		dir := t.TempDir()
		cmd, out := startHelper(t, "write", dir)
		if !out.Scan() {
			t.Fatal("helper did not start")
		}
		time.Sleep(300 * time.Millisecond)
		kill(t, cmd)
		complete, temps := checkComplete(t, dir, rows)
		if complete != 0 || temps == 0 {
			t.Fatalf("after a kill before commit: %d complete files, %d temporary files; want 0 and some", complete, temps)
		}
		// Sweep, for the run ids about to be rerun, removes the leftovers
		// (and nothing of another run id's); then the rerun commits.
		if n, err := schema.Sweep(dir, func(id string) bool { return id == "r2" }); err != nil || n != 0 {
			t.Fatalf("Sweep of another run id removed %d files (%v)", n, err)
		}
		if n, err := schema.Sweep(dir, func(id string) bool { return id == "r1" }); err != nil || n != temps {
			t.Fatalf("Sweep removed %d files (%v), want the %d temporary ones", n, err, temps)
		}
		ds, err := schema.Create(schema.Options{Dir: dir, RunID: "r1", Tables: schema.AllTables()})
		if err != nil {
			t.Fatal(err)
		}
		if err := schematest.Write(ds, rows, 0); err != nil {
			t.Fatal(err)
		}
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, temps := checkComplete(t, dir, rows); temps != 0 {
			t.Fatalf("%d temporary files after Sweep and the next commit", temps)
		}
	})

	// Kill a writer that commits in a loop at staggered moments, so that
	// some kills land in the middle of a commit: whatever *.parquet exists
	// must be whole.
	t.Run("during_commits", func(t *testing.T) {
		for i := range 6 {
			dir := t.TempDir()
			cmd, out := startHelper(t, "commit", dir)
			if !out.Scan() {
				t.Fatal("helper did not commit")
			}
			time.Sleep(time.Duration(i) * 37 * time.Millisecond)
			kill(t, cmd)
			n := checkCommitted(t, dir)
			t.Logf("kill %d: the committed view holds the %d-capture round", i, n)
		}
	})
}

// checkCommitted reads what the completion record of run r1 names, the
// view every robotstat reader takes: each file must exist, be whole and
// hold the rows the record says, and together the tables must hold exactly
// one round of the commit helper (all tables of the same fixture size). It
// returns that size.
func checkCommitted(t *testing.T, root string) int {
	t.Helper()
	ix, err := schema.ReadIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	rec := ix.Runs["r1"]
	if rec == nil {
		t.Fatal("no completion record: the first commit is gone")
	}
	got := map[schema.TableName]int64{}
	for _, f := range rec.Files {
		n := openFile(t, filepath.Join(root, filepath.FromSlash(f.Path))).NumRows()
		if n != f.Rows {
			t.Fatalf("%s holds %d rows, its record says %d", f.Path, n, f.Rows)
		}
		got[f.Table] += n
	}
	for _, size := range []int{killRowsN, killRowsN + killRowsStep} {
		want := schematest.Generate(size)
		same := true
		for _, tb := range schema.AllTables() {
			if got[tb] != int64(schematest.Count(want, tb)) {
				same = false
			}
		}
		if same {
			return size
		}
	}
	t.Fatalf("the committed view mixes rounds: %v", got)
	return 0
}
