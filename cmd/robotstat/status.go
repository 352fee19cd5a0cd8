package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/schema"
)

func init() {
	register(command{name: "status", summary: "say which inputs an output folder holds, which failed and which are left", run: (*Main).status,
		exits: []int{ExitOK, ExitUsage, ExitInterrupted}})
}

const statusUsage = `Usage:
  robotstat status [flags] OUT_DIR [INPUT...]

Reads the completion records under OUT_DIR (robotstat analyze writes one per
input it commits) and says, for every input, whether it is done, failed (it
could not be read at all), or partial (it failed after some of its captures
were read; those are kept), with the error. Given the INPUTs of the analyze
command (the same files, folders, manifests, crawl names or URLs, with the
same --manifest-base, --cc-base, --sample, --segments and --shard), it also
lists the inputs left: those without a record, which a rerun of that command
reads. A rerun reads the failed and partial ones again too.

It checks that every committed file is there with the size its record
says (--verify: and the rows), and names each damaged one (deleted,
emptied, cut) with what to run to make it whole; readers refuse a table
with a damaged file.

It also counts the files a killed robotstat left (a commit or compaction
killed between its renames and its record, or before it removed what it
replaced): robotstat's readers skip them, a query that globs *.parquet
does not, and the next analyze, sites or compact into OUT_DIR removes them
first thing. status itself writes nothing.

Examples:
  robotstat status out/
  robotstat status out/ CC-MAIN-2024-33 --sample 20
  robotstat status --json out/ robotstxt.paths.gz --manifest-base https://data.commoncrawl.org/
`

// statusInput is one input in robotstat status's report.
type statusInput struct {
	Input     string     `json:"input"`
	State     string     `json:"state"` // done, failed, partial, left or damaged
	RunID     string     `json:"run_id,omitempty"`
	Captures  int64      `json:"captures"`
	Files     int        `json:"files"`
	Error     string     `json:"error,omitempty"`
	Shard     string     `json:"shard,omitempty"`
	Committed *time.Time `json:"committed,omitempty"`
	// Panel is a panel input's coverage of its crawl (robotstat panel).
	Panel *pipeline.Coverage `json:"panel,omitempty"`
}

// statusReport is robotstat status --json's output.
type statusReport struct {
	Out    string         `json:"out"`
	Inputs []statusInput  `json:"inputs"`
	Counts map[string]int `json:"counts"`
	// Sites says whether the sites tables were built after every input
	// was committed (robotstat sites OUT_DIR rebuilds them).
	Sites string `json:"sites"`
	// Conflicts are runs committed again after robotstat compact merged
	// them (schema.Index.Conflicts): their rows are in two places, and
	// readers refuse the dataset.
	Conflicts []string `json:"conflicts,omitempty"`
	// Leftovers are the files killed writers left (schema.FindLeftovers),
	// which the next analyze, sites or compact into the folder removes;
	// nil when there are none.
	Leftovers *schema.Leftovers `json:"leftovers,omitempty"`
	// Damaged are the committed files that are missing or not what their
	// record says (schema.Index.Damaged), with what to run.
	Damaged []statusDamage `json:"damaged,omitempty"`
}

// statusDamage is one damaged file in robotstat status's report.
type statusDamage struct {
	Path  string `json:"path"`
	Input string `json:"input,omitempty"`
	Why   string `json:"why"`
	Redo  string `json:"redo"`
}

// Values of statusInput.State beyond the records'.
const (
	statePartial = "partial"
	stateLeft    = "left"
	stateDamaged = "damaged" // committed, but a file of it is missing or not as recorded
)

