package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/robotstat/robotstat/record"
	"golang.org/x/sync/errgroup"
)

// Consumer receives captures. worker is in [0, Config.Workers): calls with
// the same worker never overlap, so a consumer may keep per-worker state
// (a parser, an accumulator) in a slice indexed by it. c and c.Body are
// reused after the call returns (see Capture). An error ends the run: it is
// an environment failure (a full disk, a closed writer), not a data error.
type Consumer func(worker int, c *record.Capture) error

// Run reads the inputs and hands every capture to consume.
//
// Inputs are files, folders (walked, lexical order), manifests (.paths,
// .manifest, optionally gzipped), http(s) URLs and "-" (Config.Stdin). The
// expanded list is cut by Config.Shard. Up to Config.Workers inputs are
// decoded at once, each by one goroutine that decompresses and frames
// records; Config.Workers goroutines parse HTTP headers, remove codings and
// call consume. Channels are bounded, so memory stays flat whatever the
// input size. The order in which captures reach consume is not
// deterministic across workers.
//
// Data errors (broken members, malformed records, bad rows) are counted in
// the Summary and the run goes on; with Config.Strict the first one ends
// the run and is returned as a *ReadError. Environment failures (an input
// that cannot be opened or fetched, ctx cancelled, consume failing) end the
// run and are returned wrapped with context. The Summary is filled as far
// as the run went in every case.
//
// Run may be called concurrently; runs share nothing but a pool of decoder
// buffers.
func Run(ctx context.Context, cfg Config, inputs []string, consume Consumer) (Summary, error) {
	start := time.Now()
	cfg.fill()
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	r := &runner{
		cfg:     cfg,
		consume: consume,
		fetch:   newFetcher(&cfg),
		errs:    collector{strict: cfg.Strict, max: max(cfg.MaxDiagnostics, 0)},
	}
	if cfg.testSleep != nil {
		r.fetch.sleep = cfg.testSleep
	}
	sum, err := r.run(ctx, inputs)
	sum.Elapsed = time.Since(start)
	return sum, err
}

// runner is the state of one Run.
type runner struct {
	cfg     Config
	consume Consumer
	fetch   *fetcher
	errs    collector

	bytesRead  atomic.Int64
	records    atomic.Int64
	captures   atomic.Int64
	files      atomic.Int64
	filesBad   atomic.Int64
	totalBytes atomic.Int64 // known input sizes, for progress
	failed     atomic.Int64 // units failed under KeepGoing
	skipped    int          // units Config.Skip skipped
	duplicates skipCounter  // inputs listed more than once (or one file by two names), read once
	outputDirs skipCounter  // robotstat output folders inside input folders, not read
	notHosts   skipCounter  // host files whose names are not host names
	otherResp  atomic.Int64 // WARC responses not counted (Config.Responses)
	empty      skipCounter  // inputs read to their end without a record or row

	jobs chan *job
	free chan *job
}

func (r *runner) summary() Summary {
	s := Summary{
		Files:           int(r.files.Load()),
		FilesWithErrors: int(r.filesBad.Load()),
		Records:         r.records.Load(),
		Captures:        r.captures.Load(),
		Bytes:           r.bytesRead.Load(),
		Skipped:         r.skipped,
		FailedUnits:     int(r.failed.Load()),
		OtherResponses:  r.otherResp.Load(),
	}
	s.NotHosts, s.NotHostExamples = r.notHosts.load()
	dups, dupEx := r.duplicates.load()
	s.Duplicates, s.DuplicateExamples = int(dups), dupEx
	s.OutputDirs, s.OutputDirExamples = r.outputDirs.load()
	s.Empty, s.EmptyExamples = r.empty.load()
	for c := range s.Errors {
		s.Errors[c] = r.errs.counts[c].Load()
	}
	r.errs.mu.Lock()
	s.Diagnostics = append([]*ReadError(nil), r.errs.diags...)
	r.errs.mu.Unlock()
	return s
}

// jobsPerWorker bounds the batches in flight: enough to keep every worker
// busy while a decoder refills, few enough that memory is a handful of
// batch buffers (at most batchBytes plus one record each) per worker.
const jobsPerWorker = 4

func (r *runner) run(ctx context.Context, args []string) (Summary, error) {
	list, err := r.expand(ctx, args)
	if err != nil {
		return r.summary(), err
	}
	list = r.units(selectUnits(r.cfg.Shard, list))
	if r.cfg.Start != nil {
		var units []Unit
		for _, in := range list {
			if len(units) == 0 || units[len(units)-1] != in.unit {
				units = append(units, in.unit)
			}
		}
		if err := r.cfg.Start(units); err != nil {
			return r.summary(), err
		}
	}

	n := r.cfg.Workers * jobsPerWorker
	r.jobs = make(chan *job, n)
	r.free = make(chan *job, n)
	for range n {
		r.free <- new(job)
	}

	stopProgress := r.startProgress(list)
	g, gctx := errgroup.WithContext(ctx)
	for w := range r.cfg.Workers {
		g.Go(func() error { return r.work(gctx, w) })
	}
	g.Go(func() error {
		defer close(r.jobs)
		dg, dctx := errgroup.WithContext(gctx)
		dg.SetLimit(r.cfg.Workers)
		for _, in := range list {
			if dctx.Err() != nil {
				break
			}
			dg.Go(func() error { return r.decode(dctx, in) })
		}
		return dg.Wait()
	})
	err = g.Wait()
	if err == nil {
		err = ctx.Err()
	}
	stopProgress()
	return r.summary(), err
}

