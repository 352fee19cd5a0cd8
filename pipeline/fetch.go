package pipeline

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// fetcher streams http(s) inputs: it retries 403, 429 and 5xx with backoff
// and Retry-After, recognises S3's 503 SlowDown, and resumes a dropped or
// stalled connection with a Range request, so that a multi-gigabyte WARC
// never lands on disk and one hiccup does not cost the whole download. A
// resume's answer is checked before it is used (RFC 9110 sections 14.4
// and 8.8: its Content-Range, its length, its validators, and the
// resumeOverlap bytes it repeats), so that bytes of another offset or of
// another version of the object are never spliced into the stream.
// Every request has a connect, a response-header and an idle-read timeout
// (Config.ConnectTimeout, HeaderTimeout, IdleTimeout), whatever the
// client: a server that stalls is a failed try, not a hung run.
//
// Politeness: at most Config.Downloads bodies are open at once (a download
// holds its slot from its first request to Close), and every request of
// every download takes its turn from one pacer (Config.Rate).
type fetcher struct {
	client   *http.Client
	retry    RetryPolicy
	timeouts timeouts
	sleep    func(ctx context.Context, d time.Duration) error // tests record delays
	slots    chan struct{}                                    // one per download in progress
	pace     *pacer
	onRetry  func(RetryEvent) // Config.OnRetry
	s3       S3Getter

	stopAfter int          // Config.StopAfterRefused
	refused   atomic.Int64 // downloads in a row that gave up refused
	minRate   float64      // Config.MinRate, bytes a second over each idle timeout; <= 0 none
}

// pacer spaces requests at least interval apart, over every download of a
// run: the request budget of Config.Rate. Safe for concurrent use.
type pacer struct {
	interval time.Duration // 0: no limit
	mu       sync.Mutex
	next     time.Time // the earliest moment of the next request
	now      func() time.Time
}

func newPacer(rate float64) *pacer {
	p := &pacer{now: time.Now}
	if rate > 0 {
		p.interval = time.Duration(float64(time.Second) / rate)
	}
	return p
}

// wait blocks until the caller's turn: turns are handed out in call order,
// each interval after the one before.
func (p *pacer) wait(ctx context.Context) error {
	if p.interval == 0 {
		return ctx.Err()
	}
	p.mu.Lock()
	now := p.now()
	at := p.next
	if at.Before(now) {
		at = now
	}
	p.next = at.Add(p.interval)
	p.mu.Unlock()
	return sleepCtx(ctx, at.Sub(now))
}

type timeouts struct{ connect, header, idle time.Duration }

// newFetcher returns the fetcher of a run: cfg's client, with redirect
// loops stopped at once (see checkRedirect).
func newFetcher(cfg *Config) *fetcher {
	c := *cfg.HTTPClient // a copy: the caller's client is not changed
	next := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := checkRedirect(req, via); err != nil {
			return err
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &fetcher{
		client:   &c,
		retry:    cfg.Retry,
		timeouts: timeouts{cfg.ConnectTimeout, cfg.HeaderTimeout, cfg.IdleTimeout},
		sleep:    sleepCtx,
		slots:    make(chan struct{}, cfg.Downloads),
		pace:     newPacer(cfg.Rate),
		onRetry:  cfg.OnRetry,
		s3:       cfg.S3,

		stopAfter: cfg.StopAfterRefused,
		minRate:   cfg.MinRate,
	}
}

// errRedirect marks a redirect chain that cannot end: retrying it costs the
// whole backoff (31 s with the defaults) for the same answer.
var errRedirect = errors.New("redirect loop")

// errRedirectScheme is a redirect to something other than http(s) (file:,
// ftp:, data:): no try will follow it, so none is retried.
var errRedirectScheme = errors.New("redirect to a scheme other than http and https")

// permanent reports a failed try that no retry can change: the server's
// certificate does not verify (wget and curl do not retry it either), or a
// redirect names what cannot be fetched. Retried, each cost the whole
// backoff (6 tries over 31 s with the defaults) for the same answer.
func permanent(err error) bool {
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	return errors.Is(err, errRedirectScheme) || errors.As(err, &cv) || errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci)
}

// maxRedirects is net/http's own limit.
const maxRedirects = 10

