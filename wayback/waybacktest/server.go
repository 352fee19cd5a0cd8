// Package waybacktest serves a stand-in of the Wayback Machine on
// 127.0.0.1, for tests and measurements: the CDX API
// (cdx/search/cdx?url=HOST/robots.txt&output=json&from=&to=&fl=, SURT-like
// matching that ignores the scheme, the port and www.) and raw replays
// (web/<ts>id_/<url>: the capture at ts with Memento-Datetime, its status,
// headers and body, a Location rewritten into the archive; a timestamp
// without a capture redirected to the nearest one, without
// Memento-Datetime; 404 when the URL has none). Faults queued per request
// kind answer the next requests instead.
package waybacktest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robotstat/robotstat/wayback"
)

// Faults a Server can answer a request with.
const (
	Fault429     = "429"     // 429 with Retry-After: 1
	Fault503     = "503"     // the archive's own 503, with Retry-After: 1
	FaultCut     = "cut"     // the first half of the answer, then the connection closed
	FaultNotJSON = "notjson" // a CDX answer that is HTML
	FaultStatus  = "status"  // a replay whose status is not the capture's (500 with Memento-Datetime)
	FaultDigest  = "digest"  // a replay whose body is not the capture's
)

// A Capture is one archived capture of URL at Time.
type Capture struct {
	URL    string
	Time   time.Time
	Status int
	Header http.Header // Location as the site sent it
	Body   []byte
}

// Server is the stand-in. Safe for concurrent use.
type Server struct {
	*httptest.Server

	mu       sync.Mutex
	caps     map[string][]Capture // by URL, in time order
	faults   map[string][]string  // by "cdx" or "replay"
	requests map[string]int       // by "cdx" or "replay"
	log      []string
}

// NewServer starts a stand-in; Close it when done.
func NewServer() *Server {
	s := New()
	s.Server = httptest.NewServer(s)
	return s
}

// New returns a stand-in that is not started: an http.Handler to serve
// anywhere (its Base and Close are then not to be used).
func New() *Server {
	return &Server{caps: map[string][]Capture{}, faults: map[string][]string{}, requests: map[string]int{}}
}

// Base is the server's URL with a trailing slash: a --wayback-base.
func (s *Server) Base() string { return s.URL + "/" }

// Add archives captures.
func (s *Server) Add(cs ...Capture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range cs {
		s.caps[c.URL] = append(s.caps[c.URL], c)
		slices.SortStableFunc(s.caps[c.URL], func(a, b Capture) int { return a.Time.Compare(b.Time) })
	}
}

// Fail queues faults for the next requests of a kind, "cdx" or "replay",
// or, for any other string, of the requests whose path and query hold it.
func (s *Server) Fail(kind string, faults ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[kind] = append(s.faults[kind], faults...)
}

// Requests returns how many requests of a kind ("cdx", "replay") came.
func (s *Server) Requests(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[kind]
}

// Log returns every request's path and query, in order.
func (s *Server) Log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

const tsLayout = "20060102150405"

