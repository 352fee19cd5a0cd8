package ccindextest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults a Server can answer a request with, instead of the file.
const (
	FaultSlowDown = "slowdown" // 503 with S3's SlowDown XML error
	Fault403      = "403"      // 403 Forbidden, as Common Crawl's CDN answers when its rate limits trip
	Fault500      = "500"
	FaultCut      = "cut" // the first third of the answer, then the connection closed
	Fault404      = "404"
)

// Server serves a mirror folder on 127.0.0.1 as data.commoncrawl.org
// does: GET with Range (http.ServeContent: single ranges, suffix ranges,
// 206 with Content-Range, 416). Faults queued per path with Fail answer
// that path's next requests, in order. It counts requests and bytes sent
// per path. Safe for concurrent use.
type Server struct {
	*httptest.Server
	dir string

	mu       sync.Mutex
	faults   map[string][]string
	requests map[string]int
	bytes    map[string]int64
	ranges   []string // "path range" of every request, in order
	times    []time.Time
}

// NewServer starts a server of dir; Close it when done.
func NewServer(dir string) *Server {
	s := &Server{dir: dir, faults: map[string][]string{}, requests: map[string]int{}, bytes: map[string]int64{}}
	s.Server = httptest.NewServer(s)
	return s
}

// Base is the server's URL with a trailing slash: a --cc-base.
func (s *Server) Base() string { return s.URL + "/" }

// Fail queues faults for the next requests of rel (a path below the base,
// without a leading slash).
func (s *Server) Fail(rel string, faults ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults["/"+rel] = append(s.faults["/"+rel], faults...)
}

// Requests returns how many requests rel got; Bytes how many bytes of
// answer bodies were sent for it.
func (s *Server) Requests(rel string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests["/"+rel]
}

// Bytes returns the body bytes sent for rel.
func (s *Server) Bytes(rel string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes["/"+rel]
}

// Total returns the requests and body bytes of every path whose name
// contains part (all paths for "").
func (s *Server) Total(part string) (requests int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p, n := range s.requests {
		if strings.Contains(p, part) {
			requests += n
			bytes += s.bytes[p]
		}
	}
	return requests, bytes
}

// Log returns "path range" for every request so far, in arrival order.
func (s *Server) Log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.ranges...)
}

// Times returns when each request arrived.
func (s *Server) Times() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.times...)
}

type countWriter struct {
	http.ResponseWriter
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n += int64(n)
	return n, err
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	s.mu.Lock()
	s.requests[p]++
	s.ranges = append(s.ranges, p+" "+r.Header.Get("Range"))
	s.times = append(s.times, time.Now())
	var fault string
	if f := s.faults[p]; len(f) > 0 {
		fault, s.faults[p] = f[0], f[1:]
	}
	s.mu.Unlock()
	cw := &countWriter{ResponseWriter: w}
	defer func() {
		s.mu.Lock()
		s.bytes[p] += cw.n
		s.mu.Unlock()
	}()
	switch fault {
	case FaultSlowDown:
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusServiceUnavailable)
		cw.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`))
		return
	case Fault403:
		http.Error(cw, "Forbidden", http.StatusForbidden)
		return
	case Fault500:
		http.Error(cw, "Internal Server Error", http.StatusInternalServerError)
		return
	case Fault404:
		http.NotFound(cw, r)
		return
	}
	name := filepath.Join(s.dir, filepath.FromSlash(strings.TrimPrefix(p, "/")))
	f, err := os.Open(name)
	if err != nil {
		http.NotFound(cw, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		http.NotFound(cw, r)
		return
	}
	if fault == FaultCut {
		// Answer as ServeContent would, then drop the connection a third
		// of the way into the body.
		rec := httptest.NewRecorder()
		http.ServeContent(rec, r, st.Name(), st.ModTime(), f)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		body := rec.Body.Bytes()
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.Code)
		cw.Write(body[:len(body)/3])
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	http.ServeContent(cw, r, st.Name(), st.ModTime(), f)
}
