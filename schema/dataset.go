package schema

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/parquet-go/parquet-go/compress"

	"github.com/robotstat/robotstat/internal/faultpoint"
)

// Dataset writes robotstat's tables under one root directory and commits
// them atomically (see the package documentation for the layout).
//
// Create it, give each worker a Sink, then call Commit once every Write
// has returned; defer Abort to clean up on every other path:
//
//	ds, err := schema.Create(opts)
//	if err != nil { return err }
//	defer ds.Abort()
//	sink := ds.Sink() // one per worker, each with its own Batch
//	... fill a Batch, sink.Write(&batch) ...
//	return ds.Commit(ctx)
//
// A Dataset is safe for concurrent use; it cannot be reused after Commit or
// Abort.
type Dataset struct {
	opts  Options
	gen   string // this commit's part of the file names (partName)
	root  string // absolute, cleaned
	codec compress.Codec
	wrap  func(io.Writer) io.Writer // tests inject write failures here

	mu        sync.Mutex
	state     state
	err       error    // the first write failure
	committed []string // final paths, after Commit

	// The enabled tables, in AllTables order: each one's definition and
	// its TableWriter.
	defs   []*tableDef
	tables []committer
}

type state int

const (
	stateOpen state = iota
	stateCommitting
	stateDone
)

// committer is what Commit and Abort need of a TableWriter, whatever its
// row type. Every method but lock is called with the table's lock held.
type committer interface {
	Name() TableName
	Rows() int64
	lock()
	unlock()
	seals() []func() error
	drain() error
	sortedCrawls() []string
	ensureFile(crawl string) error
	finish() error
	files() []*atomicFile
}

// Create validates opts, creates the root directory if needed and returns a
// Dataset with a TableWriter for each table of opts.Tables. No file is
// created before the first row of a table arrives.
func Create(opts Options) (*Dataset, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	root, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("schema: output directory %s: %w", opts.Dir, err)
	}
	if err := mkdirAll(root); err != nil {
		return nil, fmt.Errorf("schema: creating output directory: %w", err)
	}
	codec, err := newZstdCodec()
	if err != nil {
		return nil, fmt.Errorf("schema: zstd: %w", err)
	}
	gen, err := newGen(opts.gen)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	d := &Dataset{opts: opts, root: root, codec: codec, gen: gen}
	// In AllTables order, which is the order Commit goes through them.
	for i := range tableDefs {
		if def := &tableDefs[i]; slices.Contains(opts.Tables, def.name) {
			d.defs = append(d.defs, def)
			d.tables = append(d.tables, def.open(d))
		}
	}
	return d, nil
}

// Root returns the dataset's root directory, absolute.
func (d *Dataset) Root() string { return d.root }

// WriterOf returns the writer of d's table of rows T, nil if the table is
// not enabled (a nil TableWriter discards rows). Workers write through a
// Sink; WriterOf is for callers that write one table's rows directly.
func WriterOf[T Row](d *Dataset) *TableWriter[T] {
	for _, t := range d.tables {
		if w, ok := t.(*TableWriter[T]); ok {
			return w
		}
	}
	return nil
}

// TableRows is how many rows one table accepted.
type TableRows struct {
	Table TableName
	Rows  int64
}

// Rows returns, for each enabled table in AllTables order, how many rows
// its writers have accepted so far.
func (d *Dataset) Rows() []TableRows {
	out := make([]TableRows, len(d.tables))
	for i, t := range d.tables {
		out[i] = TableRows{t.Name(), t.Rows()}
	}
	return out
}

// Files returns the files Commit put in place, relative to Root, sorted;
// none before Commit or after a failed one.
func (d *Dataset) Files() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.committed))
	for _, f := range d.committed {
		if rel, err := filepath.Rel(d.root, f); err == nil {
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return out
}

// usable returns nil while rows may be written.
func (d *Dataset) usable() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.state != stateOpen:
		return ErrClosed
	case d.err != nil:
		return fmt.Errorf("%w: %w", ErrFailed, d.err)
	}
	return nil
}

// fail records the first write failure and returns err.
func (d *Dataset) fail(err error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err == nil {
		d.err = err
	}
	return err
}

