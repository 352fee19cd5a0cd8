package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/robotstat/robotstat/internal/words"
)

// A committed file can be damaged after its commit: deleted, emptied or
// cut by hand, by a full disk's repair or a sync tool. Its completion
// record says what it was (Record.Files: path, rows, size), so a reader
// can tell: Index.Damaged lists every committed file that is not what its
// record says, and TableFiles refuses a table with such a file
// (ErrDamaged), naming the files and what to run, instead of reading the
// rest and counting rows short (issue 26.3: a zero-byte or deleted file
// left status saying "done", and sites rebuilt from 175,000 of 200,000
// captures).

// Damage is one committed file that is not as its record says.
type Damage struct {
	// Path is the file, relative to the root (slash-separated).
	Path  string
	Table TableName
	// RunID and Input are the run whose record names the file.
	RunID, Input string
	// Compaction is set when that run is a compaction (its files hold the
	// rows of the runs it absorbed).
	Compaction bool
	// Why says what is wrong: "missing", "0 bytes, its record says 1234",
	// "10 rows, its record says 12".
	Why string
}

// Redo says how to make the file whole again.
func (d Damage) Redo(root string) string {
	switch {
	case d.Compaction:
		return "its rows are those of the runs robotstat compact merged into it: analyze their inputs into a fresh --out, or restore the file"
	case d.Input == "" || strings.HasPrefix(d.Input, "robotstat "):
		return "run " + strings.TrimSpace(d.Input+" "+root) + " again"
	}
	return "robotstat analyze --redo --out " + root + " " + d.Input + " (with the options of the first run)"
}

func (d Damage) String() string { return d.Path + ": " + d.Why }

// namedFile is a committed file as its record names it.
type namedFile struct {
	f RecordFile
	r *Record
}

// Damaged checks every committed file (not absorbed by a compaction) of
// the tables given (all when none) against its record: that it is there
// and has the size the record says (a record written before sizes were
// recorded: that it is not empty; no Parquet file is). With rows, it also
// reads each file's footer and compares the row count, which costs a read
// per file where the size check costs a stat. The result is sorted by
// path; the error is an environment failure other than a missing file.
func (ix *Index) Damaged(rows bool, tables ...TableName) ([]Damage, error) {
	var out []Damage
	for path, n := range ix.named {
		if len(tables) > 0 && !slices.Contains(tables, n.f.Table) {
			continue
		}
		why, err := checkFile(filepath.Join(ix.Root, filepath.FromSlash(path)), n.f, rows)
		if err != nil {
			return nil, err
		}
		if why != "" {
			out = append(out, Damage{Path: path, Table: n.f.Table, RunID: n.r.RunID, Input: n.r.Input, Compaction: n.r.IsCompaction(), Why: why})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// DamagedRun is Damaged (sizes only) for the files of run id alone: what
// is wrong with the first of them that is not what the record says, or ""
// (also for a run the index does not hold, and for one a compaction
// absorbed: its own files are gone by design, its rows are the
// compaction's, which Damaged checks). A rerun asks it of each unit it
// would skip, so a shard stats only its own units' files.
func (ix *Index) DamagedRun(id string) (string, error) {
	r := ix.Runs[id]
	if r == nil || ix.absorbedBy[id] != "" {
		return "", nil
	}
	for _, f := range r.Files {
		why, err := checkFile(filepath.Join(ix.Root, filepath.FromSlash(f.Path)), f, false)
		if err != nil || why != "" {
			if why != "" {
				why = f.Path + ": " + why
			}
			return why, err
		}
	}
	return "", nil
}

// checkFile says what is wrong with the file at p that f describes, or "".
func checkFile(p string, f RecordFile, rows bool) (string, error) {
	st, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "missing", nil
	}
	if err != nil {
		return "", fmt.Errorf("schema: checking %s: %w", p, err)
	}
	switch {
	case !st.Mode().IsRegular():
		return "not a regular file", nil
	case f.Size > 0 && st.Size() != f.Size:
		return strconv.FormatInt(st.Size(), 10) + " bytes, its record says " + strconv.FormatInt(f.Size, 10), nil
	case st.Size() == 0:
		return "0 bytes", nil
	case !rows:
		return "", nil
	}
	fh, err := os.Open(p)
	if err != nil {
		return "", fmt.Errorf("schema: checking %s: %w", p, err)
	}
	defer fh.Close()
	pf, err := parquet.OpenFile(fh, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return "not a Parquet file: " + err.Error(), nil
	}
	if n := pf.NumRows(); n != f.Rows {
		return strconv.FormatInt(n, 10) + " rows, its record says " + strconv.FormatInt(f.Rows, 10), nil
	}
	return "", nil
}

// damagedErr is TableFiles' error for damaged files: the first three and
// what to run.
func damagedErr(root string, ds []Damage) error {
	var b strings.Builder
	for i, d := range ds {
		if i == 3 {
			b.WriteString("; and " + strconv.Itoa(len(ds)-3) + " more (robotstat status " + root + " lists them)")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.String() + ": " + d.Redo(root))
	}
	return fmt.Errorf("%w: %d %s: %s", ErrDamaged, len(ds), plural(len(ds), "file", "files"), b.String())
}

// plural is words.Plural, the one every package's messages share.
var plural = words.Plural
