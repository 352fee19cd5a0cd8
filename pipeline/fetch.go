package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// fetcher streams http(s) inputs: it retries 429 and 5xx with backoff and
// Retry-After, recognises S3's 503 SlowDown, and resumes a dropped
// connection with a Range request, so that a multi-gigabyte WARC never
// lands on disk and one hiccup does not cost the whole download.
type fetcher struct {
	client *http.Client
	retry  RetryPolicy
	sleep  func(ctx context.Context, d time.Duration) error // tests record delays
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
	b := &httpBody{f: f, ctx: ctx, url: url, size: -1}
	if err := b.start(); err != nil {
		return nil, -1, err
	}
	return b, b.size, nil
}

type httpBody struct {
	f       *fetcher
	ctx     context.Context
	url     string
	body    io.ReadCloser
	got     int64 // bytes delivered
	size    int64 // total, -1 unknown
	tries   int   // failed attempts since the last progress
	resumed bool  // a connection dropped mid-body: from then on a first try waits its backoff too
}

func (b *httpBody) Read(p []byte) (int, error) {
	for {
		if b.body == nil {
			if err := b.start(); err != nil {
				return 0, err
			}
		}
		n, err := b.body.Read(p)
		b.got += int64(n)
		if n > 0 {
			b.tries = 0
		}
		if err == nil {
			return n, nil
		}
		if err == io.EOF && (b.size < 0 || b.got >= b.size) {
			return n, io.EOF
		}
		if cerr := b.ctx.Err(); cerr != nil {
			return n, cerr
		}
		// Dropped mid-body: resume with a Range request on the next Read.
		b.body.Close()
		b.body = nil
		b.resumed = true
		if n > 0 {
			return n, nil
		}
	}
}

func (b *httpBody) Close() error {
	if b.body != nil {
		return b.body.Close()
	}
	return nil
}

// start issues GET (with Range when resuming) until a usable response or
// until the retry budget is spent.
func (b *httpBody) start() error {
	var last error
	var wait time.Duration
	for b.tries < b.f.retry.MaxTries {
		if b.tries > 0 || b.resumed {
			d := wait
			if d == 0 {
				d = b.f.backoff(b.tries)
			}
			if err := b.f.sleep(b.ctx, min(d, b.f.retry.MaxDelay)); err != nil {
				return err
			}
		}
		b.tries++
		wait = 0
		req, err := http.NewRequestWithContext(b.ctx, http.MethodGet, b.url, nil)
		if err != nil {
			return fmt.Errorf("%w %s: %w", ErrFetch, b.url, err)
		}
		if b.got > 0 {
			req.Header.Set("Range", "bytes="+strconv.FormatInt(b.got, 10)+"-")
		}
		resp, err := b.f.client.Do(req)
		if err != nil {
			if cerr := b.ctx.Err(); cerr != nil {
				return cerr
			}
			last = err
			continue
		}
		switch {
		case resp.StatusCode == http.StatusOK:
			if b.got > 0 {
				// The server ignored Range: skip what was already read.
				if _, err := io.CopyN(io.Discard, resp.Body, b.got); err != nil {
					resp.Body.Close()
					last = fmt.Errorf("skipping %d bytes already read: %w", b.got, err)
					continue
				}
			}
			if resp.ContentLength >= 0 && b.size < 0 {
				b.size = resp.ContentLength
			}
			b.body = resp.Body
			return nil
		case resp.StatusCode == http.StatusPartialContent && b.got > 0:
			start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
			if !ok || start != b.got {
				resp.Body.Close()
				last = fmt.Errorf("resume at %d: bad Content-Range %q", b.got, resp.Header.Get("Content-Range"))
				continue
			}
			if total >= 0 {
				b.size = total
			}
			b.body = resp.Body
			return nil
		case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && b.got > 0:
			resp.Body.Close()
			b.size = b.got // nothing left
			b.body = http.NoBody
			return nil
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
			last = statusError(resp)
			wait = retryAfter(resp.Header.Get("Retry-After"), time.Now())
			resp.Body.Close()
			continue
		default:
			err := statusError(resp)
			resp.Body.Close()
			return fmt.Errorf("%w %s: %w", ErrFetch, b.url, err)
		}
	}
	return fmt.Errorf("%w %s after %d tries: %w", ErrGaveUp, b.url, b.tries, last)
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
	if code != "" {
		return fmt.Errorf("%s: %s: %s", resp.Status, code, msg)
	}
	return errors.New(resp.Status)
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

// parseContentRange reads "bytes START-END/TOTAL" (TOTAL may be *).
func parseContentRange(v string) (start, total int64, ok bool) {
	v, found := strings.CutPrefix(v, "bytes ")
	if !found {
		return 0, 0, false
	}
	rng, tot, found := strings.Cut(v, "/")
	if !found {
		return 0, 0, false
	}
	s, _, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, false
	}
	start, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	total = -1
	if tot != "*" {
		if total, err = strconv.ParseInt(tot, 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return start, total, true
}
