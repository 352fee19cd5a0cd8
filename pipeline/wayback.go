package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"time"

	"github.com/robotstat/robotstat/wayback"
)

// A Wayback panel input (wayback:FROM..TO, Config.Panel) is read site by
// site, WaybackSitesPerUnit sites a unit: a site is the listed hosts that
// share a wayback.SiteKey (example.com and www.example.com: the CDX does
// not tell them apart), read by
// wayback.ReadSite through the run's fetcher (one pacer, the same retries
// and refusal accounting as every download), each capture it returns
// decoded from its WARC record as a whole-file read decodes it, filed
// under its month's crawl (wayback-YYYY-MM). Each answer is archived under
// Panel.WaybackArchive/<site key>/ before it is used and read back from
// there on a rerun, so a unit redone after a kill fetches nothing twice.

// waybackInput is what a Wayback unit reads: sites, each its hosts
// under their wayback.SiteKey.
type waybackInput struct {
	rng   wayback.Range
	keys  []string
	hosts [][]string
}

// WaybackSitesPerUnit is how many sites make one unit (committed
// together): each unit writes a file per table and month, so a unit per
// site would write hundreds of small files per site. A unit killed before
// its commit is read again from the answers archived, not fetched again.
const WaybackSitesPerUnit = 100

// MonthCoverage is what a Wayback unit found of its hosts in one month:
// Found + NotCaptured + Failed = Listed.
type MonthCoverage struct {
	Crawl       string `json:"crawl"`
	Listed      int    `json:"listed"`
	Found       int    `json:"found"`
	NotCaptured int    `json:"not_captured"`
	Failed      int    `json:"failed"`
}

// waybackInputs is the inputs of a wayback:FROM..TO input over the listed
// hosts, their units not set yet: sites in site key order,
// WaybackSitesPerUnit an input.
func (r *runner) waybackInputs(a string) ([]input, error) {
	rng, err := wayback.ParseRange(a)
	if err != nil {
		return nil, fmt.Errorf("%w: panel: %w", ErrConfig, err)
	}
	sites := map[string][]string{}
	var keys []string
	for _, h := range r.cfg.Panel.Hosts {
		k := wayback.SiteKey(h)
		if sites[k] == nil {
			keys = append(keys, k)
		}
		sites[k] = append(sites[k], h)
	}
	slices.Sort(keys)
	var out []input
	for len(keys) > 0 {
		n := min(len(keys), WaybackSitesPerUnit)
		wi := &waybackInput{rng: rng, keys: keys[:n:n]}
		for _, k := range wi.keys {
			wi.hosts = append(wi.hosts, sites[k])
		}
		keys = keys[n:]
		name := rng.String() + " " + wi.keys[0]
		if n > 1 {
			name += ".." + wi.keys[n-1]
		}
		out = append(out, input{name: name, path: "wayback", format: formatWayback, wayback: wi})
	}
	return out, nil
}

func (p *Panel) waybackBase() string {
	if p.WaybackBase == "" {
		return wayback.DefaultBase
	}
	return p.WaybackBase
}

// readWayback reads a Wayback unit, site by site.
func (r *runner) readWayback(ctx context.Context, in input) error {
	r.files.Add(1)
	wi := in.wayback
	listed := 0
	for _, hs := range wi.hosts {
		listed += len(hs)
	}
	cov := Coverage{Crawl: wi.rng.String(), Listed: listed, Sites: len(wi.keys)}
	for i := range wi.rng.Months() {
		cov.Months = append(cov.Months, MonthCoverage{Crawl: (wi.rng.From + wayback.Month(i)).Crawl(), Listed: listed})
	}
	setCov := func() {
		in.state.mu.Lock()
		c := cov
		in.state.coverage = &c
		in.state.mu.Unlock()
	}
	d := decoderPool.Get().(*decoder)
	defer decoderPool.Put(d)
	d.r = r
	defer func() { d.s.close(); d.src = nil }()
	g := &waybackGetter{f: r.fetch, userAgent: r.cfg.Panel.WaybackUserAgent}
	for si, key := range wi.keys {
		hosts := wi.hosts[si]
		cfg := wayback.Config{Base: r.cfg.Panel.waybackBase(), Range: wi.rng}
		if r.cfg.Panel.WaybackArchive != "" {
			cfg.Archive = filepath.Join(r.cfg.Panel.WaybackArchive, key)
		}
		res, err := wayback.ReadSite(ctx, g, cfg, hosts)
		if err != nil {
			// The sites not read yet are failed: a rerun reads the unit
			// again (from the archive folder as far as it got).
			for _, hs := range wi.hosts[si:] {
				for _, h := range hs {
					cov.fail(h)
				}
			}
			setCov()
			return err
		}
		src := &source{name: wayback.QueryURL(cfg.Base, key, wi.rng), path: "wayback/" + key, r: r, unit: in.state}
		for _, e := range res.Errors {
			es := &source{name: e.URL, path: e.URL, r: r, unit: in.state}
			if err := es.dataErr(-1, -1, ClassIndex, e, nil); err != nil {
				return err
			}
		}
		for _, c := range res.Captures {
			if err := r.decodeWayback(ctx, d, src, c); err != nil {
				return err
			}
		}
		cov.IndexRequests += int64(res.CDXRequests)
		cov.RecordRequests += int64(res.Replays)
		cov.Records += int64(len(res.Captures))
		cov.Reused += int64(res.Reused)
		cov.Archived += int64(res.Archived)
		for _, h := range hosts {
			failed, found := res.Failed[h], res.Found[h] // by month
			for i := range cov.Months {
				switch {
				case failed[i]:
					cov.Months[i].Failed++
				case found[i]:
					cov.Months[i].Found++
				default:
					cov.Months[i].NotCaptured++
				}
			}
			switch {
			case slices.Contains(failed, true):
				cov.fail(h)
			case slices.Contains(found, true):
				cov.Found++
			default:
				cov.NotCaptured++
			}
		}
	}
	err := d.flush(ctx)
	setCov()
	return err
}