// checkRedirect stops a chain that comes back to a URL it has visited twice
// (once more than a redirect that sets a cookie and comes back needs), or
// that runs past maxRedirects.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fmt.Errorf("%w: %s redirected to %s", errRedirectScheme, via[len(via)-1].URL.Redacted(), excerpt([]byte(req.URL.Redacted())))
	}
	seen := 0
	for _, v := range via {
		if v.URL.String() == req.URL.String() {
			seen++
		}
	}
	if seen >= 2 || len(via) >= maxRedirects {
		chain := make([]string, 0, len(via)+1)
		for _, v := range via {
			chain = append(chain, v.URL.String())
		}
		chain = append(chain, req.URL.String())
		return fmt.Errorf("%w after %d redirects: %s", errRedirect, len(via), strings.Join(chain, " -> "))
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// open starts the download of url. size is the total length when known,
// else -1. The body resumes by itself; its errors are environment errors.
func (f *fetcher) open(ctx context.Context, url string) (io.ReadCloser, int64, error) {
	select {
	case f.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, -1, ctx.Err()
	}
	if err := f.stopped(url, nil); err != nil {
		<-f.slots
		return nil, -1, err
	}
	b := &httpBody{f: f, ctx: ctx, url: url, size: -1}
	if err := b.start(); err != nil {
		b.Close()
		return nil, -1, err
	}
	return b, b.size, nil
}

// stopped returns ErrStopped once StopAfterRefused downloads in a row gave
// up refused, wrapping last (the give-up that made it so) when there is one.
func (f *fetcher) stopped(url string, last error) error {
	n := f.refused.Load()
	if f.stopAfter < 0 || n < int64(f.stopAfter) {
		return nil
	}
	if last == nil {
		return fmt.Errorf("%w: %s not tried: the last %d downloads gave up, every try refused", ErrStopped, url, n)
	}
	return fmt.Errorf("%w: the last %d downloads gave up, every try refused; the last: %w", ErrStopped, n, last)
}

type httpBody struct {
	f       *fetcher
	ctx     context.Context
	url     string
	body    io.ReadCloser
	got     int64 // bytes delivered
	size    int64 // total, -1 unknown
	tries   int   // requests since the last progress
	resumed bool  // a connection dropped mid-body: from then on a first try waits its backoff too
	last    error // the last failed try, for the give-up error
	err     error // sticky: the download gave up, was cancelled or ended
	cur     *try  // the request whose body is being read
	status  int   // HTTP status of the last failed try, 0 for none or a network failure
	closed  bool  // Close has given the download slot back

	// What the first answer said of the object (ETag, Last-Modified),
	// and the last bytes delivered: a resume's answer must agree with
	// them (changed, checkOverlap).
	etag, modified string
	tail           [resumeOverlap]byte
	tailN          int // bytes of tail in use: min(got, resumeOverlap)

	rng *byteRange // a part of the file only (openRange); nil for all of it

	// The minimum-rate rule (Config.MinRate): bytes read since rateAt,
	// the start of the current IdleTimeout-long stretch of this try.
	rateAt    time.Time
	rateBytes int64
}

// slow applies the minimum-rate rule after n more bytes: every
// IdleTimeout-long stretch of a try's body must bring minRate bytes a
// second, else the try fails with a *slowError (and is resumed).
func (b *httpBody) slow(n int) error {
	if b.f.minRate <= 0 || b.f.timeouts.idle <= 0 {
		return nil
	}
	now := time.Now()
	if b.rateAt.IsZero() {
		b.rateAt = now
	}
	b.rateBytes += int64(n)
	el := now.Sub(b.rateAt)
	if el < b.f.timeouts.idle {
		return nil
	}
	if float64(b.rateBytes) < b.f.minRate*el.Seconds() {
		return &slowError{b.rateBytes, el, b.f.minRate}
	}
	b.rateAt, b.rateBytes = now, 0
	return nil
}

// slowError is a try whose body came slower than Config.MinRate: retried
// (resumed) like a stalled one.
type slowError struct {
	n    int64
	d    time.Duration
	rate float64
}

func (e *slowError) Error() string {
	return "too slow: " + strconv.FormatInt(e.n, 10) + " bytes in " + e.d.Round(time.Millisecond).String() +
		", under the minimum of " + strconv.FormatFloat(e.rate, 'f', -1, 64) + " bytes/s (--min-rate)"
}

// try is one request: its context is cancelled, with a *timeoutError as
// cause, when a phase takes longer than its timeout.
type try struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	timer  *time.Timer
	phase  atomic.Int32
	t      timeouts
}

