package pipeline

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/robotstat/robotstat/parse"
)

// TestFailureRecord: a metadata record with a negative fetchStatus (the end
// record robotstat scan writes for a host whose fetch got no response) is a
// capture with that status, which RFC 9309 section 2.3.1.4 reads as
// unreachable; other metadata records are read past.
func TestFailureRecord(t *testing.T) {
	t.Parallel()
	rec := func(typ, uri, ctype, block string) string {
		return "WARC/1.1\r\nWARC-Type: " + typ + "\r\nWARC-Record-ID: <urn:uuid:" + uri + ">\r\nWARC-Date: 2026-03-01T10:11:12Z\r\n" +
			"WARC-Target-URI: " + uri + "\r\nContent-Type: " + ctype + "\r\nContent-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n" + block + "\r\n\r\n"
	}
	const fields = "application/warc-fields"
	warc := rec("metadata", "https://refused.example/robots.txt", fields,
		"fetchError: connect\r\nfetchErrorDetail: connection refused\r\nnext: http://refused.example/robots.txt\r\n") + // a fallback: no capture
		rec("metadata", "http://refused.example/robots.txt", fields,
			"host: refused.example\r\noutcome: unreachable\r\nfetches: 2\r\nfetchError: connect\r\nfetchStatus: -2\r\n") +
		rec("metadata", "http://ok.example/robots.txt", fields, "via: http://ok.example/\r\nfetchTimeMs: 12\r\n") + // Heritrix's kind
		rec("metadata", "http://odd.example/robots.txt", fields, "fetchStatus: 404\r\n") + // not negative: read past
		rec("metadata", "http://dns.example/robots.txt", "text/plain", "fetchStatus: -1\r\n") + // not warc-fields
		rec("metadata", "http://moved.example/elsewhere", fields, "host: moved.example\r\nfetchStatus: -4\r\n") +
		rec("response", "http://ok.example/robots.txt", "application/http;msgtype=response",
			"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nUser-agent: ")
	path := filepath.Join(t.TempDir(), "scan.warc")
	if err := os.WriteFile(path, []byte(warc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		responses Responses
		want      []string
	}{
		{"robots", ResponsesRobots, []string{"http://refused.example/robots.txt", "http://ok.example/robots.txt"}},
		{"all", ResponsesAll, []string{"http://refused.example/robots.txt", "http://moved.example/elsewhere", "http://ok.example/robots.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caps, sum, err := collect(t, Config{Workers: 1, Responses: tc.responses}, path)
			if err != nil || sum.HadErrors() {
				t.Fatalf("%v, %s", err, sum.Line())
			}
			if len(caps) != len(tc.want) {
				t.Fatalf("%d captures, want %d: %+v", len(caps), len(tc.want), caps)
			}
			for i, c := range caps {
				if c.URL != tc.want[i] {
					t.Errorf("capture %d: %s, want %s", i, c.URL, tc.want[i])
				}
			}
			f := caps[0]
			if f.Status != -2 || len(f.Body) != 0 || f.BodyLen != 0 || !f.RobotsPath || f.FetchTime.IsZero() {
				t.Errorf("failure capture %+v", f)
			}
			if o := parse.StatusOutcome(f.Status, parse.StatusOptions{}); o != parse.OutcomeUnreachable {
				t.Errorf("outcome %s, want unreachable", o)
			}
		})
	}
}
