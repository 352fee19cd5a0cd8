package main

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

func init() {
	register(command{name: "analyze", summary: "read robots.txt captures and write statistics to Parquet", run: (*Main).analyze})
}

// sampleWARC is the embedded sample analyze reads when given no input: real
// robots.txt responses from a 2008 Heritrix crawl (Apache-2.0) and made-up
// captures that show each case robotstat distinguishes. See
// sample/README.md; regenerate with go run ./scripts/mksample.
//
//go:embed sample/robotstat-sample.warc.gz
var sampleWARC []byte

// sampleName is the file name the sample is read under, so that its
// capture ids are the same on every run.
const sampleName = "robotstat-sample.warc.gz"

const analyzeUsage = `Usage:
  robotstat analyze [flags] [INPUT...]

Reads robots.txt captures from each INPUT and writes Parquet tables under
--out (default out/): captures, groups, agents, bots and directives, plus
rules, sitemaps and diagnostics with --tables. With no INPUT it reads the
embedded sample (a small WARC of real and made-up captures).

An INPUT is a WARC (.warc, .warc.gz, .warc.zst), a JSON Lines or CSV dump
(.jsonl[.gz|.zst], .csv[.gz]), a tar or tar.gz of files named by host, a
folder of such files, a manifest (a text file, optionally gzipped, of paths or
http(s) URLs, one a line, e.g. Common Crawl's robotstxt.paths.gz), an http(s)
URL, or - for a WARC on stdin.

Output files are written under temporary names and renamed when complete, so a
*.parquet under --out is never partial. Running the same inputs into the same
--out replaces the earlier files. Nothing is written outside --out.

Examples:
  robotstat analyze --out out/
  robotstat analyze --out out/ --crawl CC-MAIN-2024-33 robotstxt.paths.gz \
      --manifest-base https://data.commoncrawl.org/
  robotstat analyze --out out/ --shard auto --sites tranco.csv manifest.txt
`

type analyzeFlags struct {
	out, tables, bots, crawl, shard, sites, responses, manifestBase, fields string
	cpuprofile, memprofile                                                  string
	botsReplace, quiet, strict, json, google429                             bool
	workers, parseLimit, memoryLimitMiB                                     int
	connectTimeout, headerTimeout, idleTimeout                              time.Duration
}

func (m *Main) analyze(ctx context.Context, args []string) error {
	fs := newFlagSet("analyze")
	var f analyzeFlags
	fs.StringVar(&f.out, "out", "out", "write the tables under `DIR`")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "parse with `N` goroutines")
	fs.StringVar(&f.tables, "tables", "default", "tables to write: `LIST` of names, \"default\" (captures,groups,agents,bots,directives) or \"all\"")
	fs.StringVar(&f.bots, "bots", "", "extend the bot catalog with `FILE` (CSV token,operator,category or JSON; see robotstat bots)")
	fs.BoolVar(&f.botsReplace, "bots-replace", false, "use the --bots FILE alone instead of extending the embedded catalog")
	fs.StringVar(&f.crawl, "crawl", "", "crawl `NAME` for every capture (default: the WARC warcinfo's isPartOf)")
	fs.StringVar(&f.shard, "shard", "", "read only shard `i/n` of the inputs (0-based), or \"auto\" from JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX")
	fs.StringVar(&f.sites, "sites", "", "ranked site list `FILE` (Tranco's rank,domain CSV) joined on host or registered domain")
	fs.IntVar(&f.parseLimit, "parse-limit", parse.DefaultLimit, "parse at most this many `bytes` of a robots.txt (RFC 9309 §2.5 minimum 512000; -1 for no limit)")
	fs.StringVar(&f.responses, "responses", "auto", "which WARC responses count: robots (path /robots.txt), all, or auto (all inside a Common Crawl robotstxt WARC)")
	fs.StringVar(&f.manifestBase, "manifest-base", "", "prefix for relative lines of a manifest, e.g. https://data.commoncrawl.org/")
	fs.StringVar(&f.fields, "fields", "", "dump column names as `url=U,status=S,body=B,time=T` (defaults url,status,body,time)")
	fs.BoolVar(&f.google429, "429-unreachable", false, "treat HTTP 429 as 5xx (disallow all), as Google does; RFC 9309 says 4xx (allow all)")
	fs.DurationVar(&f.connectTimeout, "connect-timeout", pipeline.DefaultConnectTimeout, "http(s) inputs: give up a try that has no connection after `DURATION` (retried)")
	fs.DurationVar(&f.headerTimeout, "header-timeout", pipeline.DefaultHeaderTimeout, "http(s) inputs: give up a try that has no response header `DURATION` after connecting (retried)")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", pipeline.DefaultIdleTimeout, "http(s) inputs: give up a try whose body sends nothing for `DURATION` (resumed)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	fs.BoolVar(&f.strict, "strict", false, "stop at the first input error and write nothing")
	fs.BoolVar(&f.json, "json", false, "print the run summary as JSON on stdout")
	fs.IntVar(&f.memoryLimitMiB, "memory-limit", 0, "soft memory limit in `MiB` for the Go heap (0: 224 + 32 per worker, unless GOMEMLIMIT is set; -1: none)")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof; for scripts/bench)")
	fs.StringVar(&f.memprofile, "memprofile", "", "write an allocation profile of the run to `FILE` (go tool pprof)")
	inputs, err := parseFlags(fs, args, m.Stdout, analyzeUsage)
	if err != nil {
		if errors.Is(err, errHelp) {
			return nil
		}
		return err
	}
	return m.runAnalyze(ctx, f, inputs)
}

