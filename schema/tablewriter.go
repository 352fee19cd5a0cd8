package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"
)

// Row is the set of row types, one per table. Only this package's types
// satisfy it: each embeds Key, through which a TableWriter finds the row's
// crawl partition.
type Row interface {
	CaptureRow | GroupRow | AgentRow | BotRow | DirectiveRow | SignalRow | VerdictsRow | RuleRow | SitemapRow | DiagnosticRow | ErrorRow | SiteRow | SiteBotRow | SiteHistoryRow | DomainRow
	crawl() string
}

// TableWriter writes the rows of one table of a Dataset: one Parquet file
// per crawl partition, each opened on the first row of its crawl.
//
// A TableWriter is safe for concurrent use by several goroutines. Its Write
// encodes a batch in the caller's goroutine under the table's lock, so
// writes to one table through it are serialised: analyze's workers do not
// use it but a LocalWriter each (Local, through a Sink), which encodes
// without the lock; Write is for the rows one goroutine writes (an input's
// errors at commit, the tables robotstat sites builds).
//
// A nil *TableWriter (a table not in Options.Tables) accepts and discards
// rows, so callers need not branch on the tables the user chose.
type TableWriter[T Row] struct {
	ds   *Dataset
	name TableName
	base []parquet.WriterOption // options common to every file of the table

	rows atomic.Int64 // accepted by Write and the LocalWriters

	mu     sync.Mutex
	parts  map[string]*part[T] // by crawl: the file being written
	next   map[string]int      // by crawl: the seq of its next file
	full   []*atomicFile       // files complete (rolled over, or a LocalWriter's whole), renamed at Commit
	locals []*LocalWriter[T]   // shipped by drain
}

// part is the file of a table's crawl partition being written: the rows of
// one crawl, from the seq-th file on.
type part[T Row] struct {
	file *atomicFile
	w    *parquet.GenericWriter[T]
	rows int64
}

func newTableWriter[T Row](ds *Dataset, name TableName) *TableWriter[T] {
	o := &ds.opts
	return &TableWriter[T]{
		ds:   ds,
		name: name,
		base: []parquet.WriterOption{
			parquet.Compression(ds.codec),
			parquet.MaxRowsPerRowGroup(o.RowGroupRows),
			parquet.DictionaryMaxBytes(o.DictionaryBytes),
			parquet.CreatedBy("robotstat", o.Version, ""),
			parquet.PageBufferSize(pageBytes),
			// Min/max per page go to the column index (and per row group
			// to the chunk statistics), which is what DuckDB, Arrow and
			// Spark prune with. The copy in each page header is the
			// deprecated pre-column-index place for them, and parquet-go
			// computes it with a second pass over the page's values: for
			// the bots table's 32-byte capture_id and url repeated over
			// 101 rows, that pass cost 8% of an analyze run's CPU.
			parquet.DataPageStatistics(false),
		},
		parts: make(map[string]*part[T]),
		next:  make(map[string]int),
	}
}

// Name returns the table's name; "" for a nil TableWriter.
func (t *TableWriter[T]) Name() TableName {
	if t == nil {
		return ""
	}
	return t.name
}

// Enabled reports whether the table is written (t is not nil).
func (t *TableWriter[T]) Enabled() bool { return t != nil }

// Rows returns how many rows Write and the table's LocalWriters have
// accepted so far.
func (t *TableWriter[T]) Rows() int64 {
	if t == nil {
		return 0
	}
	return t.rows.Load()
}

