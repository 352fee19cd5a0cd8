package scan

import (
	"context"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/scan/scantest"
)

// TestScanPipeline reads the scan's files with robotstat's pipeline, as
// analyze does: every response and every end record with a fetchStatus is
// a capture, and a failure reads as unreachable.
func TestScanPipeline(t *testing.T) {
	s := startServers(t)
	cfg := testConfig(t, s, s.Rules())
	cfg.Concurrency = 8
	if _, err := Run(context.Background(), cfg, caseHosts()); err != nil {
		t.Fatal(err)
	}
	files, _ := Files(cfg.Dir)
	pc := pipeline.Config{Workers: 1, Responses: pipeline.ResponsesAll}
	first := map[string]record.Capture{}
	sum, err := pipeline.Run(context.Background(), pc, files, func(w int, c *record.Capture) error {
		host := c.URL[strings.Index(c.URL, "://")+3:]
		host = host[:strings.IndexByte(host, '/')]
		if _, ok := first[host]; !ok && c.RobotsPath {
			cc := *c
			cc.Body = nil
			first[host] = cc
		}
		return nil
	})
	if err != nil || sum.HadErrors() {
		t.Fatalf("pipeline: %v, %s", err, sum.Line())
	}
	for _, host := range []string{"refused.test", "nxdomain.test", "stall.test", "resetbody.test", "garbage.test"} {
		c, ok := first[host]
		if !ok || c.Status >= 0 {
			t.Errorf("%s: first capture %+v, want a negative status", host, c)
		}
	}
	if c := first["httponly.test"]; c.Status != 200 || !strings.HasPrefix(c.URL, "http://") {
		t.Errorf("httponly.test: first capture %s %d, want the http 200 (the https failure is no capture)", c.URL, c.Status)
	}
	if c := first["big.test"]; c.Status != 200 || !c.BodyTruncated || c.Truncated != "length" {
		t.Errorf("big.test: %+v", c)
	}
	// body_bytes is the true size, chunked or not (issue 26.4: capped at
	// 512,000 with over_500kib false, the WARC saying 796,454).
	for host, size := range map[string]int64{"big.test": scantest.BigBody, "bigchunked.test": scantest.BigBody, "tinychunks.test": scantest.TinyChunksBody} {
		if c := first[host]; c.BodyLen != size || !c.BodyTruncated {
			t.Errorf("%s: BodyLen %d truncated %v, want %d, true", host, c.BodyLen, c.BodyTruncated, size)
		}
	}
}