func (m *Main) status(ctx context.Context, args []string) error {
	fs := newFlagSet("status")
	asJSON := fs.Bool("json", false, "print the report as JSON on stdout")
	manifestBase := fs.String("manifest-base", "", "as for analyze: `URL` or folder prefixed to relative lines of a manifest")
	shardFlag := fs.String("shard", "", "as for analyze: only the inputs of shard `i/n`, or auto")
	verify := fs.Bool("verify", false, "also read every committed file's Parquet footer and compare its rows with its record (a read per file; without it, a stat)")
	var crawls crawlFlags
	crawls.register(fs)
	pos, err := parseFlags(fs, args, m.Stdout, statusUsage)
	if err != nil {
		if errors.Is(err, errHelp) {
			return nil
		}
		return err
	}
	if len(pos) == 0 {
		return usageErrorf("status", "need the OUT_DIR of robotstat analyze")
	}
	dir, inputs := pos[0], pos[1:]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usageErrorf("status", "%s is not a folder; give the --out folder of robotstat analyze", dir)
	}
	ix, err := schema.ReadIndex(dir)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	rep := statusReport{Out: dir, Counts: map[string]int{}, Conflicts: ix.Conflicts}
	byID := map[string]*schema.Record{}
	for id, r := range ix.Runs {
		// A compaction's record is not an input's (its inputs keep theirs).
		if id != reduce.RunID && !r.IsCompaction() {
			byID[id] = r
		}
	}
	seen := map[string]bool{}
	if len(inputs) > 0 {
		var shard pipeline.Shard
		if *shardFlag != "" {
			getenv := m.Getenv
			if getenv == nil {
				getenv = func(string) string { return "" }
			}
			if shard, err = pipeline.ParseShard(*shardFlag, getenv); err != nil {
				return usageErrorf("status", "--shard: %v", err)
			}
		}
		pc := pipeline.Config{ManifestBase: *manifestBase, Shard: shard, Stdin: m.Stdin}
		if err := crawls.apply("status", &pc, inputs, "", m.Getenv); err != nil {
			return err
		}
		pc.OnRetry = (&retryPrinter{w: m.Stderr}).notice
		units, err := pipeline.Units(ctx, pc, inputs)
		if err != nil {
			return fmt.Errorf("status: listing the inputs: %w", err)
		}
		for _, u := range units {
			canonical := canonicalUnit(u, canonicalInput)
			id := unitID(canonical)
			seen[id] = true
			if r := byID[id]; r != nil {
				rep.Inputs = append(rep.Inputs, statusOf(r))
			} else {
				rep.Inputs = append(rep.Inputs, statusInput{Input: canonical, State: stateLeft})
			}
		}
	}
	// Records of inputs not given (or every record, when none is given),
	// in input order.
	var rest []statusInput
	for id, r := range byID {
		if !seen[id] {
			rest = append(rest, statusOf(r))
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].Input < rest[j].Input })
	rep.Inputs = append(rep.Inputs, rest...)
	dmg, err := ix.Damaged(*verify)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	damagedRuns := map[string]string{}
	for _, d := range dmg {
		rep.Damaged = append(rep.Damaged, statusDamage{Path: d.Path, Input: d.Input, Why: d.Why, Redo: d.Redo(dir)})
		if damagedRuns[d.RunID] == "" {
			damagedRuns[d.RunID] = d.Path + ": " + d.Why
		}
	}
	for i := range rep.Inputs {
		if why := damagedRuns[rep.Inputs[i].RunID]; why != "" && rep.Inputs[i].State != stateLeft {
			rep.Inputs[i].State, rep.Inputs[i].Error = stateDamaged, why
		}
	}
	for _, in := range rep.Inputs {
		rep.Counts[in.State]++
	}
	left, err := schema.FindLeftovers(dir)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if left.Temps+left.Visible() > 0 {
		rep.Leftovers = &left
	}
	switch {
	case ix.Runs[reduce.RunID] == nil:
		rep.Sites = "not built"
	case damagedRuns[reduce.RunID] != "":
		rep.Sites = "damaged"
	case sitesUpToDate(dir):
		rep.Sites = "up to date"
	default:
		rep.Sites = "out of date"
	}
	out := &errWriter{w: m.Stdout}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		rep.print(out)
	}
	if out.err != nil {
		return fmt.Errorf("status: writing: %w", out.err)
	}
	return nil
}

// statusOf is the status of a recorded input.
func statusOf(r *schema.Record) statusInput {
	s := statusInput{Input: r.Input, State: r.State, RunID: r.RunID, Files: len(r.Files), Error: r.Error}
	if !r.Committed.IsZero() {
		t := r.Committed
		s.Committed = &t
	}
	var sum unitSummary
	if len(r.Summary) > 0 && json.Unmarshal(r.Summary, &sum) == nil {
		s.Captures, s.Shard, s.Panel = sum.Captures, sum.Shard, sum.Panel
	}
	if s.State == schema.RecordFailed && s.Captures > 0 {
		s.State = statePartial
	}
	return s
}

// print writes the report as text: the counts, then every input that is
// not done.
func (r *statusReport) print(w io.Writer) {
	damaged := ""
	if n := r.Counts[stateDamaged]; n > 0 {
		damaged = fmt.Sprintf(", %d damaged", n)
	}
	fmt.Fprintf(w, "%s: %d inputs done, %d failed, %d partial, %d left%s; sites %s\n", r.Out,
		r.Counts[schema.RecordDone], r.Counts[schema.RecordFailed], r.Counts[statePartial], r.Counts[stateLeft], damaged, r.Sites)
	for _, in := range r.Inputs {
		if c := in.Panel; c != nil {
			fmt.Fprintf(w, "panel    %s: %d found, %d not captured, %d failed of %d listed hosts\n", c.Crawl, c.Found, c.NotCaptured, c.Failed, c.Listed)
		}
		switch in.State {
		case schema.RecordDone:
		case stateLeft:
			fmt.Fprintf(w, "left     %s\n", in.Input)
		case stateDamaged:
			fmt.Fprintf(w, "damaged  %s: %s\n", in.Input, in.Error)
		default:
			fmt.Fprintf(w, "%-8s %s: %s (%d captures kept)\n", in.State, in.Input, in.Error, in.Captures)
		}
	}
	for _, d := range r.Damaged {
		fmt.Fprintf(w, "damaged  %s: %s: %s\n", d.Path, d.Why, d.Redo)
	}
	if len(r.Conflicts) > 0 {
		fmt.Fprintf(w, "conflict: %d %s committed again after robotstat compact merged %s rows, which are now in two places (%s); readers refuse %s: analyze the inputs into a fresh --out\n",
			len(r.Conflicts), plural(len(r.Conflicts), "run", "runs"), plural(len(r.Conflicts), "its", "their"), strings.Join(r.Conflicts, ", "), r.Out)
	}
	if l := r.Leftovers; l != nil {
		ex := strings.Join(l.Examples, ", ")
		if l.Temps+l.Visible() > len(l.Examples) {
			ex += ", ..."
		}
		n := l.Temps + l.Visible()
		fmt.Fprintf(w, "leftovers: %d %s a killed (or running) robotstat left: %d that no record names and %d of runs robotstat compact merged, which a query that globs *.parquet reads beside the committed files (robotstat's readers skip them), and %d hidden temporary (%s); the next robotstat analyze, sites or compact into %s removes them\n",
			n, plural(n, "file", "files"), l.Unnamed, l.Absorbed, l.Temps, ex, r.Out)
	}
	if r.Counts[schema.RecordFailed]+r.Counts[statePartial]+r.Counts[stateLeft] > 0 {
		fmt.Fprintf(w, "rerun the analyze command to read the inputs failed, partial and left; done ones are skipped\n")
	}
}