// arm restarts the timer for phase.
func (t *try) arm(phase int32) {
	t.phase.Store(phase)
	t.timer.Reset([...]time.Duration{phaseConnect: t.t.connect, phaseHeader: t.t.header, phaseBody: t.t.idle}[phase])
}

func (t *try) fire() {
	switch t.phase.Load() {
	case phaseConnect:
		t.cancel(&timeoutError{"connect", t.t.connect})
	case phaseHeader:
		t.cancel(&timeoutError{"response header", t.t.header})
	case phaseBody:
		t.cancel(&timeoutError{"idle read", t.t.idle})
	}
}

// failure describes how the try failed: the timeout that cut it, if one
// did, else err.
func (t *try) failure(err error) error {
	var te *timeoutError
	if cause := context.Cause(t.ctx); errors.As(cause, &te) {
		return te
	}
	return err
}

// end stops the try's timer and releases its context.
func (t *try) end() {
	t.timer.Stop()
	t.cancel(nil)
}

// Phases of a request, each with its timeout.
const (
	phaseConnect = iota + 1
	phaseHeader
	phaseBody
)

// timeoutError is a try that took too long: retried like a dropped
// connection.
type timeoutError struct {
	phase string
	d     time.Duration
}

func (e *timeoutError) Error() string {
	return e.phase + " timeout (" + e.d.String() + ")"
}

func (b *httpBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	for {
		if b.body == nil {
			if err := b.start(); err != nil {
				b.err = err
				return 0, err
			}
		}
		if b.cur != nil {
			b.cur.arm(phaseBody)
		}
		n, err := b.body.Read(p)
		b.got += int64(n)
		if n > 0 {
			b.tries = 0
			b.keepTail(p[:n])
		}
		if err == nil {
			if err = b.slow(n); err == nil {
				return n, nil
			}
		}
		if err == io.EOF && (b.size < 0 || b.got >= b.size) {
			b.endRequest()
			b.err = io.EOF
			return n, io.EOF
		}
		if cerr := b.ctx.Err(); cerr != nil {
			b.endRequest()
			b.err = cerr
			return n, cerr
		}
		// Dropped or stalled mid-body: resume with a Range request on the
		// next Read.
		b.last = err
		if b.cur != nil {
			b.last = b.cur.failure(err)
		}
		if err == io.EOF {
			b.last = fmt.Errorf("connection closed at byte %d of %d", b.got, b.size)
		}
		b.endRequest()
		b.resumed = true
		if n > 0 {
			return n, nil
		}
	}
}

// beginRequest makes the next request, with a context that its timeouts
// cancel.
func (b *httpBody) beginRequest() (*http.Request, error) {
	t := &try{t: b.f.timeouts}
	t.ctx, t.cancel = context.WithCancelCause(b.ctx)
	t.phase.Store(phaseConnect)
	t.timer = time.AfterFunc(t.t.connect, t.fire)
	trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { t.arm(phaseHeader) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(t.ctx, trace), http.MethodGet, b.url, nil)
	if err != nil {
		t.end()
		return nil, fmt.Errorf("%w %s: %w", ErrFetch, b.url, err)
	}
	b.cur = t
	return req, nil
}

// endRequest closes the current response, if any, and ends its try.
func (b *httpBody) endRequest() {
	b.rateAt, b.rateBytes = time.Time{}, 0
	if b.body != nil {
		b.body.Close()
		b.body = nil
	}
	if b.cur != nil {
		b.cur.end()
		b.cur = nil
	}
}

func (b *httpBody) Close() error {
	b.endRequest()
	if !b.closed {
		b.closed = true
		<-b.f.slots
	}
	return nil
}

