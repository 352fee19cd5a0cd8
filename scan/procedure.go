package scan

import (
	"context"
	"hash/maphash"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/warc"
)

// hostLocks serialises fetches per host: a fetch holds the stripe of its
// URL's host. Striping keeps memory fixed whatever the number of hosts; two
// hosts that share a stripe only wait for each other.
type hostLocks struct {
	seed    maphash.Seed
	stripes [4096]sync.Mutex
}

func (l *hostLocks) lock(host string) *sync.Mutex {
	m := &l.stripes[maphash.String(l.seed, strings.ToLower(host))%uint64(len(l.stripes))]
	m.Lock()
	return m
}

// worker runs the procedure for one host at a time. Its buffers are reused
// from host to host.
type worker struct {
	s       *scanner
	f       fetched
	fld     fields
	scratch []byte
	visited []string
}

// end is how a host's procedure ended.
type end struct {
	outcome  parse.Outcome
	fetches  int
	last     *fetched // the last fetch
	settled  string   // record id of the response that settled the host
	reqID    string   // record id of the last fetch's request
	kind     string   // a failure kind, or ""
	detail   string
	redirect bool // ended on an unfollowed redirect
}

// host runs RFC 9309's procedure for host and writes its records. It
// returns an error only when the run must stop (cancelled, or the writer
// failed).
func (w *worker) host(ctx context.Context, host string) error {
	cfg := w.s.cfg
	e := end{}
	for si, scheme := range cfg.Schemes {
		u := &url.URL{Scheme: scheme, Host: bracket(host), Path: "/robots.txt"}
		w.visited = append(w.visited[:0], u.String())
		for hop := 0; ; hop++ {
			mu := w.s.locks.lock(u.Hostname())
			err := w.s.fetcher.fetch(ctx, u, &w.f)
			mu.Unlock()
			if err != nil {
				return err
			}
			e.fetches++
			e.last = &w.f
			w.s.fetches.Add(1)
			reqID, respID, err := w.writeFetch(ctx, &w.f)
			if err != nil {
				return err
			}
			e.reqID, e.settled = reqID, respID
			if fl := w.f.fail; fl != nil {
				if hop == 0 && si+1 < len(cfg.Schemes) && fl.kind != KindDNS && fl.kind != KindBlocked {
					next := url.URL{Scheme: cfg.Schemes[si+1], Host: u.Host, Path: "/robots.txt"}
					if err := w.writeFailure(ctx, &w.f, reqID, next.String()); err != nil {
						return err
					}
					break // the next scheme
				}
				e.outcome, e.kind, e.detail = parse.OutcomeUnreachable, fl.kind, fl.detail
				return w.writeEnd(ctx, host, &e)
			}
			e.outcome = parse.StatusOutcome(w.f.status, parse.StatusOptions{})
			if e.outcome != parse.OutcomeRedirect {
				return w.writeEnd(ctx, host, &e)
			}
			target, ok := resolveLocation(u, w.f.location)
			switch {
			case !ok:
				e.redirect = true
				e.detail = "no usable Location: " + capString(w.f.location, 200)
				return w.writeEnd(ctx, host, &e)
			case hop >= cfg.MaxRedirects:
				e.outcome, e.kind = parse.OutcomeUnavailable, KindTooManyRedirects
				e.detail = "still redirecting after " + strconv.Itoa(hop) + " redirects (RFC 9309 section 2.3.1.2); next was " + capString(target.String(), 200)
				return w.writeEnd(ctx, host, &e)
			case contains(w.visited, target.String()):
				e.outcome, e.kind = parse.OutcomeUnavailable, KindLoop
				e.detail = "redirected back to " + capString(target.String(), 200)
				return w.writeEnd(ctx, host, &e)
			}
			w.visited = append(w.visited, target.String())
			u = target
		}
	}
	panic("unreachable: the last scheme always ends the host")
}

