package runs_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
)

// childEnv makes the test binary a child that runs Analyze (TestMain):
// the dataset folder, then the inputs, separated by newlines.
const childEnv = "RUNS_TEST_CHILD"

func TestMain(m *testing.M) {
	if v := os.Getenv(childEnv); v != "" {
		args := strings.Split(v, "\n")
		if _, err := runs.Analyze(context.Background(), config(args[0]), args[1:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestAnalyzeKilled kills a real process running Analyze with SIGKILL
// once it has committed a random number of units (a commit of the next
// may be under way), up to three times, then runs it to the end: the rows
// are those of a run never killed, every file is named by a record, and
// nothing a killed run left remains.
func TestAnalyzeKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs and kills child processes")
	}
	// 12 units: the fixture's four files, three copies each.
	var inputs []string
	src := t.TempDir()
	for i, f := range fixtures(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for c := range 3 {
			p := filepath.Join(src, fmt.Sprintf("copy%d", c), "robotstxt", fmt.Sprintf("in-%d.warc.gz", i))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, p)
		}
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, err := runs.Analyze(context.Background(), config(whole), inputs); err != nil {
		t.Fatal(err)
	}
	want := tables(t, whole)

	r := rand.New(rand.NewPCG(24, 1))
	for round := range 3 {
		dir := filepath.Join(t.TempDir(), "killed")
		for k := range 1 + round {
			// a record more than now, up to all but the last
			have := len(records(t, dir))
			if have >= len(inputs)-1 {
				break
			}
			at := have + 1 + r.IntN(len(inputs)-1-have)
			cmd := testkit.Self(t, []string{childEnv + "=" + strings.Join(append([]string{dir}, inputs...), "\n")})
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			n, err := waitRecords(dir, at, done)
			if err != nil {
				t.Fatalf("round %d kill %d: %v", round, k, err)
			}
			cmd.Process.Signal(syscall.SIGKILL)
			t.Logf("round %d kill %d after %d records (waited for %d): %v", round, k, n, at, <-done)
		}
		res, err := runs.Analyze(context.Background(), config(dir), inputs)
		if err != nil {
			t.Fatalf("round %d: rerun: %v", round, err)
		}
		if res.Committed+res.Skipped != len(inputs) {
			t.Errorf("round %d: rerun committed %d and skipped %d of %d units", round, res.Committed, res.Skipped, len(inputs))
		}
		sameTables(t, fmt.Sprintf("round %d", round), tables(t, dir), want)
		ix, err := schema.ReadIndex(dir)
		if err != nil {
			t.Fatal(err)
		}
		for p := range files(t, dir) {
			if strings.HasSuffix(p, ".parquet") && !ix.Committed(filepath.Join(dir, p)) {
				t.Errorf("round %d: %s belongs to no record", round, p)
			}
		}
		if left, err := schema.FindLeftovers(dir); err != nil || left.Temps+left.Visible() != 0 {
			t.Errorf("round %d: leftovers %+v (%v)", round, left, err)
		}
	}
}

// waitRecords waits until dir holds at least n completion records, or the
// child ends (done), for a minute at most, and returns how many it holds.
func waitRecords(dir string, n int, done <-chan error) (int, error) {
	recs := filepath.Join(dir, filepath.FromSlash(schema.RecordDir))
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		entries, _ := os.ReadDir(recs)
		got := 0
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
				got++
			}
		}
		if got >= n {
			return got, nil
		}
		select {
		case err := <-done:
			return got, fmt.Errorf("the child ended before %d records (%d): %v", n, got, err)
		case <-time.After(2 * time.Millisecond):
		}
	}
	return 0, fmt.Errorf("no %d records in a minute", n)
}
