package schema_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/schema/schematest"
)

// compactRuns commits n runs into root, each of per captures of its own
// (run i holds captures i*per to (i+1)*per-1, spread over the fixture's
// three crawls), in every table. Even runs write through a Sink (the bots
// table through its own encoder), odd ones through the TableWriters.
func compactRuns(t *testing.T, root string, n, per int, meta map[string]string) {
	t.Helper()
	for i := range n {
		ds := create(t, schema.Options{Dir: root, RunID: fmt.Sprintf("in%03d", i), Tables: schema.AnalyzeTables(), Metadata: meta, Version: "v-test"})
		rows := schematest.Range(i*per, (i+1)*per)
		var err error
		if i%2 == 0 {
			err = schematest.WriteSink(ds, rows)
		} else {
			err = schematest.Write(ds, rows, 7)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := ds.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// typedRows reads every committed file of table tb with parquet-go's typed
// reader and returns its rows as JSON, sorted: a multiset to compare.
func typedRows(t *testing.T, root string, tb schema.TableName) []string {
	t.Helper()
	switch tb {
	case schema.Captures:
		return rowsOf[schema.CaptureRow](t, root, tb)
	case schema.Groups:
		return rowsOf[schema.GroupRow](t, root, tb)
	case schema.Agents:
		return rowsOf[schema.AgentRow](t, root, tb)
	case schema.Bots:
		return rowsOf[schema.BotRow](t, root, tb)
	case schema.Directives:
		return rowsOf[schema.DirectiveRow](t, root, tb)
	case schema.Signals:
		return rowsOf[schema.SignalRow](t, root, tb)
	case schema.Verdicts:
		return rowsOf[schema.VerdictsRow](t, root, tb)
	case schema.Errors:
		return rowsOf[schema.ErrorRow](t, root, tb)
	case schema.Rules:
		return rowsOf[schema.RuleRow](t, root, tb)
	case schema.Sitemaps:
		return rowsOf[schema.SitemapRow](t, root, tb)
	case schema.Diagnostics:
		return rowsOf[schema.DiagnosticRow](t, root, tb)
	}
	t.Fatalf("no reader for %s", tb)
	return nil
}

func rowsOf[T any](t *testing.T, root string, tb schema.TableName) []string {
	t.Helper()
	files, err := schema.TableFiles(root, tb)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		rows, err := parquet.ReadFile[T](f.Path)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		for _, r := range rows {
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			// The partition is part of a row: a row in another crawl's
			// folder is a wrong row.
			out = append(out, f.Crawl+"\t"+string(b))
		}
	}
	slices.Sort(out)
	return out
}

// snapshot is every analyze table's rows.
func snapshot(t *testing.T, root string) map[schema.TableName][]string {
	t.Helper()
	s := map[schema.TableName][]string{}
	for _, tb := range schema.AnalyzeTables() {
		s[tb] = typedRows(t, root, tb)
	}
	return s
}

func sameRows(t *testing.T, what string, got, want map[schema.TableName][]string) {
	t.Helper()
	for _, tb := range schema.AnalyzeTables() {
		if !slices.Equal(got[tb], want[tb]) {
			t.Errorf("%s: table %s holds %d rows, want the %d from before (or other rows)", what, tb, len(got[tb]), len(want[tb]))
		}
	}
}

// noLeftovers checks that every *.parquet under root is named by a record
// and no hidden temporary file is left.
func noLeftovers(t *testing.T, root string) {
	t.Helper()
	ix, err := schema.ReadIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range walkNames(t, root) {
		base := filepath.Base(f)
		if strings.HasSuffix(base, ".tmp") {
			t.Errorf("temporary file left: %s", f)
		}
		if strings.HasSuffix(base, ".parquet") && !ix.Committed(filepath.Join(root, f)) {
			t.Errorf("%s belongs to no record (or only to an absorbed run)", f)
		}
	}
}

func countFiles(t *testing.T, root string, tb schema.TableName, crawl string) int {
	t.Helper()
	files, err := schema.TableFiles(root, tb)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if f.Crawl == crawl {
			n++
		}
	}
	return n
}

// TestCompact: 12 runs of 60 captures in every analyze table merge into a
// few files per table and crawl; every row is there exactly once (typed
// reads, as multisets, per partition), the runs' records stay, the
// absorbed files are gone, row groups are cut afresh, and the metadata the
// inputs share is kept.
func TestCompact(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	meta := map[string]string{"robotstat.parse_limit": "512000"}
	compactRuns(t, root, 12, 60, meta)
	before := snapshot(t, root)
	filesBefore := countFiles(t, root, schema.Captures, schematest.Crawls[0])
	if filesBefore != 12 {
		t.Fatalf("%d captures files in %s before, want 12", filesBefore, schematest.Crawls[0])
	}
	st, err := os.Stat(filepath.Join(root, "captures"))
	if err != nil {
		t.Fatal(err)
	}
	_ = st
	// A target of about four captures files.
	files, _ := schema.TableFiles(root, schema.Captures)
	info, _ := os.Stat(files[0].Path)
	target := 4*info.Size() + info.Size()/2

	sum, err := schema.Compact(context.Background(), schema.CompactOptions{Dir: root, TargetBytes: target, RowGroupRows: 50, Version: "v-compact"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Runs != 12 || !strings.HasPrefix(sum.RunID, schema.CompactRunPrefix) {
		t.Errorf("summary %+v, want 12 runs absorbed", sum)
	}
	sameRows(t, "after compact", snapshot(t, root), before)
	noLeftovers(t, root)
	after := countFiles(t, root, schema.Captures, schematest.Crawls[0])
	if after < 2 || after > 4 {
		t.Errorf("%d captures files in %s after compact with a target of ~4 inputs, want 3 (2 to 4)", after, schematest.Crawls[0])
	}
	var captures schema.CompactTable
	for _, c := range sum.Tables {
		if c.Table == schema.Captures {
			captures = c
		}
	}
	if captures.FilesBefore != 36 || captures.FilesAfter != 3*after || captures.Rows != int64(len(before[schema.Captures])) {
		t.Errorf("captures summary %+v: want 36 files before, %d after, %d rows", captures, 3*after, len(before[schema.Captures]))
	}

	ix, err := schema.ReadIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		id := fmt.Sprintf("in%03d", i)
		r := ix.Runs[id]
		if r == nil || r.State != schema.RecordDone {
			t.Fatalf("run %s lost its record", id)
		}
		if ix.AbsorbedBy(id) != sum.RunID {
			t.Errorf("run %s absorbed by %q, want %s", id, ix.AbsorbedBy(id), sum.RunID)
		}
		for _, f := range r.Files {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f.Path))); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("absorbed %s still there: %v", f.Path, err)
			}
		}
	}
	for _, f := range ix.Runs[sum.RunID].Files {
		pf := openFile(t, filepath.Join(root, filepath.FromSlash(f.Path)))
		md := map[string]string{}
		for _, kv := range pf.Metadata().KeyValueMetadata {
			md[kv.Key] = kv.Value
		}
		want := map[string]string{schema.MetaVersion: "v-test", schema.MetaSchemaVersion: schema.SchemaVersion, schema.MetaTable: string(f.Table),
			schema.MetaCrawl: f.Crawl, schema.MetaRunID: sum.RunID, schema.MetaOptionPrefix + "robotstat.parse_limit": "512000"}
		for k, v := range want {
			if md[k] != v {
				t.Errorf("%s: metadata %s = %q, want %q", f.Path, k, md[k], v)
			}
		}
		if pf.NumRows() != f.Rows {
			t.Errorf("%s holds %d rows, its record says %d", f.Path, pf.NumRows(), f.Rows)
		}
		// Row groups of 50 rows but the last: cut afresh, not one per input.
		rgs := pf.RowGroups()
		for i, rg := range rgs {
			if i < len(rgs)-1 && rg.NumRows() != 50 {
				t.Errorf("%s: row group %d of %d holds %d rows, want 50", f.Path, i, len(rgs), rg.NumRows())
				break
			}
		}
	}

	// Nothing left to merge: a second compaction does nothing.
	sum2, err := schema.Compact(context.Background(), schema.CompactOptions{Dir: root, TargetBytes: target})
	if err != nil {
		t.Fatal(err)
	}
	if sum2.Runs != 0 || sum2.Left[schema.LeftCompacted] != 12 {
		t.Errorf("second compaction: %+v", sum2)
	}
	sameRows(t, "after a second compact", snapshot(t, root), before)

	// New runs after a compaction are merged by the next one, alone.
	ds := create(t, schema.Options{Dir: root, RunID: "late", Tables: schema.AnalyzeTables(), Metadata: meta, Version: "v-test"})
	late := schematest.Range(5000, 5030)
	if err := schematest.WriteSink(ds, late); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	withLate := snapshot(t, root)
	sum3, err := schema.Compact(context.Background(), schema.CompactOptions{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	if sum3.Runs != 1 || sum3.RunID == sum.RunID {
		t.Errorf("third compaction: %+v", sum3)
	}
	sameRows(t, "after a third compact", snapshot(t, root), withLate)
	noLeftovers(t, root)
}

// TestCompactKeepsApart: files whose metadata differs (other options) are
// never merged together, and failed runs and runs Eligible refuses are
// left as they are.
func TestCompactKeepsApart(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	compactRuns(t, root, 3, 30, map[string]string{"robotstat.parse_limit": "512000"})
	ds := create(t, schema.Options{Dir: root, RunID: "other", Tables: schema.AnalyzeTables(), Metadata: map[string]string{"robotstat.parse_limit": "1000"}, Version: "v-test"})
	if err := schematest.WriteSink(ds, schematest.Range(1000, 1030)); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	ds = create(t, schema.Options{Dir: root, RunID: "broken", Tables: schema.AnalyzeTables(), Version: "v-test"})
	if err := schematest.WriteSink(ds, schematest.Range(2000, 2010)); err != nil {
		t.Fatal(err)
	}
	if err := ds.CommitOutcome(context.Background(), schema.Outcome{Err: errors.New("403")}); err != nil {
		t.Fatal(err)
	}
	ds = create(t, schema.Options{Dir: root, RunID: "sites", Tables: []schema.TableName{schema.Sites}, Version: "v-test"})
	if err := schematest.Write(ds, schematest.Generate(10), 0); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)
	sites := rowsOf[schema.SiteRow](t, root, schema.Sites)
	sum, err := schema.Compact(context.Background(), schema.CompactOptions{Dir: root, Eligible: func(r *schema.Record) bool { return r.RunID != "sites" }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Runs != 4 || sum.Left[schema.LeftFailed] != 1 || sum.Left[schema.LeftIneligible] != 1 {
		t.Errorf("summary %+v: want 4 runs absorbed, the failed one and sites left", sum)
	}
	sameRows(t, "after compact", snapshot(t, root), before)
	if got := rowsOf[schema.SiteRow](t, root, schema.Sites); !slices.Equal(got, sites) {
		t.Errorf("sites changed")
	}
	// In the first crawl: one merged file per option set, and the failed
	// run's own.
	if n := countFiles(t, root, schema.Captures, schematest.Crawls[0]); n != 3 {
		t.Errorf("%d captures files in %s, want 3 (two option sets merged apart, the failed run's)", n, schematest.Crawls[0])
	}
	ix, _ := schema.ReadIndex(root)
	if ix.AbsorbedBy("broken") != "" || ix.AbsorbedBy("sites") != "" {
		t.Errorf("the failed run or sites was absorbed")
	}
	noLeftovers(t, root)
}

// TestCompactFaults: a compaction that stops at any of its steps (an
// injected failure, where a crash would stop it) leaves readers every row
// exactly once; the next compaction finishes the job and leaves nothing
// behind.
func TestCompactFaults(t *testing.T) {
	t.Parallel()
	for _, step := range []string{"written", "renamed", "record", "remove"} {
		for _, at := range []int{1, 3} {
			if step == "record" && at > 1 {
				continue // one record per compaction
			}
			t.Run(fmt.Sprintf("%s_%d", step, at), func(t *testing.T) {
				root := t.TempDir()
				compactRuns(t, root, 4, 20, nil)
				before := snapshot(t, root)
				n := 0
				fault := func(s string) error {
					if s == step {
						if n++; n == at {
							return errors.New("injected")
						}
					}
					return nil
				}
				sum, err := schema.Compact(context.Background(), schema.WithCompactFault(schema.CompactOptions{Dir: root, TargetBytes: 1}, fault))
				switch {
				case step == "remove" && (err != nil || len(sum.Warnings) == 0):
					t.Fatalf("a failure after the commit: %v, warnings %v; want the compaction committed, with a warning", err, sum.Warnings)
				case step != "remove" && err == nil:
					t.Fatal("no error from a failed compaction")
				}
				sameRows(t, "after a failed compaction", snapshot(t, root), before)
				if step != "remove" {
					noLeftovers(t, root)
				}
				if _, err := schema.Compact(context.Background(), schema.CompactOptions{Dir: root, TargetBytes: 1}); err != nil {
					t.Fatal(err)
				}
				sameRows(t, "after the next compaction", snapshot(t, root), before)
				noLeftovers(t, root)
			})
		}
	}
}

// TestCompactConflict: a run committed again after a compaction absorbed
// it (by something that did not check) would have its rows counted twice:
// TableFiles refuses, and so does Compact.
func TestCompactConflict(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	compactRuns(t, root, 2, 10, nil)
	if _, err := schema.Compact(context.Background(), schema.CompactOptions{Dir: root}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Millisecond)
	ds := create(t, schema.Options{Dir: root, RunID: "in001", Tables: schema.AnalyzeTables(), Version: "v-test"})
	if err := schematest.WriteSink(ds, schematest.Range(10, 20)); err != nil {
		t.Fatal(err)
	}
	if err := ds.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := schema.TableFiles(root, schema.Captures); !errors.Is(err, schema.ErrConflict) || !strings.Contains(err.Error(), "in001") {
		t.Errorf("TableFiles: %v, want ErrConflict naming in001", err)
	}
	if _, err := schema.Compact(context.Background(), schema.CompactOptions{Dir: root}); !errors.Is(err, schema.ErrConflict) {
		t.Errorf("Compact: %v, want ErrConflict", err)
	}
}

// compactHelperEnv makes TestCompactKillHelper compact the dataset it
// names in a child process that TestCompactKilled kills.
const compactHelperEnv = "ROBOTSTAT_COMPACT_HELPER"

// TestCompactKillHelper is the child process; it does nothing in a normal
// run. It prints a line at each step of the compaction (written, renamed,
// record, remove), so that the parent can kill it after any of them.
func TestCompactKillHelper(t *testing.T) {
	t.Parallel()
	dir := os.Getenv(compactHelperEnv)
	if dir == "" {
		t.Skip("helper process for TestCompactKilled")
	}
	say := func(step string) error {
		fmt.Println("step", step)
		return nil
	}
	fmt.Println("compacting")
	if _, err := schema.Compact(context.Background(), schema.WithCompactFault(schema.CompactOptions{Dir: dir, TargetBytes: 1}, say)); err != nil {
		t.Fatal(err)
	}
	fmt.Println("compacted")
}

// TestCompactKilled kills a real compaction (SIGKILL: no deferred cleanup
// runs) at random moments: after each kill readers see every row exactly
// once, and the next compaction leaves only committed files. A moment is
// the one right after the child says it passed step k of its steps, k
// drawn at random: the signal lands while the child goes on (inside a
// write, a rename, a removal), as a timed kill would, without the sleeps
// that once stretched every step so that a random time landed anywhere.
func TestCompactKilled(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills child processes")
	}
	// helper runs the child over root; with kill >= 0, kills it right
	// after its step number kill (0: before the first). It returns
	// whether the child finished and how many steps it said.
	helper := func(root string, kill int) (done bool, steps int) {
		cmd := testkit.Self(t, []string{compactHelperEnv + "=" + root}, "-test.run=^TestCompactKillHelper$", "-test.count=1")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		if !sc.Scan() || sc.Text() != "compacting" {
			t.Fatal("helper did not start")
		}
		for {
			if steps == kill {
				cmd.Process.Signal(syscall.SIGKILL)
			}
			if !sc.Scan() {
				break
			}
			if strings.HasPrefix(sc.Text(), "step ") {
				steps++
			}
			done = done || sc.Text() == "compacted"
		}
		cmd.Wait()
		return done, steps
	}
	root := t.TempDir()
	compactRuns(t, root, 5, 20, nil)
	done, total := helper(root, -1)
	if !done || total == 0 {
		t.Fatalf("the helper did not finish (done %v after %d steps)", done, total)
	}
	t.Logf("a whole compaction takes %d steps", total)
	steps := map[string]int{}
	r := rand.New(rand.NewPCG(3, 12))
	for i := range 8 {
		root := t.TempDir()
		compactRuns(t, root, 5, 20, nil)
		before := snapshot(t, root)
		done, _ := helper(root, r.IntN(total+total/4))
		ix, err := schema.ReadIndex(root)
		if err != nil {
			t.Fatal(err)
		}
		state := "before its record"
		for id := range ix.Runs {
			if strings.HasPrefix(id, schema.CompactRunPrefix) {
				state = "after its record"
			}
		}
		if done {
			state = "finished"
		}
		steps[state]++
		t.Logf("kill %d: compaction killed %s", i, state)
		sameRows(t, fmt.Sprintf("kill %d (%s)", i, state), snapshot(t, root), before)
		if _, err := schema.Compact(context.Background(), schema.CompactOptions{Dir: root, TargetBytes: 1}); err != nil {
			t.Fatal(err)
		}
		sameRows(t, fmt.Sprintf("kill %d, compacted again", i), snapshot(t, root), before)
		noLeftovers(t, root)
	}
	if steps["before its record"] == 0 || steps["after its record"]+steps["finished"] == 0 {
		t.Logf("kills landed only %v", steps)
	}
}
