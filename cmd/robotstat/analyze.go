package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/internal/profile"
	"github.com/robotstat/robotstat/internal/sample"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

func init() {
	register(command{name: "analyze", summary: "read robots.txt captures and write statistics to Parquet", run: (*Main).analyze,
		exits: []int{ExitOK, ExitUsage, ExitInputErrors, ExitStrict, ExitInputsFailed, ExitNothingRead, ExitInterrupted}})
}

type analyzeFlags struct {
	out, tables, bots, crawl, shard, sites, responses, manifestBase, fields string
	botsReplace, quiet, strict, json, google429, redo                       bool
	workers, parseLimit, memoryLimitMiB, errors, zstdWindowMiB              int
	connectTimeout, headerTimeout, idleTimeout                              time.Duration
	minRate                                                                 float64
	prof                                                                    profile.Paths
	// crawls are analyze's own (nil under robotstat scan, whose analysis
	// reads its own folder).
	crawls *crawlFlags
	// panel is robotstat panel's site list (nil for analyze and scan):
	// crawl inputs are read through their URL index (panel.go).
	panel *panelSpec
	// name is the command the flags are for, in messages: analyze when "".
	name string
}

// command names the command running for its messages.
func (f *analyzeFlags) command() string {
	if f.name == "" {
		return "analyze"
	}
	return f.name
}

func (m *Main) analyze(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("analyze")
	var f analyzeFlags
	f.register(fs)
	f.crawls = &crawlFlags{}
	f.crawls.register(fs)
	inputs, err := parseFlags(fs, args, m.Stdout, analyzeUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	return m.runAnalyze(ctx, f, inputs)
}

// register defines analyze's flags on fs, with their defaults, writing to
// f. robotstat scan registers the same flags for its analysis step.
func (f *analyzeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "out", "out", "write the tables under `DIR`")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "parse with `N` goroutines")
	fs.StringVar(&f.tables, "tables", "default", "tables to write: `LIST` of names, \"default\" ("+tableList(schema.DefaultTables())+") or \"all\" (also "+tableList(schema.OptInTables())+")")
	fs.StringVar(&f.bots, "bots", "", "extend the bot catalog with `FILE` (CSV token,operator,category[,source,checked] or JSON; see robotstat bots)")
	fs.BoolVar(&f.botsReplace, "bots-replace", false, "use the --bots FILE alone instead of extending the embedded catalog")
	fs.StringVar(&f.crawl, "crawl", "", "crawl `NAME` for every capture (default: the WARC warcinfo's isPartOf)")
	fs.StringVar(&f.shard, "shard", "", "read only shard `i/n` of the inputs (0-based), or \"auto\" from JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX")
	fs.StringVar(&f.sites, "sites", "", "ranked site list `FILE` (Tranco's rank,domain CSV) joined on host or registered domain")
	fs.IntVar(&f.parseLimit, "parse-limit", parse.DefaultLimit, "parse at most this many `bytes` of a robots.txt (RFC 9309 §2.5 minimum 512000; -1 for no limit)")
	fs.StringVar(&f.responses, "responses", "auto", "which WARC responses count: `WHICH` is robots (path /robots.txt), all, or auto (all inside a Common Crawl robotstxt WARC)")
	fs.StringVar(&f.manifestBase, "manifest-base", "", "`URL` or folder prefixed to relative lines of a manifest, e.g. https://data.commoncrawl.org/")
	fs.StringVar(&f.fields, "fields", "", "dump column names as a `LIST` of field=column: url=U,host=H,status=S,body=B,time=T (defaults url,host,status,body,time; host stands in for a missing url)")
	fs.BoolVar(&f.google429, "429-unreachable", false, "treat HTTP 429 as 5xx (disallow all), as Google does; RFC 9309 says 4xx (allow all)")
	fs.DurationVar(&f.connectTimeout, "connect-timeout", pipeline.DefaultConnectTimeout, "http(s) inputs: give up a try that has no connection after `DURATION` (retried)")
	fs.DurationVar(&f.headerTimeout, "header-timeout", pipeline.DefaultHeaderTimeout, "http(s) inputs: give up a try that has no response header `DURATION` after connecting (retried)")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", pipeline.DefaultIdleTimeout, "http(s) inputs: give up a try whose body sends nothing for `DURATION` (resumed)")
	fs.IntVar(&f.zstdWindowMiB, "zstd-window", pipeline.DefaultZstdWindow>>20, "read zstd frames whose window is at most `MiB` (zstd --long=31 writes 2048); each input read at once may hold one window")
	fs.Float64Var(&f.minRate, "min-rate", pipeline.DefaultMinRate, "http(s) inputs: give up a try whose body brings under `BYTES` a second over an --idle-timeout (resumed; -1: no minimum)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	fs.IntVar(&f.errors, "errors", 10, "print the first `N` located input errors on stderr (0: none; every error is in the errors table)")
	fs.BoolVar(&f.strict, "strict", false, "stop at the first input error (inputs committed before it are kept)")
	fs.BoolVar(&f.redo, "redo", false, "read every input again, also those --out already holds from an earlier run with the same options")
	fs.BoolVar(&f.json, "json", false, "print the run summary as JSON on stdout")
	fs.IntVar(&f.memoryLimitMiB, "memory-limit", 0, "soft memory limit in `MiB` for the Go heap (0: 224 + 32 per worker, unless GOMEMLIMIT is set; -1: none)")
	fs.StringVar(&f.prof.CPU, "cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof; for scripts/bench)")
	fs.StringVar(&f.prof.Mem, "memprofile", "", "write an allocation profile of the run to `FILE` (go tool pprof)")
	fs.StringVar(&f.prof.Mutex, "mutexprofile", "", "write a profile of the run's contended locks to `FILE` (go tool pprof; every contention recorded; for scripts/bench)")
	fs.StringVar(&f.prof.Block, "blockprofile", "", "write a profile of where the run's goroutines waited to `FILE` (go tool pprof; every wait recorded)")
}

