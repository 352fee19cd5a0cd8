package reduce

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/robotstat/robotstat/schema"
)

// Options configure Sites. Dir and Version are required.
type Options struct {
	// Dir is the dataset's root (robotstat's --out).
	Dir string
	// Version is robotstat's version, recorded in the files written.
	Version string
	// Metadata is recorded in the files' metadata and completion record,
	// as for analyze.
	Metadata map[string]string
	// PartitionCaptures is how many captures a partition holds at most: the
	// unit of work held in memory at once. 0 means DefaultPartitionCaptures.
	PartitionCaptures int
	// Workers is how many partitions are resolved at once; 0 means 1. Each
	// holds one partition in memory, so the step's memory bound is
	// Workers times that of one. The output is the same for any Workers.
	Workers int
}

// DefaultPartitionCaptures keeps a partition's maps (about 600 bytes per
// capture in the worst stage, resolveSites's candidates, counting the
// garbage collector's headroom) near 75 MiB, so that two workers hold what
// one did before Options.Workers (partitions of 250,000 captures, 150 MiB:
// the whole step peaked at 390 MB RSS with 333,000 captures a partition).
// Each worker holds one partition.
const DefaultPartitionCaptures = 125_000

// maxPartitions bounds the partitions of a crawl: 1024 of 125,000 captures
// are 128M captures, more than Common Crawl's largest robots.txt crawl
// (92M).
// Past it partitions grow, and memory with them. Spill files are open only
// while read or written, so P costs buffers (spillBuffer per partition of
// each kind written), not file descriptors.
const maxPartitions = 1024

// RunID is the run id of the reduce step's own output (its files are
// part-sites.parquet in the sites and site_bots folders), so a rebuild
// replaces it.
const RunID = "sites"

// Summary says what Sites built, per crawl.
type Summary struct {
	Crawls []CrawlSummary `json:"crawls"`
	// Captures read, over every crawl.
	Captures int64 `json:"captures"`
	// Warnings about the inputs (a crawl without a verdicts table, ...).
	Warnings []string `json:"warnings,omitempty"`
	// History says what site_history holds; nil when the dataset has one
	// crawl and no site_history.
	History *HistorySummary `json:"history,omitempty"`
}

// CrawlSummary counts the sites of one crawl by outcome.
type CrawlSummary struct {
	Crawl string `json:"crawl"`
	// Date is the crawl's date (sites.crawl_date), YYYY-MM-DD; empty when
	// it has none.
	Date      string           `json:"date,omitempty"`
	Captures  int64            `json:"captures"`
	Sites     int64            `json:"sites"`
	ByOutcome map[string]int64 `json:"by_outcome"`
	SiteBots  int64            `json:"site_bots"`
	// Domains are the domains rows: the crawl's registered domains.
	Domains int64 `json:"domains"`
}

// Sites (re)builds the sites and site_bots tables of the dataset at o.Dir
// from every committed captures and verdicts file (see the package
// documentation for the rules), crawl by crawl, and commits them as one
// run (RunID) that replaces the previous build. Memory is bounded by
// Options.PartitionCaptures, whatever the size of the crawl: the captures
// are spilled to partition files in a folder under o.Dir, which is removed
// at the end.
func Sites(ctx context.Context, o Options) (Summary, error) {
	var sum Summary
	if o.PartitionCaptures <= 0 {
		o.PartitionCaptures = DefaultPartitionCaptures
	}
	in, err := readInputs(o.Dir)
	if err != nil {
		return sum, err
	}
	tmp, err := spillFolder(o.Dir)
	if err != nil {
		return sum, err
	}
	defer os.RemoveAll(tmp)

	crawls := crawlsOf(in.captures)
	// site_history spans crawls; with one crawl a host's history is its
	// sites and site_bots rows, and its 91 rows a host would cost most of
	// the step (4 times the CPU of the rest at 1M captures), so it is
	// built only from two crawls on.
	tables := schema.ReduceTables()
	if len(crawls) < 2 {
		tables = slices.DeleteFunc(tables, func(t schema.TableName) bool { return t == schema.SiteHistory })
	}
	ds, err := schema.Create(schema.Options{
		Dir: o.Dir, RunID: RunID, Input: "robotstat sites", Tables: tables,
		Version: o.Version, Metadata: o.Metadata,
	})
	if err != nil {
		return sum, err
	}
	defer ds.Abort()
	out := newWriter(ds)
	var hist *history
	if slices.Contains(tables, schema.SiteHistory) {
		hist, err = newHistory(ctx, tmp, partitionsFor(in.rowsOf(in.captures), int64(o.PartitionCaptures), maxPartitions))
		if err != nil {
			return sum, err
		}
		defer hist.remove()
	}
	dates := make([]int32, len(crawls))
	for ci, crawl := range crawls {
		files := filesOf(in.captures, crawl)
		p := partitionsFor(in.rowsOf(files), int64(o.PartitionCaptures), maxPartitions)
		c := &crawlRun{loop: loop{ctx: ctx, workers: o.Workers, out: out}, crawl: crawl, index: ci, parts: partitioner(p), dir: tmp, hist: hist,
			hosts: in.panels[crawl]}
		cs, warns, err := c.run(files, filesOf(in.verdicts, crawl))
		if err != nil {
			return sum, err
		}
		dates[ci] = c.date
		sum.Crawls = append(sum.Crawls, cs)
		sum.Captures += cs.Captures
		sum.Warnings = append(sum.Warnings, warns...)
	}
	if hist != nil {
		hs, err := hist.build(loop{ctx: ctx, workers: o.Workers, out: out}, crawls, dates)
		if err != nil {
			return sum, err
		}
		sum.History = &hs
	}
	if err := out.close(); err != nil {
		return sum, err
	}
	if err := ds.CommitOutcome(ctx, schema.Outcome{Summary: sum}); err != nil {
		return sum, err
	}
	return sum, nil
}