// analyzeRun holds one run's moving parts.
type analyzeRun struct {
	ds      *schema.Dataset
	workers []*analyzeWorker // by pipeline worker index
}

// analyzeWorker is what one pipeline worker owns; only its goroutine
// touches it until the run ends.
type analyzeWorker struct {
	analyzer *stats.Analyzer
	rows     stats.Rows
	out      *localTables
	outcomes outcomeCounts // summed over the workers at the end
}

// flushRows is how many rows a worker buffers before handing them to its
// LocalWriters: large enough to amortise the calls, small enough that a
// worker holds a few MB of rows.
const flushRows = 8192

// localTables are one worker's LocalWriters for the tables with many rows
// per capture (bots 101, agents 8, groups 5 and rules on Common Crawl's
// robots.txt captures): each encodes in the worker's goroutine and takes
// its table's lock only to append a finished row group, so workers encode
// them in parallel. The tables of a row or two per capture go through the
// shared TableWriters: their row groups span so many captures that the
// url and capture_id dictionaries overflow into plain pages, which
// parquet-go cannot append verbatim and would re-encode under the lock,
// encoding those rows twice (measured: captures and directives).
type localTables struct {
	groups *schema.LocalWriter[schema.GroupRow]
	agents *schema.LocalWriter[schema.AgentRow]
	bots   *schema.LocalWriter[schema.BotRow]
	rules  *schema.LocalWriter[schema.RuleRow]
}

func newLocalTables(ds *schema.Dataset) *localTables {
	return &localTables{groups: ds.Groups().Local(), agents: ds.Agents().Local(), bots: ds.Bots().Local(), rules: ds.Rules().Local()}
}

