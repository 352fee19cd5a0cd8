package runs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
)

// unitOut is a unit in flight: its dataset and each worker's sink into it.
type unitOut struct {
	ds    *schema.Dataset
	sinks []*schema.Sink // by worker; each touched only by its worker
}

// unitWriter creates, fills and commits the units' datasets: the
// pipeline's Skip, Start, BatchDone and UnitDone. Safe for concurrent
// use by the pipeline's workers.
type unitWriter struct {
	ctx     context.Context
	opts    schema.Options // every unit's, but RunID and Input
	workers []*worker
	name    func(string) string // the canonical name of an input given by name
	ix      *schema.Index       // what the dataset held when the run started
	redo    bool
	shard   string

	mu       sync.Mutex
	inFlight map[int]*unitOut
	crawls   map[int]string // by unit index: the first, by name, of its captures' crawls
	// first is the first, by name, of every crawl the run's captures
	// are of; waiting are the units with errors but no crawl to file
	// them under (no capture, no --crawl, no crawl in their name), which
	// finish commits under first.
	first     string
	waiting   []pipeline.UnitResult
	captured  bool            // some unit of the run had captures
	ids       map[string]bool // run ids this run writes
	rows      map[schema.TableName]int64
	files     int
	committed int
	failures  []Failure
	replaced  map[string]int // option that differs -> units redone for it
	// repaired counts the units read again because a committed file of
	// theirs is not what their record says (schema.Index.DamagedRun).
	repaired int
	coverage []pipeline.Coverage // of the panel units committed
}

func newUnitWriter(ctx context.Context, opts schema.Options, workers []*worker, name func(string) string, redo bool) (*unitWriter, error) {
	ix, err := schema.ReadIndex(opts.Dir)
	if err != nil {
		return nil, err
	}
	return &unitWriter{ctx: ctx, opts: opts, workers: workers, name: name, ix: ix, redo: redo,
		inFlight: map[int]*unitOut{}, crawls: map[int]string{}, ids: map[string]bool{}, rows: map[schema.TableName]int64{}, replaced: map[string]int{}}, nil
}

func (u *unitWriter) canonical(unit pipeline.Unit) string { return CanonicalUnit(unit, u.name) }

// skip is pipeline.Config.Skip: a unit is skipped when the dataset holds
// a completed record of it (not a failed one) written with the same
// options, the same schema version and at least the tables asked for, and
// every file the record names is there with its size. A unit with a
// missing, emptied or cut file is read again and its rows replaced, as
// --redo would (its files belong to it alone; a damaged file of a
// compaction is left to status and the readers, which name it).
func (u *unitWriter) skip(unit pipeline.Unit) bool {
	if u.redo {
		return false
	}
	id := UnitID(u.canonical(unit))
	rec := u.ix.Runs[id]
	if rec == nil || rec.State != schema.RecordDone {
		return false
	}
	// A stat per file of the unit: what makes it done is that its rows are
	// there, not only that its record is. An error stat-ing one (not its
	// absence) reads it again too, and writing it will say what is wrong.
	if why, err := u.ix.DamagedRun(id); why != "" || err != nil {
		u.mu.Lock()
		u.repaired++
		u.mu.Unlock()
		return false
	}
	opts := unitOptions(u.opts, unit)
	if diff := OptionDiff(rec, &opts); diff != "" {
		u.mu.Lock()
		u.replaced[diff]++
		u.mu.Unlock()
		return false
	}
	return true
}

// start is pipeline.Config.Start: before anything is read, remove what
// killed runs of these units left behind (hidden temporary files, files no
// record names). No other process writes them: every unit belongs to one
// shard. A unit whose rows robotstat compact merged into files shared with
// other units cannot be read again (CompactedError).
func (u *unitWriter) start(units []pipeline.Unit) error {
	u.mu.Lock()
	cerr := &CompactedError{Dir: u.opts.Dir, Redo: u.redo}
	for _, unit := range units {
		id := UnitID(u.canonical(unit))
		u.ids[id] = true
		rec := u.ix.Runs[id]
		if rec == nil || u.ix.AbsorbedBy(id) == "" {
			continue
		}
		opts := unitOptions(u.opts, unit)
		if diff := OptionDiff(rec, &opts); u.redo || diff != "" {
			if len(cerr.Inputs) == 0 && !u.redo {
				cerr.Diff = diff
			}
			cerr.Inputs = append(cerr.Inputs, rec.Input)
		}
	}
	u.mu.Unlock()
	if len(cerr.Inputs) > 0 {
		sort.Strings(cerr.Inputs)
		return cerr
	}
	if len(u.ix.Runs) == 0 && !dirExists(u.opts.Dir) {
		return nil
	}
	if _, err := schema.Sweep(u.opts.Dir, func(id string) bool { return u.ids[id] }); err != nil {
		return fmt.Errorf("cleaning up after an earlier run: %w", err)
	}
	return nil
}

