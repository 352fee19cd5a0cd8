package runs

import (
	"fmt"
	"strings"

	"github.com/robotstat/robotstat/pipeline"
)

// Result is what a run did (robotstat analyze --json prints it). A plain
// value.
type Result struct {
	// Dir is the dataset's folder, absolute.
	Dir   string `json:"out"`
	Shard string `json:"shard,omitempty"`
	// Files, Records, Captures and Bytes are the pipeline's counts
	// (pipeline.Summary), Errors its data errors, ErrorsBy by class.
	Files    int              `json:"files"`
	Records  int64            `json:"records"`
	Captures int64            `json:"captures"`
	Bytes    int64            `json:"bytes"`
	Seconds  float64          `json:"seconds"`
	Errors   int64            `json:"errors"`
	ErrorsBy map[string]int64 `json:"errors_by_class"`
	// Outcomes counts the captures read by RFC 9309 outcome (the values
	// of captures.outcome), every outcome present.
	Outcomes map[string]int64 `json:"outcomes"`
	// Rows counts the rows committed per table, ParquetFiles the files.
	Rows         map[string]int64 `json:"rows"`
	ParquetFiles int              `json:"parquet_files"`
	// Committed counts the units this run committed (failed ones among
	// them), Skipped those Dir already held (resume), Failed those that
	// could not be read to their end (their rows before the failure are
	// kept), Replaced the units read again because Dir held them with
	// other options, by the option that differed (OptionDiff), Repaired
	// those read again because a file their record names was missing,
	// emptied or cut (schema.Index.Damaged).
	Committed int            `json:"inputs_committed"`
	Skipped   int            `json:"inputs_skipped"`
	Failed    []Failure      `json:"inputs_failed,omitempty"`
	Replaced  map[string]int `json:"inputs_replaced,omitempty"`
	Repaired  int            `json:"inputs_repaired,omitempty"`
	// NotHosts counts files of folders and tar archives not read because
	// their names are not host names (NotHostExamples: the first few);
	// OtherResponses the WARC responses not counted under
	// pipeline.Config.Responses.
	NotHosts        int64    `json:"files_not_hosts,omitempty"`
	NotHostExamples []string `json:"files_not_hosts_examples,omitempty"`
	OtherResponses  int64    `json:"responses_not_counted,omitempty"`
	// Empty counts the inputs that held no record or row at all.
	Empty         int64    `json:"inputs_empty,omitempty"`
	EmptyExamples []string `json:"inputs_empty_examples,omitempty"`
	// Duplicates counts the inputs named twice (one file by two names
	// among them), read once; OutputDirs the robotstat output folders
	// inside input folders, not read.
	Duplicates        int      `json:"inputs_duplicate,omitempty"`
	DuplicateExamples []string `json:"inputs_duplicate_examples,omitempty"`
	OutputDirs        int64    `json:"output_folders_skipped,omitempty"`
	OutputDirExamples []string `json:"output_folders_skipped_examples,omitempty"`

	// Summary is the pipeline's (its Line, its Diagnostics).
	Summary pipeline.Summary `json:"-"`
	// Coverage is what each panel unit committed found of its listed
	// hosts (pipeline.Config.Panel), in commit order.
	Coverage []pipeline.Coverage `json:"-"`
	// Warnings are failures that did not change the outcome: the lock not
	// released, empty folders of a failed run not removed.
	Warnings []string `json:"-"`
}

// Failure is a unit that could not be read to its end.
type Failure struct {
	Input    string `json:"input"`
	Error    string `json:"error"`
	Captures int64  `json:"captures_kept"`
	// Refused: the server refused every try (pipeline.ErrRefused).
	Refused bool `json:"refused,omitempty"`
}

// UnitSummary is what a unit's completion record says of it besides its
// files (schema.Record.Summary, as JSON).
type UnitSummary struct {
	Captures   int64 `json:"captures"`
	DataErrors int64 `json:"data_errors"`
	// Shard is the shard that read the unit (i/n), for the record's reader:
	// not an option, a unit's rows do not depend on it.
	Shard string `json:"shard,omitempty"`
	// Panel is a panel unit's coverage of its crawl (pipeline.Config.Panel).
	Panel *pipeline.Coverage `json:"panel,omitempty"`
}

// CompactedError is why Analyze will not read units again whose rows
// robotstat compact (schema.Compact) merged into files shared with other
// units: the merged files would keep the old rows next to the new ones.
// Written to a fresh Dir, or with the options of the first run and
// without Redo (done units are skipped), the run goes ahead.
type CompactedError struct {
	Dir    string
	Inputs []string // the units' canonical names, sorted
	// Redo: they would be read again because of Config.Redo; else
	// because of their options, Diff the first OptionDiff.
	Redo bool
	Diff string
}

// Error says it as robotstat analyze does: which inputs, why they would
// be read again, and the two ways out.
func (e *CompactedError) Error() string {
	shown := e.Inputs[:min(len(e.Inputs), 5)]
	more := ""
	if len(e.Inputs) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(e.Inputs)-len(shown))
	}
	why := "with --redo"
	if !e.Redo {
		why = "with other options (" + e.Diff + ")"
	}
	n := len(e.Inputs)
	return fmt.Sprintf("%d %s in %s would be read again %s, but robotstat compact merged %s rows into files shared with other inputs, so the old rows would stay: %s%s. Write this run to a fresh --out, or rerun with the options of the first run and without --redo (done inputs are skipped)",
		n, plural(n, "input", "inputs"), e.Dir, why, plural(n, "its", "their"), strings.Join(shown, ", "), more)
}