func (m *Main) runAnalyze(ctx context.Context, f analyzeFlags, inputs []string) error {
	cfg, err := m.analyzeConfig(&f, inputs)
	if err != nil {
		return err
	}
	sampled := len(inputs) == 0
	if sampled {
		dir, err := os.MkdirTemp("", "robotstat-sample-")
		if err != nil {
			return fmt.Errorf("unpacking the embedded sample: %w", err)
		}
		defer os.RemoveAll(dir)
		if inputs, cfg.Name, err = sample.Unpack(dir, runs.CanonicalInput); err != nil {
			return fmt.Errorf("unpacking the embedded sample: %w", err)
		}
	}
	if limit := runs.MemoryLimit(f.memoryLimitMiB, f.workers, m.Getenv); limit > 0 {
		old := debug.SetMemoryLimit(limit)
		defer debug.SetMemoryLimit(old)
	}
	prof, err := profile.Start(f.prof)
	if err != nil {
		return err
	}
	defer prof.Stop()
	r, err := runs.Analyze(ctx, cfg, inputs)
	if r != nil {
		for _, w := range r.Warnings {
			fmt.Fprintf(m.Stderr, "robotstat: %s: %s\n", f.command(), w)
		}
	}
	if err != nil {
		return m.analyzeFailed(ctx, f, r, err)
	}
	res := analyzeResult{Result: *r, Sample: sampled}
	if f.panel != nil {
		res.Panel = runs.NewPanelResult(f.panel.file, f.panel.list, r.Coverage)
	}
	nothing := ""
	if f.name == "" && f.panel == nil && len(r.Failed) == 0 {
		nothing = r.NothingRead(inputs)
	}
	// The next step is the report only when there is one to make.
	next := nothing == "" && dirExists(filepath.Join(res.Dir, string(schema.Captures)))
	r.WriteSummary(m.Stderr, runs.SummaryOptions{Sample: sampled, Panel: res.Panel, Next: next})
	// An input with errors and no crawl (no capture, none named) in a run
	// that read no capture has no rows: no partition without a crawl.
	r.WriteErrors(m.Stderr, slices.Contains(cfg.Stats.Tables, schema.Errors) && r.Rows[string(schema.Errors)] >= r.Summary.ErrorCount())
	if nothing == "" {
		if err := m.sitesAfterAnalyze(ctx, f, &res, cfg.Stats.Tables); err != nil {
			return err
		}
		if err := prof.Stop(); err != nil {
			return err
		}
	}
	if f.json {
		if err := cli.WriteJSON(m.Stdout, res); err != nil {
			return fmt.Errorf("writing the summary: %w", err)
		}
	}
	switch {
	case nothing != "":
		return &cli.ExitError{Code: ExitNothingRead, Err: errors.New(nothing)}
	case len(res.Failed) > 0:
		return cli.Silent(ExitInputsFailed)
	case r.Summary.HadErrors():
		return cli.Silent(ExitInputErrors)
	}
	return nil
}