// Write appends rows to the table, each to the file of its crawl
// (rows[i].Crawl). The rows are encoded before Write returns: the caller may
// reuse the slice, the strings' backing memory and anything the rows point
// to. A string that is not UTF-8 is written escaped (utf8.go), and the row's
// field is replaced with the escaped string. Rows of a batch usually share a crawl; consecutive rows of the same
// crawl are written in one call to the Parquet writer.
//
// An error is an environment failure (a full disk, an unwritable
// directory) or a crawl name that cannot be a directory; it names the file
// and wraps the cause. After an error the dataset is failed: every later
// Write and Commit returns ErrFailed, and the caller should Abort.
func (t *TableWriter[T]) Write(rows []T) error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.ds.usable(); err != nil {
		return err
	}
	cleanRows(rows)
	for len(rows) > 0 {
		crawl := rows[0].crawl()
		n := 1
		for n < len(rows) && rows[n].crawl() == crawl {
			n++
		}
		p, err := t.part(crawl)
		if err != nil {
			return t.ds.fail(err)
		}
		if err := p.write(rows[:n], t.ds.opts.RowGroupBytes); err != nil {
			return t.ds.fail(err)
		}
		t.rows.Add(int64(n))
		rows = rows[n:]
	}
	return nil
}

// part returns the file of crawl, creating its directory and temporary file
// on first use, and rolling over to a new file when the current one holds
// Options.FileRowGroups row groups' worth of rows. The caller holds t.mu.
func (t *TableWriter[T]) part(crawl string) (*part[T], error) {
	if p, ok := t.parts[crawl]; ok {
		o := &t.ds.opts
		if p.rows < o.FileRowGroups*o.RowGroupRows {
			return p, nil
		}
		if err := p.close(); err != nil {
			return nil, err
		}
		t.full = append(t.full, p.file)
	}
	f, err := t.newFile(crawl)
	if err != nil {
		return nil, err
	}
	p := &part[T]{file: f, w: parquet.NewGenericWriter[T](f, t.fileOptions(crawl)...)}
	t.parts[crawl] = p
	return p, nil
}

// newFile creates the temporary file of crawl's next file of the table,
// and its directory. The caller holds t.mu.
func (t *TableWriter[T]) newFile(crawl string) (*atomicFile, error) {
	elem, err := partitionDir(crawl)
	if err != nil {
		return nil, fmt.Errorf("%w (table %s)", err, t.name)
	}
	seq := t.next[crawl]
	t.next[crawl] = seq + 1
	dir := filepath.Join(t.ds.root, string(t.name), elem)
	final := filepath.Join(dir, partName(t.ds.opts.RunID, t.ds.gen, seq))
	if !within(t.ds.root, final) {
		return nil, fmt.Errorf("%w: %s is outside %s", ErrUnsafeName, final, t.ds.root)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("schema: creating directory for %s: %w", final, err)
	}
	f, err := createAtomic(final, t.ds.wrap)
	if err != nil {
		return nil, err
	}
	f.table, f.crawl = t.name, crawl
	return f, nil
}

// fileOptions are the Parquet writer options of a file of crawl: the
// table's, and the metadata every file of the dataset records.
func (t *TableWriter[T]) fileOptions(crawl string) []parquet.WriterOption {
	return append(append([]parquet.WriterOption(nil), t.base...), fileMetadata(&t.ds.opts, t.name, crawl)...)
}

// partName is the name of a partition's seq-th file of a commit gen of a
// run: part-<run id>.<gen>.parquet, then part-<run id>.<gen>-1.parquet, -2,
// ... A commit never renames over a file of an earlier commit (each Dataset
// has a gen of its own), so the run's previous files stay whole until the new
// completion record has replaced the old one.
func partName(runID, gen string, seq int) string {
	if seq == 0 {
		return "part-" + runID + "." + gen + ".parquet"
	}
	return "part-" + runID + "." + gen + "-" + strconv.Itoa(seq) + ".parquet"
}

