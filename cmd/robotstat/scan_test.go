package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/scan"
	"github.com/robotstat/robotstat/scan/scantest"
	"github.com/robotstat/robotstat/schema"
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
		if c.Error == "loop" || c.Error == "too-many-redirects" {
			wantOutcome = "redirect"
		}
		if r.Outcome != wantOutcome {
			t.Errorf("%s: outcome %s (status %d), want %s", h, r.Outcome, r.HTTPStatus, wantOutcome)
		}
		if c.Outcome == "unreachable" && c.Error != "" && r.HTTPStatus >= 0 {
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
	if after := parquetFiles(t, out); strings.Join(after, ",") != strings.Join(before, ",") {
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