// analyzeConfig turns analyze's flags into the run's configuration.
func (m *Main) analyzeConfig(f *analyzeFlags, inputs []string) (runs.Config, error) {
	cmd := f.command()
	cfg := runs.Config{Dir: f.out, Version: Version, Redo: f.redo, OnLock: m.lockNotes(cmd, f.out)}
	if f.workers < 1 {
		return cfg, cli.Usagef(cmd, "--workers must be at least 1, got %d", f.workers)
	}
	if cores := runtime.NumCPU(); f.workers > 4*cores {
		// Allowed (a test may want it), but it only costs: a worker
		// parses on a core and holds its buffers (runs.MemoryLimit: 32 MiB).
		fmt.Fprintf(m.Stderr, "robotstat: %s: warning: --workers %d is far above the %d cores: workers beyond the cores add memory (some 32 MiB each), not speed; the default, --workers %d, uses every core\n",
			cmd, f.workers, cores, runtime.GOMAXPROCS(0))
	}
	if f.out == "" {
		return cfg, cli.Usagef(cmd, "--out must name a folder")
	}
	if f.minRate == 0 || f.minRate != f.minRate || math.IsInf(f.minRate, 0) {
		return cfg, cli.Usagef(cmd, "--min-rate must be a positive number of bytes a second, or -1 for none, got %v", f.minRate)
	}
	if f.zstdWindowMiB < 1 || f.zstdWindowMiB > 1<<20 {
		return cfg, cli.Usagef(cmd, "--zstd-window must be 1 to %d MiB, got %d", 1<<20, f.zstdWindowMiB)
	}
	tables, err := schema.ParseTables(f.tables)
	if err != nil {
		return cfg, cli.Usagef(cmd, "--tables: %v", err)
	}
	responses, err := pipeline.ParseResponses(f.responses)
	if err != nil {
		return cfg, cli.Usagef(cmd, "--responses: %v", err)
	}
	shard, err := pipeline.ParseShard(f.shard, m.getenv) // "": no shard
	if err != nil {
		return cfg, cli.Usagef(cmd, "--shard: %v", err)
	}
	fields, err := pipeline.ParseFields(f.fields)
	if err != nil {
		return cfg, cli.Usagef(cmd, "--fields: %v", err)
	}
	if f.botsReplace && f.bots == "" {
		return cfg, cli.Usagef(cmd, "--bots-replace needs --bots FILE")
	}
	cfg.Stats = stats.DefaultOptions()
	cfg.Stats.Tables = tables
	cfg.Stats.ParseLimit = f.parseLimit
	cfg.Stats.TooManyRequestsUnreachable = f.google429
	if f.bots != "" {
		if cfg.Stats.Catalog, err = m.loadCatalog(f.bots, f.botsReplace); err != nil {
			return cfg, fmt.Errorf("--bots: %w", err)
		}
	}
	if f.sites != "" {
		if cfg.Stats.Ranks, err = loadWith(m, f.sites, stats.ReadRanks); err != nil {
			return cfg, fmt.Errorf("--sites: %w", err)
		}
	}
	// Zero fields take the pipeline's defaults (BodyLimit follows the
	// parse limit: runs.Config.Pipeline).
	cfg.Pipeline = pipeline.Config{
		Workers: f.workers, Shard: shard, Crawl: f.crawl, Responses: responses, Strict: f.strict,
		Fields: fields, ManifestBase: f.manifestBase, Stdin: m.Stdin, MaxDiagnostics: f.errors,
		ConnectTimeout: f.connectTimeout, HeaderTimeout: f.headerTimeout, IdleTimeout: f.idleTimeout,
		ZstdWindow: int64(f.zstdWindowMiB) << 20, MinRate: f.minRate,
		// A download that waits says so: the defaults spend 31 s on a
		// refused connection before they give up.
		OnRetry: (&retryPrinter{w: m.Stderr}).notice,
	}
	if f.errors <= 0 {
		cfg.Pipeline.MaxDiagnostics = -1 // none kept (0 would be the pipeline's default)
	}
	if f.crawls != nil {
		if err := f.crawls.apply(cmd, &cfg.Pipeline, inputs, f.crawl, m.Getenv); err != nil {
			return cfg, err
		}
	}
	m.withRetryDelays(&cfg.Pipeline)
	if f.panel != nil {
		cfg.Pipeline.Panel = f.panel.pipeline
	}
	if !f.quiet && m.StderrIsTerminal {
		cfg.Pipeline.Progress = m.Stderr
	}
	if err := cfg.Validate(); err != nil {
		return cfg, cli.Usagef(cmd, "%v", err)
	}
	return cfg, nil
}

