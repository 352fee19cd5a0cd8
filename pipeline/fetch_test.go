package pipeline

import (
	"context"
	"errors"
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
	hits   sync.Map // path -> *atomic.Int32
	ranges sync.Map // path -> []string (Range headers seen)
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
	var recs [][]byte
	for i := range 200 {
		recs = append(recs, robotsResp("h"+strconv.Itoa(i)+".example", robotsBody))
	}
	fs := &faultServer{data: gzipMembers(recs...)}
	srv := httptest.NewServer(fs) // listens on 127.0.0.1 only
	defer srv.Close()

	var mu sync.Mutex
	var delays []time.Duration
	cfg := Config{
		Workers: 2,
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
		{"/drop.warc.gz", 200, 2, nil, []time.Duration{10 * time.Millisecond}, "bytes=" + strconv.Itoa(len(fs.data)/3) + "-"},
		{"/drop-norange.warc.gz", 200, 2, nil, []time.Duration{10 * time.Millisecond}, "bytes=" + strconv.Itoa(len(fs.data)/3) + "-"},
		{"/always503.warc.gz", 0, 4, ErrGaveUp, nil, ""},
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
			if len(caps) != tc.captures || (err == nil && (sum.HadErrors() || sum.Bytes != int64(len(fs.data)))) {
				t.Errorf("captures %d bytes %d errors %v", len(caps), sum.Bytes, sum.Diagnostics)
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
		})
	}
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