// unit returns the dataset of a unit, creating it at its first rows.
func (u *unitWriter) unit(unit pipeline.Unit) (*unitOut, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if o := u.inFlight[unit.Index]; o != nil {
		return o, nil
	}
	opts := unitOptions(u.opts, unit)
	canonical := u.canonical(unit)
	opts.RunID, opts.Input = UnitID(canonical), canonical
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
	if c := wk.crawl; c != "" {
		wk.crawl = ""
		u.mu.Lock()
		if first := u.crawls[unit.Index]; first == "" || c < first {
			u.crawls[unit.Index] = c
		}
		if u.first == "" || c < u.first {
			u.first = c
		}
		u.mu.Unlock()
	}
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
	return o.sinks[w].Write(&wk.batch)
}

// unitDone is pipeline.Config.UnitDone: the unit's rows are all in its
// dataset; commit it, with its outcome in the record. Its error rows are
// of its captures' crawl, else the crawl its captures would be filed
// under (pipeline.UnitCrawl: the crawl it was listed by, the run's
// --crawl, the crawl its name names); a unit with
// errors, no capture and none of these (an unreadable file that is no
// WARC) waits for finish, so that no partition is written without a
// crawl. (A unit whose captures are of no crawl, a WARC without warcinfo
// and no --crawl, has its errors where its captures are.)
func (u *unitWriter) unitDone(r pipeline.UnitResult) error {
	o, err := u.unit(r.Unit) // a unit without rows commits its record only
	if err != nil {
		return err
	}
	u.mu.Lock()
	filed, _ := pipeline.UnitCrawl(r.Crawl, u.opts.Metadata[OptionCrawl], r.Name)
	crawl := cmp.Or(u.crawls[r.Index], filed)
	delete(u.crawls, r.Index)
	if r.Captures > 0 {
		u.captured = true
	}
	if crawl == "" && r.Captures == 0 && (len(r.Errors) > 0 || r.Err != nil) {
		u.waiting = append(u.waiting, r) // still in flight: abort removes it
		u.mu.Unlock()
		return nil
	}
	delete(u.inFlight, r.Index)
	u.mu.Unlock()
	return u.commit(o, r, crawl, true)
}

// finish commits the units that waited for a crawl (unitDone), in input
// order: their error rows under the first crawl, by name, of the run's
// captures; in a run that read no capture of any crawl, their records
// alone (their errors are in the run's summary, a failure in the record
// that robotstat status lists), as no partition is written without a
// crawl.
func (u *unitWriter) finish() error {
	u.mu.Lock()
	waiting, crawl, captured := u.waiting, u.first, u.captured
	u.waiting = nil
	u.mu.Unlock()
	slices.SortFunc(waiting, func(a, b pipeline.UnitResult) int { return cmp.Compare(a.Index, b.Index) })
	for _, r := range waiting {
		u.mu.Lock()
		o := u.inFlight[r.Index]
		delete(u.inFlight, r.Index)
		u.mu.Unlock()
		// Rows under no crawl only when the run's captures are of no
		// crawl either: that partition is there for them.
		if err := u.commit(o, r, crawl, crawl != "" || captured); err != nil {
			return err
		}
	}
	return nil
}

// commit writes the error rows of a unit whose rows are all in o, under
// crawl, unless !rows, and commits it.
func (u *unitWriter) commit(o *unitOut, r pipeline.UnitResult, crawl string, rows bool) error {
	if w := schema.WriterOf[schema.ErrorRow](o.ds); w != nil && rows {
		if err := w.Write(ErrorRows(r, crawl)); err != nil {
			return fmt.Errorf("writing the errors of %s: %w", r.Name, err)
		}
	}
	sum := UnitSummary{Captures: r.Captures, DataErrors: r.DataErrors, Shard: u.shard, Panel: r.Coverage}
	if err := o.ds.CommitOutcome(u.ctx, schema.Outcome{Err: r.Err, Summary: sum}); err != nil {
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
		u.failures = append(u.failures, Failure{Input: r.Name, Error: r.Err.Error(), Captures: r.Captures, Refused: errors.Is(r.Err, pipeline.ErrRefused)})
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

// sortedFailures returns the failures in input order.
func (u *unitWriter) sortedFailures() []Failure {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := slices.Clone(u.failures)
	sort.Slice(out, func(i, j int) bool { return out[i].Input < out[j].Input })
	return out
}
