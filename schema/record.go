package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// RecordDir is the folder, under a dataset's root, of the completion records
// (one <run id>.json per committed run). Its leading underscore keeps it out
// of Hive partition discovery and of every table's *.parquet glob.
const RecordDir = "_robotstat/inputs"

// Record is the completion record of one committed run (one Dataset): what
// it read, with which options, the files it put in place and their rows. A
// commit writes it last, after every file of the run is renamed into place
// and synced, replacing the earlier record of the same run id in one
// rename, so that a run whose record exists is complete, and files no
// record names (a killed commit's) are not part of the dataset: readers
// (TableFiles, Index) list only files some record names.
type Record struct {
	// RunID names the run's files (part-<RunID>.parquet).
	RunID string `json:"run_id"`
	// Input is what the run read, as the caller names it (Options.Input).
	Input string `json:"input,omitempty"`
	// State is RecordDone, or RecordFailed for an input that could not be
	// read to its end (the rows read before the failure are kept).
	State string `json:"state"`
	// Error is the failure, for RecordFailed.
	Error string `json:"error,omitempty"`
	// Tables are the tables the run wrote.
	Tables []TableName `json:"tables"`
	// Options are Options.Metadata: what shapes the numbers. ReadIndex
	// reads the keys of older records as today's (CanonicalOptions).
	Options map[string]string `json:"options"`
	// Version and SchemaVersion are robotstat's and the tables'.
	Version       string `json:"robotstat_version"`
	SchemaVersion string `json:"schema_version"`
	// Files are the run's files, relative to the root (slash-separated),
	// in commit order.
	Files []RecordFile `json:"files"`
	// Summary is the caller's (Outcome.Summary), as JSON.
	Summary json.RawMessage `json:"summary,omitempty"`
	// Committed is when the record was written (UTC).
	Committed time.Time `json:"committed"`
	// Absorbs is set in a compaction's record only (Compact): the runs
	// whose rows its files hold, each with the Committed of the record it
	// absorbed. While a run's record still has that Committed, the files
	// it names are not part of the dataset (the compaction's files hold
	// their rows); the run's record stays, so that it still says the run
	// is done.
	Absorbs []AbsorbedRun `json:"absorbs,omitempty"`
}

// AbsorbedRun is a run whose files a compaction merged: its run id and
// the Committed of its record at the time.
type AbsorbedRun struct {
	RunID     string    `json:"run_id"`
	Committed time.Time `json:"committed"`
}

// IsCompaction reports whether r is the record of a compaction (Compact)
// rather than of a run that read inputs.
func (r *Record) IsCompaction() bool { return strings.HasPrefix(r.RunID, CompactRunPrefix) }

// RecordFile is one committed file of a run.
type RecordFile struct {
	Path  string    `json:"path"`
	Table TableName `json:"table"`
	Crawl string    `json:"crawl,omitempty"`
	Rows  int64     `json:"rows"`
	// Size is the file's length in bytes; 0 in records written before
	// robotstat recorded it, whose files are checked only for being there
	// and not empty (Index.Damaged).
	Size int64 `json:"size,omitempty"`
}

// Values of Record.State.
const (
	RecordDone   = "done"
	RecordFailed = "failed"
)

// Outcome is what a commit records about its run besides its files.
type Outcome struct {
	// Err, when not nil, is why the input could not be read to its end:
	// the record's State is RecordFailed and its Error this message.
	Err error
	// Summary is encoded with encoding/json into Record.Summary.
	Summary any
}

func recordPath(root, runID string) string {
	return filepath.Join(root, filepath.FromSlash(RecordDir), runID+".json")
}

// Index is what a dataset's completion records say: the committed runs, by
// run id.
type Index struct {
	Root string
	Runs map[string]*Record
	// Conflicts are the runs a compaction absorbed whose record was
	// committed again since (a rerun of the input that did not know of the
	// compaction): their rows are in the compaction's files and in the
	// rerun's, so TableFiles refuses to list them (ErrConflict).
	Conflicts []string
	// files holds every committed file's path relative to the root;
	// absorbed the files of runs a compaction absorbed, which are removed
	// once its record is written (a killed compaction leaves them until
	// the next Sweep).
	files    map[string]bool
	absorbed map[string]bool
	// named maps every committed, unabsorbed file to what its record
	// says of it and the run that names it, for Damaged.
	named map[string]namedFile
	// absorbedBy maps an absorbed run's id to the compaction's.
	absorbedBy map[string]string
	// recordTemps are the hidden temporary files of records in the
	// records folder (.<run id>.json.<random>.tmp), for Sweep.
	recordTemps []string
}

