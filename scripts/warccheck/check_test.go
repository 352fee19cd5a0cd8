package main

import (
	"context"
	"testing"
	"time"

	"github.com/robotstat/robotstat/scan"
	"github.com/robotstat/robotstat/scan/scantest"
)

// TestScanOutput scans every fault the test servers serve and reads the
// files back with gowarc in strict mode.
func TestScanOutput(t *testing.T) {
	s, err := scantest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cfg := scan.DefaultConfig()
	cfg.Dir = t.TempDir()
	cfg.UserAgent = "robotstat-test/1.0 (+https://github.com/robotstat/robotstat)"
	cfg.Software, cfg.Crawl, cfg.Options = "robotstat/test", "scan-test", "test"
	cfg.Timeouts = scan.Timeouts{Connect: time.Second, TLS: time.Second, Header: 300 * time.Millisecond, Total: 2 * time.Second}
	cfg.RootCAs = s.CAPool
	cfg.FileSize = 16 << 10 // several files, each with its warcinfo
	if cfg.Resolve, err = scan.ParseResolve(s.Rules()); err != nil {
		t.Fatal(err)
	}
	var hosts []string
	for _, c := range scantest.Cases {
		if c.Host != "nxdomain.test" { // it would be looked up in the DNS
			hosts = append(hosts, c.Host)
		}
	}
	sum, err := scan.Run(context.Background(), cfg, hosts)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Files) < 2 {
		t.Errorf("%d files, want several", len(sum.Files))
	}
	counts, err := check(sum.Files)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files: %v", len(sum.Files), counts)
	if counts["warcinfo"] != len(sum.Files) || counts["metadata"] < len(hosts) || counts["request"] == 0 || counts["response"] == 0 {
		t.Errorf("records by type %v", counts)
	}
}