// resolveLocation resolves a Location against the request URL; only http
// and https targets can be followed.
func resolveLocation(base *url.URL, loc string) (*url.URL, bool) {
	loc = strings.TrimSpace(loc)
	if loc == "" {
		return nil, false
	}
	t, err := base.Parse(loc)
	if err != nil || (t.Scheme != "http" && t.Scheme != "https") || t.Host == "" {
		return nil, false
	}
	t.Fragment, t.RawFragment = "", ""
	if t.Path == "" {
		t.Path = "/"
	}
	return t, true
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// bracket wraps an IPv6 address for a URL's host.
func bracket(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// writeFetch writes the request and response records of a fetch and
// returns their ids ("" for a record not written).
func (w *worker) writeFetch(ctx context.Context, f *fetched) (reqID, respID string, err error) {
	if f.request != nil {
		reqID = warc.NewRecordID()
		h := warc.RecordHeader{Type: typeRequest, ID: reqID, Date: f.date, TargetURI: f.url, IP: f.ip, ContentType: mediaRequest}
		if err := w.s.send(ctx, &h, f.request); err != nil {
			return "", "", err
		}
	}
	if f.response != nil {
		respID = warc.NewRecordID()
		h := warc.RecordHeader{Type: typeResponse, ID: respID, Date: f.date, TargetURI: f.url, IP: f.ip,
			ConcurrentTo: reqID, ContentType: mediaResponse, PayloadDigest: warc.SHA1Digest(f.payload(&w.scratch))}
		if cap(w.scratch) > keepBuffer {
			w.scratch = nil
		}
		if f.truncated {
			h.Truncated = "length"
			h.PayloadLength = strconv.FormatInt(f.payloadLen, 10)
		}
		if err := w.s.send(ctx, &h, f.response); err != nil {
			return "", "", err
		}
	}
	return reqID, respID, nil
}

// writeFailure writes the metadata record of a failed fetch after which the
// procedure went on at next.
func (w *worker) writeFailure(ctx context.Context, f *fetched, reqID, next string) error {
	w.fld.b = w.fld.b[:0]
	w.failureFields(f.fail.kind, f.fail.detail, f)
	w.fld.add("next", next)
	h := warc.RecordHeader{Type: typeMetadata, ID: warc.NewRecordID(), Date: f.date, TargetURI: f.url, IP: f.ip,
		ConcurrentTo: reqID, ContentType: mediaFields}
	w.s.failures[kindIndex(f.fail.kind)].Add(1)
	return w.s.send(ctx, &h, w.fld.b)
}

func (w *worker) failureFields(kind, detail string, f *fetched) {
	w.fld.add("fetchError", kind)
	w.fld.add("fetchErrorDetail", detail)
	if f != nil && f.fail != nil {
		w.fld.addInt("fetchTimeMs", f.elapsed.Milliseconds())
		if f.status != 0 {
			w.fld.addInt("httpStatus", int64(f.status))
			w.fld.addInt("receivedBytes", f.received)
		}
	}
}

// writeEnd writes the host's end record, its last.
func (w *worker) writeEnd(ctx context.Context, host string, e *end) error {
	f := e.last
	w.fld.b = w.fld.b[:0]
	w.fld.add("host", host)
	w.fld.add("outcome", e.outcome.String())
	w.fld.addInt("fetches", int64(e.fetches))
	h := warc.RecordHeader{Type: typeMetadata, ID: warc.NewRecordID(), Date: f.date, TargetURI: f.url, IP: f.ip, ContentType: mediaFields}
	if f.fail == nil {
		h.RefersTo = e.settled
		w.fld.addInt("status", int64(f.status))
		w.fld.addInt("payloadLength", f.payloadLen)
		if f.payloadCapped {
			w.fld.add("payloadLengthCapped", "true")
		}
		if e.kind != "" || e.redirect {
			w.failureFields(e.kind, e.detail, nil)
		}
	} else {
		h.ConcurrentTo = e.reqID
		w.failureFields(e.kind, e.detail, f)
		w.fld.addInt("fetchStatus", int64(fetchStatus(e.kind)))
	}
	if e.kind != "" {
		w.s.failures[kindIndex(e.kind)].Add(1)
	}
	w.s.outcomes[e.outcome].Add(1)
	if err := w.s.send(ctx, &h, w.fld.b); err != nil {
		return err
	}
	w.s.hostsDone.Add(1)
	return nil
}

func kindIndex(kind string) int {
	for i, k := range Kinds {
		if k == kind {
			return i
		}
	}
	return len(Kinds) - 1
}