func (m *Main) runAnalyze(ctx context.Context, f analyzeFlags, inputs []string) error {
	if f.workers < 1 {
		return usageErrorf("analyze", "--workers must be at least 1, got %d", f.workers)
	}
	if f.out == "" {
		return usageErrorf("analyze", "--out must name a folder")
	}
	tables, err := schema.ParseTables(f.tables)
	if err != nil {
		return usageErrorf("analyze", "--tables: %v", err)
	}
	responses, err := pipeline.ParseResponses(f.responses)
	if err != nil {
		return usageErrorf("analyze", "--responses: %v", err)
	}
	var shard pipeline.Shard
	if f.shard != "" {
		getenv := m.Getenv
		if getenv == nil {
			getenv = func(string) string { return "" }
		}
		if shard, err = pipeline.ParseShard(f.shard, getenv); err != nil {
			return usageErrorf("analyze", "--shard: %v", err)
		}
	}
	fields, err := parseFields(f.fields)
	if err != nil {
		return usageErrorf("analyze", "--fields: %v", err)
	}
	if f.botsReplace && f.bots == "" {
		return usageErrorf("analyze", "--bots-replace needs --bots FILE")
	}

	so := stats.DefaultOptions()
	so.Tables = tables
	so.ParseLimit = f.parseLimit
	so.TooManyRequestsUnreachable = f.google429
	if f.bots != "" {
		if so.Catalog, err = m.loadCatalog(f.bots, f.botsReplace); err != nil {
			return fmt.Errorf("--bots: %w", err)
		}
	}
	if f.sites != "" {
		if so.Ranks, err = loadWith(m, f.sites, stats.ReadRanks); err != nil {
			return fmt.Errorf("--sites: %w", err)
		}
	}
	if err := so.Validate(); err != nil {
		return usageErrorf("analyze", "%v", err)
	}

	sample := len(inputs) == 0
	if sample {
		dir, err := os.MkdirTemp("", "robotstat-sample-")
		if err != nil {
			return fmt.Errorf("unpacking the embedded sample: %w", err)
		}
		defer os.RemoveAll(dir)
		p := filepath.Join(dir, sampleName)
		if err := os.WriteFile(p, sampleWARC, 0o644); err != nil {
			return fmt.Errorf("unpacking the embedded sample: %w", err)
		}
		inputs = []string{p}
	}

	// Zero fields take the pipeline's defaults; RecordLimit among them
	// follows BodyLimit.
	pc := pipeline.Config{
		Workers:      f.workers,
		BodyLimit:    max(pipeline.DefaultBodyLimit, f.parseLimit), // bodies are kept up to what is parsed
		Shard:        shard,
		Crawl:        f.crawl,
		Responses:    responses,
		Strict:       f.strict,
		Fields:       fields,
		ManifestBase: f.manifestBase,
		Stdin:        m.Stdin,

		ConnectTimeout: f.connectTimeout,
		HeaderTimeout:  f.headerTimeout,
		IdleTimeout:    f.idleTimeout,
	}
	if f.parseLimit < 0 { // no parse limit: keep up to 1 GiB
		pc.BodyLimit = 1 << 30
	}
	if !f.quiet && m.StderrIsTerminal {
		pc.Progress = m.Stderr
	}
	if err := pc.Validate(); err != nil {
		return usageErrorf("analyze", "%v", err)
	}

	meta := so.Metadata()
	meta["responses"] = f.responses
	if f.crawl != "" {
		meta["crawl"] = f.crawl
	}
	if f.shard != "" {
		meta["shard"] = shard.String()
	}
	ds, err := schema.Create(schema.Options{
		Dir:      f.out,
		RunID:    runID(inputs, sample, shard, meta),
		Tables:   tables,
		Version:  Version,
		Metadata: meta,
	})
	if err != nil {
		return fmt.Errorf("creating the output: %w", err)
	}
	defer ds.Abort()

	if limit := memoryLimit(f.memoryLimitMiB, f.workers, m.Getenv); limit > 0 {
		old := debug.SetMemoryLimit(limit)
		defer debug.SetMemoryLimit(old)
	}

	prof, err := startProfile(f.cpuprofile, f.memprofile)
	if err != nil {
		return err
	}
	defer prof.stop()

	run := &analyzeRun{ds: ds}
	for range f.workers {
		a, err := stats.NewAnalyzer(so)
		if err != nil {
			return usageErrorf("analyze", "%v", err)
		}
		run.workers = append(run.workers, &analyzeWorker{analyzer: a, out: newLocalTables(ds)})
	}
	start := time.Now()
	sum, runErr := pipeline.Run(ctx, pc, inputs, run.consume)
	if runErr == nil {
		for _, wk := range run.workers {
			if err := run.flush(wk); err != nil {
				runErr = err
				break
			}
		}
	}
	if runErr != nil {
		fmt.Fprintln(m.Stderr, "robotstat:", sum.Line())
		var re *pipeline.ReadError
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("interrupted; nothing written: %w", ctx.Err())
		case f.strict && errors.As(runErr, &re):
			return &exitError{code: ExitStrict, err: fmt.Errorf("stopped at the first input error (--strict); nothing written: %w", runErr)}
		}
		return fmt.Errorf("analyze: %w", runErr)
	}
	if err := ds.Commit(ctx); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted; nothing written: %w", ctx.Err())
		}
		return fmt.Errorf("writing the output: %w", err)
	}
	if err := prof.stop(); err != nil {
		return err
	}
	outcomes := map[string]int64{}
	for _, wk := range run.workers {
		for i, o := range outcomeOrder {
			outcomes[o.value] += wk.outcomes[i]
		}
	}
	res := analyzeResult{
		Out:          ds.Root(),
		Sample:       sample,
		Files:        sum.Files,
		Records:      sum.Records,
		Captures:     sum.Captures,
		Bytes:        sum.Bytes,
		Seconds:      time.Since(start).Seconds(),
		Errors:       sum.ErrorCount(),
		Outcomes:     outcomes,
		Tables:       map[string]int64{},
		Shard:        shard.String(),
		ErrorsBy:     map[string]int64{},
		ParquetFiles: len(ds.Files()),
	}
	for c, n := range sum.Errors {
		if n > 0 {
			res.ErrorsBy[pipeline.Class(c).String()] = n
		}
	}
	for _, t := range []interface {
		Enabled() bool
		Name() schema.TableName
		Rows() int64
	}{ds.Captures(), ds.Groups(), ds.Agents(), ds.Bots(), ds.Directives(), ds.Rules(), ds.Sitemaps(), ds.Diagnostics()} {
		if t.Enabled() {
			res.Tables[string(t.Name())] = t.Rows()
		}
	}
	if f.json {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return fmt.Errorf("writing the summary: %w", err)
		}
	}
	res.print(m.Stderr, sum.Line())
	if sum.HadErrors() {
		return silentExit(ExitInputErrors)
	}
	return nil
}