// Commit finishes the dataset: the row groups LocalWriters still hold are
// appended to their tables, every table that received no rows gets one
// zero-row file (in the partition of the smallest crawl any table has, so
// it adds no partition of its own), then every file gets its footer and is
// fsynced and closed. Then the files are renamed into place under names of
// this commit's own (partName) and their directories fsynced, the run's
// completion record (Record, under RecordDir) is written, replacing the
// earlier one in a rename, and last the files of earlier commits of the
// same run id (in any table's folder) and their leftover temporary files
// are removed. So the root holds one copy of this run's output, and a reader
// that trusts only files a record names (TableFiles, Index) sees either all
// of this commit or all of the one before, wherever a crash falls.
//
// Commit must be called once, after every Write (of a TableWriter or a
// LocalWriter) has returned. If ctx is
// done before the renames, or a write failed earlier, or anything fails
// before the renames, every temporary file is removed and no file of this
// run is left in place; a failure during the renames also removes the files
// already renamed. The error names the file and wraps the cause.
func (d *Dataset) Commit(ctx context.Context) error { return d.CommitOutcome(ctx, Outcome{}) }

// CommitOutcome is Commit with what the completion record says of the run
// besides its files: whether the input was read to its end, and the
// caller's summary.
func (d *Dataset) CommitOutcome(ctx context.Context, o Outcome) error {
	d.mu.Lock()
	if d.state != stateOpen {
		d.mu.Unlock()
		return ErrClosed
	}
	d.state = stateCommitting
	failed := d.err
	d.mu.Unlock()

	for _, t := range d.tables {
		t.lock()
	}
	final, err := d.commit(ctx, failed, o)
	for _, t := range d.tables {
		t.unlock()
	}

	d.mu.Lock()
	d.state = stateDone
	if err == nil {
		d.committed = final
	}
	d.mu.Unlock()
	return err
}

// commit does Commit's work with every table locked. It returns the final
// paths of the files it put in place.
func (d *Dataset) commit(ctx context.Context, failed error, o Outcome) ([]string, error) {
	if failed != nil {
		return nil, errors.Join(fmt.Errorf("%w: %w", ErrFailed, failed), d.removeTemps())
	}
	if err := ctx.Err(); err != nil {
		return nil, errors.Join(fmt.Errorf("schema: commit of %s: %w", d.root, err), d.removeTemps())
	}

	var seals []func() error
	for _, t := range d.tables {
		seals = append(seals, t.seals()...)
	}
	if err := runAll(seals, runtime.GOMAXPROCS(0)); err != nil {
		return nil, errors.Join(err, d.removeTemps())
	}
	for _, t := range d.tables {
		if err := t.drain(); err != nil {
			return nil, errors.Join(err, d.removeTemps())
		}
	}

	crawl, found := "", false
	for _, t := range d.tables {
		for _, c := range t.sortedCrawls() {
			if !found || c != "" && (crawl == "" || c < crawl) {
				crawl, found = c, true
			}
		}
	}
	if found || !d.opts.OmitEmpty {
		for _, t := range d.tables {
			if err := t.ensureFile(crawl); err != nil {
				return nil, errors.Join(err, d.removeTemps())
			}
		}
	}

	for _, t := range d.tables {
		if err := ctx.Err(); err != nil {
			return nil, errors.Join(fmt.Errorf("schema: commit of %s: %w", d.root, err), d.removeTemps())
		}
		if err := t.finish(); err != nil {
			return nil, errors.Join(err, d.removeTemps())
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, errors.Join(fmt.Errorf("schema: commit of %s: %w", d.root, err), d.removeTemps())
	}
	rec, err := d.record(o)
	if err != nil {
		return nil, errors.Join(err, d.removeTemps())
	}

	var final []string
	for _, t := range d.tables {
		for _, f := range t.files() {
			if err := f.rename(); err != nil {
				errs := []error{err, d.removeTemps()}
				for _, p := range final {
					if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
						errs = append(errs, fmt.Errorf("schema: removing %s after a failed commit: %w", p, rerr))
					}
				}
				return nil, errors.Join(errs...)
			}
			final = append(final, f.final)
			faultpoint.At("commit:renamed", d.opts.RunID) // some of the commit's files in place, no record
		}
	}

	// A rename is durable once its directory is synced; a new directory once
	// its parent is (Create may have made the root).
	if err := syncDirsOf(d.root, final); err != nil {
		return final, err
	}
	// The switch: until the new record replaces the old one (a rename),
	// the run's earlier files, under other names, are what counts; after
	// it, this commit's. Then the earlier files go.
	prev, err := readRecord(d.root, d.opts.RunID)
	if err != nil {
		return final, errors.Join(err, d.removeFinal(final))
	}
	rec.Committed = time.Now().UTC()
	if err := writeRecord(d.root, rec); err != nil {
		return final, errors.Join(err, d.removeFinal(final))
	}
	faultpoint.At("commit:recorded", d.opts.RunID) // the record switched, the replaced files not yet removed
	return final, d.removeStale(final, prev)
}