// start issues GET (with Range when resuming) until a usable response or
// until the retry budget is spent.
func (b *httpBody) start() error {
	var wait time.Duration
	for b.tries < b.f.retry.MaxTries {
		if b.tries > 0 || b.resumed {
			d := wait
			if d == 0 {
				d = b.f.backoff(b.tries)
			}
			// Never sooner than BaseDelay (a Retry-After of 0 or of a
			// date just past), never later than MaxDelay.
			d = min(max(d, b.f.retry.BaseDelay), b.f.retry.MaxDelay)
			if b.f.onRetry != nil && b.last != nil {
				b.f.onRetry(RetryEvent{URL: b.url, Try: b.tries + 1, MaxTries: b.f.retry.MaxTries, Wait: d, Err: b.last, Status: b.status, Resumed: b.got > 0, Got: b.got})
			}
			if err := b.f.sleep(b.ctx, d); err != nil {
				return err
			}
		}
		if err := b.f.pace.wait(b.ctx); err != nil {
			return err
		}
		b.tries++
		wait = 0
		b.status = 0
		req, err := b.beginRequest()
		if err != nil {
			return err
		}
		// Byte offsets are the stored bytes': never let the transport ask
		// for gzip and decompress behind our back (a .warc.gz served with
		// Content-Encoding: gzip would be counted decompressed, then
		// resumed at that count in the compressed bytes).
		req.Header.Set("Accept-Encoding", "identity")
		// A resume asks again for the last bytes it has (at most
		// resumeOverlap) and compares them (checkOverlap).
		// A ranged download (openRange) asks for what is left of its range
		// and checks the answer's Content-Range instead (byteRange.answer).
		from := b.got - int64(b.tailN)
		if b.rng != nil {
			req.Header.Set("Range", b.rng.header(b.got))
		} else if b.got > 0 {
			req.Header.Set("Range", "bytes="+strconv.FormatInt(from, 10)+"-")
		}
		resp, err := b.f.do(req)
		if err != nil {
			if cerr := b.ctx.Err(); cerr != nil {
				b.endRequest()
				return cerr
			}
			b.last = b.cur.failure(err)
			b.endRequest()
			if errors.Is(err, ErrNoS3) || errors.Is(err, ErrFetch) {
				return err // not the server's answer: no try will do better
			}
			if errors.Is(err, errRedirect) || permanent(err) {
				return fmt.Errorf("%w %s: %w", ErrFetch, b.url, b.last)
			}
			continue
		}
		b.cur.arm(phaseBody)
		if resp.StatusCode < 300 {
			b.f.refused.Store(0) // the endpoint answers again
		}
		if b.got > 0 && (resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusPartialContent) {
			if err := b.changed(resp); err != nil {
				resp.Body.Close()
				b.endRequest()
				return fmt.Errorf("%w %s: %w", ErrChanged, b.url, err)
			}
		}
		switch {
		case resp.StatusCode == http.StatusOK && b.rng != nil:
			// The server ignored Range: skip to where the range (and what
			// of it was delivered) begins, read no further than its end.
			skip := b.rng.whole(resp.ContentLength)
			if skip < 0 {
				resp.Body.Close()
				b.endRequest()
				return fmt.Errorf("%w %s: the server ignored Range and did not say the length", ErrFetch, b.url)
			}
			b.body = resp.Body
			if b.got == 0 {
				b.etag, b.modified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
			}
			if skip += b.got; skip > 0 {
				if _, err := io.CopyN(io.Discard, &idleReader{b}, skip); err != nil {
					b.last = fmt.Errorf("skipping %d bytes before the range: %w", skip, b.cur.failure(err))
					b.endRequest()
					continue
				}
			}
			b.size = b.rng.n
			b.body = limitBody(resp.Body, b.rng.n-b.got)
			return nil
		case resp.StatusCode == http.StatusPartialContent && b.rng != nil:
			if err := b.rng.answer(resp.Header.Get("Content-Range"), b.got); err != nil {
				resp.Body.Close()
				b.last = err
				b.endRequest()
				continue
			}
			if b.got == 0 {
				b.etag, b.modified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
			}
			b.size = b.rng.n
			b.body = limitBody(resp.Body, b.rng.n-b.got)
			return nil
		case resp.StatusCode == http.StatusOK:
			b.body = resp.Body
			if b.got == 0 {
				b.etag, b.modified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
			} else {
				// The server ignored Range: skip what comes before the
				// overlap, then check it.
				if _, err := io.CopyN(io.Discard, &idleReader{b}, from); err != nil {
					b.last = fmt.Errorf("skipping %d bytes already read: %w", from, b.cur.failure(err))
					b.endRequest()
					continue
				}
				if err := b.checkOverlap(); err != nil {
					b.last = err
					b.endRequest()
					continue
				}
			}
			if resp.ContentLength >= 0 && b.size < 0 {
				b.size = resp.ContentLength
			}
			return nil
		case resp.StatusCode == http.StatusPartialContent && b.got > 0:
			cr := resp.Header.Get("Content-Range")
			start, end, total, ok := parseContentRange(cr)
			var bad error
			switch {
			case !ok || start != from || end < start || total >= 0 && end >= total:
				bad = fmt.Errorf("resume at %d: asked for bytes %d-, got Content-Range %q", b.got, from, cr)
			case resp.ContentLength >= 0 && resp.ContentLength != end-start+1:
				bad = fmt.Errorf("resume at %d: Content-Range %q holds %d bytes, Content-Length says %d", b.got, cr, end-start+1, resp.ContentLength)
			}
			if bad != nil {
				resp.Body.Close()
				b.last = bad
				b.endRequest()
				continue
			}
			if total >= 0 {
				b.size = total
			}
			// Never more than the range said, whatever the body holds.
			b.body = &rangeBody{r: resp.Body, n: end - start + 1}
			if err := b.checkOverlap(); err != nil {
				b.last = err
				b.endRequest()
				continue
			}
			return nil
		case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && b.got > 0:
			resp.Body.Close()
			b.endRequest()
			if b.size >= 0 && b.got < b.size {
				return fmt.Errorf("%w %s: resume at byte %d of %d: the server says the range is past the end (%s)", ErrChanged, b.url, b.got, b.size, resp.Status)
			}
			b.size = b.got // nothing left
			b.body = http.NoBody
			return nil
		case refusal(resp.StatusCode):
			// Common Crawl's CDN answers 403 and 429 when its rate
			// limits trip and S3 503 under back-pressure: worth the
			// retries. A real 403 costs the backoff, then fails.
			b.status = resp.StatusCode
			b.last = statusError(resp)
			wait = retryAfter(resp.Header.Get("Retry-After"), time.Now())
			resp.Body.Close()
			b.endRequest()
			continue
		default:
			err := statusError(resp)
			resp.Body.Close()
			b.endRequest()
			return fmt.Errorf("%w %s: %w", ErrFetch, b.url, err)
		}
	}
	last := b.last
	if last == nil {
		last = errors.New("no try made") // MaxTries < 1 is refused by Validate
	}
	if b.status == 0 {
		return fmt.Errorf("%w %s after %d tries: %w", ErrGaveUp, b.url, b.tries, last)
	}
	err := fmt.Errorf("%w %s after %d tries: %w: %w", ErrGaveUp, b.url, b.tries, ErrRefused, last)
	b.f.refused.Add(1)
	if stop := b.f.stopped(b.url, err); stop != nil {
		return stop
	}
	return err
}

