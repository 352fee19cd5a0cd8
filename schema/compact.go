package schema

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/robotstat/robotstat/internal/faultpoint"
)

// Compaction merges the small files of many runs (analyze commits one run
// per input, each with a file per table and crawl: 70k inputs make 70k
// files per table and crawl) into files of about a target size, without
// ever letting a reader that trusts the records (TableFiles, Index) see a
// row twice or miss one:
//
//  1. the merged files are written under hidden temporary names in their
//     partition folders, fsynced, renamed into place as
//     part-compact-<hash>.<gen>[-n].parquet and their folders fsynced: no
//     record names them yet, so readers skip them;
//  2. the compaction's own record (_robotstat/inputs/compact-<hash>.json)
//     is written in one rename: it names the merged files and, in Absorbs,
//     the runs whose rows they hold, each with the Committed of its record.
//     From then on readers skip those runs' files;
//  3. only then are the absorbed files removed. A compaction killed before
//     step 2 leaves files no record names, one killed after it absorbed
//     files not yet removed; the next Compact, the next exclusive Lock, a
//     shared one once the lock file says an exclusive writer was killed,
//     or analyze's Sweep of those runs, removes both.
//
// The absorbed runs' records stay as they are, so that analyze still
// skips their inputs and robotstat status still reports them done.

// CompactRunPrefix starts the run id of every compaction's record and
// files.
const CompactRunPrefix = "compact-"

// DefaultCompactTarget is the size merged files are cut at by default:
// large enough that a crawl of 70k inputs gives a few hundred files per
// table, small enough that a reader's parallel scan has files to spread.
const DefaultCompactTarget = 256 << 20

// CompactOptions configures Compact. Dir is required.
type CompactOptions struct {
	// Dir is the dataset's root. Nothing is written outside it.
	Dir string
	// TargetBytes is the size of the inputs (their bytes on disk) merged
	// into one file: a table and crawl partition's files are taken in name
	// order and a merged file is cut before the file that would take it
	// past TargetBytes. A merged file is usually smaller than its inputs
	// (larger row groups compress better). 0 means DefaultCompactTarget.
	TargetBytes int64
	// Eligible, when not nil, says which runs may be merged, beyond what
	// Compact requires of every run: state done (a failed run's input is
	// read again by a rerun, which replaces its files), not a compaction,
	// not absorbed already, with files. robotstat passes the runs of
	// analyze: robotstat sites replaces its own output whole.
	Eligible func(*Record) bool
	// Version is robotstat's version, for the compaction's record. The
	// merged files keep the version their inputs record.
	Version string
	// RowGroupRows, RowGroupBytes and DictionaryBytes are as in Options
	// (0 means their defaults): the merged files' row groups are cut
	// afresh, not copied from the inputs, whose row groups hold one input's
	// rows each.
	RowGroupRows, RowGroupBytes, DictionaryBytes int64

	// onStep, when set (by this package's tests: WithCompactFault), is
	// called at each step of the compaction; an error it returns stops the
	// compaction there. An option rather than a package variable, so that
	// the tests that set it run in parallel with the others.
	onStep func(step string) error
}

// CompactTable is what a compaction did to one table.
type CompactTable struct {
	Table       TableName `json:"table"`
	FilesBefore int       `json:"files_before"`
	FilesAfter  int       `json:"files_after"`
	BytesBefore int64     `json:"bytes_before"`
	BytesAfter  int64     `json:"bytes_after"`
	Rows        int64     `json:"rows"`
}

