package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/robotstat/robotstat/schema"
)

const sharedWARC = "../../../shared/corpus/warc"

// parquetFiles lists the *.parquet files under root, relative to it.
func parquetFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// commitPart matches the commit's part of a table file's name
// (part-<run>.<commit>.parquet), which changes on every commit.
var commitPart = regexp.MustCompile(`\.[0-9a-f]{8}((-[0-9]+)?\.parquet)$`)

// plainNames returns names without their commit part, so that two runs'
// files compare; a stale file of an earlier commit shows as a duplicate.
func plainNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = commitPart.ReplaceAllString(n, "$1")
	}
	return strings.Join(out, "|")
}

func readCaptures(t *testing.T, root string) []schema.CaptureRow {
	t.Helper()
	var rows []schema.CaptureRow
	for _, f := range parquetFiles(t, filepath.Join(root, "captures")) {
		r, err := parquet.ReadFile[schema.CaptureRow](filepath.Join(root, "captures", f))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r...)
	}
	return rows
}

func TestAnalyzeSample(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := run(t, "", "analyze", "--out", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var res analyzeResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	// 38 real Heritrix responses and 19 made-up ones (scripts/mksample).
	if !res.Sample || res.Captures != 57 || res.Errors != 0 || res.Rows["captures"] != 57 {
		t.Errorf("summary = %+v", res)
	}
	if res.Outcomes["parsed"] != 47 || res.Outcomes["unavailable"] != 8 || res.Outcomes["unreachable"] != 1 || res.Outcomes["redirect"] != 1 {
		t.Errorf("outcomes = %v", res.Outcomes)
	}
	for _, s := range []string{"read the embedded sample: 1 file, 57 captures", "57 captures: 47 parsed", "wrote " + out, "next: robotstat report"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
	if strings.Contains(stderr, "100%") {
		t.Errorf("progress drawn on a non-terminal:\n%s", stderr)
	}
	files := parquetFiles(t, out)
	var tables []string
	for _, f := range files {
		tables = append(tables, strings.Split(f, string(filepath.Separator))[0])
		// site_history spans crawls: its crawl is NULL, hence the default
		// partition.
		if !strings.Contains(f, "crawl=robotstat-sample") && !strings.HasPrefix(f, filepath.Join("site_history", "crawl="+schema.DefaultPartition, "part-sites.")) {
			t.Errorf("file %s not in the sample's crawl partition", f)
		}
	}
	if got := strings.Join(tables, ","); got != "agents,captures,directives,domains,errors,groups,signals,site_bots,sites,verdicts" {
		t.Errorf("tables = %s (files %v)", got, files)
	}
	rows := readCaptures(t, out)
	byHost := map[string]schema.CaptureRow{}
	for _, r := range rows {
		byHost[r.Host] = r
	}
	for host, want := range map[string]string{
		"managed-cdn.example": "cloudflare-managed", "blog-wp.example": "wordpress", "shop-front.example": "shopify",
	} {
		if byHost[host].Template != want {
			t.Errorf("%s template = %q, want %q", host, byHost[host].Template, want)
		}
	}
	if h := byHost["huge-file.example"]; !h.Over500KiB || h.ParsedBytes != 512000 || h.BodyBytes <= 512000 {
		t.Errorf("huge file: %+v", h)
	}
	// Running again replaces: the same files, the same rows.
	if _, stderr, code := run(t, "", "analyze", "--out", out); code != 0 {
		t.Fatalf("rerun: exit %d\n%s", code, stderr)
	}
	if again := parquetFiles(t, out); plainNames(again) != plainNames(files) {
		t.Errorf("rerun files %v, first run %v", again, files)
	}
	if n := len(readCaptures(t, out)); n != 57 {
		t.Errorf("after rerun %d captures, want 57", n)
	}
}

func TestAnalyzeRealAndBrokenInputs(t *testing.T) {
	t.Parallel()
	heritrix := filepath.Join(sharedWARC, "real", "heritrix-2008-blackbook.warc.gz")
	broken := filepath.Join(sharedWARC, "broken", "clipped-truncated-member.warc.gz")
	if _, err := os.Stat(heritrix); err != nil {
		t.Skip("../shared corpus not present")
	}
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := run(t, "", "analyze", "--out", out, "--crawl", "heritrix-2008", "--tables", "all", heritrix)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	rows := readCaptures(t, out)
	statuses := map[int32]int{}
	for _, r := range rows {
		statuses[r.HTTPStatus]++
		if r.Crawl != "heritrix-2008" {
			t.Errorf("crawl %q", r.Crawl)
		}
	}
	// The corpus README: 38 robots.txt responses, 33 of them 200, 5 404.
	if len(rows) != 38 || statuses[200] != 33 || statuses[404] != 5 {
		t.Errorf("%d captures, statuses %v", len(rows), statuses)
	}
	for _, table := range []string{"rules", "sitemaps", "diagnostics"} {
		if len(parquetFiles(t, filepath.Join(out, table))) != 1 {
			t.Errorf("--tables all wrote no %s file", table)
		}
	}

	// A broken input: the run finishes, writes what it read and exits 3.
	out2 := filepath.Join(t.TempDir(), "out")
	_, stderr, code = run(t, "", "analyze", "--out", out2, heritrix, broken)
	if code != ExitInputErrors {
		t.Errorf("broken input: exit %d, want %d\n%s", code, ExitInputErrors, stderr)
	}
	if !strings.Contains(stderr, "error") || len(readCaptures(t, out2)) < 38 {
		t.Errorf("broken input: stderr %s, %d captures", stderr, len(readCaptures(t, out2)))
	}
	// --strict stops at the first error and writes nothing.
	out3 := filepath.Join(t.TempDir(), "out")
	_, stderr, code = run(t, "", "analyze", "--out", out3, "--strict", "--workers", "1", broken)
	if code != ExitStrict || !strings.Contains(stderr, "--strict") {
		t.Errorf("--strict: exit %d\n%s", code, stderr)
	}
	if f := parquetFiles(t, out3); len(f) != 0 {
		t.Errorf("--strict left files %v", f)
	}
}

func TestAnalyzeUsageAndEnvironmentErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"bad_tables", []string{"analyze", "--out", dir, "--tables", "captures,nope"}, ExitUsage, "Try: robotstat analyze --help"},
		{"zero_workers", []string{"analyze", "--out", dir, "--workers", "0"}, ExitUsage, "--workers"},
		{"bad_shard", []string{"analyze", "--out", dir, "--shard", "3/2"}, ExitUsage, "--shard"},
		{"small_parse_limit", []string{"analyze", "--out", dir, "--parse-limit", "1000"}, ExitUsage, "500 KiB"},
		{"bad_fields", []string{"analyze", "--out", dir, "--fields", "url"}, ExitUsage, "--fields"},
		{"missing_input", []string{"analyze", "--out", dir, filepath.Join(dir, "absent.warc.gz")}, ExitUsage, "absent.warc.gz"},
		{"missing_sites", []string{"analyze", "--out", dir, "--sites", filepath.Join(dir, "absent.csv")}, ExitUsage, "--sites"},
		{"out_is_a_file", []string{"analyze", "--out", writeRobots(t, "x")}, ExitUsage, "output"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := run(t, "", c.args...)
			if code != c.code || !strings.Contains(stderr, c.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, c.code, c.stderr)
			}
		})
	}
	if f := parquetFiles(t, dir); len(f) != 0 {
		t.Errorf("failed runs left %v", f)
	}
}

