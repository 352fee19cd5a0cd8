package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/robotstat/robotstat/ccindex"
	"github.com/robotstat/robotstat/internal/weburl"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/warc"
	"golang.org/x/sync/errgroup"
)

// A crawl's panel unit (Config.Panel) reads, from Config.CCBase:
//
//  1. crawl-data/CRAWL/cc-index-table.paths.gz, and of the files it lists
//     those of cc-index/table/cc-main/warc/crawl=CRAWL/subset=robotstxt/;
//  2. each of them, through ccindex.Lookup (footer, then only the row
//     groups and pages that can hold a listed host's keys): every row
//     whose url's host is listed;
//  3. each row's record, one ranged GET of bytes
//     warc_record_offset..+warc_record_length-1 of warc_filename (records
//     of one file at most recordGap apart share a request), decoded as the
//     WARC reader decodes a whole file, so that the capture, its offset and
//     its source are the whole file's; a record that is not the URL the
//     row names, or that the file cuts, is a located error, never a row;
//  4. redirects: the Location of a capture at most parse.MaxRedirects-1
//     redirects from a listed host's /robots.txt is looked up (its exact
//     URL) in the same index and read likewise, wave by wave, so that
//     robotstat sites resolves each listed site as over the whole crawl.
//
// Index requests and record requests go through the run's fetcher: one
// pacer, one download bound, the same retries and refusal accounting.

// Record requests: records of one WARC file at most recordGap apart (the
// request record between two responses is a few hundred bytes) share a
// request of at most maxRecordSpan bytes.
const (
	recordGap     = 8 << 10
	maxRecordSpan = 1 << 20
)

// ccPanel is one crawl's panel unit while it is read. Only its goroutine
// touches it, but for what the index lookups report under mu.
type ccPanel struct {
	r     *runner
	d     *decoder
	in    input
	crawl string
	base  string
	hosts []string
	idx   map[string]int // host -> its index in hosts

	mu    sync.Mutex // guards cov's index counts and files' state during lookups
	cov   Coverage
	files []*indexFile

	sources  map[string]*source // by warc_filename
	read     map[recordKey]bool // records fetched (or failed)
	nodes    map[string]*urlNode
	robots   []bool // a listed host has a /robots.txt row
	failed   []bool // a listed host's answer could not be read whole
	lookedUp map[string]bool
	recFail  bool // the record being decoded had a data error
}

// indexFile is one index file of the crawl.
type indexFile struct {
	name, path string // as read (URL or file) and below the base
	tail       []byte // its last ccindex.TailSize bytes, kept for the redirect waves
	size       int64
	min, max   string // key bounds from its row groups' statistics
	bounded    bool
	err        error // why it could not be read
}

type recordKey struct {
	file   string
	offset int64
}

// urlNode is what the panel knows of a URL it read captures of: how many
// redirects it is from a listed host's /robots.txt (noDepth when it was
// read as one of a listed host's other URLs and no redirect reaches it
// yet), the listed hosts whose answer may go through it, its captures'
// redirect targets, and whether a read its rows depend on failed.
type urlNode struct {
	depth   int
	origins map[int]bool
	targets []string
	failed  bool
}

const noDepth = parse.MaxRedirects + 1

// readPanel reads a panel unit (formatPanel): in.name is the crawl's
// cc-index-table.paths.gz below Config.CCBase.
func (r *runner) readPanel(ctx context.Context, in input) error {
	r.files.Add(1)
	d := decoderPool.Get().(*decoder)
	defer decoderPool.Put(d)
	d.r = r
	p := &ccPanel{r: r, d: d, in: in, crawl: in.crawl, base: r.cfg.ccBase(), hosts: r.cfg.Panel.Hosts,
		idx: map[string]int{}, sources: map[string]*source{}, read: map[recordKey]bool{}, nodes: map[string]*urlNode{},
		lookedUp: map[string]bool{}}
	p.cov.Crawl, p.cov.Listed = in.crawl, len(p.hosts)
	p.robots, p.failed = make([]bool, len(p.hosts)), make([]bool, len(p.hosts))
	for i, h := range p.hosts {
		p.idx[h] = i
	}
	err := p.run(ctx)
	if ferr := d.flush(ctx); err == nil {
		err = ferr
	}
	d.s.close()
	d.src = nil
	cov := p.coverage(err != nil)
	in.state.mu.Lock()
	in.state.coverage = &cov
	in.state.mu.Unlock()
	return err
}

