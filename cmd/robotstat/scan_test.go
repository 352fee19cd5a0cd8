package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotstat/robotstat/scan"
	"github.com/robotstat/robotstat/scan/scantest"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/warc"
)

// scanArgs returns the flags that point robotstat scan at the test servers,
// with every host given its own --resolve rule (so that no name is looked
// up) and short timeouts.
func scanArgs(t *testing.T, s *scantest.Servers, out string) []string {
	t.Helper()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, s.CAPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"scan", "--out", out, "--test-ca", ca, "--quiet", "--concurrency", "8",
		"--timeout", "connect=1s,tls=1s,header=300ms,total=2s"}
	for _, r := range s.Rules() {
		args = append(args, "--resolve", r)
	}
	return args
}

// captureRows reads the captures table with schema.ReadFile.
func captureRows(t *testing.T, root string) []schema.CaptureRow {
	t.Helper()
	files, err := schema.TableFiles(root, schema.Captures)
	if err != nil {
		t.Fatal(err)
	}
	var rows []schema.CaptureRow
	for _, f := range files {
		err := schema.ReadFile(context.Background(), f.Path, []string{"crawl", "url", "host", "outcome", "http_status", "warc_truncated", "looks_html", "robots_path"},
			func(b []schema.CaptureRow) error { rows = append(rows, b...); return nil })
		if err != nil {
			t.Fatal(err)
		}
	}
	return rows
}

func TestScan(t *testing.T) {
	s, err := scantest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := filepath.Join(t.TempDir(), "out")
	var hosts []string
	want := map[string]scantest.Case{}
	for _, c := range scantest.Cases {
		if c.Host == "nxdomain.test" { // it would be looked up in the DNS
			continue
		}
		hosts = append(hosts, c.Host)
		want[c.Host] = c
	}
	args := append(scanArgs(t, s, out), "--crawl", "scan-test")
	sites := filepath.Join(t.TempDir(), "tranco.csv")
	var csv strings.Builder
	for i, h := range hosts {
		csv.WriteString(itoa(i+1) + "," + h + "\n")
	}
	os.WriteFile(sites, []byte(csv.String()), 0o644)
	args = append(args, "--sites", sites, "--top", itoa(len(hosts)-1), hosts[len(hosts)-1], "not a host")
	_, stderr, code := run(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, `skipping not a host name: "not a host"`) {
		t.Errorf("stderr does not report the bad host:\n%s", stderr)
	}
	t.Log(stderr)

	// The site: the first capture of the host whose path is /robots.txt,
	// as the report counts it.
	site := map[string]schema.CaptureRow{}
	for _, r := range captureRows(t, out) {
		if r.Crawl != "scan-test" {
			t.Errorf("crawl %q", r.Crawl)
		}
		if _, ok := site[r.Host]; !ok && r.RobotsPath {
			site[r.Host] = r
		}
	}
	for _, h := range hosts {
		c := want[h]
		r, ok := site[h]
		if !ok {
			t.Errorf("%s: no capture", h)
			continue
		}
		wantOutcome := c.Outcome
		if c.Fetches > 1 && !c.HTTPSFails && c.Error == "" {
			wantOutcome = "redirect" // the first capture is the redirect; its target is a capture of its own
		}
		if c.Error == "loop" || c.Error == "too-many-redirects" || c.Error == "blocked" { // blocked: a redirect into the machine
			wantOutcome = "redirect"
		}
		if r.Outcome != wantOutcome {
			t.Errorf("%s: outcome %s (status %d), want %s", h, r.Outcome, r.HTTPStatus, wantOutcome)
		}
		if c.Outcome == "unreachable" && c.Error != "" && wantOutcome != "redirect" && r.HTTPStatus >= 0 {
			t.Errorf("%s: status %d, want a negative fetchStatus", h, r.HTTPStatus)
		}
	}
	if r := site["big.test"]; r.WARCTruncated != "length" {
		t.Errorf("big.test: warc_truncated %q", r.WARCTruncated)
	}
	if r := site["html.test"]; !r.LooksHTML {
		t.Errorf("html.test: not looks_html")
	}

	// The same command again fetches nothing and replaces the tables.
	before := parquetFiles(t, out)
	_, stderr, code = run(t, "", args...)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "("+itoa(len(hosts))+" already scanned), 0 done") {
		t.Errorf("rerun fetched again:\n%s", stderr)
	}
	if after := parquetFiles(t, out); plainNames(after) != plainNames(before) {
		t.Errorf("rerun changed the files: %v, then %v", before, after)
	}
	if n := len(captureRows(t, out)); n == 0 {
		t.Error("no captures after the rerun")
	}
	files, _ := scan.Files(filepath.Join(out, "warc"))
	if len(files) != 1 {
		t.Errorf("%d WARC files, want 1 (the rerun writes none)", len(files))
	}
}