// removeFinal removes the files a commit put in place before its record
// could be written: no record names them.
func (d *Dataset) removeFinal(final []string) error {
	var errs []error
	for _, p := range final {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("schema: removing %s after a failed commit: %w", p, err))
		}
	}
	return errors.Join(errs...)
}

// genLen is the length of a commit's gen: 8 hex digits.
const genLen = 8

// newGen returns a commit's gen: fixed when set (Options.gen, which only
// this package's tests set, to name a file before it is written), else
// random.
func newGen(fixed string) (string, error) {
	if fixed != "" {
		return fixed, nil
	}
	var b [genLen / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// record returns the completion record of the run whose files are about to
// be renamed into place.
func (d *Dataset) record(o Outcome) (*Record, error) {
	r := &Record{
		RunID: d.opts.RunID, Input: d.opts.Input, State: RecordDone,
		Options: d.opts.Metadata, Version: d.opts.Version, SchemaVersion: SchemaVersion,
	}
	if r.Options == nil {
		r.Options = map[string]string{}
	}
	if o.Err != nil {
		r.State, r.Error = RecordFailed, o.Err.Error()
	}
	if o.Summary != nil {
		b, err := json.Marshal(o.Summary)
		if err != nil {
			return nil, fmt.Errorf("schema: encoding the summary of %s: %w", d.opts.RunID, err)
		}
		r.Summary = b
	}
	for _, t := range d.tables {
		r.Tables = append(r.Tables, t.Name())
		for _, f := range t.files() {
			rel, err := filepath.Rel(d.root, f.final)
			if err != nil {
				return nil, fmt.Errorf("schema: %w", err)
			}
			r.Files = append(r.Files, RecordFile{Path: filepath.ToSlash(rel), Table: f.table, Crawl: f.crawl, Rows: f.rows, Size: f.n})
		}
	}
	return r, nil
}

// removeTemps removes every table's temporary files. The caller holds every
// table's lock.
func (d *Dataset) removeTemps() error {
	var errs []error
	for _, t := range d.tables {
		for _, f := range t.files() {
			errs = append(errs, f.remove())
		}
	}
	return errors.Join(errs...)
}

// removeStale removes the files of prev, the run's previous record, that
// are not in keep (this commit's files; a rerun that writes the same
// partitions has files of new names), then partition folders it left
// empty. It lists no folder: a partition of a crawl holds a file per input,
// tens of thousands of them, and a commit per input must not cost a listing
// of them all. What a killed run left behind is Sweep's.
func (d *Dataset) removeStale(keep []string, prev *Record) error {
	if prev == nil {
		return nil
	}
	kept := make(map[string]bool, len(keep))
	for _, p := range keep {
		kept[p] = true
	}
	var errs []error
	dirs := map[string]bool{}
	for _, f := range prev.Files {
		p := filepath.Join(d.root, filepath.FromSlash(f.Path))
		if kept[p] || !within(d.root, p) {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("schema: removing stale %s: %w", p, err))
			continue
		}
		dirs[filepath.Dir(p)] = true
	}
	for dir := range dirs {
		_ = os.Remove(dir) // only if empty; another run's file keeps it
	}
	return errors.Join(errs...)
}

// Abort removes every temporary file and ends the dataset; nothing this
// dataset wrote is left. It returns nil and does nothing once Commit has
// started (Commit cleans up after itself), so it can always be deferred.
func (d *Dataset) Abort() error {
	d.mu.Lock()
	if d.state != stateOpen {
		d.mu.Unlock()
		return nil
	}
	d.state = stateDone
	d.mu.Unlock()
	for _, t := range d.tables {
		t.lock()
	}
	defer func() {
		for _, t := range d.tables {
			t.unlock()
		}
	}()
	return d.removeTemps()
}

// runAll runs fs, up to n at once, and returns their errors joined.
func runAll(fs []func() error, n int) error {
	errs := make([]error, len(fs))
	sem := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	for i, f := range fs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[i] = f()
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
