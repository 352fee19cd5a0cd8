package pipeline

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// faultServer serves a WARC on 127.0.0.1 and injects, per path, the faults
// that object stores and CDNs produce.
type faultServer struct {
	data   []byte
	cut    int           // a member boundary a third of the way into data
	quit   chan struct{} // closed at the end of the test: stalls never end before
	hits   sync.Map      // path -> *atomic.Int32
	ranges sync.Map      // path -> []string (Range headers seen)
}

func (s *faultServer) hit(r *http.Request) int {
	v, _ := s.hits.LoadOrStore(r.URL.Path, new(atomic.Int32))
	return int(v.(*atomic.Int32).Add(1))
}

func (s *faultServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.hit(r)
	if rg := r.Header.Get("Range"); rg != "" {
		v, _ := s.ranges.LoadOrStore(r.URL.Path, &[]string{})
		p := v.(*[]string)
		*p = append(*p, rg)
	}
	full := func() {
		w.Header().Set("Content-Length", strconv.Itoa(len(s.data)))
		w.Write(s.data)
	}
	switch strings.TrimSuffix(r.URL.Path, ".warc.gz") {
	case "/ok":
		full()
	case "/429":
		if n == 1 {
			w.Header().Set("Retry-After", "3")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		full()
	case "/5xx":
		if n <= 2 {
			http.Error(w, "oops", 500+n)
			return
		}
		full()
	case "/slowdown":
		if n <= 2 {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message><RequestId>X</RequestId></Error>`))
			return
		}
		full()
	case "/drop", "/drop-norange":
		rg := r.Header.Get("Range")
		if n == 1 {
			// Promise everything, send a third, drop the connection.
			w.Header().Set("Content-Length", strconv.Itoa(len(s.data)))
			w.WriteHeader(http.StatusOK)
			w.Write(s.data[:len(s.data)/3])
			w.(http.Flusher).Flush()
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		if rg != "" && r.URL.Path == "/drop.warc.gz" {
			from, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
			w.Header().Set("Content-Range", "bytes "+strconv.Itoa(from)+"-"+strconv.Itoa(len(s.data)-1)+"/"+strconv.Itoa(len(s.data)))
			w.Header().Set("Content-Length", strconv.Itoa(len(s.data)-from))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(s.data[from:])
			return
		}
		full()
	case "/giveup-boundary", "/giveup-mid":
		// A third of the file, cut at a member boundary or inside a
		// member, then nothing but 503s.
		if n > 1 {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		cut := s.cut
		if r.URL.Path == "/giveup-mid.warc.gz" {
			cut += 40
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(s.data)))
		w.WriteHeader(http.StatusOK)
		w.Write(s.data[:cut])
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	case "/stall-body", "/stall-header":
		if n == 1 {
			if r.URL.Path == "/stall-body.warc.gz" {
				w.Header().Set("Content-Length", strconv.Itoa(len(s.data)))
				w.WriteHeader(http.StatusOK)
				w.Write(s.data[:len(s.data)/3])
				w.(http.Flusher).Flush()
			}
			select { // until the client gives up on this try
			case <-r.Context().Done():
			case <-s.quit: // the test is over
			}
			return
		}
		if rg := r.Header.Get("Range"); rg != "" {
			from, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
			w.Header().Set("Content-Range", "bytes "+strconv.Itoa(from)+"-"+strconv.Itoa(len(s.data)-1)+"/"+strconv.Itoa(len(s.data)))
			w.Header().Set("Content-Length", strconv.Itoa(len(s.data)-from))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(s.data[from:])
			return
		}
		full()
	case "/stall-always":
		// A third of the file, then a stall; a resume gets its header and
		// a stall.
		third := len(s.data) / 3
		if rg := r.Header.Get("Range"); rg != "" {
			from, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
			w.Header().Set("Content-Range", "bytes "+strconv.Itoa(from)+"-"+strconv.Itoa(len(s.data)-1)+"/"+strconv.Itoa(len(s.data)))
			w.Header().Set("Content-Length", strconv.Itoa(len(s.data)-from))
			w.WriteHeader(http.StatusPartialContent)
		} else {
			w.Header().Set("Content-Length", strconv.Itoa(len(s.data)))
			w.WriteHeader(http.StatusOK)
			w.Write(s.data[:third])
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-s.quit: // the test is over
		}
	case "/trickle":
		// One byte every 20 ms, never a pause long enough for the idle
		// timeout; a resume is served at full speed.
		if rg := r.Header.Get("Range"); rg != "" {
			from, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
			w.Header().Set("Content-Range", "bytes "+strconv.Itoa(from)+"-"+strconv.Itoa(len(s.data)-1)+"/"+strconv.Itoa(len(s.data)))
			w.Header().Set("Content-Length", strconv.Itoa(len(s.data)-from))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(s.data[from:])
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(s.data)))
		w.WriteHeader(http.StatusOK)
		for i := 0; i < len(s.data); i++ {
			w.Write(s.data[i : i+1])
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-s.quit:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	case "/redirect-file":
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	case "/redirect-self":
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	case "/redirect-a":
		http.Redirect(w, r, "/redirect-b.warc.gz", http.StatusFound)
	case "/redirect-b":
		http.Redirect(w, r, "/redirect-a.warc.gz", http.StatusMovedPermanently)
	case "/always503":
		http.Error(w, "down", http.StatusServiceUnavailable)
	case "/404":
		http.NotFound(w, r)
	case "/list.paths":
		w.Write([]byte("ok.warc.gz\n/5xx.warc.gz\n"))
	default:
		http.NotFound(w, r)
	}
}

func TestHTTPInputs(t *testing.T) {
	t.Parallel()
	var recs [][]byte
	for i := range 200 {
		recs = append(recs, robotsResp("h"+strconv.Itoa(i)+".example", robotsBody))
	}
	fs := &faultServer{data: gzipMembers(recs...), cut: len(gzipMembers(recs[:len(recs)/3]...)), quit: make(chan struct{})}
	srv := httptest.NewServer(fs) // listens on 127.0.0.1 only
	defer srv.Close()
	defer close(fs.quit)

	var mu sync.Mutex
	var delays []time.Duration
	cfg := Config{
		Workers: 2,
		Rate:    -1, // retries, not the request budget (TestPoliteDownloads)
		Retry:   RetryPolicy{MaxTries: 4, BaseDelay: 10 * time.Millisecond, MaxDelay: 10 * time.Second},
		testSleep: func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			delays = append(delays, d)
			mu.Unlock()
			return ctx.Err()
		},
	}
	tests := []struct {
		path     string
		captures int
		hits     int
		err      error
		delays   []time.Duration
		ranges   string
	}{
		{"/ok.warc.gz", 200, 1, nil, nil, ""},
		{"/429.warc.gz", 200, 2, nil, []time.Duration{3 * time.Second}, ""},
		{"/5xx.warc.gz", 200, 3, nil, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}, ""},
		{"/slowdown.warc.gz", 200, 3, nil, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}, ""},
		// A resume asks again for the resumeOverlap bytes before its
		// offset, to check them (resume_test.go).
		{"/drop.warc.gz", 200, 2, nil, []time.Duration{10 * time.Millisecond}, "bytes=" + strconv.Itoa(len(fs.data)/3-resumeOverlap) + "-"},
		{"/drop-norange.warc.gz", 200, 2, nil, []time.Duration{10 * time.Millisecond}, "bytes=" + strconv.Itoa(len(fs.data)/3-resumeOverlap) + "-"},
		{"/always503.warc.gz", 0, 4, ErrGaveUp, nil, ""},
		// Giving up after a third of the file is a failure with the last
		// error, never a short read: at a member boundary it used to end
		// the input as if complete (exit 0), inside a member with
		// "after 6 tries: %!w(<nil>)".
		{"/giveup-boundary.warc.gz", 66, 5, ErrGaveUp, []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}, ""},
		{"/giveup-mid.warc.gz", 66, 5, ErrGaveUp, []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}, ""},
		// A redirect loop fails at once: no retries, no backoff.
		{"/redirect-self.warc.gz", 0, 2, errRedirect, []time.Duration{}, ""},
		{"/redirect-a.warc.gz", 0, 2, errRedirect, []time.Duration{}, ""},
		{"/404.warc.gz", 0, 1, ErrFetch, nil, ""},
	}
	for _, tc := range tests {
		t.Run(strings.TrimPrefix(tc.path, "/"), func(t *testing.T) {
			mu.Lock()
			delays = nil
			mu.Unlock()
			caps, sum, err := collect(t, cfg, srv.URL+tc.path)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if len(caps) != tc.captures || sum.HadErrors() || (err == nil && sum.Bytes != int64(len(fs.data))) {
				t.Errorf("captures %d bytes %d errors %v", len(caps), sum.Bytes, sum.Diagnostics)
			}
			if err != nil && strings.Contains(err.Error(), "%!") {
				t.Errorf("error without its cause: %v", err)
			}
			v, _ := fs.hits.Load(tc.path)
			if h := int(v.(*atomic.Int32).Load()); h != tc.hits {
				t.Errorf("requests %d, want %d", h, tc.hits)
			}
			mu.Lock()
			defer mu.Unlock()
			if tc.delays != nil && !equalDurations(delays, tc.delays) {
				t.Errorf("delays %v, want %v", delays, tc.delays)
			}
			if tc.ranges != "" {
				v, _ := fs.ranges.Load(tc.path)
				if v == nil || strings.Join(*v.(*[]string), ",") != tc.ranges {
					t.Errorf("Range headers %v, want %s", v, tc.ranges)
				}
			}
			if tc.err == ErrGaveUp && (!strings.Contains(err.Error(), "after 4 tries") || !strings.Contains(err.Error(), "503")) {
				t.Errorf("unclear error: %v", err)
			}
			if tc.err == errRedirect && (!errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "redirect-")) {
				t.Errorf("unclear error: %v", err)
			}
		})
	}
	// A server that stalls mid-body or before its header: the try times
	// out and the input is resumed (Range) or retried.
	stall := cfg
	stall.HeaderTimeout, stall.IdleTimeout = 300*time.Millisecond, 300*time.Millisecond
	for _, tc := range []struct {
		path, ranges string
		giveUp       string // the path that gives up with one try
		timeout      string
	}{
		{"/stall-body.warc.gz", "bytes=" + strconv.Itoa(len(fs.data)/3-resumeOverlap) + "-", "/stall-always.warc.gz", "idle read timeout"},
		{"/stall-header.warc.gz", "", "/stall-header.warc.gz", "response header timeout"},
	} {
		t.Run(strings.TrimPrefix(tc.path, "/"), func(t *testing.T) {
			caps, sum, err := collect(t, stall, srv.URL+tc.path)
			if err != nil || len(caps) != 200 || sum.HadErrors() || sum.Bytes != int64(len(fs.data)) {
				t.Fatalf("err %v captures %d bytes %d", err, len(caps), sum.Bytes)
			}
			v, _ := fs.hits.Load(tc.path)
			if h := int(v.(*atomic.Int32).Load()); h != 2 {
				t.Errorf("requests %d, want 2", h)
			}
			rv, _ := fs.ranges.Load(tc.path)
			if got := ""; rv != nil || tc.ranges != "" {
				if rv != nil {
					got = strings.Join(*rv.(*[]string), ",")
				}
				if got != tc.ranges {
					t.Errorf("Range headers %q, want %q", got, tc.ranges)
				}
			}
			// With one try (after the last progress) the timeout is the
			// error.
			fs.hits.Delete(tc.giveUp)
			one := stall
			one.Retry.MaxTries = 1
			if _, _, err := collect(t, one, srv.URL+tc.giveUp); !errors.Is(err, ErrGaveUp) || !strings.Contains(err.Error(), tc.timeout) {
				t.Errorf("one try: err %v, want a give-up naming the %s", err, tc.timeout)
			}
		})
	}
	t.Run("connect_timeout", func(t *testing.T) {
		// The first dial hangs: any client gets the connect timeout.
		var dials atomic.Int32
		d := &net.Dialer{}
		client := func() *http.Client {
			dials.Store(0)
			return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				if dials.Add(1) == 1 {
					<-ctx.Done()
					return nil, ctx.Err()
				}
				return d.DialContext(ctx, network, addr)
			}}}
		}
		c := stall
		c.ConnectTimeout = 300 * time.Millisecond
		c.HTTPClient = client()
		caps, _, err := collect(t, c, srv.URL+"/ok.warc.gz")
		if err != nil || len(caps) != 200 || dials.Load() != 2 {
			t.Fatalf("err %v captures %d dials %d", err, len(caps), dials.Load())
		}
		c.HTTPClient = client()
		c.Retry.MaxTries = 1
		if _, _, err := collect(t, c, srv.URL+"/ok.warc.gz"); !errors.Is(err, ErrGaveUp) || !strings.Contains(err.Error(), "connect timeout") {
			t.Errorf("one try: err %v", err)
		}
	})
	t.Run("slowdown_recognised", func(t *testing.T) {
		fs.hits.Delete("/slowdown.warc.gz")
		c := cfg
		c.Retry.MaxTries = 2
		_, _, err := collect(t, c, srv.URL+"/slowdown.warc.gz")
		if !errors.Is(err, ErrGaveUp) || !errors.Is(err, ErrSlowDown) || !strings.Contains(err.Error(), "Please reduce your request rate") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("manifest_url", func(t *testing.T) {
		fs.hits.Delete("/5xx.warc.gz")
		caps, sum, err := collect(t, cfg, srv.URL+"/list.paths")
		if err != nil || len(caps) != 400 || sum.Files != 2 {
			t.Fatalf("err %v captures %d files %d", err, len(caps), sum.Files)
		}
	})
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"", 0}, {"7", 7 * time.Second}, {"-1", 0}, {"soon", 0},
		{"Thu, 01 Jan 2026 00:00:30 GMT", 30 * time.Second},
		{"Wed, 31 Dec 2025 23:00:00 GMT", 0},
	} {
		if got := retryAfter(tc.in, now); got != tc.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
