package wayback

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/robotstat/robotstat/internal/weburl"
	"github.com/robotstat/robotstat/parse"
)

// A Getter makes one polite GET (paced, refusals retried): it returns the
// archive's answer, whatever its status, once that answer is not a
// refusal of the archive's own (429, 5xx without Memento-Datetime). An
// error is the run's (the endpoint refuses, the context ended), except
// one wrapping ErrCut: the answer's body ended before its length.
// ReadSite calls it from one goroutine.
type Getter interface {
	Get(ctx context.Context, url string) (*Response, error)
}

// Config says what ReadSite reads. A plain value.
type Config struct {
	// Base is the archive's root, ending in "/" (https://web.archive.org/).
	Base string
	// Range is the months read.
	Range Range
	// Archive is the folder every answer of the site is kept in (see
	// archive); "" keeps none.
	Archive string
	// Now dates the CDX answers archived; time.Now when nil.
	Now func() time.Time
}

// DefaultBase is the Wayback Machine.
const DefaultBase = "https://web.archive.org/"

// A Capture is one capture a listed host's answer in a month is made of:
// the first of the month of its /robots.txt (Hop 0), then each redirect
// target (Hop 1...). Record is its WARC response record (uncompressed),
// dated when the archive captured it, with the archived status, headers
// (a Location as the site sent it, not rewritten into the archive) and
// body. A plain value; Record is its own.
type Capture struct {
	Month  Month
	Host   string
	Hop    int
	URL    string
	Time   time.Time
	Replay string // the replay its body came from
	Reused bool   // the body of an earlier replay of URL with the same digest
	Record []byte
}

// An Error is bad input, located by the URL that gave it (a CDX query or
// a replay) and, when it cost one, the host and month whose answer it is.
type Error struct {
	URL   string
	Host  string // "" when every host of the query
	Month Month  // -1 when every month
	Err   error
}

func (e *Error) Error() string {
	where := e.URL
	if e.Host != "" && e.Month >= 0 {
		where += " (" + e.Host + ", " + e.Month.String() + ")"
	}
	return where + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Result is what ReadSite read of a site's hosts; the caller's to keep.
type Result struct {
	// Captures in month order, then host, then hop.
	Captures []Capture
	Errors   []*Error
	// Found and Failed per host and month (index Month-Range.From): a
	// month neither found nor failed had no capture.
	Found, Failed map[string][]bool
	// Requests made: CDX queries and replays (the archive's redirects to
	// the nearest capture included); Reused counts captures whose body an
	// earlier replay gave; Archived answers read back from Config.Archive
	// instead of fetched.
	CDXRequests, Replays, Reused, Archived int
}

type site struct {
	g      Getter
	cfg    Config
	ar     archive
	rows   []Row                // every CDX row of the site, by timestamp
	bodies map[string]*Response // by URL + " " + status + " " + digest
	res    *Result
}

// ReadSite reads the answers of hosts, which share a SiteKey, for every
// month of cfg.Range: one CDX query, then the replays the answers need.
// Bad input is in Result.Errors; the error returned is the run's (the
// Getter's, or the archive folder's). Calls for different sites may run
// at once (each has its own archive folder).
func ReadSite(ctx context.Context, g Getter, cfg Config, hosts []string) (*Result, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &site{g: g, cfg: cfg, ar: archive{cfg.Archive}, bodies: map[string]*Response{},
		res: &Result{Found: map[string][]bool{}, Failed: map[string][]bool{}}}
	n := cfg.Range.Months()
	for _, h := range hosts {
		s.res.Found[h], s.res.Failed[h] = make([]bool, n), make([]bool, n)
	}
	q := QueryURL(cfg.Base, SiteKey(hosts[0]), cfg.Range)
	resp, err := s.get(ctx, q, "", false)
	if err == nil && resp.Status != http.StatusOK {
		err = &Error{URL: q, Month: -1, Err: fmt.Errorf("%w: status %d", ErrCDX, resp.Status)}
	}
	if err == nil {
		s.rows, err = ParseCDX(resp.Body)
		if err != nil {
			err = &Error{URL: q, Month: -1, Err: err}
		}
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return nil, err
		}
		s.res.Errors = append(s.res.Errors, e)
		for _, h := range hosts {
			for i := range s.res.Failed[h] {
				s.res.Failed[h][i] = true
			}
		}
		return s.res, nil
	}
	// The first capture of each host's /robots.txt in each month.
	first := make(map[string][]*Row, len(hosts))
	for _, h := range hosts {
		first[h] = make([]*Row, n)
	}
	for i := range s.rows {
		r := &s.rows[i]
		m, _ := tsMonth(r.Timestamp)
		if m < cfg.Range.From || m > cfg.Range.To {
			continue
		}
		for _, h := range hosts {
			if f := first[h]; f[m-cfg.Range.From] == nil && robotsOf(r.Original, h) {
				f[m-cfg.Range.From] = r
			}
		}
	}
	for i := range n {
		m := cfg.Range.From + Month(i)
		emitted := map[string]bool{}
		for _, h := range hosts {
			r := first[h][i]
			if r == nil {
				continue
			}
			caps, err := s.chain(ctx, m, h, r)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					return nil, err
				}
				s.res.Errors = append(s.res.Errors, e)
				s.res.Failed[h][i] = true
				continue
			}
			s.res.Found[h][i] = true
			for _, c := range caps {
				// Hosts of one site whose redirects meet share the target's
				// capture: it is one capture of the month.
				k := c.URL + " " + c.Time.String()
				if !emitted[k] {
					emitted[k] = true
					s.res.Captures = append(s.res.Captures, c)
				}
			}
		}
	}
	return s.res, nil
}

