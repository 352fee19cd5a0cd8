package runs

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/schema"
)

// InputStatus is one input of a dataset, as its completion record says
// (robotstat status).
type InputStatus struct {
	Input string `json:"input"`
	// State is schema.RecordDone, schema.RecordFailed, StatePartial or
	// StateLeft.
	State     string     `json:"state"`
	RunID     string     `json:"run_id,omitempty"`
	Captures  int64      `json:"captures"`
	Files     int        `json:"files"`
	Error     string     `json:"error,omitempty"`
	Shard     string     `json:"shard,omitempty"`
	Committed *time.Time `json:"committed,omitempty"`
	// Panel is a panel input's coverage of its crawl (robotstat panel).
	Panel *pipeline.Coverage `json:"panel,omitempty"`
}

// Values of InputStatus.State beyond the records'.
const (
	// StatePartial: the input failed after some of its captures were read;
	// those are kept.
	StatePartial = "partial"
	// StateLeft: an input asked about that has no record; a rerun reads it.
	StateLeft = "left"
	// StateDamaged: committed, but a file of it is missing or not what
	// its record says (schema.Index.Damaged).
	StateDamaged = "damaged"
)

// Damage is a damaged file in a Status, with what to run.
type Damage struct {
	Path  string `json:"path"`
	Input string `json:"input,omitempty"`
	Why   string `json:"why"`
	Redo  string `json:"redo"`
}

// Status is what a dataset holds (robotstat status --json prints it).
type Status struct {
	Dir    string         `json:"out"`
	Inputs []InputStatus  `json:"inputs"`
	Counts map[string]int `json:"counts"` // by State
	// Sites says whether the sites tables were built after every input
	// was committed: "not built", "up to date" or "out of date"
	// (robotstat sites rebuilds them).
	Sites string `json:"sites"`
	// Conflicts are runs committed again after robotstat compact merged
	// them (schema.Index.Conflicts): their rows are in two places, and
	// readers refuse the dataset.
	Conflicts []string `json:"conflicts,omitempty"`
	// Leftovers are the files killed writers left (schema.FindLeftovers),
	// which the next writer into the folder removes; nil when there are
	// none.
	Leftovers *schema.Leftovers `json:"leftovers,omitempty"`
	// Damaged are the committed files that are missing or not what their
	// record says, with what to run; readers refuse their tables.
	Damaged []Damage `json:"damaged,omitempty"`
	// WaybackMonths sums, month by month, what the Wayback units recorded
	// (robotstat panel SITES wayback:FROM..TO, one unit per site) found
	// of their hosts: a month's Listed hosts are those of the units done.
	WaybackMonths []pipeline.MonthCoverage `json:"wayback_months,omitempty"`
}

// ReadStatus reads the completion records under dir and says, for every
// input recorded, whether it is done, failed or partial; units are those
// of the inputs of a run (pipeline.Units): they come first, in their
// order, each with its record's state or StateLeft; then the records of
// the other inputs, in name order. It writes nothing.
func ReadStatus(dir string, units []pipeline.Unit) (*Status, error) {
	return ReadStatusChecked(dir, units, false)
}

// ReadStatusChecked is ReadStatus that also checks every committed file
// against its record (schema.Index.Damaged: there, its size; with rows,
// its footer's row count too): an input with a damaged file is
// StateDamaged, and Damaged names each file with what to run.
func ReadStatusChecked(dir string, units []pipeline.Unit, rows bool) (*Status, error) {
	ix, err := schema.ReadIndex(dir)
	if err != nil {
		return nil, err
	}
	st := &Status{Dir: dir, Counts: map[string]int{}, Conflicts: ix.Conflicts}
	byID := map[string]*schema.Record{}
	for id, r := range ix.Runs {
		// A compaction's record is not an input's (its inputs keep theirs).
		if id != reduce.RunID && !r.IsCompaction() {
			byID[id] = r
		}
	}
	seen := map[string]bool{}
	for _, u := range units {
		canonical := CanonicalUnit(u, nil)
		id := UnitID(canonical)
		seen[id] = true
		if r := byID[id]; r != nil {
			st.Inputs = append(st.Inputs, statusOf(r))
		} else {
			st.Inputs = append(st.Inputs, InputStatus{Input: canonical, State: StateLeft})
		}
	}
	var rest []InputStatus
	for id, r := range byID {
		if !seen[id] {
			rest = append(rest, statusOf(r))
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].Input < rest[j].Input })
	st.Inputs = append(st.Inputs, rest...)
	dmg, err := ix.Damaged(rows)
	if err != nil {
		return nil, err
	}
	damagedRuns := map[string]string{}
	for _, d := range dmg {
		st.Damaged = append(st.Damaged, Damage{Path: d.Path, Input: d.Input, Why: d.Why, Redo: d.Redo(dir)})
		if damagedRuns[d.RunID] == "" {
			damagedRuns[d.RunID] = d.Path + ": " + d.Why
		}
	}
	for i := range st.Inputs {
		if why := damagedRuns[st.Inputs[i].RunID]; why != "" && st.Inputs[i].State != StateLeft {
			st.Inputs[i].State, st.Inputs[i].Error = StateDamaged, why
		}
	}
	for _, in := range st.Inputs {
		st.Counts[in.State]++
	}
	left, err := schema.FindLeftovers(dir)
	if err != nil {
		return nil, err
	}
	if left.Temps+left.Visible() > 0 {
		st.Leftovers = &left
	}
	st.WaybackMonths = SumMonths(st.Inputs)
	switch {
	case ix.Runs[reduce.RunID] == nil:
		st.Sites = "not built"
	case damagedRuns[reduce.RunID] != "":
		st.Sites = "damaged"
	case sitesUpToDate(ix):
		st.Sites = "up to date"
	default:
		st.Sites = "out of date"
	}
	return st, nil
}