// key is the stand-in's SURT: host without www., lower case, without port.
func key(u string) (string, bool) {
	p, err := url.Parse(u)
	if err != nil {
		return "", false
	}
	return strings.TrimPrefix(strings.ToLower(p.Hostname()), "www.") + p.EscapedPath(), true
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	kind := ""
	switch {
	case r.URL.Path == "/cdx/search/cdx":
		kind = "cdx"
	case strings.HasPrefix(r.URL.Path, "/web/"):
		kind = "replay"
	default:
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.requests[kind]++
	s.log = append(s.log, r.URL.RequestURI())
	var fault string
	if f := s.faults[kind]; len(f) > 0 {
		fault, s.faults[kind] = f[0], f[1:]
	} else {
		for k, f := range s.faults {
			if len(f) > 0 && k != "cdx" && k != "replay" && strings.Contains(r.URL.RequestURI(), k) {
				fault, s.faults[k] = f[0], f[1:]
				break
			}
		}
	}
	s.mu.Unlock()
	switch fault {
	case Fault429:
		w.Header().Set("Retry-After", "1")
		http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
		return
	case Fault503:
		w.Header().Set("Retry-After", "1")
		http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
		return
	case FaultNotJSON:
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body>Wayback Machine is down for maintenance</body></html>"))
		return
	}
	if kind == "cdx" {
		s.cdx(w, r, fault)
		return
	}
	s.replay(w, r, fault)
}

func (s *Server) cdx(w http.ResponseWriter, r *http.Request, fault string) {
	q := r.URL.Query()
	want, ok := key("http://" + q.Get("url"))
	if !ok || q.Get("output") != "json" {
		http.Error(w, "bad query", http.StatusBadRequest)
		return
	}
	fl := strings.Split(q.Get("fl"), ",")
	from, to := q.Get("from"), q.Get("to")
	rows := [][]string{fl}
	s.mu.Lock()
	var all []Capture
	for u, cs := range s.caps {
		if k, _ := key(u); k == want {
			all = append(all, cs...)
		}
	}
	s.mu.Unlock()
	slices.SortStableFunc(all, func(a, b Capture) int {
		if c := a.Time.Compare(b.Time); c != 0 {
			return c
		}
		return strings.Compare(a.URL, b.URL)
	})
	for _, c := range all {
		ts := c.Time.UTC().Format(tsLayout)
		if (from != "" && ts[:len(from)] < from) || (to != "" && ts[:len(to)] > to) {
			continue
		}
		row := make([]string, len(fl))
		for i, f := range fl {
			switch f {
			case "timestamp":
				row[i] = ts
			case "original":
				row[i] = c.URL
			case "statuscode":
				row[i] = strconv.Itoa(c.Status)
			case "digest":
				row[i] = wayback.Digest(c.Body)
			case "mimetype":
				row[i] = c.Header.Get("Content-Type")
			case "length":
				row[i] = strconv.Itoa(len(c.Body))
			}
		}
		rows = append(rows, row)
	}
	body, _ := json.Marshal(rows)
	if len(rows) == 1 {
		body = nil // the CDX answers nothing at all when nothing matches
	}
	w.Header().Set("Content-Type", "application/json")
	write(w, http.StatusOK, body, fault == FaultCut)
}

func (s *Server) replay(w http.ResponseWriter, r *http.Request, fault string) {
	rest := strings.TrimPrefix(r.URL.RequestURI(), "/web/")
	if len(rest) < 18 || rest[14:18] != "id_/" {
		http.NotFound(w, r)
		return
	}
	at, err := time.Parse(tsLayout, rest[:14])
	if err != nil {
		http.NotFound(w, r)
		return
	}
	u := rest[18:]
	s.mu.Lock()
	cs := s.caps[u]
	s.mu.Unlock()
	if len(cs) == 0 {
		http.Error(w, "not in the archive", http.StatusNotFound)
		return
	}
	best := cs[0]
	for _, c := range cs[1:] {
		if c.Time.Sub(at).Abs() < best.Time.Sub(at).Abs() {
			best = c
		}
	}
	base := "http://" + r.Host + "/"
	if !best.Time.Equal(at) {
		w.Header().Set("Location", base+"web/"+best.Time.UTC().Format(tsLayout)+"id_/"+u)
		w.WriteHeader(http.StatusFound)
		return
	}
	for k, v := range best.Header {
		w.Header()[k] = v
	}
	if loc := best.Header.Get("Location"); loc != "" {
		w.Header().Set("Location", base+"web/"+best.Time.UTC().Format(tsLayout)+"id_/"+loc)
	}
	w.Header().Set("Memento-Datetime", best.Time.UTC().Format(http.TimeFormat))
	status, body := best.Status, best.Body
	switch fault {
	case FaultStatus:
		status = http.StatusInternalServerError
	case FaultDigest:
		body = append([]byte("# changed\n"), body...)
	}
	write(w, status, body, fault == FaultCut)
}

// write sends body, or with cut its first half under the whole length, then
// drops the connection.
func write(w http.ResponseWriter, status int, body []byte, cut bool) {
	if !cut {
		w.WriteHeader(status)
		w.Write(body)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body[:len(body)/2])
	w.(http.Flusher).Flush()
	if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
		conn.Close()
	}
}

// Robots is a capture of a /robots.txt body served 200 text/plain.
func Robots(u string, t time.Time, body string) Capture {
	return Capture{URL: u, Time: t, Status: 200, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte(body)}
}

// Redirect is a capture of a redirect of u to target.
func Redirect(u string, t time.Time, status int, target string) Capture {
	return Capture{URL: u, Time: t, Status: status, Header: http.Header{"Location": {target}, "Content-Type": {"text/html"}}, Body: []byte(fmt.Sprintf("<a href=%q>moved</a>", target))}
}