// tsMonth is the month of a 14-digit timestamp.
func tsMonth(ts string) (Month, bool) { return ParseMonth(ts[:4] + "-" + ts[4:6]) }

func tsTime(ts string) time.Time {
	t, _ := time.Parse("20060102150405", ts)
	return t
}

// chain reads the answer of host in month m: the capture r and the
// redirects it leads to. Any bad input in it is the month's Error, and
// none of its captures is kept.
func (s *site) chain(ctx context.Context, m Month, host string, r *Row) ([]Capture, error) {
	var out []Capture
	u, ts, row := r.Original, r.Timestamp, r
	seen := map[string]bool{}
	for hop := 0; ; hop++ {
		seen[u] = true
		c, resp, err := s.capture(ctx, u, ts, row)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Host, e.Month = host, m
			}
			return nil, err
		}
		if resp == nil {
			return out, nil // a redirect target the archive has no capture of
		}
		c.Month, c.Host, c.Hop = m, host, hop
		loc := ""
		if parse.StatusOutcome(resp.Status, parse.StatusOptions{}) == parse.OutcomeRedirect {
			loc = s.unrewrite(resp.Header.Get("Location"), c.URL)
		}
		c.Record = captureRecord(c, resp, loc)
		out = append(out, *c)
		// The targets of the first parse.MaxRedirects redirects are read,
		// as ccpanel.go reads a crawl's: robotstat sites decides what a
		// longer chain is.
		if loc == "" || hop >= parse.MaxRedirects || seen[loc] {
			return out, nil
		}
		// The target: from the site's own rows when they list it (its
		// capture nearest in time, as the archive would pick), else
		// through the archive at this capture's time.
		u, ts, row = loc, c.Time.Format("20060102150405"), s.nearest(loc, c.Time)
		if row != nil {
			ts = row.Timestamp
		}
	}
}

// nearest is the site's CDX row of u closest in time to t (the earlier on
// a tie), nil when none.
func (s *site) nearest(u string, t time.Time) *Row {
	var best *Row
	var bd time.Duration
	for i := range s.rows {
		r := &s.rows[i]
		if r.Original != u {
			continue
		}
		d := tsTime(r.Timestamp).Sub(t)
		if d < 0 {
			d = -d
		}
		if best == nil || d < bd {
			best, bd = r, d
		}
	}
	return best
}

// unrewrite turns a replay's Location back into the URL the site named:
// the archive writes it as {base}web/<ts>id_/<target> (or without base).
func (s *site) unrewrite(loc, from string) string {
	if loc == "" {
		return ""
	}
	rest := loc
	if b, ok := strings.CutPrefix(rest, s.cfg.Base); ok {
		rest = "/" + b
	} else if u, err := url.Parse(loc); err == nil && u.IsAbs() {
		if bu, err := url.Parse(s.cfg.Base); err == nil && u.Host == bu.Host {
			rest = loc[strings.Index(loc, u.Host)+len(u.Host):]
		}
	}
	if t, ok := strings.CutPrefix(rest, "/web/"); ok {
		if i := strings.Index(t, "/"); i > 0 && strings.HasPrefix(t[i+1:], "http") {
			return t[i+1:]
		}
	}
	return weburl.ResolveLocation(from, loc)
}

// replayTS is the timestamp of a replay URL {base}web/<ts>id_/..., "".
func (s *site) replayTS(u string) string {
	rest, ok := strings.CutPrefix(u, s.cfg.Base+"web/")
	if !ok || len(rest) < 14 || !isTimestamp(rest[:14]) {
		return ""
	}
	return rest[:14]
}

// maxArchiveHops bounds the archive's own redirects (to the capture
// nearest a timestamp) followed for one capture.
const maxArchiveHops = 3

