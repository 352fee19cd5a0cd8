package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// s3Faults wraps an S3-compatible server: the first GET of a key in
// slowdown answers 503 SlowDown, the first of a key in cut sends a third
// of the object and drops the connection (a Range GET resumes it).
type s3Faults struct {
	next     http.Handler
	mu       sync.Mutex
	slowdown map[string]bool
	cut      map[string]bool
	ranges   []string
}

func (s *s3Faults) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	sd, cut := s.slowdown[r.URL.Path], s.cut[r.URL.Path]
	delete(s.slowdown, r.URL.Path)
	delete(s.cut, r.URL.Path)
	if rg := r.Header.Get("Range"); rg != "" {
		s.ranges = append(s.ranges, r.URL.Path+" "+rg)
	}
	s.mu.Unlock()
	switch {
	case sd:
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`))
	case cut:
		rec := httptest.NewRecorder()
		s.next.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		body := rec.Body.Bytes()
		w.Write(body[:len(body)/3])
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	default:
		s.next.ServeHTTP(w, r)
	}
}

// TestAnalyzeS3: a crawl by name from --cc-base s3://commoncrawl/ on an
// in-process S3-compatible server (anonymous requests, path style), and an
// s3:// input given as such, give the rows of the same files read from
// disk; a 503 SlowDown is retried and said, a dropped connection resumed
// with a Range GetObject.
func TestAnalyzeS3(t *testing.T) {
	t.Parallel()
	files := genCorpus(t, 300, 100)
	dir := t.TempDir()
	rels := ccMirror(t, dir, "CC-MAIN-2024-33", 2, files)
	backend := s3mem.New()
	if err := backend.CreateBucket("commoncrawl"); err != nil {
		t.Fatal(err)
	}
	for _, rel := range append([]string{"crawl-data/CC-MAIN-2024-33/robotstxt.paths.gz"}, rels...) {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := backend.PutObject("commoncrawl", rel, map[string]string{}, bytes.NewReader(data), int64(len(data)), nil); err != nil {
			t.Fatal(err)
		}
	}
	faults := &s3Faults{next: gofakes3.New(backend).Server(),
		slowdown: map[string]bool{"/commoncrawl/" + rels[0]: true}, cut: map[string]bool{"/commoncrawl/" + rels[1]: true}}
	srv := httptest.NewServer(faults) // 127.0.0.1
	defer srv.Close()

	ref := filepath.Join(t.TempDir(), "ref")
	if _, stderr, code := run(t, "", append([]string{"analyze", "--quiet", "--crawl", "CC-MAIN-2024-33", "--out", ref}, files...)...); code != 0 {
		t.Fatalf("reference: exit %d\n%s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	s3flags := []string{"--s3-endpoint", srv.URL, "--s3-credentials", "anonymous"}
	stdout, stderr, code := run(t, "", append(append([]string{"analyze", "--quiet", "--json", "--out", out, "--cc-base", "s3://commoncrawl/"}, s3flags...), "CC-MAIN-2024-33")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, `"inputs_committed": 3`) {
		t.Errorf("want a unit per WARC:\n%s", stdout)
	}
	for _, want := range []string{
		"robotstat: retrying s3://commoncrawl/" + rels[0] + " in 1ms (try 2 of 6): 503 Service Unavailable SlowDown: Please reduce your request rate.",
		"robotstat: retrying s3://commoncrawl/" + rels[1] + " in 1ms (try 1 of 6, resuming at byte ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	faults.mu.Lock()
	if len(faults.ranges) != 1 || !strings.HasPrefix(faults.ranges[0], "/commoncrawl/"+rels[1]+" bytes=") {
		t.Errorf("Range GETs %v, want one resuming %s", faults.ranges, rels[1])
	}
	faults.mu.Unlock()
	got, want := sortedCaptures(t, out), sortedCaptures(t, ref)
	for i := range got { // source: the manifest line, the file's name given alone
		got[i].Source = path.Base(got[i].Source)
	}
	if len(got) != 300 || !reflect.DeepEqual(got, want) {
		t.Errorf("%d captures from S3, %d from disk, or they differ", len(got), len(want))
	}

	// An s3:// input as such, with --crawl.
	out2 := filepath.Join(t.TempDir(), "out2")
	_, stderr, code = run(t, "", append(append([]string{"analyze", "--quiet", "--out", out2, "--crawl", "CC-MAIN-2024-33"}, s3flags...), "s3://commoncrawl/"+rels[2])...)
	if code != 0 {
		t.Fatalf("s3:// input: exit %d\n%s", code, stderr)
	}
	var wantIDs []string
	for _, c := range sortedCaptures(t, ref) {
		if c.Source == filepath.Base(rels[2]) {
			wantIDs = append(wantIDs, c.CaptureID)
		}
	}
	var gotIDs []string
	for _, c := range sortedCaptures(t, out2) {
		gotIDs = append(gotIDs, c.CaptureID)
	}
	if len(gotIDs) != 100 || !reflect.DeepEqual(gotIDs, wantIDs) {
		t.Errorf("s3:// input: %d captures, want the file's %d", len(gotIDs), len(wantIDs))
	}
	// A key that is not there fails its input, not the run.
	_, stderr, code = run(t, "", append(append([]string{"analyze", "--quiet", "--out", out2}, s3flags...), "s3://commoncrawl/nothing.warc.gz")...)
	if code != ExitInputsFailed || !strings.Contains(stderr, "404") {
		t.Errorf("missing key: exit %d\n%s", code, stderr)
	}
}