// isPartName reports whether name is one of run id's file names, of any
// commit. Run ids hold no dot, so "part-<id>." names one run only.
func isPartName(name, runID string) bool {
	rest, ok := strings.CutPrefix(name, "part-"+runID+".")
	if !ok || len(rest) < genLen {
		return false
	}
	for _, c := range rest[:genLen] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	rest = rest[genLen:]
	if rest == ".parquet" {
		return true
	}
	digits, ok := strings.CutSuffix(rest, ".parquet")
	if !ok || len(digits) < 2 || digits[0] != '-' {
		return false
	}
	for _, c := range digits[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// close writes the footer of p's file and syncs it; the file is renamed
// into place at Commit with the others.
func (p *part[T]) close() error {
	if err := p.w.Close(); err != nil {
		return fmt.Errorf("schema: writing footer of %s: %w", p.file.final, err)
	}
	p.file.rows = p.rows
	return p.file.sync()
}

// write encodes rows and ends the row group early when its buffered size
// passes maxBytes (the row count limit is the Parquet writer's own).
func (p *part[T]) write(rows []T, maxBytes int64) error {
	if err := writeRows(p.w, rows); err != nil {
		return fmt.Errorf("schema: encoding rows for %s: %w", p.file.final, err)
	}
	p.rows += int64(len(rows))
	// Size counts bytes written plus the current row group's uncompressed
	// estimate; what reached the file is p.file.n, give or take the
	// writer's 32 KiB buffer.
	if p.w.Size()-p.file.n > maxBytes {
		if err := p.w.Flush(); err != nil {
			return fmt.Errorf("schema: flushing row group of %s: %w", p.file.final, err)
		}
	}
	return nil
}

// The methods below implement committer; Dataset holds every table's lock
// while it calls them.

func (t *TableWriter[T]) lock()   { t.mu.Lock() }
func (t *TableWriter[T]) unlock() { t.mu.Unlock() }

// seals returns, for each of the table's LocalWriters, a function that
// encodes the row groups it is filling (LocalWriter.seal); Commit runs
// them at once before drain, so that the encoding of every worker's last
// row groups is not done one after the other.
func (t *TableWriter[T]) seals() []func() error {
	fs := make([]func() error, len(t.locals))
	for i, l := range t.locals {
		fs[i] = l.seal
	}
	return fs
}

// drain ships what the table's LocalWriters still hold.
func (t *TableWriter[T]) drain() error {
	for _, l := range t.locals {
		if err := l.release(true); err != nil {
			return err
		}
		if err := l.shipAll(true); err != nil {
			return err
		}
	}
	return nil
}

// sortedCrawls returns the crawls the table has rows of, in its files
// being written or complete.
func (t *TableWriter[T]) sortedCrawls() []string {
	cs := t.partCrawls()
	for _, f := range t.full {
		if !slices.Contains(cs, f.crawl) {
			cs = append(cs, f.crawl)
		}
	}
	sort.Strings(cs)
	return cs
}

// partCrawls returns the crawls of the files being written, sorted.
func (t *TableWriter[T]) partCrawls() []string {
	cs := make([]string, 0, len(t.parts))
	for c := range t.parts {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	return cs
}

// ensureFile gives a table that received no rows one zero-row file in the
// partition of crawl, so that every enabled table can be opened.
func (t *TableWriter[T]) ensureFile(crawl string) error {
	if len(t.parts) > 0 || len(t.full) > 0 {
		return nil
	}
	_, err := t.part(crawl)
	return err
}

// files returns the table's files: those complete, in the order they
// completed, then the current one of each crawl in crawl order.
func (t *TableWriter[T]) files() []*atomicFile {
	cs := t.partCrawls()
	fs := append(make([]*atomicFile, 0, len(t.full)+len(cs)), t.full...)
	for _, c := range cs {
		fs = append(fs, t.parts[c].file)
	}
	return fs
}

// finish writes the footer of every crawl's current file and syncs it.
func (t *TableWriter[T]) finish() error {
	for _, c := range t.partCrawls() {
		if err := t.parts[c].close(); err != nil {
			return err
		}
	}
	return nil
}

var _ committer = (*TableWriter[CaptureRow])(nil)