// decodeWayback hands on the capture c, its WARC record decoded as the WARC
// reader decodes it inside a file.
func (r *runner) decodeWayback(ctx context.Context, d *decoder, src *source, c wayback.Capture) error {
	d.src = src
	r.records.Add(1)
	src.records.Add(1)
	d.stop = nil
	d.s.ctx = ctx
	d.s.report = func(off int64, err error, ex []byte) { d.dataErr(off, -1, ClassContainer, err, ex) }
	if err := d.s.reset(bytes.NewReader(c.Record), nil); err != nil {
		return err
	}
	wr := d.warcReader()
	if !wr.Next() {
		if err := wr.Err(); err != nil {
			return err
		}
		return fmt.Errorf("wayback capture of %s: no WARC record", c.URL) // our own record: a bug
	}
	j, err := d.readWARC(ctx, wr.Header(), c.Month.Crawl(), -1)
	if err != nil || d.stop != nil || j == nil {
		if err == nil {
			err = d.stop
		}
		return err
	}
	return d.commit(ctx, len(j.block))
}

// waybackGetter makes the Wayback unit's requests through the run's
// fetcher: its pacer, retry policy, Retry-After, retry notices and
// refusal count. Redirects are not followed (the archive's are the
// unit's to read), and an answer carrying Memento-Datetime is a capture
// whatever its status, never a refusal.
type waybackGetter struct {
	f         *fetcher
	client    *http.Client
	userAgent string
}

// maxWaybackBody bounds an answer read into memory: a CDX answer of ten
// years of a site's robots.txt captures is a few hundred kB.
const maxWaybackBody = 64 << 20

func (g *waybackGetter) Get(ctx context.Context, url string) (*wayback.Response, error) {
	f := g.f
	if g.client == nil {
		c := *f.client
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		g.client = &c
	}
	var last error
	status := 0
	var wait time.Duration
	tries := 0
	for tries < f.retry.MaxTries {
		if tries > 0 {
			d := wait
			if d == 0 {
				d = f.backoff(tries)
			}
			d = min(max(d, f.retry.BaseDelay), f.retry.MaxDelay)
			if f.onRetry != nil {
				f.onRetry(RetryEvent{URL: url, Try: tries + 1, MaxTries: f.retry.MaxTries, Wait: d, Err: last, Status: status})
			}
			if err := f.sleep(ctx, d); err != nil {
				return nil, err
			}
		}
		if err := f.pace.wait(ctx); err != nil {
			return nil, err
		}
		tries++
		wait, status = 0, 0
		resp, body, err := g.try(ctx, url)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			if resp != nil {
				// The answer came, its body did not whole: bad input.
				return nil, fmt.Errorf("%w: %d bytes, then %w", wayback.ErrCut, len(body), err)
			}
			last = err
			if permanent(err) {
				return nil, fmt.Errorf("%w %s: %w", ErrFetch, url, err)
			}
			continue
		}
		if refusal(resp.StatusCode) && resp.Header.Get("Memento-Datetime") == "" {
			status = resp.StatusCode
			last = fmt.Errorf("%s", resp.Status)
			wait = retryAfter(resp.Header.Get("Retry-After"), time.Now())
			continue
		}
		f.refused.Store(0)
		return &wayback.Response{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
	}
	if last == nil {
		last = errors.New("no try made")
	}
	if status == 0 {
		return nil, fmt.Errorf("%w %s after %d tries: %w", ErrGaveUp, url, tries, last)
	}
	err := fmt.Errorf("%w %s after %d tries: %w: %w", ErrGaveUp, url, tries, ErrRefused, last)
	f.refused.Add(1)
	if stop := f.stopped(url, err); stop != nil {
		return nil, stop
	}
	return nil, err
}

// try makes one request and reads its answer whole, within the fetcher's
// timeouts (connect + header + idle, for an answer of a few kB). A
// response whose body failed is returned with the error.
func (g *waybackGetter) try(ctx context.Context, url string) (*http.Response, []byte, error) {
	t := g.f.timeouts
	if total := t.connect + t.header + t.idle; total > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, total)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%w %s: %w", ErrFetch, url, err)
	}
	req.Header.Set("Accept-Encoding", "identity")
	if g.userAgent != "" {
		req.Header.Set("User-Agent", g.userAgent)
	}
	resp, err := g.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxWaybackBody))
	if err != nil {
		return resp, body, err
	}
	return resp, body, nil
}
