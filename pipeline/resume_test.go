package pipeline

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// resumeServer serves one WARC on 127.0.0.1: the first request gets a
// third of it and a cut connection, the resumes what answer says (each
// the way a misbehaving server or CDN answers a Range request).
type resumeServer struct {
	data, other []byte // other: another version of the object
	answer      func(s *resumeServer, w http.ResponseWriter, from, try int)
	hits        atomic.Int32
}

func (s *resumeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(s.hits.Add(1))
	if n == 1 {
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(s.data)))
		w.WriteHeader(http.StatusOK)
		w.Write(s.data[:len(s.data)/3+17]) // inside a gzip member
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	from, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.Header.Get("Range"), "bytes="), "-"))
	s.answer(s, w, from, n-1)
}

// partial answers 206 with the Content-Range header given and body.
func partial(w http.ResponseWriter, contentRange string, body []byte, length bool) {
	w.Header().Set("Content-Range", contentRange)
	if length {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(http.StatusPartialContent)
	w.Write(body)
	w.(http.Flusher).Flush()
}

func rangeOf(from, total int) string {
	return "bytes " + strconv.Itoa(from) + "-" + strconv.Itoa(total-1) + "/" + strconv.Itoa(total)
}

// TestResumeChecked (issue 26.2): a resume's answer is checked before its
// bytes are used. A server that ignores Range with the same object is
// read on (its first bytes skipped); one whose answer is another version
// (ETag, length) fails the input at once with where and why; one that
// lies in Content-Range (another start, a body longer than the range, the
// file's start under a header that says otherwise) is retried and, if it
// keeps lying, given up, never spliced. Before, a 206 whose header named
// the offset but whose body was the whole file was spliced in: 80
// captures of 60, with duplicated ids and a record lost at the seam.
func TestResumeChecked(t *testing.T) {
	t.Parallel()
	var recs, recs2 [][]byte
	for i := range 60 {
		recs = append(recs, robotsResp("h"+strconv.Itoa(i)+".example", robotsBody))
		recs2 = append(recs2, robotsResp("v2-h"+strconv.Itoa(i)+".example", robotsBody))
	}
	data, other := gzipMembers(recs...), gzipMembers(recs2...)
	cases := []struct {
		name   string
		answer func(s *resumeServer, w http.ResponseWriter, from, try int)
		ok     bool   // read whole: 60 captures
		err    error  // else the error, with captures before kept
		msg    string // in the error
		hits   int    // requests in all
	}{
		{name: "ignores_range_same_object", ok: true, hits: 2, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			w.Header().Set("ETag", `"v1"`)
			w.Write(s.data)
		}},
		{name: "honest_range", ok: true, hits: 2, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			partial(w, rangeOf(from, len(s.data)), s.data[from:], true)
		}},
		{name: "ignores_range_other_version", err: ErrChanged, msg: `ETag "v2", was "v1"`, hits: 2, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			w.Header().Set("ETag", `"v2"`)
			w.Write(s.other)
		}},
		{name: "ignores_range_other_length", err: ErrChanged, msg: "bytes long, was", hits: 2, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			w.Header().Set("Content-Length", strconv.Itoa(len(s.data)+5))
			w.Write(append(append([]byte(nil), s.data...), "12345"...))
		}},
		{name: "range_of_other_version", err: ErrChanged, msg: `ETag "v2"`, hits: 2, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			w.Header().Set("ETag", `"v2"`)
			partial(w, rangeOf(from, len(s.other)), s.other[from:], true)
		}},
		{name: "ignores_range_other_bytes", err: ErrGaveUp, msg: "differ from those read before", hits: 4, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			w.Write(s.other[:len(s.data)])
		}},
		{name: "wrong_start", err: ErrGaveUp, msg: `got Content-Range "bytes 0-`, hits: 4, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			partial(w, rangeOf(0, len(s.data)), s.data, true)
		}},
		{name: "body_longer_than_range", err: ErrGaveUp, msg: "Content-Length says", hits: 4, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			partial(w, rangeOf(from, len(s.data)), s.data, true) // the whole file under the offset's header
		}},
		{name: "file_start_under_the_offsets_header", err: ErrGaveUp, msg: "differ from those read before", hits: 4, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			partial(w, rangeOf(from, len(s.data)), s.data[:len(s.data)-from], false) // chunked: no length to catch it
		}},
		{name: "lies_once_then_honest", ok: true, hits: 3, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			if try == 1 {
				partial(w, rangeOf(from, len(s.data)), s.data, true)
				return
			}
			partial(w, rangeOf(from, len(s.data)), s.data[from:], true)
		}},
		{name: "past_the_end_before_it", err: ErrChanged, msg: "past the end", hits: 2, answer: func(s *resumeServer, w http.ResponseWriter, from, try int) {
			w.Header().Set("Content-Range", "bytes */"+strconv.Itoa(from))
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
		}},
	}
	cfg := Config{
		Workers: 2,
		Rate:    -1,
		Retry:   RetryPolicy{MaxTries: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond},
		// No real waits: the retries are what is tested, not their pace.
		testSleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() },
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &resumeServer{data: data, other: other, answer: c.answer}
			srv := httptest.NewServer(s)
			defer srv.Close()
			url := srv.URL + "/x.warc.gz"
			caps, sum, err := collect(t, cfg, url)
			ids := map[string]int{}
			for _, g := range caps {
				ids[g.URL]++
			}
			if len(ids) != len(caps) {
				t.Errorf("%d captures, %d distinct: bytes were spliced", len(caps), len(ids))
			}
			for u := range ids {
				if strings.Contains(u, "v2-") {
					t.Errorf("a capture of the other version: %s", u)
				}
			}
			if c.ok {
				if err != nil || len(caps) != 60 || sum.HadErrors() || sum.Bytes != int64(len(data)) {
					t.Errorf("err %v, %d captures, errors %v, %d bytes; want the whole file", err, len(caps), sum.Diagnostics, sum.Bytes)
				}
			} else {
				if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), url) {
					t.Errorf("err %v, want %v naming %s and %q", err, c.err, url, c.msg)
				}
				if len(caps) == 0 || len(caps) >= 60 {
					t.Errorf("%d captures before the failure", len(caps))
				}
			}
			if n := int(s.hits.Load()); n != c.hits {
				t.Errorf("%d requests, want %d", n, c.hits)
			}
		})
	}
}

