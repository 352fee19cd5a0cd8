package runs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

// Config configures Analyze. Dir is required; the zero values of the
// other fields are their packages' defaults. A Config is read, never
// written, by Analyze.
type Config struct {
	// Dir is the dataset the run writes into (robotstat's --out): created
	// when it does not exist. Nothing is written outside it.
	Dir string
	// Pipeline says which inputs are read and how. Its Skip, Start,
	// BatchDone and UnitDone are Analyze's own and must be nil, and
	// KeepGoing is set to !Strict: an input that cannot be read fails its
	// unit, not the run, unless Strict stops at the first input error. A
	// zero BodyLimit keeps bodies up to what Stats.ParseLimit parses.
	Pipeline pipeline.Config
	// Stats says what is computed, and Stats.Tables which tables are
	// written (empty: schema.DefaultTables()).
	Stats stats.Options
	// Version is robotstat's, recorded in every file and record.
	Version string
	// Redo reads every unit again, also those Dir holds from a run with
	// the same options.
	Redo bool
	// Name returns the canonical name of an input given by name (see
	// CanonicalUnit); nil means CanonicalInput. robotstat names its
	// embedded sample by its content, not by the temporary file it is
	// read from.
	Name func(input string) string
	// OnLock, when set, is called once Dir's writer lock is taken, before
	// anything is read, e.g. to say what the lock's recovery removed of
	// killed writers (schema.DirLock.Recovered) or that the file system
	// cannot lock.
	OnLock func(*schema.DirLock)
}

// Validate reports the first problem with c: the Stats or Pipeline
// options' (their own errors, unwrapped), a missing Dir, a pipeline hook
// Analyze owns.
func (c *Config) Validate() error {
	if c.Dir == "" {
		return errors.New("runs: Config.Dir is empty")
	}
	p := c.Pipeline
	if p.Skip != nil || p.Start != nil || p.BatchDone != nil || p.UnitDone != nil {
		return errors.New("runs: Config.Pipeline's Skip, Start, BatchDone and UnitDone are Analyze's own")
	}
	if err := c.Stats.Validate(); err != nil {
		return err
	}
	return c.pipeline().Validate()
}

// pipeline returns the pipeline configuration of the run but its hooks.
func (c *Config) pipeline() pipeline.Config {
	pc := c.Pipeline
	pc.KeepGoing = !pc.Strict
	if pc.BodyLimit == 0 {
		// Bodies are kept up to what is parsed; with no parse limit, up
		// to 1 GiB.
		pc.BodyLimit = max(pipeline.DefaultBodyLimit, c.Stats.ParseLimit)
		if c.Stats.ParseLimit < 0 {
			pc.BodyLimit = 1 << 30
		}
	}
	return pc
}

// worker is what one pipeline worker owns; only its goroutine touches it
// until the run ends.
type worker struct {
	analyzer *stats.Analyzer
	batch    schema.Batch
	crawl    string // the first, by name, of the crawls of the captures in batch
	outcomes [4]int64
}

// consume analyses one capture on worker w. Its rows wait in the worker's
// batch until the pipeline's batch of captures is done (unitWriter's
// batchDone): a pipeline batch holds one unit's captures, and rows must go
// to their unit's dataset.
func (wk *worker) consume(c *record.Capture) {
	wk.outcomes[wk.analyzer.Analyze(c, &wk.batch)]++
	if c.Crawl != "" && (wk.crawl == "" || c.Crawl < wk.crawl) {
		wk.crawl = c.Crawl
	}
}