// capture reads the capture of u at ts, row its CDX row when the site's
// rows list it: its body reused when row's digest was read for u before,
// else replayed (and checked against row). A nil response without error
// is a redirect target the archive has no capture of.
func (s *site) capture(ctx context.Context, u, ts string, row *Row) (*Capture, *Response, error) {
	if row != nil && row.Digest != "" && row.Digest != "-" && row.Status != "-" && !isRedirect(row.Status) {
		if prev := s.bodies[u+" "+row.Status+" "+row.Digest]; prev != nil {
			s.res.Reused++
			return &Capture{URL: u, Time: tsTime(row.Timestamp), Replay: prev.Header.Get("X-Robotstat-Replay"), Reused: true}, prev, nil
		}
	}
	replay := ReplayURL(s.cfg.Base, ts, u)
	for range maxArchiveHops + 1 {
		resp, err := s.get(ctx, replay, s.replayTS(replay), true)
		if err != nil {
			return nil, nil, err
		}
		if !resp.memento() {
			switch {
			case resp.Status >= 300 && resp.Status < 400 && resp.Header.Get("Location") != "":
				next := weburl.ResolveLocation(replay, resp.Header.Get("Location"))
				if s.replayTS(next) == "" {
					return nil, nil, &Error{URL: replay, Err: fmt.Errorf("%w: the archive redirects out of itself, to %q", ErrRedirect, excerpt(next))}
				}
				replay = next
				u = s.unrewrite(next, u)
				continue
			case resp.Status == http.StatusNotFound && row == nil:
				return nil, nil, nil
			}
			return nil, nil, &Error{URL: replay, Err: fmt.Errorf("%w: status %d without Memento-Datetime", ErrReplay, resp.Status)}
		}
		cts := s.replayTS(replay)
		digest := Digest(resp.Body)
		if row != nil && cts == row.Timestamp {
			if row.Status != "-" && row.Status != strconv.Itoa(resp.Status) {
				return nil, nil, &Error{URL: replay, Err: fmt.Errorf("%w: the replay is %d, the row %s", ErrStatus, resp.Status, row.Status)}
			}
			if row.Digest != "" && row.Digest != "-" && digest != row.Digest && !isRedirect(row.Status) {
				return nil, nil, &Error{URL: replay, Err: fmt.Errorf("%w: the replay's is %s, the row's %s", ErrDigest, digest, row.Digest)}
			}
		}
		resp.Header.Set("X-Robotstat-Replay", replay)
		s.bodies[u+" "+strconv.Itoa(resp.Status)+" "+digest] = resp
		return &Capture{URL: u, Time: tsTime(cts), Replay: replay}, resp, nil
	}
	return nil, nil, &Error{URL: replay, Err: fmt.Errorf("%w: more than %d redirects of the archive's own", ErrRedirect, maxArchiveHops)}
}

func isRedirect(status string) bool { return len(status) == 3 && status[0] == '3' }

// get returns the answer to u: read back from the archive folder, else
// fetched and archived there (dated its capture's timestamp ts, or now).
func (s *site) get(ctx context.Context, u, ts string, replay bool) (*Response, error) {
	if r, err := s.ar.load(u, ts); err != nil || r != nil {
		if r != nil {
			s.res.Archived++
		}
		return r, err
	}
	r, err := s.g.Get(ctx, u)
	if replay {
		s.res.Replays++
	} else {
		s.res.CDXRequests++
	}
	if err != nil {
		if errors.Is(err, ErrCut) {
			return nil, &Error{URL: u, Err: err}
		}
		return nil, err
	}
	date := s.cfg.Now()
	if ts != "" && r.memento() {
		date = tsTime(ts)
	}
	if err := s.ar.store(u, ts, date, r); err != nil {
		return nil, err
	}
	return r, nil
}

// captureRecord is the WARC record of c as the site served it: the
// archived status, the archived header fields (X-Archive-Orig-* when the
// archive prefixes them, else its answer's but its own), Location the
// target the site named.
func captureRecord(c *Capture, r *Response, loc string) []byte {
	h := http.Header{}
	orig := false
	for k, vs := range r.Header {
		if n, ok := strings.CutPrefix(k, "X-Archive-Orig-"); ok {
			h[http.CanonicalHeaderKey(n)] = vs
			orig = true
		}
	}
	if !orig {
		// The archive's Date and Server are its own, not the site's.
		for k, vs := range r.Header {
			h[k] = vs
		}
	}
	for _, k := range []string{"Memento-Datetime", "Link", "X-Robotstat-Replay", "Content-Length", "Transfer-Encoding", "Connection", "Date", "Server"} {
		h.Del(k)
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && h.Get("Content-Type") == "" {
		h.Set("Content-Type", ct)
	}
	if loc != "" {
		h.Set("Location", loc)
	}
	h.Set("Content-Length", strconv.Itoa(len(r.Body)))
	// The month salts the id: a capture two months share (the nearest
	// capture of a redirect target) is a capture of each crawl.
	return responseRecord(c.Month.Crawl(), c.URL, c.Time, r, h, c.Replay)
}