// CompactSummary is what Compact did.
type CompactSummary struct {
	// RunID is the compaction's run id; empty when there was nothing to
	// merge.
	RunID string `json:"run_id,omitempty"`
	// Runs is how many runs were absorbed.
	Runs int `json:"runs"`
	// Left counts the runs left as they are, by why.
	Left map[string]int `json:"left,omitempty"`
	// Tables are the tables merged, in AllTables order.
	Tables []CompactTable `json:"tables"`
	// Leftovers is how many files of killed compactions (or absorbed files
	// a killed compaction did not remove) were removed first.
	Leftovers int `json:"leftovers_removed"`
	// Warnings are absorbed files that could not be removed after the
	// commit: not part of the dataset, removed by the next Compact.
	Warnings []string `json:"warnings,omitempty"`
	Seconds  float64  `json:"seconds"`
}

// Reasons in CompactSummary.Left.
const (
	LeftFailed     = "failed"         // a failed run: a rerun replaces its files
	LeftIneligible = "not eligible"   // Eligible said no
	LeftNoFiles    = "no files"       // nothing to merge
	LeftSchema     = "other schema"   // a file's columns are not this version's
	LeftCompacted  = "compacted"      // absorbed by an earlier compaction
	LeftUnknown    = "unknown tables" // a file of a table this version does not know
)

// fault marks a step of a compaction: the kill tests' real processes stop
// there (faultpoint), and o.onStep, which only this package's tests set
// (export_test.go), may fail the compaction there, as a crash would stop it.
func (o *CompactOptions) fault(step string) error {
	faultpoint.At("compact", step)
	if o.onStep == nil {
		return nil
	}
	return o.onStep(step)
}

// compactSource is one file to merge.
type compactSource struct {
	run  *Record
	rel  string // as the record names it
	path string // absolute
	def  *tableDef
	rec  RecordFile
	size int64
	meta *compactMeta // files merge only with files of the same
}

// compactMeta is a file's key/value metadata but MetaRunID, sorted by key,
// shared by the files that have the same.
type compactMeta struct {
	key string // kv, encoded
	kv  []format.KeyValue
}

// compactOutput is one merged file being written.
type compactOutput struct {
	def   *tableDef
	crawl string
	kv    []format.KeyValue
	srcs  []*compactSource
	file  *atomicFile
	size  int64
}