// statusOf is the status of a recorded input.
func statusOf(r *schema.Record) InputStatus {
	s := InputStatus{Input: r.Input, State: r.State, RunID: r.RunID, Files: len(r.Files), Error: r.Error}
	if !r.Committed.IsZero() {
		t := r.Committed
		s.Committed = &t
	}
	var sum UnitSummary
	if len(r.Summary) > 0 && json.Unmarshal(r.Summary, &sum) == nil {
		s.Captures, s.Shard, s.Panel = sum.Captures, sum.Shard, sum.Panel
	}
	if s.State == schema.RecordFailed && s.Captures > 0 {
		s.State = StatePartial
	}
	return s
}

// SitesAfter says whether the sites tables of r's dataset should be built
// after the run, which wrote tables (empty: the defaults), and, when not,
// why, as a note for the user ("" when there is nothing to say). They span
// every run in the dataset, so a shard, which sees its part only, leaves
// them to a build once every shard is done; a run that committed nothing
// into a dataset whose tables are up to date, or that wrote no captures
// table, has nothing to build; a dataset without captures has nothing to
// build from.
func (r *Result) SitesAfter(tables []schema.TableName) (build bool, note string) {
	if len(tables) == 0 {
		tables = schema.DefaultTables()
	}
	switch {
	case r.Shard != "":
		return false, "sharded run: once every shard is done, run: robotstat sites " + r.Dir
	case r.Committed == 0 && SitesUpToDate(r.Dir):
		return false, "sites: up to date (built after every input in " + r.Dir + ")"
	case !slices.Contains(tables, schema.Captures):
		return false, ""
	case !dirExists(filepath.Join(r.Dir, string(schema.Captures))):
		return false, "sites: not built: " + r.Dir + " holds no captures"
	}
	return true, ""
}

// SitesUpToDate reports whether dir's sites tables (package reduce) were
// built after every other run in it was committed: nothing to rebuild.
// Records that cannot be read say no (a build says why).
func SitesUpToDate(dir string) bool {
	ix, err := schema.ReadIndex(dir)
	return err == nil && sitesUpToDate(ix)
}

func sitesUpToDate(ix *schema.Index) bool {
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
	// Its own files must be there to be up to date (a stat each).
	dmg, err := ix.Damaged(false, schema.ReduceTables()...)
	if err != nil {
		return false
	}
	for _, d := range dmg {
		if d.RunID == reduce.RunID {
			return false
		}
	}
	return true
}

// SumMonths adds up the month coverage of the inputs' Wayback units, by
// crawl name (wayback-YYYY-MM sorts by month).
func SumMonths(inputs []InputStatus) []pipeline.MonthCoverage {
	by := map[string]*pipeline.MonthCoverage{}
	var out []pipeline.MonthCoverage
	for _, in := range inputs {
		if in.Panel == nil {
			continue
		}
		for _, m := range in.Panel.Months {
			c := by[m.Crawl]
			if c == nil {
				c = &pipeline.MonthCoverage{Crawl: m.Crawl}
				by[m.Crawl] = c
			}
			c.Listed += m.Listed
			c.Found += m.Found
			c.NotCaptured += m.NotCaptured
			c.Failed += m.Failed
		}
	}
	for _, c := range by {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b pipeline.MonthCoverage) int { return strings.Compare(a.Crawl, b.Crawl) })
	return out
}