// Analyze reads inputs (as pipeline.Run reads them) and writes their
// tables into cfg.Dir, unit by unit (see the package doc): it takes Dir's
// writer lock, removes what killed runs of its units left, skips the units
// Dir already holds with the same options, and commits every other unit
// once read, a unit that could not be read as failed (Result.Failed)
// unless cfg.Pipeline.Strict.
//
// It returns what the run did, also when it fails (nil only when the
// configuration is invalid or Dir cannot be locked or read): the units
// committed before a failure stay committed, and a rerun skips them; the
// units in flight leave nothing, and without a shard the empty folders the
// run created are removed. The error wraps pipeline.Run's (a
// *pipeline.ReadError under Strict, pipeline.ErrStopped, the context's),
// a *CompactedError, schema.ErrLocked, or an environment failure.
func Analyze(ctx context.Context, cfg Config, inputs []string) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	pc := cfg.pipeline()
	if st, err := os.Stat(cfg.Dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("creating the output: %s is not a folder", cfg.Dir)
	}
	n := pc.Workers
	if n == 0 {
		n = pipeline.DefaultConfig().Workers
	}
	workers := make([]*worker, n)
	for i := range workers {
		a, err := stats.NewAnalyzer(cfg.Stats)
		if err != nil {
			return nil, err
		}
		workers[i] = &worker{analyzer: a}
	}
	sharded := pc.Shard.Count > 0
	// What this run creates under Dir and leaves empty when it fails is
	// removed: not with shards, which share Dir with other processes.
	var folders *schema.Folders
	if !sharded {
		var err error
		if folders, err = schema.NoteFolders(cfg.Dir); err != nil {
			return nil, fmt.Errorf("reading what %s holds: %w", cfg.Dir, err)
		}
	}
	lock, err := schema.Lock(cfg.Dir, !sharded) // shards share Dir: they lock it shared
	if err != nil {
		return nil, err
	}
	res := &Result{Shard: pc.Shard.String()}
	defer func() {
		if err := lock.Unlock(); err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		}
	}()
	if cfg.OnLock != nil {
		cfg.OnLock(lock)
	}
	res.Dir, _ = filepath.Abs(cfg.Dir)
	meta := cfg.metadata()
	if pc.Panel != nil {
		// The site list the panel's runs name, stored with them (sites
		// are the listed hosts; schema.Index.PanelHosts).
		if meta[schema.OptionPanelSites], err = schema.WriteSiteList(cfg.Dir, pc.Panel.Hosts); err != nil {
			return nil, fmt.Errorf("writing the site list into %s: %w", cfg.Dir, err)
		}
	}
	name := cfg.Name
	if name == nil {
		name = CanonicalInput
	}
	uw, err := newUnitWriter(ctx, schema.Options{
		Dir:           cfg.Dir,
		Tables:        cfg.Stats.Tables,
		Version:       cfg.Version,
		Metadata:      meta,
		TableMetadata: cfg.Stats.TableMetadata(),
		OmitEmpty:     true,
	}, workers, name, cfg.Redo)
	if err != nil {
		return nil, fmt.Errorf("reading what %s holds: %w", cfg.Dir, err)
	}
	uw.shard = res.Shard
	defer uw.abort()
	pc.Skip, pc.Start, pc.BatchDone, pc.UnitDone = uw.skip, uw.start, uw.batchDone, uw.unitDone

	start := time.Now()
	sum, runErr := pipeline.Run(ctx, pc, inputs, func(w int, c *record.Capture) error {
		workers[w].consume(c)
		return nil
	})
	if runErr == nil {
		runErr = uw.finish()
	}
	res.fill(&sum, uw, workers, time.Since(start))
	if runErr != nil {
		uw.abort()
		if folders != nil {
			if err := folders.RemoveEmpty(); err != nil {
				res.Warnings = append(res.Warnings, "removing the empty folders this run created: "+err.Error())
			}
		}
		return res, runErr
	}
	return res, nil
}

// fill sets what the run did.
func (r *Result) fill(sum *pipeline.Summary, uw *unitWriter, workers []*worker, took time.Duration) {
	r.Summary = *sum
	r.Files, r.Records, r.Captures, r.Bytes = sum.Files, sum.Records, sum.Captures, sum.Bytes
	r.Seconds = took.Seconds()
	r.Errors = sum.ErrorCount()
	r.ErrorsBy = map[string]int64{}
	for c, n := range sum.Errors {
		if n > 0 {
			r.ErrorsBy[pipeline.Class(c).String()] = n
		}
	}
	r.Outcomes = map[string]int64{}
	for o := range parse.OutcomeUnreachable + 1 {
		r.Outcomes[o.String()] = 0
		for _, wk := range workers {
			r.Outcomes[o.String()] += wk.outcomes[o]
		}
	}
	r.Skipped = sum.Skipped
	r.Failed = uw.sortedFailures()
	uw.mu.Lock()
	defer uw.mu.Unlock()
	r.Rows = map[string]int64{}
	for t, n := range uw.rows {
		r.Rows[string(t)] = n
	}
	r.ParquetFiles, r.Committed = uw.files, uw.committed
	r.Replaced, r.Repaired = uw.replaced, uw.repaired
	r.Coverage = uw.coverage
	r.NotHosts, r.NotHostExamples, r.OtherResponses = sum.NotHosts, sum.NotHostExamples, sum.OtherResponses
	r.Empty, r.EmptyExamples = sum.Empty, sum.EmptyExamples
	r.Duplicates, r.DuplicateExamples = sum.Duplicates, sum.DuplicateExamples
	r.OutputDirs, r.OutputDirExamples = sum.OutputDirs, sum.OutputDirExamples
}

// dirExists reports whether dir is a folder.
func dirExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}