// Compact merges the files of the runs under o.Dir into files of about
// o.TargetBytes per table, crawl partition and key/value metadata (files
// whose metadata differs, other than the run id, are never merged: each
// merged file says what produced it, as every file does), and commits them
// as one compaction record that absorbs the runs (see above). Every run's
// files are absorbed whole, in every table, or not at all.
//
// Compact itself may run while analyze commits other inputs into o.Dir
// (robotstat compact does not: it takes the root's Lock exclusive), but
// not while an input it absorbs is read again: it checks, just before its
// record is written, that no absorbed run was committed again since it
// started, and fails if one was. A run absorbed that is committed again
// later (by a robotstat that did not check, or a race past that check)
// makes the index report a conflict (Index.Conflicts) and TableFiles fail,
// rather than count its rows twice.
//
// On an error nothing of the compaction is left that a reader would see:
// its files are removed (or, after a crash, left unnamed until the next
// Compact).
func Compact(ctx context.Context, o CompactOptions) (CompactSummary, error) {
	start := time.Now()
	sum := CompactSummary{Left: map[string]int{}}
	if o.Dir == "" {
		return sum, errors.New("schema: CompactOptions.Dir is empty")
	}
	if o.TargetBytes < 0 || o.RowGroupRows < 0 || o.RowGroupBytes < 0 || o.DictionaryBytes < 0 {
		return sum, errors.New("schema: CompactOptions sizes must not be negative")
	}
	o.TargetBytes = cmpOr(o.TargetBytes, DefaultCompactTarget)
	o.RowGroupRows = cmpOr(o.RowGroupRows, DefaultRowGroupRows)
	o.RowGroupBytes = cmpOr(o.RowGroupBytes, DefaultRowGroupBytes)
	o.DictionaryBytes = cmpOr(o.DictionaryBytes, DefaultDictionaryBytes)
	if o.Version == "" {
		o.Version = "devel"
	}
	root, err := filepath.Abs(o.Dir)
	if err != nil {
		return sum, fmt.Errorf("schema: output directory %s: %w", o.Dir, err)
	}

	ix, err := ReadIndex(root)
	if err != nil {
		return sum, err
	}
	if len(ix.Conflicts) > 0 {
		return sum, fmt.Errorf("schema: compact %s: %w: %s", root, ErrConflict, strings.Join(ix.Conflicts, ", "))
	}
	// What killed compactions left: merged files no record names, and
	// files of absorbed runs not yet removed.
	sum.Leftovers, err = Sweep(root, func(id string) bool {
		return strings.HasPrefix(id, CompactRunPrefix) || ix.AbsorbedBy(id) != ""
	})
	if err != nil {
		return sum, fmt.Errorf("schema: compact: cleaning up after a killed compaction: %w", err)
	}

	srcs, runs, err := compactSources(ctx, ix, o, &sum)
	if err != nil {
		return sum, err
	}
	sum.Runs = len(runs)
	if len(runs) == 0 {
		sum.Seconds = time.Since(start).Seconds()
		return sum, nil
	}
	rec := &Record{Input: "robotstat compact", State: RecordDone, Options: map[string]string{},
		Version: o.Version, SchemaVersion: SchemaVersion}
	h := sha256.New()
	for _, r := range runs {
		rec.Absorbs = append(rec.Absorbs, AbsorbedRun{RunID: r.RunID, Committed: r.Committed})
		fmt.Fprintf(h, "%s\x00%s\x00", r.RunID, r.Committed.Format(time.RFC3339Nano))
	}
	rec.RunID = CompactRunPrefix + hex.EncodeToString(h.Sum(nil)[:8])
	sum.RunID = rec.RunID
	gen, err := newGen("")
	if err != nil {
		return sum, fmt.Errorf("schema: %w", err)
	}

	outs := planOutputs(srcs, o.TargetBytes)
	codec, err := newZstdCodec()
	if err != nil {
		return sum, fmt.Errorf("schema: zstd: %w", err)
	}
	var final []string // renamed into place, not yet recorded
	fail := func(err error) (CompactSummary, error) {
		var errs []error
		for _, out := range outs {
			if out.file != nil {
				errs = append(errs, out.file.remove())
			}
		}
		for _, p := range final {
			if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
				errs = append(errs, fmt.Errorf("schema: removing %s after a failed compaction: %w", p, rerr))
			}
		}
		return sum, errors.Join(append([]error{err}, errs...)...)
	}
	seq := map[string]int{} // by partition folder
	for _, out := range outs {
		if err := ctx.Err(); err != nil {
			return fail(fmt.Errorf("schema: compact %s: %w", root, err))
		}
		elem, err := partitionDir(out.crawl)
		if err != nil {
			return fail(err)
		}
		dir := filepath.Join(root, string(out.def.name), elem)
		name := partName(rec.RunID, gen, seq[dir])
		seq[dir]++
		if err := writeMerged(ctx, out, filepath.Join(dir, name), rec.RunID, codec, &o); err != nil {
			return fail(err)
		}
		if err := o.fault("written"); err != nil {
			return fail(err)
		}
	}
	for _, out := range outs {
		if err := out.file.rename(); err != nil {
			return fail(err)
		}
		final = append(final, out.file.final)
		if err := o.fault("renamed"); err != nil {
			return fail(err)
		}
	}
	if err := syncDirsOf(root, final); err != nil {
		return fail(err)
	}
	// The switch. An absorbed run committed again since it was read here
	// holds rows the merged files lack (or lacks rows they hold): give up.
	for _, a := range rec.Absorbs {
		now, err := readRecord(root, a.RunID)
		if err != nil {
			return fail(err)
		}
		if now == nil || !now.Committed.Equal(a.Committed) {
			return fail(fmt.Errorf("schema: compact: run %s was committed again while it was being merged (is analyze reading its input again?); nothing compacted, run compact again once it is done", a.RunID))
		}
	}
	for _, out := range outs {
		rel, err := filepath.Rel(root, out.file.final)
		if err != nil {
			return fail(fmt.Errorf("schema: %w", err))
		}
		rec.Files = append(rec.Files, RecordFile{Path: filepath.ToSlash(rel), Table: out.def.name, Crawl: out.crawl, Rows: out.file.rows, Size: out.file.n})
		if !slices.Contains(rec.Tables, out.def.name) {
			rec.Tables = append(rec.Tables, out.def.name)
		}
	}
	rec.Committed = time.Now().UTC()
	if err := o.fault("record"); err != nil {
		return fail(err)
	}
	if err := writeRecord(root, rec); err != nil {
		return fail(err)
	}
	final = nil
	sum.Tables = compactTables(srcs, outs)

	// Committed: the absorbed files are no longer part of the dataset.
	dirs := map[string]bool{}
	for _, s := range srcs {
		if err := o.fault("remove"); err != nil {
			sum.Warnings = append(sum.Warnings, err.Error())
			break
		}
		if err := os.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			sum.Warnings = append(sum.Warnings, fmt.Sprintf("removing absorbed %s: %v", s.path, err))
			continue
		}
		dirs[filepath.Dir(s.path)] = true
	}
	for dir := range dirs {
		if err := syncDir(dir); err != nil {
			sum.Warnings = append(sum.Warnings, err.Error())
		}
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

func cmpOr(v, dflt int64) int64 {
	if v == 0 {
		return dflt
	}
	return v
}

// compactSources returns the files of every run Compact may absorb, with
// their footers checked, and those runs sorted by run id.
func compactSources(ctx context.Context, ix *Index, o CompactOptions, sum *CompactSummary) ([]*compactSource, []*Record, error) {
	var runs []*Record
	for _, r := range ix.Runs {
		switch {
		case r.IsCompaction():
			continue
		case ix.AbsorbedBy(r.RunID) != "":
			sum.Left[LeftCompacted]++
		case r.State != RecordDone:
			sum.Left[LeftFailed]++
		case o.Eligible != nil && !o.Eligible(r):
			sum.Left[LeftIneligible]++
		case len(r.Files) == 0:
			sum.Left[LeftNoFiles]++
		default:
			runs = append(runs, r)
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].RunID < runs[j].RunID })
	var srcs []*compactSource
	kept := runs[:0]
	// One copy of each distinct metadata set: a crawl's 70k inputs share a
	// handful, and a copy per file would cost a few hundred MB.
	metas := map[string]*compactMeta{}
	for _, r := range runs {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("schema: compact %s: %w", ix.Root, err)
		}
		files, reason, err := runSources(ix.Root, r, metas)
		if err != nil {
			return nil, nil, err
		}
		if reason != "" {
			sum.Left[reason]++
			continue
		}
		srcs = append(srcs, files...)
		kept = append(kept, r)
	}
	return srcs, kept, nil
}

