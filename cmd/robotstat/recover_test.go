package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/internal/faultpoint"
	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/schema"
)

// buildFaultBinary builds robotstat with its fault points armed
// (internal/faultpoint): ROBOTSTAT_FAULTPOINT=POINT[:DETAIL] stops the
// process there, for a test to kill it at that very moment.
func buildFaultBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "robotstat")
	if out, err := exec.Command("go", "build", "-tags", "robotstat_faultpoints", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// stopAt starts bin with args and returns once it has reached fault point
// at, where it waits; kill ends it with SIGKILL (no deferred cleanup runs,
// as after an OOM kill), and so does the end of the test.
func stopAt(t *testing.T, bin, at string, args ...string) (pid int, kill func()) {
	t.Helper()
	cmd := testkit.Command(t, bin, args...)
	cmd.Env = append(os.Environ(), faultpoint.Env+"="+at)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill = func() {
		if cmd.ProcessState == nil {
			testkit.Kill(cmd)
		}
	}
	sc := bufio.NewScanner(stderr)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "robotstat: faultpoint "+at) {
			go io.Copy(io.Discard, stderr)
			return cmd.Process.Pid, kill
		}
	}
	kill()
	t.Fatalf("%s never reached fault point %s:\n%s", strings.Join(args, " "), at, strings.Join(lines, "\n"))
	return 0, nil
}

// killAt runs bin with args until it reaches fault point at and kills it
// there.
func killAt(t *testing.T, bin, at string, args ...string) {
	t.Helper()
	_, kill := stopAt(t, bin, at, args...)
	kill()
}

// globRows is what a query that globs TABLE/**/*.parquet (DuckDB's
// read_parquet, say) counts: every *.parquet file, whoever wrote it.
func globRows(t *testing.T, root string, tables ...schema.TableName) map[schema.TableName]int64 {
	t.Helper()
	got := map[schema.TableName]int64{}
	for _, tb := range tables {
		for _, f := range parquetFiles(t, filepath.Join(root, string(tb))) {
			fh, err := os.Open(filepath.Join(root, string(tb), f))
			if err != nil {
				t.Fatal(err)
			}
			st, _ := fh.Stat()
			pf, err := parquet.OpenFile(fh, st.Size())
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			got[tb] += pf.NumRows()
			fh.Close()
		}
	}
	return got
}

// TestKilledCommitRecovered (issue 26.2) runs real robotstat processes
// stopped at fault points against one --out: killed there
// (testKilledCommits), or left running while other commands start
// (testConcurrentWriters).
//
// testKilledCommits: robotstat sites killed between
// the renames of its commit (some new files in place, no record) or after
// its record (the files it replaced not yet removed), and robotstat
// compact killed after putting its merged files in place or after its
// record, leave files that a *.parquet glob reads beside the committed
// ones: sites counted twice, captures twice. Before, no later command
// removed them (sites never swept its own run, analyze only its inputs'
// runs, compact only compactions'). Now the next command that writes into
// the folder (sites, analyze, a shard of analyze, compact) takes its lock
// and rolls the killed commit back or forward: every committed row in
// exactly one visible file, no temporary file left; status says what is
// left until then.
func TestKilledCommitRecovered(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary and kills it")
	}
	bin := buildFaultBinary(t)
	inputs := genCorpus(t, 600, 200)
	t.Run("killed", func(t *testing.T) { testKilledCommits(t, bin, inputs) })
	t.Run("concurrent", func(t *testing.T) { testConcurrentWriters(t, bin, inputs) })
}