// Units returns the units Run would read with cfg and inputs (after
// sharding; Config.Skip is not asked), reading manifests as Run does: what
// robotstat status compares with an output's completion records.
func Units(ctx context.Context, cfg Config, inputs []string) ([]Unit, error) {
	cfg.fill()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, fetch: newFetcher(&cfg)}
	list, err := r.expand(ctx, inputs)
	if err != nil {
		return nil, err
	}
	var units []Unit
	for _, in := range selectUnits(cfg.Shard, list) {
		if len(units) == 0 || units[len(units)-1] != in.unit {
			units = append(units, in.unit)
		}
	}
	return units, nil
}

// decode reads one input and feeds its captures to the workers. Under
// Config.KeepGoing an input that cannot be read fails its unit, not the
// run.
func (r *runner) decode(ctx context.Context, in input) error {
	err := r.read(ctx, in)
	if err != nil {
		var re *ReadError
		if !r.cfg.KeepGoing || ctx.Err() != nil || errors.As(err, &re) || errors.Is(err, ErrStopped) {
			return err // strict's first data error, an endpoint that refuses all, or the run's end
		}
		if in.state.fail(err) {
			r.failed.Add(1)
		}
	}
	return r.release(in.state)
}

// read reads one input to its end.
func (r *runner) read(ctx context.Context, in input) error {
	switch in.format {
	case formatPanel:
		return r.readPanel(ctx, in)
	case formatWayback:
		return r.readWayback(ctx, in)
	}
	r.files.Add(1)
	rc, size, err := r.open(ctx, in.name)
	if err != nil {
		return err
	}
	defer rc.Close()
	if size > 0 {
		r.totalBytes.Add(size) // a URL's; file sizes were added up front
	}
	d := decoderPool.Get().(*decoder)
	defer decoderPool.Put(d)
	// The crawl its captures are of (UnitCrawl); else each warcinfo's
	// isPartOf (decoder.warc). See Config.Crawl.
	crawl, byPath := UnitCrawl(in.crawl, r.cfg.Crawl, in.name)
	d.r, d.src = r, &source{name: in.name, path: in.path, crawl: crawl, byPath: byPath, r: r, unit: in.state}
	switch in.format {
	case formatWARC:
		err = d.warc(ctx, rc)
	case formatJSONL:
		err = d.jsonl(ctx, rc)
	case formatCSV:
		err = d.csv(ctx, rc)
	case formatTar:
		err = d.tar(ctx, rc)
	default:
		err = d.hostFile(ctx, rc)
	}
	if ferr := d.flush(ctx); err == nil {
		err = ferr
	}
	if err == nil && d.src.records.Load() == 0 {
		r.empty.add(in.path)
	}
	d.s.close()
	if err != nil {
		var re *ReadError
		if errors.As(err, &re) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return fmt.Errorf("read %s: %w", in.name, err)
	}
	return nil
}

// getJob waits for a free job: the back-pressure that bounds memory.
func (r *runner) getJob(ctx context.Context) (*job, error) {
	select {
	case j := <-r.free:
		j.n, j.bytes = 0, 0
		return j, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (r *runner) send(ctx context.Context, j *job) error {
	select {
	case r.jobs <- j:
		return nil
	case <-ctx.Done():
		r.free <- j
		return ctx.Err()
	}
}

// source is the shared state of one input while its captures are in flight.
type source struct {
	name  string
	path  string // record.Capture.Path
	crawl string // the crawl its captures are of (the crawl listing it, Config.Crawl or its path's), else "": warcinfo's
	// byPath: crawl is the one its path names (CrawlOfPath), and a
	// warcinfo isPartOf naming another is a ClassCrawl error.
	byPath bool
	r      *runner
	// records counts the input's records and rows, of every kind: none
	// at the end is an empty input (Summary.Empty).
	records atomic.Int64
	unit    *unitState
	bad     atomic.Bool
}

// dataErr counts a data error of the input; under Strict it returns it.
// Safe for concurrent use (decoder and workers report into the same source).
func (s *source) dataErr(off, rec int64, class Class, err error, ex []byte) error {
	return s.report(&ReadError{Source: s.name, Path: s.path, Offset: off, Record: rec, Class: class, Err: err, Excerpt: excerpt(ex)})
}

// report counts and keeps e, a data error of the input.
func (s *source) report(e *ReadError) error {
	if s.bad.CompareAndSwap(false, true) {
		s.r.filesBad.Add(1)
	}
	s.unit.dataErr(e)
	return s.r.errs.add(e)
}