// consume analyses one capture on worker w.
func (r *analyzeRun) consume(w int, c *pipeline.Capture) error {
	wk := r.workers[w]
	before := len(wk.rows.Captures)
	wk.analyzer.Analyze(c, &wk.rows)
	for _, cr := range wk.rows.Captures[before:] {
		wk.outcomes.add(cr.Outcome)
	}
	if wk.rows.Len() >= flushRows {
		return r.flush(wk)
	}
	return nil
}

// flush hands a worker's rows to its table writers.
func (r *analyzeRun) flush(wk *analyzeWorker) error {
	rows, out, ds := &wk.rows, wk.out, r.ds
	for _, err := range []error{
		ds.Captures().Write(rows.Captures),
		out.groups.Write(rows.Groups),
		out.agents.Write(rows.Agents),
		schema.WriteBots(out.bots, rows.Bots),
		ds.Directives().Write(rows.Directives),
		out.rules.Write(rows.Rules),
		ds.Sitemaps().Write(rows.Sitemaps),
		ds.Diagnostics().Write(rows.Diagnostics),
	} {
		if err != nil {
			return fmt.Errorf("writing rows: %w", err)
		}
	}
	rows.Reset()
	return nil
}

// analyzeResult is the run summary (--json prints it).
type analyzeResult struct {
	Out          string           `json:"out"`
	Sample       bool             `json:"sample"`
	Shard        string           `json:"shard,omitempty"`
	Files        int              `json:"files"`
	Records      int64            `json:"records"`
	Captures     int64            `json:"captures"`
	Bytes        int64            `json:"bytes"`
	Seconds      float64          `json:"seconds"`
	Errors       int64            `json:"errors"`
	ErrorsBy     map[string]int64 `json:"errors_by_class"`
	Outcomes     map[string]int64 `json:"outcomes"`
	Tables       map[string]int64 `json:"rows"`
	ParquetFiles int              `json:"parquet_files"`
}

