package main

import (
	"bytes"
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotstat/robotstat/internal/sample"
	"github.com/robotstat/robotstat/schema"
)

// avuimDir holds real robots.txt files named <host>-robots.txt (ISC, see
// its README.md).
const avuimDir = "../../testdata/avuim"

// copyTree writes files (relative path -> content) under root.
func copyTree(t *testing.T, root string, files map[string][]byte) {
	t.Helper()
	for rel, b := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// avuimCrawls lays the avuim files out as two crawl folders of the same
// hosts, as a researcher keeps monthly mirrors: every file name occurs
// twice.
func avuimCrawls(t *testing.T) (map[string][]byte, int) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(avuimDir, "*-robots.txt"))
	if len(names) < 10 {
		t.Fatalf("%d avuim files", len(names))
	}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files["2025-01/"+filepath.Base(n)] = b
		files["2025-02/"+filepath.Base(n)] = b
	}
	return files, len(names)
}

// TestAnalyzeFolderTreeCaptureIDs: issue 10 item 1. Files of the same name
// in two folders were given one capture_id (the base name and offset 0), so
// joins on capture_id doubled. Each must have its own, named by its path
// below the folder given, the same wherever the tree lies and whatever
// --workers is.
func TestAnalyzeFolderTreeCaptureIDs(t *testing.T) {
	t.Parallel()
	files, n := avuimCrawls(t)
	base := t.TempDir()
	treeA, treeB := filepath.Join(base, "here", "mirror"), filepath.Join(base, "elsewhere", "copy")
	copyTree(t, treeA, files)
	copyTree(t, treeB, files)
	ids := func(tree, out, workers string) map[string]string {
		t.Helper()
		_, stderr, code := run(t, "", "analyze", "--quiet", "--workers", workers, "--out", out, tree)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		bySource := map[string]string{}
		distinct := map[string]bool{}
		for _, r := range readCaptures(t, out) {
			bySource[r.Source] = r.CaptureID
			distinct[r.CaptureID] = true
		}
		if len(distinct) != 2*n || len(bySource) != 2*n {
			t.Errorf("%d captures under %s: %d distinct ids, %d distinct sources; want %d", 2*n, tree, len(distinct), len(bySource), 2*n)
		}
		return bySource
	}
	a := ids(treeA, filepath.Join(base, "outA"), "1")
	b := ids(treeB, filepath.Join(base, "outB"), "2")
	for rel := range files {
		if a[rel] == "" {
			t.Errorf("no capture with source %q (sources: %v)", rel, sortedKeys(a))
		} else if a[rel] != b[rel] {
			t.Errorf("%s: id %s in one place, %s in another", rel, a[rel], b[rel])
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// TestAnalyzeMirrorTree: issue 10 item 2, its reproduction. A wget-style
// mirror's robots.txt takes its host from its folder (it was host
// "robots", twice with one id); .git is not walked (it gave host "abc");
// README.md is not a site but a skip the summary reports.
func TestAnalyzeMirrorTree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	copyTree(t, in, map[string][]byte{
		"a/example.org/robots.txt": []byte("User-agent: *\nDisallow: /x\n"),
		"b/example.org/robots.txt": []byte("User-agent: GPTBot\nDisallow: /\n"),
		".git/objects/abc":         []byte("x\n"),
		"c/README.md":              []byte("hi\n"),
		"c/example.com":            []byte("User-agent: *\nDisallow: /x\n"),
	})
	out := filepath.Join(dir, "out")
	_, stderr, code := run(t, "", "analyze", "--quiet", "--out", out, in)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var got []string
	ids := map[string]bool{}
	for _, r := range readCaptures(t, out) {
		got = append(got, r.Host+" "+r.Source)
		ids[r.CaptureID] = true
	}
	slices.Sort(got)
	want := []string{"example.com c/example.com", "example.org a/example.org/robots.txt", "example.org b/example.org/robots.txt"}
	if !slices.Equal(got, want) || len(ids) != len(want) {
		t.Errorf("captures (host source) %q with %d ids, want %q with %d", got, len(ids), want, len(want))
	}
	if !strings.Contains(stderr, "1 file not read: its name is not a host name (c/README.md)") || strings.Contains(stderr, ".git") {
		t.Errorf("stderr does not report the README.md skip alone:\n%s", stderr)
	}
	// A file named alone whose name is no host is an error before anything
	// is read, said once.
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("User-agent: *\n"), 0o644)
	_, stderr, code = run(t, "", "analyze", "--quiet", "--out", filepath.Join(dir, "out2"), notes)
	if code != ExitUsage || !strings.Contains(stderr, "notes.txt: not a WARC") || strings.Contains(stderr, "0 files") || dirExists(filepath.Join(dir, "out2")) {
		t.Errorf("analyze notes.txt: exit %d, out2 left %v, stderr:\n%s", code, dirExists(filepath.Join(dir, "out2")), stderr)
	}
}

// TestAnalyzeGeneralWARC: issue 10 item 5. A general Common Crawl WARC
// (not the robotstxt subset) holds no /robots.txt response: the run said
// "0 captures" and then failed building sites on the missing table. It
// must say how many responses it read past and why, and point to
// --responses all.
func TestAnalyzeGeneralWARC(t *testing.T) {
	t.Parallel()
	warc := filepath.Join(sharedWARC, "real", "cc-main-2020-34-first50.warc.gz")
	if _, err := os.Stat(warc); err != nil {
		t.Skip("../shared corpus not present")
	}
	dir := t.TempDir()
	_, stderr, code := run(t, "", "analyze", "--quiet", "--out", filepath.Join(dir, "out"), warc)
	// A run that read no capture does not succeed (issue 25.3).
	if code != ExitNothingRead || !strings.Contains(stderr, "16 WARC responses read past: their targets are not /robots.txt") ||
		!strings.Contains(stderr, "--responses all") || !strings.Contains(stderr, "analyze read nothing: the 1 input read held no robots.txt capture") ||
		strings.Contains(stderr, "next: robotstat report") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, code = run(t, "", "analyze", "--quiet", "--responses", "all", "--out", filepath.Join(dir, "all"), warc)
	if n := len(readCaptures(t, filepath.Join(dir, "all"))); code != 0 || n != 16 || strings.Contains(stderr, "read past") {
		t.Errorf("--responses all: exit %d, %d captures, stderr:\n%s", code, n, stderr)
	}
}

// TestAnalyzeDumpColumns: issue 10 item 5. --fields host= was refused as
// an unknown field although the README offers a host column; a CSV whose
// header names neither column was one anonymous row error.
func TestAnalyzeDumpColumns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	csv := filepath.Join(dir, "domains.csv")
	os.WriteFile(csv, []byte("domain,body\nwww.tagesschau.de,\"User-agent: *\nDisallow: /\"\n"), 0o644)
	_, stderr, code := run(t, "", "analyze", "--quiet", "--fields", "host=domain", "--out", filepath.Join(dir, "out"), csv)
	rows := readCaptures(t, filepath.Join(dir, "out"))
	if code != 0 || len(rows) != 1 || rows[0].Host != "www.tagesschau.de" {
		t.Errorf("--fields host=domain: exit %d, %d rows\n%s", code, len(rows), stderr)
	}
	_, stderr, code = run(t, "", "analyze", "--quiet", "--out", filepath.Join(dir, "out2"), csv)
	if code != ExitNothingRead || !strings.Contains(stderr, `names no url or host column (looked for "url" and "host"; it has "domain", "body")`) {
		t.Errorf("no url column: exit %d\n%s", code, stderr)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	_, stderr, code = run(t, "", "analyze", "--quiet", "--out", filepath.Join(dir, "out3"), empty)
	if code != ExitNothingRead || !strings.Contains(stderr, "1 input held no record or row at all: empty.jsonl") {
		t.Errorf("empty input: exit %d\n%s", code, stderr)
	}
}

// dirList lists every folder and file under root, relative to it.
func dirList(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != root {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// TestAnalyzeFailureLeavesNothing: issue 10 item 6. A run that fails
// (--strict, Ctrl-C, an input that is not there) left empty table folders
// under --out, and a missing input printed "0 files, 0 captures" before
// its error. What the run created is removed, and only that: an earlier
// run's data, and folders that were there before, stay.
func TestAnalyzeFailureLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A dump whose second row breaks --strict after the first row was
	// analysed (so that table folders had been made).
	csv := filepath.Join(dir, "rows.csv")
	os.WriteFile(csv, []byte("url,body,time\nhttps://www.tagesschau.de/robots.txt,\"User-agent: *\nDisallow: /x\",2025-08-30T10:00:00Z\nhttps://b.example/robots.txt,x,May 5\n"), 0o644)
	t.Run("strict_new_out", func(t *testing.T) {
		out := filepath.Join(dir, "strict")
		_, stderr, code := run(t, "", "analyze", "--quiet", "--strict", "--out", out, csv)
		if code != ExitStrict || dirExists(out) {
			t.Errorf("exit %d, left %v\n%s", code, dirList(t, out), stderr)
		}
	})
	t.Run("strict_existing_out", func(t *testing.T) {
		out := filepath.Join(dir, "kept")
		good := filepath.Join(dir, "good.csv")
		os.WriteFile(good, []byte("url,body\nhttps://www.garmin.com/robots.txt,\"User-agent: *\nDisallow: /\"\n"), 0o644)
		if _, stderr, code := run(t, "", "analyze", "--quiet", "--crawl", "earlier", "--out", out, good); code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		os.MkdirAll(filepath.Join(out, "notes"), 0o755) // someone's empty folder
		before := dirList(t, out)
		_, stderr, code := run(t, "", "analyze", "--quiet", "--strict", "--crawl", "later", "--out", out, csv)
		if after := dirList(t, out); code != ExitStrict || !slices.Equal(before, after) {
			t.Errorf("exit %d; before %v\nafter %v\n%s", code, before, after, stderr)
		}
	})
	t.Run("missing_input", func(t *testing.T) {
		out := filepath.Join(dir, "missing")
		_, stderr, code := run(t, "", "analyze", "--quiet", "--out", out, filepath.Join(dir, "absent.warc.gz"))
		if code != ExitUsage || strings.Count(stderr, "absent.warc.gz") != 1 || strings.Contains(stderr, "0 files") || dirExists(out) {
			t.Errorf("exit %d, out left %v, stderr:\n%s", code, dirExists(out), stderr)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		out := filepath.Join(dir, "interrupted")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stderr bytes.Buffer
		m := &Main{Stdout: &bytes.Buffer{}, Stderr: &stderr, retryDelays: testRetryDelays}
		err := m.Run(ctx, []string{"analyze", "--quiet", "--out", out, csv})
		if ExitCode(err) != ExitInterrupted || dirExists(out) {
			t.Errorf("exit %d (%v), left %v\n%s", ExitCode(err), err, dirList(t, out), stderr.String())
		}
	})
}

// TestAnalyzeInterruptedMidRun: issue 10 item 6, Ctrl-C while a download
// stalls after some captures were analysed (their table folders made):
// the run's folders go, and a rerun finds nothing to skip.
func TestAnalyzeInterruptedMidRun(t *testing.T) {
	t.Parallel()
	sent := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(2*len(sample.WARC())))
		w.Write(sample.WARC()) // the embedded sample's 57 captures, then a stall
		w.(http.Flusher).Flush()
		once.Do(func() { close(sent) })
		<-r.Context().Done()
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr bytes.Buffer
	m := &Main{Stdout: &bytes.Buffer{}, Stderr: &stderr, retryDelays: testRetryDelays}
	done := make(chan error, 1)
	go func() {
		done <- m.Run(ctx, []string{"analyze", "--quiet", "--workers", "1", "--out", out, srv.URL + "/sample.warc.gz"})
	}()
	// Interrupt once the run has taken --out and the server has sent the
	// whole sample: mid-input, its rows read or being read. (Since issue 23 a
	// worker's rows stay in its own writer until a row group fills or the
	// input commits, so 57 captures make no table folder before the commit;
	// files a killed or interrupted writer left mid-file are the kill tests'
	// and schema's Abort tests' subject.)
	select {
	case <-sent:
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatalf("the sample was not fetched in 30 s\n%s", stderr.String())
	}
	for deadline := time.Now().Add(10 * time.Second); !dirExists(filepath.Join(out, "_robotstat")); {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no _robotstat folder after 10 s: %v\n%s", dirList(t, out), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	err := <-done
	if ExitCode(err) != ExitInterrupted || dirExists(out) {
		t.Errorf("exit %d (%v), left %v\n%s", ExitCode(err), err, dirList(t, out), stderr.String())
	}
}

// TestAnalyzeErrorsJoinCaptures: an errors row names its file as
// captures.source does, so that the errors of a[...]/x.warc.gz and
// b/.../x.warc.gz (one real broken file in two crawl folders) are told
// apart and join their captures.
func TestAnalyzeErrorsJoinCaptures(t *testing.T) {
	t.Parallel()
	broken, err := os.ReadFile(filepath.Join(sharedWARC, "broken", "clipped-truncated-member.warc.gz"))
	if err != nil {
		t.Skip("../shared corpus not present")
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join(dir, "in"), map[string][]byte{
		"2025-01/clipped.warc.gz": broken,
		"2025-02/clipped.warc.gz": broken,
	})
	out := filepath.Join(dir, "out")
	if _, stderr, code := run(t, "", "analyze", "--quiet", "--responses", "all", "--out", out, filepath.Join(dir, "in")); code != ExitInputErrors {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	sources := map[string]bool{}
	for _, r := range readCaptures(t, out) {
		sources[r.Source] = true
	}
	errs := map[string]int{}
	for _, r := range readTable[schema.ErrorRow](t, out, schema.Errors) {
		errs[r.Source]++
	}
	if len(errs) != 2 || len(sources) != 2 {
		t.Fatalf("errors by source %v, capture sources %v; want the two files each", errs, sources)
	}
	for s := range errs {
		if !sources[s] {
			t.Errorf("errors source %q is no captures source (%v)", s, sortedKeys(sources))
		}
	}
}

// TestAnalyzeReadNothing (issue 25.3): an empty folder exited 0 and said
// "next: robotstat report" for a folder never written; an input that is no
// WARC wrote empty files of every table under
// crawl=__HIVE_DEFAULT_PARTITION__. A run that read nothing exits
// ExitNothingRead saying why, writes no table, and points at no report;
// an unreadable input's errors go under the run's crawl; the report of
// one crawl and robotstat sites agree on site_history.
func TestAnalyzeReadNothing(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	junk := filepath.Join(dir, "junk.warc.gz")
	os.WriteFile(junk, []byte("\x1f\x8b this is no gzip, no WARC"), 0o644)
	tables := func(out string) []string {
		var got []string
		for _, p := range dirList(t, out) {
			if !strings.HasPrefix(p, "_robotstat") {
				got = append(got, p)
			}
		}
		return got
	}
	for _, tc := range []struct {
		name, want string
		args       []string
	}{
		{"empty_folder", "analyze read nothing: " + empty + " holds no input to read", []string{empty}},
		{"no_capture", "analyze read nothing: the 1 input read held no robots.txt capture", []string{junk}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--out", out}, tc.args...)...)
			if code != ExitNothingRead || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "next: robotstat report") {
				t.Errorf("exit %d, want %d and %q\n%s", code, ExitNothingRead, tc.want, stderr)
			}
			if got := tables(out); len(got) > 0 {
				t.Errorf("a run that read nothing wrote %v", got)
			}
			// Run again: the input is skipped, and still nothing is there.
			_, stderr, code = run(t, "", append([]string{"analyze", "--quiet", "--out", out}, tc.args...)...)
			if code != ExitNothingRead || strings.Contains(stderr, "next: robotstat report") {
				t.Errorf("rerun: exit %d\n%s", code, stderr)
			}
		})
	}

	// The unreadable input beside a readable one: its error row is of the
	// run's crawl, and no folder of any table is of no crawl.
	fixture, _ := filepath.Glob(filepath.Join(sitesFixture, "*.warc.gz"))
	out := filepath.Join(dir, "out")
	_, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--out", out, junk}, fixture...)...)
	if code != ExitInputErrors || !strings.Contains(stderr, "next: robotstat report "+out) {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, p := range tables(out) {
		if strings.Contains(p, schema.DefaultPartition) {
			t.Errorf("a partition without a crawl: %s", p)
		}
	}
	errs := readErrors(t, out)
	if len(errs) != 1 || errs[0].input != "junk.warc.gz" || errs[0].crawl != "CC-MAIN-2025-05" {
		t.Errorf("errors rows %v, want junk.warc.gz's under CC-MAIN-2025-05", errs)
	}
	// One crawl: the report does not send to robotstat sites for
	// site_history, which robotstat sites says it does not build.
	_, stderr, code = run(t, "", "report", out)
	if code != 0 || strings.Contains(stderr, "robotstat sites "+out+" builds it") || !strings.Contains(stderr, "holds one crawl: no site_history table, which robotstat sites builds once the dataset holds two") {
		t.Errorf("report of one crawl: exit %d\n%s", code, stderr)
	}
	_, stderr, _ = run(t, "", "sites", out)
	if !strings.Contains(stderr, "site_history: not built (one crawl; it is built once the dataset holds two)") {
		t.Errorf("sites of one crawl:\n%s", stderr)
	}
}