// runSources reads the footers of run r's files. A reason is why the run
// cannot be merged; an error a file that is missing or does not hold what
// the record says.
func runSources(root string, r *Record, metas map[string]*compactMeta) ([]*compactSource, string, error) {
	var out []*compactSource
	for _, f := range r.Files {
		var def *tableDef
		for i := range tableDefs {
			if tableDefs[i].name == f.Table {
				def = &tableDefs[i]
			}
		}
		if def == nil {
			return nil, LeftUnknown, nil
		}
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if !within(root, p) {
			return nil, "", fmt.Errorf("%w: run %s names %s, outside %s", ErrUnsafeName, r.RunID, f.Path, root)
		}
		fh, pf, err := openParquet(p)
		if errors.Is(err, ErrSchemaVersion) {
			return nil, LeftSchema, nil
		}
		if err != nil {
			return nil, "", fmt.Errorf("schema: compact: run %s: %w", r.RunID, err)
		}
		st, err := fh.Stat()
		same := parquet.EqualNodes(def.schema, pf.Schema())
		rows := pf.NumRows()
		kvs := slices.Clone(pf.Metadata().KeyValueMetadata)
		fh.Close()
		if err != nil {
			return nil, "", fmt.Errorf("schema: compact: %w", err)
		}
		if !same {
			return nil, LeftSchema, nil
		}
		if rows != f.Rows {
			return nil, "", fmt.Errorf("schema: compact: %s holds %d rows, its record (run %s) says %d", p, rows, r.RunID, f.Rows)
		}
		s := &compactSource{run: r, rel: f.Path, path: p, def: def, rec: f, size: st.Size()}
		kvs = slices.DeleteFunc(kvs, func(kv format.KeyValue) bool { return kv.Key == MetaRunID })
		sort.Slice(kvs, func(i, j int) bool { return kvs[i].Key < kvs[j].Key })
		var key strings.Builder
		for _, kv := range kvs {
			fmt.Fprintf(&key, "%q=%q;", kv.Key, kv.Value)
		}
		m := metas[key.String()]
		if m == nil {
			m = &compactMeta{key: key.String(), kv: kvs}
			metas[m.key] = m
		}
		s.meta = m
		out = append(out, s)
	}
	return out, "", nil
}

