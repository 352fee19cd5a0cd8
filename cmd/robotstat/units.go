package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/schema"
)

// analyze commits its output unit by unit (pipeline.Unit: an input file, a
// manifest line, a URL): each unit is a schema.Dataset run of its own,
// named from the input (unitID), with its own completion record. So a
// killed or failed run keeps every input it finished, a rerun skips them
// (resume), an input that cannot be read is recorded as failed without
// ending the run, and running the same inputs again, with other options or
// split into other shards, replaces an input's rows rather than adding a
// second copy.

// unitID is the run id of a unit's files and record: the input's base
// name, made safe, then 16 hex digits of a hash of its canonical name
// (canonicalInput), so that the same input gets the same id in every run
// and every shard, and two inputs of the same base name do not collide.
func unitID(canonical string) string {
	base := canonical
	if i := strings.LastIndexAny(base, "/\\"); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.IndexAny(base, "?."); i > 0 {
		base = base[:i] // no query, no extensions: CC-MAIN-...-00000
	}
	var b strings.Builder
	for i := 0; i < len(base) && b.Len() < 80; i++ {
		c := base[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-' || c == '_':
			b.WriteByte(c)
		case b.Len() > 0:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		b.WriteString("input")
	}
	h := sha256.Sum256([]byte(canonical))
	return b.String() + "-" + hex.EncodeToString(h[:8])
}

// sitesUpToDate reports whether dir's sites tables were built after
// every other run in it was committed: nothing to rebuild.
func sitesUpToDate(dir string) bool {
	ix, err := schema.ReadIndex(dir)
	if err != nil {
		return false
	}
	sites := ix.Runs[reduce.RunID]
	if sites == nil || sites.State != schema.RecordDone {
		return false
	}
	for id, r := range ix.Runs {
		// A compaction moves rows, it adds none.
		if id != reduce.RunID && !r.IsCompaction() && !r.Committed.Before(sites.Committed) {
			return false
		}
	}
	return true
}

// canonicalInput is the name a unit is known by across runs: a URL as
// given, "-" as stdin, a path made absolute and clean (so ./x and x, or a
// path given from another folder, are the same input).
func canonicalInput(name string) string {
	switch {
	case name == "-":
		return "stdin"
	case strings.HasPrefix(name, "http://"), strings.HasPrefix(name, "https://"), strings.HasPrefix(name, "s3://"):
		return name
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return filepath.Clean(name)
}

// crawlFilePrefix begins the canonical name of a file of a crawl read by
// name: its path from crawl-data/ on, whatever base it was read from.
const crawlFilePrefix = "commoncrawl:"

// canonicalUnit is the name a unit is known by across runs: a file of a
// crawl read by name is the same input from every base (Common Crawl over
// https, its S3 bucket, a mirror), so that reading a crawl from one base
// after a sample of it from another does not file the sample's rows twice;
// any other input is canonicalInput's.
func canonicalUnit(unit pipeline.Unit, name func(string) string) string {
	if unit.Crawl != "" {
		p := filepath.ToSlash(unit.Name)
		if i := strings.Index(p, "crawl-data/"+unit.Crawl+"/"); i >= 0 {
			return crawlFilePrefix + p[i:]
		}
	}
	return name(unit.Name)
}

func (u *unitWriter) canonical(unit pipeline.Unit) string { return canonicalUnit(unit, u.name) }

// unitSummary is what a unit's completion record says of it besides its
// files (Record.Summary).
type unitSummary struct {
	Captures   int64 `json:"captures"`
	DataErrors int64 `json:"data_errors"`
	// Shard is the shard that read the unit (i/n), for the record's reader:
	// not an option, a unit's rows do not depend on it.
	Shard string `json:"shard,omitempty"`
	// Panel is a panel unit's coverage of its crawl (robotstat panel).
	Panel *pipeline.Coverage `json:"panel,omitempty"`
}

// unitOut is a unit in flight: its dataset and each worker's sink into it.
type unitOut struct {
	ds    *schema.Dataset
	sinks []*schema.Sink // by worker; each touched only by its worker
	crawl string         // the first, by name, of its captures' crawls (under unitWriter.mu)
}

// unitFailure is a unit that could not be read to its end.
type unitFailure struct {
	Input    string `json:"input"`
	Error    string `json:"error"`
	Captures int64  `json:"captures_kept"`
	// Refused: the server refused every try (pipeline.ErrRefused).
	Refused bool `json:"refused,omitempty"`
}

// unitWriter creates, fills and commits the units' datasets.
type unitWriter struct {
	ctx     context.Context
	opts    schema.Options // every unit's, but RunID and Input
	workers []*analyzeWorker
	name    func(string) string // the canonical name of a unit's input
	ix      *schema.Index       // what --out held when the run started
	redo    bool
	shard   string

	mu        sync.Mutex
	inFlight  map[int]*unitOut
	ids       map[string]bool // run ids this run writes
	rows      map[schema.TableName]int64
	files     int
	committed int
	failures  []unitFailure
	skipped   int
	replaced  map[string]int      // option that differs -> units redone for it
	coverage  []pipeline.Coverage // of the panel units committed
}

func newUnitWriter(ctx context.Context, opts schema.Options, workers []*analyzeWorker, name func(string) string, redo bool) (*unitWriter, error) {
	ix, err := schema.ReadIndex(opts.Dir)
	if err != nil {
		return nil, err
	}
	return &unitWriter{ctx: ctx, opts: opts, workers: workers, name: name, ix: ix, redo: redo,
		inFlight: map[int]*unitOut{}, ids: map[string]bool{}, rows: map[schema.TableName]int64{}, replaced: map[string]int{}}, nil
}

// skip is pipeline.Config.Skip: a unit is skipped when --out holds a
// completed record of it (not a failed one) written with the same options,
// the same schema version and at least the tables asked for.
func (u *unitWriter) skip(unit pipeline.Unit) bool {
	if u.redo {
		return false
	}
	rec := u.ix.Runs[unitID(u.canonical(unit))]
	if rec == nil || rec.State != schema.RecordDone {
		return false
	}
	opts := u.optsOf(unit)
	if diff := optionDiff(rec, &opts); diff != "" {
		u.mu.Lock()
		u.replaced[diff]++
		u.mu.Unlock()
		return false
	}
	u.mu.Lock()
	u.skipped++
	u.mu.Unlock()
	return true
}

// optsOf returns the options of a unit's dataset: the run's, with the
// crawl of a unit read from a crawl by name among them, as --crawl would
// put it (a unit's rows depend on the crawl they are filed under).
func (u *unitWriter) optsOf(unit pipeline.Unit) schema.Options {
	opts := u.opts
	if unit.Crawl != "" {
		opts.Metadata = maps.Clone(opts.Metadata)
		opts.Metadata["crawl"] = unit.Crawl
	}
	return opts
}

// optionDiff says why a record does not hold what a run with opts would
// write, "" when it does.
func optionDiff(rec *schema.Record, opts *schema.Options) string {
	if rec.SchemaVersion != schema.SchemaVersion {
		return fmt.Sprintf("schema version %s, now %s", rec.SchemaVersion, schema.SchemaVersion)
	}
	for _, k := range slices.Sorted(maps.Keys(opts.Metadata)) {
		if v, ok := rec.Options[k]; !ok || v != opts.Metadata[k] {
			return fmt.Sprintf("%s %q, now %q", k, rec.Options[k], opts.Metadata[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(rec.Options)) {
		if _, ok := opts.Metadata[k]; !ok {
			return fmt.Sprintf("%s %q, now unset", k, rec.Options[k])
		}
	}
	tables := opts.Tables
	if len(tables) == 0 {
		tables = schema.DefaultTables()
	}
	for _, t := range tables {
		if !slices.Contains(rec.Tables, t) {
			return fmt.Sprintf("no %s table", t)
		}
	}
	return ""
}

// start is pipeline.Config.Start: before anything is read, remove what
// killed runs of these units left behind (hidden temporary files, files no
// record names). No other process writes them: every unit belongs to one
// shard.
func (u *unitWriter) start(units []pipeline.Unit) error {
	u.mu.Lock()
	var compacted []string
	why := "with --redo"
	for _, unit := range units {
		id := unitID(u.canonical(unit))
		u.ids[id] = true
		rec := u.ix.Runs[id]
		if rec == nil || u.ix.AbsorbedBy(id) == "" {
			continue
		}
		if diff := optionDiff(rec, &u.opts); u.redo || diff != "" {
			if len(compacted) == 0 && !u.redo {
				why = "with other options (" + diff + ")"
			}
			compacted = append(compacted, rec.Input)
		}
	}
	u.mu.Unlock()
	if len(compacted) > 0 {
		return compactedError(u.opts.Dir, compacted, why)
	}
	if len(u.ix.Runs) == 0 && !dirExists(u.opts.Dir) {
		return nil
	}
	if _, err := schema.Sweep(u.opts.Dir, func(id string) bool { return u.ids[id] }); err != nil {
		return fmt.Errorf("cleaning up after an earlier run: %w", err)
	}
	return nil
}

// compactedError is why analyze will not read again inputs whose rows
// robotstat compact merged into files shared with other inputs: the merged
// files would keep the old rows next to the new ones.
func compactedError(dir string, inputs []string, why string) error {
	sort.Strings(inputs)
	shown := inputs[:min(len(inputs), 5)]
	more := ""
	if len(inputs) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(inputs)-len(shown))
	}
	return usageErrorf("analyze", "%d %s in %s would be read again %s, but robotstat compact merged %s rows into files shared with other inputs, so the old rows would stay: %s%s. Write this run to a fresh --out, or rerun with the options of the first run and without --redo (done inputs are skipped)",
		len(inputs), plural(len(inputs), "input", "inputs"), dir, why, plural(len(inputs), "its", "their"), strings.Join(shown, ", "), more)
}

// unit returns the dataset of a unit, creating it at its first rows.
func (u *unitWriter) unit(unit pipeline.Unit) (*unitOut, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if o := u.inFlight[unit.Index]; o != nil {
		return o, nil
	}
	opts := u.optsOf(unit)
	canonical := u.canonical(unit)
	opts.RunID, opts.Input = unitID(canonical), canonical
	ds, err := schema.Create(opts)
	if err != nil {
		return nil, fmt.Errorf("creating the output of %s: %w", unit.Name, err)
	}
	o := &unitOut{ds: ds, sinks: make([]*schema.Sink, len(u.workers))}
	u.inFlight[unit.Index] = o
	return o, nil
}

// batchDone is pipeline.Config.BatchDone: worker w's rows, all of unit,
// go to the unit's dataset.
func (u *unitWriter) batchDone(w int, unit pipeline.Unit) error {
	wk := u.workers[w]
	if wk.batch.Len() == 0 {
		return nil
	}
	o, err := u.unit(unit)
	if err != nil {
		return err
	}
	if o.sinks[w] == nil {
		o.sinks[w] = o.ds.Sink()
	}
	if len(wk.batch.Captures) > 0 {
		first := ""
		for i := range wk.batch.Captures {
			if c := wk.batch.Captures[i].Crawl; c != "" && (first == "" || c < first) {
				first = c
			}
		}
		u.mu.Lock()
		if first != "" && (o.crawl == "" || first < o.crawl) {
			o.crawl = first
		}
		u.mu.Unlock()
	}
	return o.sinks[w].Write(&wk.batch)
}

// unitDone is pipeline.Config.UnitDone: the unit's rows are all in its
// dataset; commit it, with its outcome in the record.
func (u *unitWriter) unitDone(r pipeline.UnitResult) error {
	o, err := u.unit(r.Unit) // a unit without rows commits its record only
	if err != nil {
		return err
	}
	u.mu.Lock()
	delete(u.inFlight, r.Index)
	crawl := cmp.Or(o.crawl, u.opts.Metadata["crawl"]) // --crawl for a unit without captures
	u.mu.Unlock()
	if w := schema.WriterOf[schema.ErrorRow](o.ds); w != nil {
		if err := w.Write(errorRows(r, crawl)); err != nil {
			return fmt.Errorf("writing the errors of %s: %w", r.Name, err)
		}
	}
	if err := o.ds.CommitOutcome(u.ctx, schema.Outcome{Err: r.Err, Summary: unitSummary{Captures: r.Captures, DataErrors: r.DataErrors, Shard: u.shard, Panel: r.Coverage}}); err != nil {
		return fmt.Errorf("writing the output of %s: %w", r.Name, err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.committed++
	u.files += len(o.ds.Files())
	for _, t := range o.ds.Rows() {
		u.rows[t.Table] += t.Rows
	}
	if r.Err != nil {
		u.failures = append(u.failures, unitFailure{Input: r.Name, Error: r.Err.Error(), Captures: r.Captures, Refused: errors.Is(r.Err, pipeline.ErrRefused)})
	}
	if r.Coverage != nil {
		u.coverage = append(u.coverage, *r.Coverage)
	}
	return nil
}

// abort removes the temporary files of the units still in flight (the run
// was interrupted or failed): nothing of them is committed.
func (u *unitWriter) abort() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for i, o := range u.inFlight {
		o.ds.Abort()
		delete(u.inFlight, i)
	}
}

// dirExists reports whether dir is a folder.
func dirExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

// sortedFailures returns the failures in input order.
func (u *unitWriter) sortedFailures() []unitFailure {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := slices.Clone(u.failures)
	sort.Slice(out, func(i, j int) bool { return out[i].Input < out[j].Input })
	return out
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// errorRows returns the errors table's rows of a unit: its data errors, in
// the input's order, then the failure that stopped it, if any. Their crawl
// is that of the unit's captures (the first by name when they have
// several, so that it does not depend on which worker wrote first).
func errorRows(r pipeline.UnitResult, crawl string) []schema.ErrorRow {
	rows := make([]schema.ErrorRow, 0, len(r.Errors)+1)
	for _, e := range r.Errors {
		source := e.Path // as captures.source names the file
		if source == "" {
			source = e.Source
		}
		row := schema.ErrorRow{Crawl: crawl, Input: r.Name, Source: source,
			RecordID: schema.TrimRecordID(e.RecordID), Class: e.Class.String(), Excerpt: e.Excerpt}
		if e.Offset >= 0 { // a whole file (a panel's unreadable index file) has none
			row.Offset = &e.Offset
		}
		if e.Record >= 0 {
			row.Record = &e.Record
		}
		if e.Err != nil {
			row.Message = e.Err.Error()
		}
		rows = append(rows, row)
	}
	if r.Err != nil {
		rows = append(rows, schema.ErrorRow{Crawl: crawl, Input: r.Name, Source: r.Name, Class: "input", Message: r.Err.Error()})
	}
	return rows
}
