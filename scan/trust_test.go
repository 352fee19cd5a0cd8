package scan

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTrustPEM: a test server's certificate in PEM is trusted, so that a
// client with the pool reaches it; a file without a certificate is refused.
func TestTrustPEM(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	pool, err := TrustPEM(block)
	if err != nil {
		t.Fatal(err)
	}
	c := srv.Client()
	c.Transport.(*http.Transport).TLSClientConfig.RootCAs = pool
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatalf("with the pool: %v", err)
	}
	resp.Body.Close()
	if _, err := TrustPEM([]byte("not a certificate")); err == nil || err.Error() != "holds no PEM certificate" {
		t.Errorf("no certificate: %v", err)
	}
}

// TestResumeCrawl: a scan folder without WARC files (missing or empty) is
// named by the day in UTC; one with a scan's files keeps their isPartOf
// (ReadCrawl; cmd/robotstat's TestScan resumes a scan).
func TestResumeCrawl(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 2, 23, 30, 0, 0, time.FixedZone("x", -3*3600))
	empty := filepath.Join(t.TempDir(), "warc") // not there yet: a first scan
	if got, err := ResumeCrawl(empty, now); err != nil || got != "scan-2026-12-03" {
		t.Errorf("first scan: %q, %v; want scan-2026-12-03 (UTC)", got, err)
	}
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := ResumeCrawl(empty, now); err != nil || got != "scan-2026-12-03" {
		t.Errorf("empty folder: %q, %v", got, err)
	}
}