// planOutputs groups the sources by table, crawl and metadata, in that
// order (tables in AllTables order), takes each group's files in name
// order and cuts it into merged files of about target bytes.
func planOutputs(srcs []*compactSource, target int64) []*compactOutput {
	order := map[TableName]int{}
	for i := range tableDefs {
		order[tableDefs[i].name] = i
	}
	sorted := slices.Clone(srcs)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		switch {
		case a.def != b.def:
			return order[a.def.name] < order[b.def.name]
		case a.rec.Crawl != b.rec.Crawl:
			return a.rec.Crawl < b.rec.Crawl
		case a.meta != b.meta:
			return a.meta.key < b.meta.key
		}
		return a.rel < b.rel
	})
	var outs []*compactOutput
	var cur *compactOutput
	for _, s := range sorted {
		if cur == nil || cur.def != s.def || cur.crawl != s.rec.Crawl || cur.srcs[0].meta != s.meta || cur.size+s.size > target {
			cur = &compactOutput{def: s.def, crawl: s.rec.Crawl, kv: s.meta.kv}
			outs = append(outs, cur)
		}
		cur.srcs = append(cur.srcs, s)
		cur.size += s.size
	}
	return outs
}

// compactRowBatch is how many rows a merge copies at a time.
const compactRowBatch = 1024

