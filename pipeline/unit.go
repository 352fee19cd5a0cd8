package pipeline

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Unit is a unit of work: what sharding splits, Config.Skip is asked about
// and Config.UnitDone reports, so that a caller can commit, resume and
// account for its output input by input.
//
// A unit is one command-line input (a file, a URL, "-"), one line of a
// manifest, or one file of a folder, except that the host files of a
// folder (mirror layouts of one robots.txt per host, files without a
// container format) are one unit together, named by the folder: a unit per
// one-capture file would make a unit of work, and a set of output files,
// per capture.
type Unit struct {
	// Index numbers the units in the expanded order, from 0, before
	// sharding: a unit has the same index in every shard's view.
	Index int
	// Name is the input as given, the manifest line as resolved (a path
	// or a URL), or the folder file's path; for a folder's host files,
	// the folder as given.
	Name string
	// Crawl is the crawl name the unit was listed by when the input was a
	// crawl (CC-MAIN-YYYY-WW), its captures' crawl; else "".
	Crawl string
}

// UnitResult is what Config.UnitDone learns of a unit once every capture
// of it has been consumed.
type UnitResult struct {
	Unit
	// Err is why reading the unit stopped early under Config.KeepGoing (a
	// file that cannot be opened, a download that failed after its
	// retries): the captures before it were consumed. Nil when every input
	// of the unit was read to its end (data errors do not count: they are
	// in DataErrors and the run's Summary).
	Err error
	// Captures consumed and data errors found in the unit.
	Captures, DataErrors int64
	// Errors are the unit's data errors, located, in the order of the
	// input (by Source, then Offset), the first MaxUnitErrors of them
	// (DataErrors counts them all).
	Errors []*ReadError
	// Coverage is what a panel unit (Config.Panel) found of its listed
	// hosts, also when it failed; nil for any other unit.
	Coverage *Coverage
}

// MaxUnitErrors caps UnitResult.Errors: a unit whose every record is broken
// (a binary file named .warc) reports its first errors, not millions.
const MaxUnitErrors = 10000

// unitState tracks a unit while its inputs are read and its batches are in
// flight. refs counts the unit's inputs not yet decoded to their end plus
// its batches not yet consumed; whoever drops it to zero reports the unit.
type unitState struct {
	Unit
	refs       atomic.Int64
	captures   atomic.Int64
	dataErrors atomic.Int64

	mu       sync.Mutex
	err      error        // the first input failure, under KeepGoing
	errs     []*ReadError // the first MaxUnitErrors data errors
	coverage *Coverage    // a panel unit's
}

// dataErr counts e and keeps it while fewer than MaxUnitErrors are kept.
func (u *unitState) dataErr(e *ReadError) {
	u.dataErrors.Add(1)
	u.mu.Lock()
	if len(u.errs) < MaxUnitErrors {
		u.errs = append(u.errs, e)
	}
	u.mu.Unlock()
}

// fail keeps the first failure of one of the unit's inputs and reports
// whether it was the first.
func (u *unitState) fail(err error) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.err != nil {
		return false
	}
	u.err = err
	return true
}

// release drops one reference; the last one reports the unit.
func (r *runner) release(u *unitState) error {
	if u.refs.Add(-1) != 0 || r.cfg.UnitDone == nil {
		return nil
	}
	u.mu.Lock()
	err, errs, cov := u.err, u.errs, u.coverage
	u.errs = nil
	u.mu.Unlock()
	// Workers report the errors of records in parallel: put them back in
	// the input's order, so the same input gives the same list.
	slices.SortStableFunc(errs, func(a, b *ReadError) int {
		return cmp.Or(strings.Compare(a.Source, b.Source), cmp.Compare(a.Offset, b.Offset), cmp.Compare(a.Record, b.Record))
	})
	return r.cfg.UnitDone(UnitResult{Unit: u.Unit, Err: err,
		Captures: u.captures.Load(), DataErrors: u.dataErrors.Load(), Errors: errs, Coverage: cov})
}

// units gives each input of list the state of its unit, with the inputs
// counted as references, and drops the inputs of units Config.Skip skips.
func (r *runner) units(list []input) []input {
	states := map[int]*unitState{}
	skipped := map[int]bool{}
	out := make([]input, 0, len(list))
	for _, in := range list {
		if skipped[in.unit.Index] {
			continue
		}
		u := states[in.unit.Index]
		if u == nil {
			if r.cfg.Skip != nil && r.cfg.Skip(in.unit) {
				skipped[in.unit.Index] = true
				continue
			}
			u = &unitState{Unit: in.unit}
			states[in.unit.Index] = u
		}
		u.refs.Add(1)
		in.state = u
		out = append(out, in)
	}
	r.skipped = len(skipped)
	return out
}