// print writes where the output went and the three-line summary.
func (r *analyzeResult) print(w io.Writer, line string) {
	what := "inputs"
	if r.Sample {
		what = "the embedded sample"
	}
	fmt.Fprintf(w, "robotstat: read %s: %s\n", what, line)
	var parts []string
	for _, o := range outcomeOrder {
		parts = append(parts, fmt.Sprintf("%d %s", r.Outcomes[o.value], o.label))
	}
	fmt.Fprintf(w, "robotstat: %d captures: %s\n", r.Captures, strings.Join(parts, ", "))
	var rows []string
	for _, t := range schema.AllTables() {
		if n, ok := r.Tables[string(t)]; ok {
			rows = append(rows, string(t)+" "+strconv.FormatInt(n, 10))
		}
	}
	fmt.Fprintf(w, "robotstat: wrote %s (rows: %s); next: robotstat report %s\n", r.Out, strings.Join(rows, ", "), r.Out)
}

// outcomeOrder lists the values of captures.outcome in the order the
// summary prints them, with their labels.
var outcomeOrder = [...]struct{ value, label string }{
	{schema.OutcomeParsed, "parsed"},
	{schema.OutcomeUnavailable, "unavailable (4xx, allow all)"},
	{schema.OutcomeUnreachable, "unreachable (5xx, disallow all)"},
	{schema.OutcomeRedirect, "redirects"},
}

// outcomeCounts counts captures by outcome, indexed like outcomeOrder: a
// worker adds one per capture, so it is an array, not a map.
type outcomeCounts [len(outcomeOrder)]int64

func (c *outcomeCounts) add(outcome string) {
	for i := range outcomeOrder {
		if outcomeOrder[i].value == outcome {
			c[i]++
			return
		}
	}
}

// memoryLimit returns the soft heap limit analyze sets (0: none). The live
// heap of a run is flat (bounded buffers, files that roll over), but without
// a limit the garbage collector lets the heap grow to twice the live size on
// long runs, so RSS crept up with the input (261 MiB at 100k captures, 344
// MiB at 1M, 2 workers). A soft limit above the live heap (~140-160 MB with
// 2 workers) keeps RSS flat for ~4% more GC CPU; it grows with the workers,
// whose buffers make up most of the live heap. GOMEMLIMIT, when set, wins
// (the Go runtime has already applied it); -1 turns the limit off.
func memoryLimit(flagMiB, workers int, getenv func(string) string) int64 {
	switch {
	case flagMiB < 0:
		return 0
	case flagMiB > 0:
		return int64(flagMiB) << 20
	case getenv != nil && getenv("GOMEMLIMIT") != "":
		return 0
	}
	return int64(224+32*workers) << 20
}

// runID names this run's files: a hash of the inputs as given, the shard
// and the options that shape the numbers, so that the same run into the same
// --out replaces its files and a different one adds files beside them.
func runID(inputs []string, sample bool, shard pipeline.Shard, meta map[string]string) string {
	h := sha256.New()
	if sample {
		io.WriteString(h, "sample\x00"+strconv.Itoa(len(sampleWARC))+"\x00")
	} else {
		for _, in := range inputs {
			io.WriteString(h, in+"\x00")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		io.WriteString(h, k+"="+meta[k]+"\x00")
	}
	io.WriteString(h, shard.String())
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// parseFields reads --fields url=U,status=S,body=B,time=T.
func parseFields(s string) (pipeline.Fields, error) {
	var f pipeline.Fields
	if s == "" {
		return f, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return f, fmt.Errorf("%q is not name=column", kv)
		}
		switch k {
		case "url":
			f.URL = v
		case "status":
			f.Status = v
		case "body":
			f.Body = v
		case "time":
			f.Time = v
		default:
			return f, fmt.Errorf("unknown field %q (want url, status, body or time)", k)
		}
	}
	return f, nil
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