func TestScanUsage(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		args       []string
	}{
		{"no hosts", "no hosts to scan", []string{"scan", "--out", t.TempDir()}},
		{"top without sites", "--top needs --sites", []string{"scan", "--top", "5", "a.test"}},
		{"bad resolve", "--resolve", []string{"scan", "--resolve", "a.test=nowhere", "a.test"}},
		{"bad user agent", "contact URL", []string{"scan", "--user-agent", "bot/1.0", "a.test"}},
		{"analyze input flag", "-shard", []string{"scan", "--shard", "0/2", "a.test"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(t, "", tc.args...)
			if code != ExitUsage || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "Try: robotstat scan --help") {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, ExitUsage, tc.want)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestScanKill kills a scan mid-run (SIGKILL, no clean-up) and runs it
// again: the rerun cuts the last file back to its last whole record,
// fetches only the hosts without an end record, and in the end every host
// has exactly one. The server answers the first scanKillDone requests and
// holds the others until the kill, so the kill comes at a known moment
// (scanKillDone hosts ended, four waiting for an answer) instead of after
// a sleep that a busy machine makes too short or too long.
func TestScanKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a robotstat process")
	}
	const scanKillDone = 20
	var served atomic.Int64
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1) > scanKillDone {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, scantest.Robots)
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"scan", "--out", out, "--quiet", "--fetch-only", "--schemes", "http", "--concurrency", "4",
		"--resolve", "*=" + srv.Listener.Addr().String()}
	const n = 400
	for i := range n {
		args = append(args, "host"+strconv.Itoa(i)+".test")
	}
	cmd := robotstatCmd(t, args...)
	var killed bytes.Buffer
	cmd.Stderr = &killed
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	for deadline := time.Now().Add(time.Minute); len(endRecords(t, filepath.Join(out, "warc"))) < scanKillDone; {
		select {
		case <-exited:
			t.Fatalf("the scan ended before it was killed:\n%s", killed.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d hosts ended after a minute, want %d", len(endRecords(t, filepath.Join(out, "warc"))), scanKillDone)
		}
	}
	cmd.Process.Kill()
	<-exited
	first := endRecords(t, filepath.Join(out, "warc"))
	if len(first) != scanKillDone {
		t.Fatalf("%d hosts done before the kill, want the %d answered", len(first), scanKillDone)
	}
	close(release)
	_, stderr, code := run(t, "", args...)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "("+strconv.Itoa(len(first))+" already scanned), "+strconv.Itoa(n-len(first))+" done") {
		t.Errorf("rerun after %d hosts:\n%s", len(first), stderr)
	}
	for h, k := range endRecords(t, filepath.Join(out, "warc")) {
		if k != 1 {
			t.Errorf("%s: %d end records", h, k)
		}
	}
	if got := len(endRecords(t, filepath.Join(out, "warc"))); got != n {
		t.Errorf("%d hosts with an end record, want %d", got, n)
	}
	// Every file reads whole: a cut member would be a data error.
	_, stderr, code = run(t, "", "analyze", "--quiet", "--out", filepath.Join(out, "tables"), filepath.Join(out, "warc"))
	if code != 0 {
		t.Errorf("analyze: exit %d\n%s", code, stderr)
	}
}

// endRecords counts the end records per host in dir's scan files.
func endRecords(t *testing.T, dir string) map[string]int {
	t.Helper()
	files, err := scan.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	ends := map[string]int{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			continue // cut inside the first member
		}
		wr := warc.NewReader(zr)
		for wr.Next() {
			if string(wr.Header().Type()) != "metadata" {
				continue
			}
			b, _, _ := wr.ReadBlock(nil, 1<<16)
			for _, line := range strings.Split(string(b), "\r\n") {
				if h, ok := strings.CutPrefix(line, "host: "); ok && !wr.Truncated() {
					ends[h]++
				}
			}
		}
		f.Close()
	}
	return ends
}