func (p *ccPanel) run(ctx context.Context) error {
	lines, err := p.r.readManifest(ctx, p.in.name, p.base)
	if err != nil {
		if errors.Is(err, ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("crawl %s: no URL index list at %s (not a Common Crawl crawl, or not indexed yet): %w", p.crawl, p.in.name, err)
		}
		return fmt.Errorf("crawl %s: reading its URL index list: %w", p.crawl, err)
	}
	for _, l := range lines {
		if len(ccindex.Paths([]string{l.path}, p.crawl, ccindex.SubsetRobotstxt)) == 1 {
			p.files = append(p.files, &indexFile{name: l.name, path: l.path})
		}
	}
	p.cov.IndexFiles = len(p.files)
	if len(p.files) == 0 {
		return fmt.Errorf("crawl %s: %s lists no %s index file of the crawl", p.crawl, p.in.name, ccindex.SubsetDir(p.crawl, ccindex.SubsetRobotstxt))
	}

	// The listed hosts' rows.
	ms, err := p.lookup(ctx, ccindex.NewQuery(p.hosts, nil))
	if err != nil {
		return err
	}
	p.failFiles(func(lo, hi string, unbounded bool) {
		for i, h := range p.hosts {
			k := ccindex.HostKey(h)
			if unbounded || (k+";" > lo && k+")" <= hi) {
				p.failed[i] = true
			}
		}
	})
	for _, m := range ms {
		n := p.node(m.URL)
		if i, ok := p.idx[weburl.Host(m.URL)]; ok && isRobotsPath([]byte(m.URL)) {
			p.robots[i] = true
			n.depth = 0
			n.origins[i] = true
		}
	}
	if err := p.fetch(ctx, ms); err != nil {
		return err
	}

	// Redirects, one wave per hop.
	var frontier []string
	for u, n := range p.nodes {
		if n.depth == 0 {
			frontier = append(frontier, u)
		}
	}
	for depth := 0; depth < parse.MaxRedirects && len(frontier) > 0; depth++ {
		slices.Sort(frontier)
		next := map[string]bool{}
		var need []string
		for _, u := range frontier {
			n := p.nodes[u]
			for _, t := range n.targets {
				tn := p.node(t)
				grew := false
				if tn.depth > depth+1 {
					tn.depth, grew = depth+1, true
				}
				for o := range n.origins {
					if !tn.origins[o] {
						tn.origins[o], grew = true, true
					}
				}
				if grew {
					next[t] = true
				}
				if _, listed := p.idx[weburl.Host(t)]; !listed && !p.lookedUp[t] {
					p.lookedUp[t] = true
					need = append(need, t)
				}
			}
		}
		if len(need) > 0 {
			p.cov.RedirectTargets += len(need)
			q := ccindex.NewQuery(nil, need)
			ms, err := p.lookup(ctx, q)
			if err != nil {
				return err
			}
			p.failFiles(func(lo, hi string, unbounded bool) {
				for _, t := range need {
					k := ccindex.HostKey(weburl.Host(t))
					if unbounded || (k+";" > lo && k+")" <= hi) {
						p.node(t).failed = true
					}
				}
			})
			if err := p.fetch(ctx, ms); err != nil {
				return err
			}
		}
		frontier = frontier[:0]
		for u := range next {
			frontier = append(frontier, u)
		}
	}
	return nil
}

// node returns the node of URL u, making it.
func (p *ccPanel) node(u string) *urlNode {
	n := p.nodes[u]
	if n == nil {
		n = &urlNode{depth: noDepth, origins: map[int]bool{}}
		p.nodes[u] = n
	}
	return n
}

// coverage counts the listed hosts; after a failure of the unit, every
// host not yet known to be captured or not is failed.
func (p *ccPanel) coverage(unitFailed bool) Coverage {
	c := p.cov
	failed := slices.Clone(p.failed)
	for _, n := range p.nodes {
		if n.failed {
			for o := range n.origins {
				failed[o] = true
			}
		}
	}
	for i, h := range p.hosts {
		switch {
		case failed[i] || unitFailed:
			c.fail(h)
		case p.robots[i]:
			c.Found++
		default:
			c.NotCaptured++
		}
	}
	return c
}