func TestAnalyzeInterrupted(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr bytes.Buffer
	m := &Main{Stdout: &bytes.Buffer{}, Stderr: &stderr, retryDelays: testRetryDelays}
	err := m.Run(ctx, []string{"analyze", "--out", out})
	if ExitCode(err) != ExitInterrupted {
		t.Errorf("exit %d (%v), want %d", ExitCode(err), err, ExitInterrupted)
	}
	if f := parquetFiles(t, out); len(f) != 0 {
		t.Errorf("interrupted run left %v", f)
	}
}

// TestAnalyzeStaysInsideOut gives crawl names that try to climb out of
// --out; every file must land below it.
func TestAnalyzeStaysInsideOut(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	out := filepath.Join(base, "out")
	_, stderr, code := run(t, "", "analyze", "--out", out, "--crawl", "../../escaped")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(p, out+string(filepath.Separator)) {
			t.Errorf("file outside --out: %s", p)
		}
		return nil
	})
	if rows := readCaptures(t, out); len(rows) != 57 || rows[0].Crawl != "../../escaped" {
		t.Errorf("%d rows, crawl %q", len(rows), rows[0].Crawl)
	}
}

func TestAnalyzeSites(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sites := filepath.Join(dir, "tranco.csv")
	os.WriteFile(sites, []byte("1,news-stacked.example\n2,moved.example\n3,archive.org\n"), 0o644)
	out := filepath.Join(dir, "out")
	if _, stderr, code := run(t, "", "analyze", "--out", out, "--sites", sites); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	ranks := map[string]int64{}
	for _, r := range readCaptures(t, out) {
		if r.Rank != 0 {
			ranks[r.Host] = r.Rank
		}
	}
	// By host, and by registered domain for www.moved.example and
	// www.archive.org.
	if ranks["news-stacked.example"] != 1 || ranks["www.moved.example"] != 2 || ranks["moved.example"] != 2 || ranks["www.archive.org"] != 3 || ranks["blog-wp.example"] != 0 {
		t.Errorf("ranks = %v", ranks)
	}
}