// TestContentEncodingIgnored (issue 26.2): a .warc.gz served with
// Content-Encoding: gzip (a common misconfiguration) was decompressed by
// the transport, counted decompressed, and then resumed at that count in
// the stored, compressed bytes: 19 captures of 60 and broken members.
// Every request asks for identity, so offsets are the stored bytes'.
func TestContentEncodingIgnored(t *testing.T) {
	t.Parallel()
	var recs [][]byte
	for i := range 60 {
		recs = append(recs, robotsResp("h"+strconv.Itoa(i)+".example", robotsBody))
	}
	data := gzipMembers(recs...)
	var hits atomic.Int32
	var accept atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept.Store(r.Header.Get("Accept-Encoding"))
		w.Header().Set("Content-Encoding", "gzip") // the file's own gzip, labelled as a coding
		if hits.Add(1) == 1 {
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			w.WriteHeader(http.StatusOK)
			w.Write(data[:len(data)/2])
			w.(http.Flusher).Flush()
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		from, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.Header.Get("Range"), "bytes="), "-"))
		partial(w, rangeOf(from, len(data)), data[from:], true)
	}))
	defer srv.Close()
	cfg := Config{Rate: -1, Retry: RetryPolicy{MaxTries: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond},
		testSleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}
	caps, sum, err := collect(t, cfg, srv.URL+"/x.warc.gz")
	if err != nil || len(caps) != 60 || sum.HadErrors() || sum.Bytes != int64(len(data)) {
		t.Errorf("err %v, %d captures, errors %v, %d bytes of %d", err, len(caps), sum.Diagnostics, sum.Bytes, len(data))
	}
	if a := accept.Load(); a != "identity" {
		t.Errorf("Accept-Encoding %q, want identity", a)
	}
}
