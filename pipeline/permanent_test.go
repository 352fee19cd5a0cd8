package pipeline

import (
	"context"
	"errors"
	"math"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestTriesThatCannotSucceed: a redirect to file:// and a certificate that
// does not verify fail at once, with no retry (issue 26.7: each was tried
// 6 times over 31 s); a server that trickles one byte every 20 ms, never
// idle long enough for IdleTimeout, fails its try under MinRate and the
// body is resumed (issue 26.7: 1 byte every 10 s never ended).
func TestTriesThatCannotSucceed(t *testing.T) {
	t.Parallel()
	var recs [][]byte
	for i := range 50 {
		recs = append(recs, robotsResp("h"+strconv.Itoa(i)+".example", robotsBody))
	}
	fs := &faultServer{data: gzipMembers(recs...), quit: make(chan struct{})}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	tlsSrv := httptest.NewTLSServer(fs) // a certificate nobody here trusts
	defer tlsSrv.Close()
	defer close(fs.quit)

	var mu sync.Mutex
	var events []RetryEvent
	cfg := Config{
		Workers: 1,
		Rate:    -1,
		Retry:   RetryPolicy{MaxTries: 6, BaseDelay: 10 * time.Millisecond, MaxDelay: 10 * time.Second},
		OnRetry: func(e RetryEvent) { mu.Lock(); events = append(events, e); mu.Unlock() },
		testSleep: func(ctx context.Context, d time.Duration) error {
			return ctx.Err()
		},
	}
	for _, tc := range []struct {
		name, url, path, says string
	}{
		{"redirect_to_file", srv.URL + "/redirect-file.warc.gz", "/redirect-file.warc.gz", "file:///etc/passwd"},
		{"certificate_unknown", tlsSrv.URL + "/ok.warc.gz", "", "certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			events = nil
			mu.Unlock()
			_, _, err := collect(t, cfg, tc.url)
			if !errors.Is(err, ErrFetch) || errors.Is(err, ErrGaveUp) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err %v, want ErrFetch at once, naming %q", err, tc.says)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(events) != 0 {
				t.Errorf("%d retries: %+v", len(events), events)
			}
			if tc.path != "" {
				v, _ := fs.hits.Load(tc.path)
				if h := v.(*atomic.Int32).Load(); h != 1 {
					t.Errorf("%d requests, want 1", h)
				}
			}
		})
	}
	t.Run("trickle", func(t *testing.T) {
		mu.Lock()
		events = nil
		mu.Unlock()
		c := cfg
		// 50 bytes/s arrive, a byte every 20 ms: too slow over any window,
		// never idle for a second, though a loaded CI machine once held a
		// byte back for 300 ms (the window this test had).
		c.IdleTimeout, c.MinRate = time.Second, 1000
		caps, sum, err := collect(t, c, srv.URL+"/trickle.warc.gz")
		if err != nil || len(caps) != 50 || sum.Bytes != int64(len(fs.data)) {
			t.Fatalf("err %v captures %d bytes %d", err, len(caps), sum.Bytes)
		}
		mu.Lock()
		defer mu.Unlock()
		var se *slowError
		if len(events) != 1 || !events[0].Resumed || !errors.As(events[0].Err, &se) || !strings.Contains(events[0].Err.Error(), "--min-rate") {
			t.Errorf("retries %+v, want one resume after a too-slow try", events)
		}
	})
}

// TestRateBounds: a rate so low that 1/Rate overflows a time.Duration is
// refused (issue 26.7: --rate 1e-300 became no limit at all), as are NaN
// and infinities; negative is no limit, as documented.
func TestRateBounds(t *testing.T) {
	t.Parallel()
	for _, r := range []float64{1e-300, 1e-9, math.Inf(1), math.NaN()} {
		if err := (Config{Rate: r}).Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("Rate %v: %v, want ErrConfig", r, err)
		}
	}
	for _, r := range []float64{-1, 1.0 / 86400, 4, 1e6} {
		if err := (Config{Rate: r}).Validate(); err != nil {
			t.Errorf("Rate %v: %v", r, err)
		}
		if p := newPacer(r); r > 0 && p.interval <= 0 {
			t.Errorf("Rate %v: interval %v", r, p.interval)
		}
	}
}
