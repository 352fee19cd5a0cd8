package pipeline

import (
	"strconv"
	"strings"
	"testing"
)

// TestTrueBodyBytes: BodyLen is the payload's true size when the archive
// kept less than the server sent: a WARC-Truncated: length record that
// stores 600,000 bytes of a body whose Content-Length is 800,014 reports
// 800,014 (issue 26.4: it reported what was stored), as does a record cut
// by the end of the file; a coded payload's decoded size is unknown and
// stays what was decoded, with BodyTruncated set either way.
func TestTrueBodyBytes(t *testing.T) {
	t.Parallel()
	stored := strings.Repeat("Disallow: /x\n", 600000/13+1)[:600000]
	trunc := warcRecord("response", "https://t.example/robots.txt",
		httpResp("HTTP/1.1 200 OK", []byte(stored), "Content-Type: text/plain", "Content-Length: 800014"), "WARC-Truncated: length")
	gz := gzipMember([]byte(stored))
	coded := warcRecord("response", "https://g.example/robots.txt",
		httpResp("HTTP/1.1 200 OK", gz[:len(gz)/2], "Content-Encoding: gzip", "Content-Length: "+strconv.Itoa(len(gz))), "WARC-Truncated: length")
	whole := robotsResp("w.example", robotsBody, "Content-Length: "+strconv.Itoa(len(robotsBody)))
	caps, sum, err := collect(t, Config{Workers: 1}, writeTemp(t, "x.warc", cat(trunc, coded, whole)))
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != 3 {
		t.Fatalf("%d captures: %v", len(caps), sum.Diagnostics)
	}
	for _, w := range []struct {
		url  string
		n    int64
		trun bool
	}{
		{"https://t.example/robots.txt", 800014, true},
		{"https://w.example/robots.txt", int64(len(robotsBody)), false},
	} {
		c := find(caps, w.url)
		if c == nil || c.BodyLen != w.n || c.BodyTruncated != w.trun {
			t.Errorf("%s: %+v, want BodyLen %d truncated %v", w.url, c, w.n, w.trun)
		}
	}
	if c := find(caps, "https://g.example/robots.txt"); c == nil || !c.BodyTruncated || c.BodyLen >= 600000 || c.BodyLen < int64(len(c.Body)) {
		t.Errorf("coded: %+v", c)
	}
}
