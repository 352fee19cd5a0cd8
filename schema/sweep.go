package schema

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Sweep removes what killed runs left under root, for the run ids mine
// accepts: hidden temporary files (of table files and of completion
// records), and files renamed into place by a commit that was killed
// before its completion record was written (no record names them), or
// after it but before the files of the commit before were removed (the new
// record no longer names them). It walks every table's partitions once;
// call it at the start of a run, for the run ids that run is about to
// write (never another live process's: robotstat gives every input to one
// shard, and Lock keeps writers of the same run ids apart). It returns how
// many files it removed.
func Sweep(root string, mine func(runID string) bool) (int, error) {
	res, err := sweep(root, func(id string, _ TableName) bool { return mine(id) }, false, false)
	return res.n, err
}

// Leftovers is what killed writers left under a dataset's root: what
// robotstat's readers skip, but a query that globs *.parquet does not (the
// temporary files excepted: hidden, they match no *.parquet glob).
type Leftovers struct {
	// Temps counts hidden temporary files (.part-....parquet.<random>.tmp
	// and the records' .<run id>.json.<random>.tmp).
	Temps int `json:"temporary"`
	// Unnamed counts *.parquet files with robotstat's names that no
	// completion record names: a commit or compaction killed between its
	// renames and its record, or a commit killed after its record, before
	// it removed the files it replaced.
	Unnamed int `json:"unnamed"`
	// Absorbed counts the files of runs a compaction absorbed that it was
	// killed before removing.
	Absorbed int `json:"absorbed"`
	// Examples are up to three of them, relative to the root.
	Examples []string `json:"examples,omitempty"`
}

// Visible counts the leftovers a *.parquet glob reads: their rows are
// also in committed files.
func (l Leftovers) Visible() int { return l.Unnamed + l.Absorbed }

// FindLeftovers counts what Sweep, or taking the exclusive Lock, would
// remove under root, without removing anything (robotstat status, which
// writes nothing, says what it finds). A writer running now has temporary
// and, for a moment, unnamed files of its own: they are counted too.
func FindLeftovers(root string) (Leftovers, error) {
	res, err := sweep(root, func(string, TableName) bool { return true }, true, true)
	return res.Leftovers, err
}

// sweepResult is what sweep removed (or, dry, found).
type sweepResult struct {
	Leftovers
	n        int
	examples []string
}

func (r *sweepResult) add(root, p string, kind *int) {
	*kind++
	r.n++
	if rel, err := filepath.Rel(root, p); err == nil {
		rel = filepath.ToSlash(rel)
		if i, found := slices.BinarySearch(r.examples, rel); !found && i < 3 {
			r.examples = slices.Insert(r.examples, i, rel)
			r.examples = r.examples[:min(len(r.examples), 3)]
		}
	}
	r.Examples = r.examples
}