func testKilledCommits(t *testing.T, bin string, inputs []string) {
	base := filepath.Join(t.TempDir(), "base")
	if out, err := testkit.Command(t, bin, append([]string{"analyze", "--quiet", "--out", base}, inputs...)...).CombinedOutput(); err != nil {
		t.Fatalf("analyze: %v\n%s", err, out)
	}
	tables := []schema.TableName{schema.Captures, schema.Verdicts, schema.Sites, schema.SiteBots}
	want := globRows(t, base, tables...)
	if want[schema.Sites] == 0 || want[schema.Captures] != 600 {
		t.Fatalf("base: %v", want)
	}
	kills := []struct {
		name, at string
		args     []string
		doubled  schema.TableName // what the glob reads too much of after the kill
	}{
		{"sites_between_renames", "commit:renamed:sites", []string{"sites"}, schema.Sites},
		{"sites_after_record", "commit:recorded:sites", []string{"sites"}, schema.Sites},
		{"compact_between_renames", "compact:renamed", []string{"compact"}, schema.Captures},
		{"compact_after_record", "compact:remove", []string{"compact"}, schema.Captures},
	}
	next := []struct {
		name string
		args func(dir string) []string
	}{
		{"sites", func(dir string) []string { return []string{"sites", dir} }},
		{"analyze", func(dir string) []string { return append([]string{"analyze", "--quiet", "--out", dir}, inputs...) }},
		{"analyze_shard", func(dir string) []string {
			return append([]string{"analyze", "--quiet", "--shard", "0/2", "--out", dir}, inputs...)
		}},
		{"compact", func(dir string) []string { return []string{"compact", dir} }},
	}
	for _, k := range kills {
		t.Run(k.name, func(t *testing.T) {
			killed := filepath.Join(t.TempDir(), "killed")
			if err := os.CopyFS(killed, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			killAt(t, bin, k.at, append(k.args, killed)...)
			if got := globRows(t, killed, k.doubled); got[k.doubled] <= want[k.doubled] {
				t.Fatalf("after the kill a glob reads %d %s rows, the dataset %d: the kill left nothing to recover", got[k.doubled], k.doubled, want[k.doubled])
			}
			stdout, _, code := run(t, "", "status", killed)
			if code != 0 || !strings.Contains(stdout, "leftovers: ") || !strings.Contains(stdout, "the next robotstat analyze, sites or compact into") {
				t.Errorf("status after the kill: exit %d\n%s", code, stdout)
			}
			if _, stderr, code := run(t, "", "report", killed); code != 0 || !strings.Contains(stderr, "a query that globs *.parquet counts") {
				t.Errorf("report after the kill: exit %d\n%s", code, stderr)
			}
			for _, n := range next {
				t.Run(n.name, func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), "out")
					if err := os.CopyFS(dir, os.DirFS(killed)); err != nil {
						t.Fatal(err)
					}
					args := n.args(dir)
					_, stderr, code := run(t, "", args...)
					if code != 0 {
						t.Fatalf("%s: exit %d\n%s", strings.Join(args, " "), code, stderr)
					}
					if got := globRows(t, dir, tables...); !mapsEqual(got, want) {
						t.Errorf("after %s a glob reads %v, want %v", n.name, got, want)
					}
					left, err := schema.FindLeftovers(dir)
					if err != nil {
						t.Fatal(err)
					}
					if left.Temps+left.Visible() != 0 {
						t.Errorf("after %s: left %+v", n.name, left)
					}
					if stdout, _, _ := run(t, "", "status", dir); strings.Contains(stdout, "leftovers") {
						t.Errorf("status after %s:\n%s", n.name, stdout)
					}
					if !strings.Contains(stderr, "a killed robotstat left in "+dir) {
						t.Errorf("%s did not say what it removed:\n%s", n.name, stderr)
					}
				})
			}
		})
	}
}

func mapsEqual(a, b map[schema.TableName]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// testConcurrentWriters (issue 26.2): a second analyze into the --out of
// a running one used to sweep the first one's temporary files away (the
// first then died with "rename ...: no such file"). Now every writer
// takes --out's lock: an unsharded analyze, sites and compact exclusive,
// the tasks of a sharded analyze shared, so a second writer is refused at
// once with who holds the lock (exit 2), shards run side by side, and
// once the holder is killed the next writer recovers what it left.
func testConcurrentWriters(t *testing.T, bin string, inputs []string) {
	out := filepath.Join(t.TempDir(), "out")
	analyze := func(extra ...string) []string {
		return append(append([]string{"analyze", "--quiet"}, extra...), append([]string{"--out", out}, inputs...)...)
	}
	// The first analyze, stopped between the renames of its first input.
	pid, kill := stopAt(t, bin, "commit:renamed", analyze()...)
	holder := "held by process " + itoa(pid)
	for _, args := range [][]string{analyze(), analyze("--shard", "1/2"), {"sites", out}, {"compact", out}} {
		_, stderr, code := run(t, "", args...)
		if code != ExitUsage || !strings.Contains(stderr, "another robotstat is writing into this output folder ("+holder) || !strings.Contains(stderr, "wait until it is done") {
			t.Errorf("%s beside a running analyze: exit %d\n%s", args[0], code, stderr)
		}
	}
	kill()
	if _, stderr, code := run(t, "", analyze()...); code != 0 || !strings.Contains(stderr, "a killed robotstat left in") {
		t.Fatalf("analyze after the kill: exit %d\n%s", code, stderr)
	}
	want := globRows(t, out, schema.Captures, schema.Sites)
	if want[schema.Captures] != 600 {
		t.Fatalf("after the kill and a rerun a glob reads %v", want)
	}

	// Shards share --out: a second shard runs beside a stopped one, but
	// not sites, compact or an unsharded analyze.
	redo := func(shard string) []string { return analyze("--redo", "--shard", shard) }
	_, kill = stopAt(t, bin, "commit:renamed", redo("0/2")...)
	if _, stderr, code := run(t, "", redo("1/2")...); code != 0 {
		t.Errorf("a second shard beside a running one: exit %d\n%s", code, stderr)
	}
	for _, args := range [][]string{analyze(), {"sites", out}, {"compact", out}} {
		_, stderr, code := run(t, "", args...)
		if code != ExitUsage || !strings.Contains(stderr, "a sharded robotstat analyze holds it") {
			t.Errorf("%s beside a running shard: exit %d\n%s", args[0], code, stderr)
		}
	}
	kill()
	if _, stderr, code := run(t, "", redo("0/2")...); code != 0 {
		t.Fatalf("the killed shard again: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := run(t, "", "sites", out); code != 0 {
		t.Fatalf("sites: exit %d\n%s", code, stderr)
	}
	if got := globRows(t, out, schema.Captures, schema.Sites); !mapsEqual(got, want) {
		t.Errorf("after the shards a glob reads %v, want %v", got, want)
	}
	if left, err := schema.FindLeftovers(out); err != nil || left.Temps+left.Visible() != 0 {
		t.Errorf("left %+v, %v", left, err)
	}
}