// ReadIndex reads the completion records under root. A root without
// records (nothing committed yet) gives an empty index. A record that
// cannot be read or parsed is an error naming it.
func ReadIndex(root string) (*Index, error) {
	ix := &Index{Root: root, Runs: map[string]*Record{}, files: map[string]bool{}, absorbed: map[string]bool{}, absorbedBy: map[string]string{}, named: map[string]namedFile{}}
	dir := filepath.Join(root, filepath.FromSlash(RecordDir))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return ix, nil
	}
	if err != nil {
		return nil, fmt.Errorf("schema: listing %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp") && strings.Contains(name, ".json.") && e.Type().IsRegular() {
			ix.recordTemps = append(ix.recordTemps, name) // a record write killed before its rename
			continue
		}
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("schema: reading %s: %w", p, err)
		}
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("schema: completion record %s: %w", p, err)
		}
		if r.RunID+".json" != name {
			return nil, fmt.Errorf("schema: completion record %s holds run %q", p, r.RunID)
		}
		r.Options = CanonicalOptions(r.Options)
		ix.Runs[r.RunID] = &r
	}
	for _, r := range ix.Runs {
		for _, a := range r.Absorbs {
			ar := ix.Runs[a.RunID]
			switch {
			case ar == nil:
				// The run's record is gone (removed by hand): its rows are
				// the compaction's, nothing else names them.
			case ar.Committed.Equal(a.Committed):
				ix.absorbedBy[a.RunID] = r.RunID
			default:
				ix.Conflicts = append(ix.Conflicts, a.RunID)
			}
		}
	}
	sort.Strings(ix.Conflicts)
	for id, r := range ix.Runs {
		for _, f := range r.Files {
			if ix.absorbedBy[id] != "" {
				ix.absorbed[f.Path] = true
			} else {
				ix.files[f.Path] = true
				ix.named[f.Path] = namedFile{f, r}
			}
		}
	}
	return ix, nil
}

// AbsorbedBy returns the run id of the compaction that holds run runID's
// rows, "" when none does (the run's own files hold them).
func (ix *Index) AbsorbedBy(runID string) string { return ix.absorbedBy[runID] }

// absorbedFile reports whether path is a file of a run a compaction
// absorbed, not yet removed.
func (ix *Index) absorbedFile(path string) bool {
	rel, err := filepath.Rel(ix.Root, path)
	return err == nil && ix.absorbed[filepath.ToSlash(rel)]
}

// Committed reports whether the file at path (under the index's root) is
// named by a completion record.
func (ix *Index) Committed(path string) bool {
	rel, err := filepath.Rel(ix.Root, path)
	return err == nil && ix.files[filepath.ToSlash(rel)]
}

// Sorted returns the runs ordered by input, then run id.
func (ix *Index) Sorted() []*Record {
	out := make([]*Record, 0, len(ix.Runs))
	for _, r := range ix.Runs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Input != out[j].Input {
			return out[i].Input < out[j].Input
		}
		return out[i].RunID < out[j].RunID
	})
	return out
}

// readRecord reads root's record of run runID; nil when there is none.
func readRecord(root, runID string) (*Record, error) {
	p := recordPath(root, runID)
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("schema: reading %s: %w", p, err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("schema: completion record %s: %w", p, err)
	}
	return &r, nil
}

// writeRecord writes r as root's record of its run: a hidden temporary file
// in the record folder, synced, renamed into place, the folder synced.
func writeRecord(root string, r *Record) error {
	final := recordPath(root, r.RunID)
	dir := filepath.Dir(final)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("schema: creating %s: %w", dir, err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("schema: encoding the completion record of %s: %w", r.RunID, err)
	}
	f, err := createAtomic(final, nil)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return errors.Join(fmt.Errorf("schema: writing %s: %w", final, err), f.remove())
	}
	if err := f.sync(); err != nil {
		return errors.Join(err, f.remove())
	}
	if err := f.rename(); err != nil {
		return errors.Join(err, f.remove())
	}
	return syncDir(dir)
}