// refusal reports the statuses that are retried: 403 and 429 (a CDN's rate
// limits), 5xx (a server or store under load).
func refusal(status int) bool {
	return status == http.StatusForbidden || status == http.StatusTooManyRequests || status >= 500
}

// do makes one try: over HTTP, or as an S3 GetObject.
func (f *fetcher) do(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme == "s3" {
		return f.s3Do(req)
	}
	return f.client.Do(req)
}

// idleReader reads the current body with the idle timeout re-armed.
type idleReader struct{ b *httpBody }

func (r *idleReader) Read(p []byte) (int, error) {
	r.b.cur.arm(phaseBody)
	return r.b.body.Read(p)
}

// backoff is BaseDelay doubled per failed try, capped at MaxDelay.
func (f *fetcher) backoff(tries int) time.Duration {
	d := f.retry.BaseDelay
	for i := 1; i < tries && d < f.retry.MaxDelay; i++ {
		d *= 2
	}
	return min(d, f.retry.MaxDelay)
}

// statusError describes a failed response, reading at most 4 KiB of its
// body: an S3-style XML error names its code and message.
func statusError(resp *http.Response) error {
	var buf [4096]byte
	n, _ := io.ReadFull(resp.Body, buf[:])
	body := buf[:n]
	code, msg := xmlText(body, "Code"), xmlText(body, "Message")
	if resp.StatusCode == http.StatusServiceUnavailable && code == "SlowDown" {
		return fmt.Errorf("%w: %s %s: %s", ErrSlowDown, resp.Status, code, msg)
	}
	text := resp.Status
	if code != "" {
		text += ": " + code + ": " + msg
	}
	switch resp.StatusCode {
	case http.StatusNotFound, http.StatusGone:
		return fmt.Errorf("%w: %s", ErrNotFound, text)
	case http.StatusRequestedRangeNotSatisfiable:
		return fmt.Errorf("%w: %s", ErrRange, text)
	}
	return errors.New(text)
}