// writeMerged writes out's sources' rows, in order, into a temporary file
// of final: rows stream through a buffer of compactRowBatch rows into
// row groups of o.RowGroupRows rows or o.RowGroupBytes buffered bytes,
// so memory is one row group's whatever the files' sizes. The file is
// fsynced and closed, its footer read back and its rows counted.
func writeMerged(ctx context.Context, out *compactOutput, final, runID string, codec *zstdCodec, o *CompactOptions) error {
	root := filepath.Dir(filepath.Dir(filepath.Dir(final)))
	if !within(root, final) {
		return fmt.Errorf("%w: %s", ErrUnsafeName, final)
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o777); err != nil {
		return fmt.Errorf("schema: creating directory for %s: %w", final, err)
	}
	f, err := createAtomic(final, nil)
	if err != nil {
		return err
	}
	out.file = f
	f.table, f.crawl = out.def.name, out.crawl
	version := "devel"
	opts := []parquet.WriterOption{
		out.def.schema,
		parquet.Compression(codec),
		parquet.MaxRowsPerRowGroup(o.RowGroupRows),
		parquet.DictionaryMaxBytes(o.DictionaryBytes),
		parquet.PageBufferSize(pageBytes),
		parquet.DataPageStatistics(false),
		parquet.KeyValueMetadata(MetaRunID, runID),
	}
	for _, kv := range out.kv {
		opts = append(opts, parquet.KeyValueMetadata(kv.Key, kv.Value))
		if kv.Key == MetaVersion {
			version = kv.Value
		}
	}
	opts = append(opts, parquet.CreatedBy("robotstat", version, ""))
	w := parquet.NewGenericWriter[any](f, opts...)
	buf := make([]parquet.Row, compactRowBatch)
	var want, n int64
	for _, s := range out.srcs {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("schema: compact: %w", err)
		}
		k, err := copyFile(w, f, s, buf, o.RowGroupBytes)
		n += k
		if err != nil {
			return fmt.Errorf("schema: merging %s into %s: %w", s.path, final, err)
		}
		want += s.rec.Rows
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("schema: writing footer of %s: %w", final, err)
	}
	f.rows = n
	if err := f.sync(); err != nil {
		return err
	}
	if n != want {
		return fmt.Errorf("schema: %s: %d rows merged, its inputs hold %d", final, n, want)
	}
	// Read back what a reader will: the footer's count.
	fh, pf, err := openParquet(f.tmp)
	if err != nil {
		return fmt.Errorf("schema: reading back %s: %w", final, err)
	}
	got := pf.NumRows()
	fh.Close()
	if got != want {
		return fmt.Errorf("schema: %s holds %d rows, its inputs %d", final, got, want)
	}
	return nil
}

// copyFile appends the rows of s to w, whose file is f.
func copyFile(w *parquet.GenericWriter[any], f *atomicFile, s *compactSource, buf []parquet.Row, maxBytes int64) (int64, error) {
	fh, pf, err := openParquet(s.path)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	var n int64
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		for {
			k, err := rows.ReadRows(buf)
			if k > 0 {
				if _, werr := w.WriteRows(buf[:k]); werr != nil {
					rows.Close()
					return n, werr
				}
				n += int64(k)
				// As TableWriter: a row group also ends at maxBytes buffered.
				if w.Size()-f.n > maxBytes {
					if err := w.Flush(); err != nil {
						rows.Close()
						return n, err
					}
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				rows.Close()
				return n, err
			}
		}
		if err := rows.Close(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// syncDirsOf fsyncs the partition and table folders of paths, then root
// and its parent, deepest first, so that renames and new folders survive a
// crash. Commit and Compact both put files in place through it.
func syncDirsOf(root string, paths []string) error {
	dirs := map[string]bool{root: true, filepath.Dir(root): true}
	for _, p := range paths {
		dirs[filepath.Dir(p)] = true
		dirs[filepath.Dir(filepath.Dir(p))] = true
	}
	ordered := make([]string, 0, len(dirs))
	for dir := range dirs {
		ordered = append(ordered, dir)
	}
	sort.Slice(ordered, func(i, j int) bool { return len(ordered[i]) > len(ordered[j]) })
	for _, dir := range ordered {
		if err := syncDir(dir); err != nil {
			return err
		}
	}
	return nil
}

// compactTables sums sources and outputs per table, in AllTables order.
func compactTables(srcs []*compactSource, outs []*compactOutput) []CompactTable {
	by := map[TableName]*CompactTable{}
	get := func(t TableName) *CompactTable {
		if by[t] == nil {
			by[t] = &CompactTable{Table: t}
		}
		return by[t]
	}
	for _, s := range srcs {
		c := get(s.def.name)
		c.FilesBefore++
		c.BytesBefore += s.size
		c.Rows += s.rec.Rows
	}
	for _, out := range outs {
		c := get(out.def.name)
		c.FilesAfter++
		c.BytesAfter += out.file.n
	}
	var res []CompactTable
	for i := range tableDefs {
		if c := by[tableDefs[i].name]; c != nil {
			res = append(res, *c)
		}
	}
	return res
}
