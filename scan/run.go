package scan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/warc"
	"golang.org/x/sync/errgroup"
)

// Summary says what a Run did: a plain value the caller owns. Outcomes is
// indexed by parse.Outcome (hosts by how they ended) and Failures like
// Kinds.
type Summary struct {
	Hosts    int   // distinct hosts asked for
	Skipped  int   // of them, already in Dir from an earlier run
	Done     int64 // hosts whose procedure this run completed
	Fetches  int64 // HTTP fetches attempted
	Outcomes [4]int64
	Failures [len(Kinds)]int64 // failed fetches by kind, fallbacks included
	Files    []string          // WARC files this run wrote
	Repaired []string          // earlier files cut back to their last complete record
	Bytes    int64             // WARC bytes this run wrote
	Elapsed  time.Duration
}

// Line is the one-line summary robotstat prints.
func (s *Summary) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d hosts (%d already scanned), %d done in %.1f s (%.0f hosts/s), %d fetches; ",
		s.Hosts, s.Skipped, s.Done, s.Elapsed.Seconds(), float64(s.Done)/max(s.Elapsed.Seconds(), 1e-9), s.Fetches)
	for o := parse.OutcomeParsed; o <= parse.OutcomeUnreachable; o++ {
		if o > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", s.Outcomes[o], o)
	}
	var fails []string
	for i, k := range Kinds {
		if s.Failures[i] > 0 {
			fails = append(fails, strconv.FormatInt(s.Failures[i], 10)+" "+k)
		}
	}
	if len(fails) > 0 {
		b.WriteString("; failed fetches: " + strings.Join(fails, ", "))
	}
	fmt.Fprintf(&b, "; %d WARC bytes in %d files", s.Bytes, len(s.Files))
	return b.String()
}

// scanner is one Run's shared state.
type scanner struct {
	cfg      *Config
	fetcher  *fetcher
	locks    hostLocks
	out      chan []byte // gzip members to the writer, in order
	pool     sync.Pool   // member buffers
	encoders sync.Pool   // *warc.Encoder

	fetches   atomic.Int64
	hostsDone atomic.Int64
	outcomes  [4]atomic.Int64
	failures  [len(Kinds)]atomic.Int64
}

// send encodes one record and hands it to the writer. Encoders are pooled,
// not owned by workers: a compressor's state is about 1 MiB, and a worker
// encodes for a moment between fetches (with one encoder per worker, 256
// workers held 356 MiB at their peak).
func (s *scanner) send(ctx context.Context, h *warc.RecordHeader, parts ...[]byte) error {
	var buf []byte
	if p, ok := s.pool.Get().(*[]byte); ok {
		buf = (*p)[:0]
	}
	enc, _ := s.encoders.Get().(*warc.Encoder)
	if enc == nil {
		enc = warc.NewEncoder()
	}
	m := enc.Member(buf, h, parts...)
	s.encoders.Put(enc)
	select {
	case s.out <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// keepMember is the largest member buffer kept for reuse; a rare large
// record gets its own, dropped after use, so the pool stays small.
const keepMember = 64 << 10

// Run scans hosts (normalised names, see NormalizeHost; duplicates are
// scanned once) into cfg.Dir, skipping the hosts an earlier run there
// completed. Failures of hosts are data, written to the archive and counted
// in the Summary; Run returns an error only for an environment failure
// (Dir not writable, disk full) or when ctx is cancelled. Memory is bounded
// by Concurrency, not by the number of hosts, apart from the set of host
// names itself.
func Run(ctx context.Context, cfg Config, hosts []string) (Summary, error) {
	var sum Summary
	start := time.Now()
	if err := cfg.Validate(); err != nil {
		return sum, err
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return sum, fmt.Errorf("creating %s: %w", cfg.Dir, err)
	}
	prior, err := readPrior(cfg.Dir)
	if err != nil {
		return sum, err
	}
	sum.Repaired = prior.repaired
	seen := make(map[string]struct{}, len(hosts))
	todo := hosts[:0:0]
	for _, h := range hosts {
		if _, dup := seen[h]; dup {
			continue
		}
		seen[h] = struct{}{}
		if _, ok := prior.done[h]; ok {
			sum.Skipped++
			continue
		}
		todo = append(todo, h)
	}
	sum.Hosts = len(seen)
	seen, prior.done = nil, nil

	s := &scanner{cfg: &cfg, fetcher: newFetcher(&cfg), out: make(chan []byte, 2*cfg.Concurrency)}
	s.locks.seed = maphashSeed()
	now := time.Now
	if cfg.now != nil {
		now = cfg.now
	}
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	fw := newFileWriter(cfg.Dir, now(), cfg.FileSize, s.warcinfo)
	stop := s.progress(len(todo))

	g, gctx := errgroup.WithContext(wctx)
	queue := make(chan string, cfg.Concurrency)
	g.Go(func() error {
		defer close(queue)
		for _, h := range todo {
			select {
			case queue <- h:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	for range min(cfg.Concurrency, max(len(todo), 1)) {
		g.Go(func() error {
			w := &worker{s: s}
			for h := range queue {
				if err := w.host(gctx, h); err != nil {
					return err
				}
			}
			return nil
		})
	}
	// The writer drains s.out to the end even after a write error (which
	// cancels the workers), so that no worker blocks on a full channel.
	writeErr := make(chan error, 1)
	go func() {
		var err error
		for m := range s.out {
			if err == nil {
				if err = fw.write(m); err != nil {
					cancel(err)
				}
			}
			if cap(m) <= keepMember {
				m = m[:0]
				s.pool.Put(&m)
			}
		}
		if cerr := fw.close(); err == nil {
			err = cerr
		}
		writeErr <- err
	}()
	runErr := g.Wait()
	close(s.out)
	werr := <-writeErr
	stop()

	sum.Done = s.hostsDone.Load()
	sum.Fetches = s.fetches.Load()
	for i := range s.outcomes {
		sum.Outcomes[i] = s.outcomes[i].Load()
	}
	for i := range s.failures {
		sum.Failures[i] = s.failures[i].Load()
	}
	sum.Files, sum.Bytes = fw.files, fw.bytes
	sum.Elapsed = time.Since(start)
	switch {
	case werr != nil:
		return sum, werr
	case runErr != nil && !errors.Is(runErr, context.Canceled):
		return sum, runErr
	}
	return sum, ctx.Err()
}