// sweep removes (dry: counts) the leftovers under root of the runs mine
// accepts, given a file's run id and table (a record's temporary file has
// the first table of its run's record when they are all reduce tables,
// else none), and, when absorbed, every file of a run a committed
// compaction absorbed, whatever mine says.
func sweep(root string, mine func(id string, t TableName) bool, absorbed, dry bool) (sweepResult, error) {
	var res sweepResult
	ix, err := ReadIndex(root)
	if err != nil {
		return res, err
	}
	var errs []error
	remove := func(p string, kind *int) {
		if !dry {
			if err := os.Remove(p); err != nil {
				if !errors.Is(err, os.ErrNotExist) {
					errs = append(errs, fmt.Errorf("schema: removing leftover %s: %w", p, err))
				}
				return
			}
		}
		res.add(ix.Root, p, kind)
	}
	for _, name := range ix.recordTemps {
		id, _, _ := strings.Cut(strings.TrimPrefix(name, "."), ".json.")
		// A record's temporary file has no table: it counts as of the
		// run's tables when they are all the reduce step's.
		var t TableName
		if r := ix.Runs[id]; r != nil && len(r.Tables) > 0 && !slices.ContainsFunc(r.Tables, func(t TableName) bool { return !slices.Contains(ReduceTables(), t) }) {
			t = r.Tables[0]
		}
		if mine(id, t) {
			remove(filepath.Join(ix.Root, filepath.FromSlash(RecordDir), name), &res.Temps)
		}
	}
	for _, t := range AllTables() {
		tdir := filepath.Join(ix.Root, string(t))
		parts, err := os.ReadDir(tdir)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, fmt.Errorf("schema: listing %s: %w", tdir, err))
			}
			continue
		}
		for _, pd := range parts {
			if !pd.IsDir() || !strings.HasPrefix(pd.Name(), "crawl=") {
				continue
			}
			pdir := filepath.Join(tdir, pd.Name())
			files, err := os.ReadDir(pdir)
			if err != nil {
				errs = append(errs, fmt.Errorf("schema: listing %s: %w", pdir, err))
				continue
			}
			for _, f := range files {
				name := f.Name()
				id, temp, ok := partRunID(name)
				if !ok {
					continue
				}
				p := filepath.Join(pdir, name)
				switch {
				case !temp && ix.Committed(p):
				case !temp && ix.absorbedFile(p):
					if absorbed || mine(id, t) {
						remove(p, &res.Absorbed)
					}
				case !mine(id, t):
				case temp:
					remove(p, &res.Temps)
				default:
					remove(p, &res.Unnamed)
				}
			}
		}
	}
	return res, errors.Join(errs...)
}

// sweepReduce removes the leftovers in the reduce tables' partitions (the
// sites step's: temporary files, files its run's record does not name),
// reading only the records of the run ids found there.
func sweepReduce(root string) (sweepResult, error) {
	var res sweepResult
	recs := map[string]map[string]bool{} // run id -> the files its record names
	named := func(id, rel string) (bool, error) {
		files, ok := recs[id]
		if !ok {
			r, err := readRecord(root, id)
			if err != nil {
				return false, err
			}
			files = map[string]bool{}
			if r != nil {
				for _, f := range r.Files {
					files[f.Path] = true
				}
			}
			recs[id] = files
		}
		return files[rel], nil
	}
	var errs []error
	for _, t := range ReduceTables() {
		tdir := filepath.Join(root, string(t))
		parts, err := os.ReadDir(tdir)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, fmt.Errorf("schema: listing %s: %w", tdir, err))
			}
			continue
		}
		for _, pd := range parts {
			if !pd.IsDir() || !strings.HasPrefix(pd.Name(), "crawl=") {
				continue
			}
			pdir := filepath.Join(tdir, pd.Name())
			files, err := os.ReadDir(pdir)
			if err != nil {
				errs = append(errs, fmt.Errorf("schema: listing %s: %w", pdir, err))
				continue
			}
			for _, f := range files {
				id, temp, ok := partRunID(f.Name())
				if !ok {
					continue
				}
				p := filepath.Join(pdir, f.Name())
				kind := &res.Temps
				if !temp {
					in, err := named(id, string(t)+"/"+pd.Name()+"/"+f.Name())
					if err != nil {
						return res, err
					}
					if in {
						continue
					}
					kind = &res.Unnamed
				}
				if err := os.Remove(p); err != nil {
					if !errors.Is(err, os.ErrNotExist) {
						errs = append(errs, fmt.Errorf("schema: removing leftover %s: %w", p, err))
					}
					continue
				}
				res.add(root, p, kind)
			}
		}
	}
	return res, errors.Join(errs...)
}

// partRunID returns the run id of a table file's name (part-<id>.<gen>...)
// or of its hidden temporary file's, and whether it is the latter.
func partRunID(name string) (id string, temp, ok bool) {
	if rest, isTemp := strings.CutPrefix(name, "."); isTemp {
		i := strings.Index(rest, ".parquet.")
		if !strings.HasSuffix(rest, ".tmp") || i < 0 {
			return "", false, false
		}
		name, temp = rest[:i+len(".parquet")], true
	}
	rest, found := strings.CutPrefix(name, "part-")
	if !found {
		return "", false, false
	}
	id, _, found = strings.Cut(rest, ".")
	if !found || !isPartName(name, id) {
		return "", false, false
	}
	return id, temp, true
}