// inputs are the committed files Sites reads.
type inputs struct {
	// captures are the captures files that hold rows (an input without
	// captures gives zero-row files, and a crawl of only those has no
	// sites), in TableFiles' order; verdicts are every verdicts file.
	captures, verdicts []schema.File
	rows               map[string]int64 // committed rows per file path
	// panels are the listed hosts of the crawls only panels read
	// (schema.Index.PanelHosts), by crawl.
	panels map[string]map[string]bool
}

func readInputs(dir string) (inputs, error) {
	var in inputs
	ix, err := schema.ReadIndex(dir)
	if err != nil {
		return in, err
	}
	caps, _, err := ix.TableFiles(schema.Captures)
	if err != nil {
		return in, err
	}
	in.verdicts, _, err = ix.TableFiles(schema.Verdicts)
	if err != nil && !errors.Is(err, schema.ErrNoTable) {
		return in, err
	}
	if in.panels, err = ix.PanelHosts(); err != nil {
		return in, err
	}
	in.rows = map[string]int64{}
	for _, r := range ix.Runs {
		for _, f := range r.Files {
			in.rows[filepath.Join(dir, filepath.FromSlash(f.Path))] = f.Rows
		}
	}
	for _, f := range caps {
		if in.rows[f.Path] > 0 {
			in.captures = append(in.captures, f)
		}
	}
	return in, nil
}

// rowsOf returns the committed rows of files.
func (in inputs) rowsOf(files []schema.File) int64 {
	var n int64
	for _, f := range files {
		n += in.rows[f.Path]
	}
	return n
}

// spillFolder makes the build's spill folder under the dataset's
// _robotstat folder. A killed build leaves its spill folder behind; builds
// of one dataset do not run at once (they would replace each other's
// output), so any spill folder found now is a dead one, and goes.
func spillFolder(dir string) (string, error) {
	old, _ := filepath.Glob(filepath.Join(dir, "_robotstat", "reduce-*"))
	for _, d := range old {
		if err := os.RemoveAll(d); err != nil {
			return "", fmt.Errorf("reduce: removing a killed build's spill folder: %w", err)
		}
	}
	tmp, err := os.MkdirTemp(filepath.Join(dir, "_robotstat"), "reduce-")
	if err != nil {
		return "", fmt.Errorf("reduce: spill folder: %w", err)
	}
	return tmp, nil
}

// partitionsFor returns how many partitions hold n records, per at most
// each and at most max of them; and at least as many as let
// parallelPartitions workers share the steps, as long as each holds
// minPartition records. The count depends on the input alone, not on
// Options.Workers, so that the rows come in the same order for any
// Workers.
func partitionsFor(n, each int64, max_ int) int {
	p := max(1, (n+each-1)/each, min(parallelPartitions, n/minPartition))
	return int(min(p, int64(max_)))
}

// parallelPartitions and minPartition: a crawl of 100k captures is
// resolved in 12 partitions and one of a million or more in 64 at least,
// enough for 64 workers, while a partition's fixed costs (its files,
// opened once a loop) stay small beside its records.
const (
	parallelPartitions = 64
	minPartition       = 8192
)

// crawlsOf returns the crawls of files in their order (TableFiles sorts
// by crawl, the unknown crawl last).
func crawlsOf(files []schema.File) []string {
	var out []string
	for _, f := range files {
		if len(out) == 0 || out[len(out)-1] != f.Crawl {
			out = append(out, f.Crawl)
		}
	}
	return out
}

func filesOf(files []schema.File, crawl string) []schema.File {
	var out []schema.File
	for _, f := range files {
		if f.Crawl == crawl {
			out = append(out, f)
		}
	}
	return out
}