// environmental reports an error that is the run's or the endpoint's, not
// the index's: it fails the unit (a rerun retries it) rather than being a
// located error.
func environmental(err error) bool {
	return errors.Is(err, ErrGaveUp) || errors.Is(err, ErrStopped) || errors.Is(err, ErrNoS3) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// indexSource reads an index file by ranges through the run's fetcher,
// counting what it fetched, and remembers the first environmental error,
// which parquet-go may not pass up wrapped.
type indexSource struct {
	p    *ccPanel
	name string
	env  atomic.Pointer[error]
}

func (s *indexSource) ReadRange(ctx context.Context, off, n int64) ([]byte, error) {
	b, _, err := s.p.r.readRange(ctx, s.name, off, n)
	if err != nil && environmental(err) {
		s.env.CompareAndSwap(nil, &err)
	}
	return b, err
}

func (s *indexSource) Tail(ctx context.Context, n int64) ([]byte, int64, error) {
	b, size, err := s.p.r.readRange(ctx, s.name, -1, n)
	if err != nil && environmental(err) {
		s.env.CompareAndSwap(nil, &err)
	}
	return b, size, err
}

// maxLookups bounds the index files a unit looks up at once (at most
// Config.Downloads): each holds up to ccindex.MaxCached bytes of its file.
const maxLookups = 16

// lookup runs q over every index file that can hold its rows, at most
// min(Config.Downloads, maxLookups) at once, and returns the rows found. An
// index file that cannot be read is a located error and is not read
// again; an environmental failure is returned.
func (p *ccPanel) lookup(ctx context.Context, q *ccindex.Query) ([]ccindex.Match, error) {
	out := make([][]ccindex.Match, len(p.files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(min(p.r.cfg.Downloads, maxLookups))
	for i, f := range p.files {
		p.mu.Lock()
		skip := f.err != nil || (f.bounded && !q.Overlaps(f.min, f.max))
		p.mu.Unlock()
		if skip {
			continue
		}
		g.Go(func() error {
			ms, err := p.lookupFile(gctx, f, q)
			if err == nil {
				out[i] = ms
				return nil
			}
			if environmental(err) {
				return err
			}
			p.mu.Lock()
			f.err = err
			p.cov.IndexFilesFailed++
			p.mu.Unlock()
			src := &source{name: f.name, path: f.path, crawl: p.crawl, r: p.r, unit: p.in.state}
			return src.dataErr(-1, -1, ClassIndex, fmt.Errorf("%w: %w", ErrIndexFile, err), nil)
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var ms []ccindex.Match
	for _, m := range out {
		ms = append(ms, m...)
	}
	return ms, nil
}

// lookupFile runs q over one index file: its tail first (the footer; kept
// for later waves), then what ccindex.Lookup reads.
func (p *ccPanel) lookupFile(ctx context.Context, f *indexFile, q *ccindex.Query) ([]ccindex.Match, error) {
	src := &indexSource{p: p, name: f.name}
	envErr := func(err error) error {
		if e := src.env.Load(); e != nil {
			return *e
		}
		return err
	}
	p.mu.Lock()
	tail, size := f.tail, f.size
	p.mu.Unlock()
	first := tail == nil
	if first {
		var err error
		if tail, size, err = src.Tail(ctx, ccindex.TailSize); err != nil {
			return nil, envErr(err)
		}
		p.mu.Lock()
		f.tail, f.size = tail, size
		p.cov.IndexRequests++
		p.cov.IndexBytes += int64(len(tail))
		p.mu.Unlock()
	}
	rr := ccindex.NewRangeReader(ctx, src, size, tail)
	ms, st, err := ccindex.Lookup(ctx, rr, size, q)
	reqs, n := rr.Stats()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cov.IndexRequests += reqs
	p.cov.IndexBytes += n
	if err != nil {
		return nil, envErr(err)
	}
	if first {
		f.min, f.max, f.bounded = st.MinKey, st.MaxKey, st.Bounded
	}
	p.cov.Lookups++
	p.cov.RowGroups += st.RowGroups
	p.cov.RowGroupsRead += st.RowGroupsRead
	p.cov.Pages += st.Pages
	p.cov.PagesRead += st.PagesRead
	return ms, nil
}

// failFiles calls mark with the key range each unreadable index file
// could have held: between the keys of the readable files around it,
// when those are known and in order (Common Crawl writes the files of a
// subset in key order), else any key (unbounded).
func (p *ccPanel) failFiles(mark func(lo, hi string, unbounded bool)) {
	ordered := true
	last := ""
	for _, f := range p.files {
		if f.err == nil {
			if !f.bounded || f.min < last {
				ordered = false
			}
			last = f.max
		}
	}
	for i, f := range p.files {
		if f.err == nil {
			continue
		}
		if !ordered {
			mark("", "", true)
			return
		}
		lo, hi := "", "\xff"
		for j := i - 1; j >= 0; j-- {
			if p.files[j].err == nil {
				lo = p.files[j].max
				break
			}
		}
		for j := i + 1; j < len(p.files); j++ {
			if p.files[j].err == nil {
				hi = p.files[j].min
				break
			}
		}
		mark(lo, hi, false)
	}
}

// recordGroup is the records of one WARC file fetched in one request.
type recordGroup struct {
	file     string
	off, end int64
	ms       []ccindex.Match
}

// fetch reads the records of ms not read yet, at most Config.Downloads
// requests at once, and decodes them as they come.
func (p *ccPanel) fetch(ctx context.Context, ms []ccindex.Match) error {
	var todo []ccindex.Match
	for _, m := range ms {
		k := recordKey{m.File, m.Offset}
		if p.read[k] {
			continue
		}
		p.read[k] = true
		todo = append(todo, m)
	}
	slices.SortFunc(todo, func(a, b ccindex.Match) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return int(a.Offset - b.Offset)
	})
	var groups []*recordGroup
	for _, m := range todo {
		if n := len(groups); n > 0 {
			g := groups[n-1]
			if g.file == m.File && m.Offset >= g.end && m.Offset-g.end <= recordGap && m.Offset+m.Length-g.off <= maxRecordSpan {
				g.end = m.Offset + m.Length
				g.ms = append(g.ms, m)
				continue
			}
		}
		groups = append(groups, &recordGroup{file: m.File, off: m.Offset, end: m.Offset + m.Length, ms: []ccindex.Match{m}})
	}
	if len(groups) == 0 {
		return nil
	}
	type result struct {
		g    *recordGroup
		data []byte
		err  error
	}
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan result, p.r.cfg.Downloads)
	go func() {
		var wg sync.WaitGroup
		sem := make(chan struct{}, p.r.cfg.Downloads)
		for _, g := range groups {
			select {
			case sem <- struct{}{}:
			case <-fctx.Done():
			}
			if fctx.Err() != nil {
				break
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				data, _, err := p.r.readRange(fctx, p.warcName(g.file), g.off, g.end-g.off)
				results <- result{g, data, err}
				<-sem
			}()
		}
		wg.Wait()
		close(results)
	}()
	var failure error
	for res := range results {
		if failure != nil {
			continue // drain
		}
		p.cov.RecordRequests++
		p.cov.RecordBytes += int64(len(res.data))
		if res.err != nil {
			if environmental(res.err) {
				failure = res.err
				cancel()
				continue
			}
			for _, m := range res.g.ms {
				src := p.source(m.File)
				if err := src.dataErr(m.Offset, -1, ClassIndex, fmt.Errorf("record of %s: %w", m.URL, res.err), nil); err != nil {
					failure = err
				}
				p.recordFailed(m)
			}
			continue
		}
		for _, m := range res.g.ms {
			lo := m.Offset - res.g.off
			data := res.data[min(lo, int64(len(res.data))):min(lo+m.Length, int64(len(res.data)))]
			if err := p.decode(ctx, m, data); err != nil {
				failure = err
				cancel()
				break
			}
		}
	}
	return failure
}

// warcName is where a WARC file of the index is read from.
func (p *ccPanel) warcName(file string) string {
	if isURL(p.base) {
		return strings.TrimSuffix(p.base, "/") + "/" + strings.TrimPrefix(file, "/")
	}
	return filepath.Join(p.base, filepath.FromSlash(file))
}

// source returns the source of a WARC file's captures: named and with the
// path a whole-file read of the crawl gives them (the manifest line as
// written, warc_filename).
func (p *ccPanel) source(file string) *source {
	s := p.sources[file]
	if s == nil {
		s = &source{name: p.warcName(file), path: file, crawl: p.crawl, r: p.r, unit: p.in.state}
		p.sources[file] = s
	}
	return s
}

// recordFailed notes that m's record gave no capture because of a data
// error: its listed host, and every listed host whose redirects reach its
// URL, are failed.
func (p *ccPanel) recordFailed(m ccindex.Match) {
	if i, ok := p.idx[weburl.Host(m.URL)]; ok {
		p.failed[i] = true
	}
	p.node(m.URL).failed = true
}

// decode reads the record m out of data (its bytes, fewer when the file
// cuts it) as the WARC reader reads it inside the whole file, and hands
// it on as a capture when it is the response the index names.
func (p *ccPanel) decode(ctx context.Context, m ccindex.Match, data []byte) error {
	d := p.d
	d.src = p.source(m.File)
	p.r.records.Add(1)
	d.src.records.Add(1)
	p.cov.Records++
	p.recFail = false
	report := func(off, rec int64, class Class, err error, ex []byte) {
		p.recFail = true
		d.dataErr(off, rec, class, err, ex)
	}
	if int64(len(data)) < m.Length {
		report(m.Offset, -1, ClassIndex, fmt.Errorf("%w: %d of its %d bytes (%s)", ErrIndexCut, len(data), m.Length, m.URL), data)
		p.recordFailed(m)
		return d.stop
	}
	d.stop = nil
	d.s.ctx = ctx
	d.s.report = func(off int64, err error, ex []byte) { report(m.Offset+off, -1, ClassContainer, err, ex) }
	if err := d.s.reset(bytes.NewReader(data), nil); err != nil {
		report(m.Offset, -1, ClassContainer, err, nil)
		p.recordFailed(m)
		return d.stop
	}
	wr := d.wr
	wr.Reset(&d.s)
	wr.Locate = func(pos int64) int64 { return m.Offset + d.s.offsetAt(pos) }
	wr.Boundary = d.s.boundaryAfter
	wr.Report = func(off, rec int64, err error, ex []byte) {
		class := ClassRecord // as decoder.warcErr classes the reader's reports
		if rec < 0 {
			class = ClassContainer
		}
		report(off, -1, class, err, ex)
	}
	if !wr.Next() {
		if err := wr.Err(); err != nil {
			return err
		}
		if !p.recFail {
			report(m.Offset, -1, ClassIndex, fmt.Errorf("%w: no WARC record at the offset (%s)", ErrIndexMismatch, m.URL), data)
		}
		p.recordFailed(m)
		return d.stop
	}
	h := wr.Header()
	switch {
	case bytes.Equal(h.Type(), []byte("response")), bytes.Equal(h.Type(), []byte("resource")):
	default:
		// A revisit or request record: not a capture in a whole-file
		// read either.
		return d.stop
	}
	if string(h.TargetURI()) != m.URL {
		p.recordFailed(m)
		return d.src.report(&ReadError{Source: d.src.name, Path: d.src.path, Offset: wr.Offset(), Record: -1, RecordID: string(h.RecordID()), Class: ClassIndex,
			Err: fmt.Errorf("%w: it is %q, the index names %q", ErrIndexMismatch, h.TargetURI(), m.URL)})
	}
	all := p.r.cfg.Responses == ResponsesAll || (p.r.cfg.Responses == ResponsesAuto && isRobotstxtSource(d.src.name))
	if !all && !isRobotsPath(h.TargetURI()) {
		p.r.otherResp.Add(1)
		return nil
	}
	j, err := d.readWARC(ctx, h, p.crawl, -1)
	if err != nil {
		return err
	}
	if d.stop != nil {
		return d.stop
	}
	if j == nil {
		p.recordFailed(m)
		return nil
	}
	if t := redirectTarget(j, m.URL); t != "" {
		n := p.node(m.URL)
		if !slices.Contains(n.targets, t) {
			n.targets = append(n.targets, t)
		}
	}
	return d.commit(ctx, len(j.block))
}

// redirectTarget is captures.redirect_target of the capture j will be:
// for a 3xx response (parse.StatusOutcome's redirect), its Location
// resolved against url, as stats resolves it; "" otherwise. The HTTP
// header is read as the worker reads it.
func redirectTarget(j *rec, url string) string {
	if j.resource {
		return ""
	}
	var hh warc.HTTPHeader
	_, err := warc.ParseHTTPHeader(j.block, &hh)
	if err != nil && (err != ErrHTTPHeaderEnd || j.stored > int64(len(j.block))) {
		return ""
	}
	if parse.StatusOutcome(hh.Status, parse.StatusOptions{}) != parse.OutcomeRedirect {
		return ""
	}
	return weburl.ResolveLocation(url, string(hh.Location))
}