// TestAnalyzeShardsProcesses runs three real processes, one shard each, into
// one --out: together they must write every capture exactly once.
func TestAnalyzeShardsProcesses(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs three robotstat processes")
	}
	inputs, _ := filepath.Glob(filepath.Join(sharedWARC, "real", "*.warc.gz"))
	if len(inputs) < 3 {
		t.Skip("../shared corpus not present")
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if out, err := robotstatCmd(t, append([]string{"analyze", "--quiet", "--crawl", "c", "--out", whole}, inputs...)...).CombinedOutput(); err != nil {
		t.Fatalf("whole run: %v\n%s", err, out)
	}
	sharded := filepath.Join(t.TempDir(), "sharded")
	var procs []*exec.Cmd
	for i := range 3 {
		cmd := robotstatCmd(t, append([]string{"analyze", "--quiet", "--crawl", "c", "--out", sharded, "--shard", "auto"}, inputs...)...)
		cmd.Env = append(cmd.Env, "SLURM_ARRAY_TASK_ID="+string(rune('0'+i)), "SLURM_ARRAY_TASK_COUNT=3")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
	}
	for _, p := range procs {
		if err := p.Wait(); err != nil {
			t.Fatalf("shard process: %v\n%s", err, p.Stderr)
		}
	}
	ids := func(root string) []string {
		var s []string
		for _, r := range readCaptures(t, root) {
			s = append(s, r.CaptureID)
		}
		sort.Strings(s)
		return s
	}
	w, s := ids(whole), ids(sharded)
	if len(w) == 0 || strings.Join(w, ",") != strings.Join(s, ",") {
		t.Errorf("sharded runs wrote %d captures, the whole run %d (or different ones)", len(s), len(w))
	}
	// Every input is committed once, by its shard, under the same run id
	// as in the whole run: a record per input in both, the same ids.
	runs := func(root string) []string {
		ix, err := schema.ReadIndex(root)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for id, r := range ix.Runs {
			if id != "sites" {
				ids = append(ids, id+" "+r.Input)
			}
		}
		sort.Strings(ids)
		return ids
	}
	if a, b := runs(whole), runs(sharded); len(a) != len(inputs) || strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("records of the whole run %v, of the shards %v; want one per input (%d)", a, b, len(inputs))
	}
}

// TestAnalyzeProfiles: --cpuprofile and --memprofile (used by scripts/bench
// profile) write profiles go tool pprof can read.
func TestAnalyzeProfiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	mutex, block := filepath.Join(dir, "mutex.prof"), filepath.Join(dir, "block.prof")
	_, stderr, code := run(t, "", "analyze", "--out", filepath.Join(dir, "out"), "--cpuprofile", cpu, "--memprofile", mem,
		"--mutexprofile", mutex, "--blockprofile", block)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, p := range []string{cpu, mem, mutex, block} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if b, err := io.ReadAll(zr); err != nil || len(b) == 0 {
			t.Errorf("%s: %d bytes, %v", p, len(b), err)
		}
		f.Close()
	}
}