// xmlText returns the text of the first <tag>...</tag>, capped.
func xmlText(b []byte, tag string) string {
	i := bytes.Index(b, []byte("<"+tag+">"))
	if i < 0 {
		return ""
	}
	b = b[i+len(tag)+2:]
	j := bytes.Index(b, []byte("</"+tag+">"))
	if j < 0 {
		return ""
	}
	return excerpt(bytes.TrimSpace(b[:j]))
}

// retryAfter reads Retry-After as seconds or an HTTP date (RFC 9110
// section 10.2.3); 0 when absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// parseContentRange reads "bytes START-END/TOTAL" (TOTAL may be *, -1
// then).
func parseContentRange(v string) (start, end, total int64, ok bool) {
	v, found := strings.CutPrefix(v, "bytes ")
	if !found {
		return 0, 0, 0, false
	}
	rng, tot, found := strings.Cut(v, "/")
	if !found {
		return 0, 0, 0, false
	}
	s, e, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, 0, false
	}
	start, err := strconv.ParseInt(s, 10, 64)
	if err != nil || start < 0 {
		return 0, 0, 0, false
	}
	if end, err = strconv.ParseInt(e, 10, 64); err != nil {
		return 0, 0, 0, false
	}
	total = -1
	if tot != "*" {
		if total, err = strconv.ParseInt(tot, 10, 64); err != nil {
			return 0, 0, 0, false
		}
	}
	return start, end, total, true
}

// resumeOverlap is how many bytes before its offset a resume asks for
// again, to compare with those it has: a server that sends other bytes
// than asked (the file's start under a Content-Range that says otherwise,
// another version of the object) is caught before they are used.
const resumeOverlap = 64

// keepTail keeps the last resumeOverlap bytes delivered.
func (b *httpBody) keepTail(p []byte) {
	if len(p) >= len(b.tail) {
		b.tailN = copy(b.tail[:], p[len(p)-len(b.tail):])
		return
	}
	keep := min(b.tailN, len(b.tail)-len(p))
	copy(b.tail[:keep], b.tail[b.tailN-keep:b.tailN])
	b.tailN = keep + copy(b.tail[keep:], p)
}

// checkOverlap reads the overlap a resume asked for again and compares it
// with the bytes already delivered.
func (b *httpBody) checkOverlap() error {
	var buf [resumeOverlap]byte
	n := b.tailN
	if _, err := io.ReadFull(&idleReader{b}, buf[:n]); err != nil {
		return fmt.Errorf("resume at %d: reading the %d bytes before it again: %w", b.got, n, b.cur.failure(err))
	}
	if !bytes.Equal(buf[:n], b.tail[:n]) {
		return fmt.Errorf("resume at %d: the server's bytes %d-%d differ from those read before (not the offset asked for, or not the same object)", b.got, b.got-int64(n), b.got-1)
	}
	return nil
}

// changed says how a resume's answer shows another version of the object
// than the one being read (nil when nothing shows it): another ETag or
// Last-Modified than the first answer's, or another length. Its bytes
// cannot continue those already delivered, and a download cannot start
// over mid-stream.
func (b *httpBody) changed(resp *http.Response) error {
	if e := resp.Header.Get("ETag"); b.etag != "" && e != "" && e != b.etag {
		return fmt.Errorf("resume at byte %d: ETag %s, was %s", b.got, e, b.etag)
	}
	if m := resp.Header.Get("Last-Modified"); b.modified != "" && m != "" && m != b.modified {
		return fmt.Errorf("resume at byte %d: Last-Modified %s, was %s", b.got, m, b.modified)
	}
	if b.rng != nil {
		return nil // b.size is the range's; byteRange.answer checks where the answer lies
	}
	size := resp.ContentLength
	if resp.StatusCode == http.StatusPartialContent {
		_, _, size, _ = parseContentRange(resp.Header.Get("Content-Range"))
	}
	if b.size >= 0 && size >= 0 && size != b.size {
		return fmt.Errorf("resume at byte %d: the object is %d bytes long, was %d", b.got, size, b.size)
	}
	return nil
}

// rangeBody ends a 206 body at the length of its Content-Range.
type rangeBody struct {
	r io.ReadCloser
	n int64
}

func (r *rangeBody) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	n, err := r.r.Read(p)
	r.n -= int64(n)
	if r.n <= 0 && err == nil {
		err = io.EOF
	}
	return n, err
}

func (r *rangeBody) Close() error { return r.r.Close() }