// analyzeFailed is the error of a run that failed, r what it did (nil
// when it did not start): what was kept, and why it stopped.
func (m *Main) analyzeFailed(ctx context.Context, f analyzeFlags, r *runs.Result, err error) error {
	if r == nil {
		return fmt.Errorf("%s: %w", f.command(), err)
	}
	if r.Summary.Files > 0 { // an input list that failed to expand read nothing
		fmt.Fprintln(m.Stderr, "robotstat:", r.Summary.Line())
	}
	kept := ""
	if r.Committed > 0 {
		kept = fmt.Sprintf("; the %d inputs committed before are kept, and a rerun skips them", r.Committed)
	}
	var re *pipeline.ReadError
	var ce *runs.CompactedError
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted%s: %w", kept, ctx.Err())
	case f.strict && errors.As(err, &re):
		return &cli.ExitError{Code: ExitStrict, Err: fmt.Errorf("stopped at the first input error (--strict), its input not written%s: %w", kept, err)}
	case errors.Is(err, pipeline.ErrStopped):
		return fmt.Errorf("%s: %w; %d inputs read before are kept and %d recorded as failed (a rerun skips the first and retries the others)\nrobotstat: %s",
			f.command(), err, r.Committed-len(r.Failed), len(r.Failed), runs.RefusedHint(pipeline.DefaultStopAfterRefused))
	case errors.As(err, &ce):
		return cli.Usagef("analyze", "%v", ce)
	case errors.Is(err, pipeline.ErrNoCrawl):
		return cli.Usagef(f.command(), "%v; check the name (Common Crawl lists its crawls at https://index.commoncrawl.org/collinfo.json), or name with --cc-base the mirror that has it", err)
	}
	return fmt.Errorf("%s: %w%s", f.command(), err, kept)
}

// sitesAfterAnalyze builds the sites tables after a run when it should
// (runs.Result.SitesAfter), and says why not when it does not.
func (m *Main) sitesAfterAnalyze(ctx context.Context, f analyzeFlags, res *analyzeResult, tables []schema.TableName) error {
	build, note := res.SitesAfter(tables)
	if note != "" {
		fmt.Fprintf(m.Stderr, "robotstat: %s\n", note)
	}
	if !build {
		return nil
	}
	ss, err := m.buildSites(ctx, res.Dir, f.workers)
	if err != nil {
		return err
	}
	res.Sites = &ss
	return nil
}

// analyzeResult is the run summary (--json prints it): the run's, and
// what the command adds to it.
type analyzeResult struct {
	runs.Result
	Sample bool `json:"sample"`
	// Sites is what the sites step built (nil for a sharded run).
	Sites *reduce.Summary `json:"sites,omitempty"`
	// Panel is what robotstat panel found of its hosts in each crawl.
	Panel *runs.PanelResult `json:"panel,omitempty"`
}

// loadWith opens name and hands it to read.
func loadWith[T any](m *Main, name string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := m.openFile(name)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// dirExists reports whether dir is a folder.
func dirExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

// tableList joins table names with commas.
func tableList(ts []schema.TableName) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ",")
}
