package scan

import (
	"context"
	"net"
	"strings"
	"testing"
)

// TestBlockedAddr: what is not of the public internet, IPv4 mapped or
// embedded in IPv6 included.
func TestBlockedAddr(t *testing.T) {
	for ip, blocked := range map[string]bool{
		"127.0.0.1": true, "127.9.9.9": true, "::1": true, "::ffff:127.0.0.1": true, "64:ff9b::7f00:1": true,
		"10.1.2.3": true, "172.16.0.1": true, "192.168.1.1": true, "fd00::1": true,
		"169.254.169.254": true, "fe80::1": true, "0.0.0.0": true, "::": true, "0.1.2.3": true,
		"100.64.0.1": true, "224.0.0.1": true, "255.255.255.255": true, "198.18.0.1": true,
		"8.8.8.8": false, "2606:4700::1111": false, "1.1.1.1": false, "64:ff9b::808:808": false, "172.32.0.1": false,
		"not-an-ip": true,
	} {
		if got := blockedAddr(ip) != ""; got != blocked {
			t.Errorf("%s: blocked %v, want %v (%q)", ip, got, blocked, blockedAddr(ip))
		}
	}
}

// TestScanBlocksInside: a scan does not reach into the network it runs in
// (issue 26.6: a redirect to http://127.0.0.1:PORT/ was followed and
// archived). A host whose DNS answer is loopback, a loopback literal in
// the host list and a redirect to the scanning machine are each a
// "blocked" failure with fetchStatus -5001 and no request sent; a host
// the user's Resolve maps to loopback is fetched (every other test), and
// AllowPrivate fetches what would be blocked.
func TestScanBlocksInside(t *testing.T) {
	s := startServers(t)
	cfg := testConfig(t, s, s.Rules())
	cfg.Concurrency = 1
	cfg.lookup = func(ctx context.Context, host string) ([]string, error) {
		switch host {
		case "inside.test":
			return []string{"127.0.0.2"}, nil
		case "inside6.test":
			return []string{"::1"}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	hosts := []string{"inside.test", "inside6.test", "127.0.0.1", "toloopback.test", "ok.test"}
	sum, err := Run(context.Background(), cfg, hosts)
	if err != nil {
		t.Fatal(err)
	}
	if got := sum.Failures[kindIndex(KindBlocked)]; got != 4 {
		t.Errorf("%d blocked fetches, want 4 (%s)", got, sum.Line())
	}
	recs := readRecords(t, cfg.Dir)
	ends := map[string]testRecord{}
	for _, r := range recs {
		if r.typ == typeRequest && (strings.Contains(r.target, "127.0.0.") || strings.Contains(r.target, "inside")) {
			t.Errorf("a request went to %s", r.target)
		}
		if h := r.field("host"); h != "" {
			ends[h] = r
		}
	}
	for _, h := range hosts[:4] {
		e := ends[h]
		if e.field("fetchError") != KindBlocked || e.field("fetchStatus") != "-5001" || e.field("outcome") != "unreachable" ||
			!strings.Contains(e.field("fetchErrorDetail"), "loopback") {
			t.Errorf("%s: end record %q", h, e.block)
		}
	}
	if e := ends["ok.test"]; e.field("outcome") != "parsed" {
		t.Errorf("ok.test (mapped by Resolve): %q", e.block)
	}

	cfg.Dir = t.TempDir()
	cfg.AllowPrivate = true
	sum, err = Run(context.Background(), cfg, []string{"toloopback.test"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failures[kindIndex(KindBlocked)] != 0 || sum.Fetches != 2 {
		t.Errorf("AllowPrivate: %s", sum.Line())
	}
}
