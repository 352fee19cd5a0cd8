package scan

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestSlowHeaderIsTimeout: a header that comes a byte every 30 ms, past
// the header timeout, is a timeout (fetchStatus -4), not "malformed HTTP
// response" (issue 26.7: net/http parsed the part that had come).
func TestSlowHeaderIsTimeout(t *testing.T) {
	quit := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, bw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		for _, b := range []byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789") {
			bw.WriteByte(b)
			if bw.Flush() != nil {
				return
			}
			select {
			case <-quit:
				return
			case <-time.After(30 * time.Millisecond):
			}
		}
	}))
	defer srv.Close()
	defer close(quit)
	s := startServers(t)
	cfg := testConfig(t, s, []string{"slowheader.test=" + srv.Listener.Addr().String()})
	cfg.Schemes = []string{"http"}
	cfg.Timeouts.Header = 200 * time.Millisecond
	if _, err := Run(context.Background(), cfg, []string{"slowheader.test"}); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, cfg.Dir)
	end := recs[len(recs)-1]
	if end.field("fetchError") != KindTimeout || end.field("fetchStatus") != "-4" || !strings.Contains(end.field("fetchErrorDetail"), "no whole header within 200ms") {
		t.Errorf("end record %q", end.block)
	}
}
