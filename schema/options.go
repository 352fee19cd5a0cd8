package schema

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// SchemaVersion is the version of the tables' layout, recorded in every
// file's metadata as robotstat.schema_version. It changes whenever a column
// is added, removed, renamed or changes type or meaning.
//
// Version 2 added sites.crawl_date and the signals and site_history tables.
// Files of version 1 are still read (ReadsSchemaVersion): they lack only
// what version 2 added, so a dataset written before can be rebuilt with
// robotstat sites instead of analysed again.
//
// Version 3 changed the meaning of capture_id and captures.source for
// records without a WARC-Record-ID (dump rows, tar entries, files of a
// folder): they name the input's path relative to what was named, and the
// id includes the crawl, so that files of the same name in two folders no
// longer share an id. Version 2 files are still read; a rerun of analyze
// reads their inputs again and replaces them (the completion record's
// schema version differs), so one dataset never mixes the two ids.
const SchemaVersion = "3"

// ReadsSchemaVersion reports whether this version reads files of schema
// version v: its own, and the earlier ones it only added to or whose
// change a rerun replaces.
func ReadsSchemaVersion(v string) bool { return v == SchemaVersion || v == "2" || v == "1" }

// Defaults for Options.
const (
	// DefaultRowGroupRows matches DuckDB's own row group size, the unit it
	// reads in parallel.
	DefaultRowGroupRows = 122880
	// DefaultRowGroupBytes caps the uncompressed bytes a table buffers for a
	// row group before it is flushed, whatever the row count, so memory stays
	// bounded for wide rows.
	DefaultRowGroupBytes = 64 << 20
	// DefaultDictionaryBytes caps each string column's dictionary per row
	// group; past it the column falls back to plain pages for the rest of the
	// row group (high-cardinality columns such as url).
	DefaultDictionaryBytes = 1 << 20
	// DefaultFileRowGroups is how many row groups a file holds before the
	// table goes on in a new file of the same partition. parquet-go keeps
	// every row group's metadata (column chunks, page indexes) in memory
	// until the footer is written, about 25 MB per million captures over
	// all tables; rolling over bounds it whatever the input size, and a
	// few hundred files per table and crawl read as one dataset.
	DefaultFileRowGroups = 64
)

// Options configures a Dataset. The zero value is not valid: Dir and RunID
// are required. Create applies the defaults, calls Validate and keeps a deep
// copy, so the caller may reuse or change its Options afterwards.
type Options struct {
	// Dir is the dataset's root (robotstat's --out). It is created if it
	// does not exist. Nothing is written outside it.
	Dir string
	// RunID names the files this dataset writes (part-<RunID>.parquet) and
	// should be a function of the inputs, the shard and the options that
	// shape the numbers (e.g. a hex hash), so that running the same inputs
	// into the same Dir replaces the earlier output. 1 to 128 letters,
	// digits, '-' and '_'.
	RunID string
	// Tables to write; empty means DefaultTables. The writers of other
	// tables are nil, and a nil TableWriter discards rows.
	Tables []TableName
	// Input names what the run reads, for its completion record (Record);
	// empty means RunID.
	Input string
	// OmitEmpty makes a run that received no rows at all commit its
	// completion record and no file. Without it every enabled table gets a
	// zero-row file, so that queries on it find one (robotstat analyze
	// commits one run per input, and an input without captures would
	// otherwise leave zero-row files of an unknown crawl).
	OmitEmpty bool
	// Version is robotstat's version, recorded as robotstat.version and in
	// the files' created_by. Empty means "devel".
	Version string
	// Metadata holds the options that shape the numbers (parse limit, bot
	// catalog version, shard, ...), recorded in every file's key/value
	// metadata as robotstat.option.<key>. Keys must be non-empty and may not
	// contain white space or '='.
	Metadata map[string]string
	// TableMetadata holds more key/value metadata for the files of some
	// tables only, recorded under the keys as given (e.g. MetaBots for
	// verdicts). Keys follow Metadata's rules.
	TableMetadata map[TableName]map[string]string
	// RowGroupRows is the most rows per row group; 0 means
	// DefaultRowGroupRows.
	RowGroupRows int64
	// RowGroupBytes is the most uncompressed bytes buffered per row group;
	// 0 means DefaultRowGroupBytes.
	RowGroupBytes int64
	// FileRowGroups is how many full row groups (FileRowGroups *
	// RowGroupRows rows) a file holds before its partition continues in a
	// new file, part-<RunID>-<n>.parquet; 0 means DefaultFileRowGroups.
	FileRowGroups int64
	// DictionaryBytes is the most bytes of one column's dictionary per row
	// group; 0 means DefaultDictionaryBytes.
	DictionaryBytes int64

	// gen, when set (by this package's tests), is every commit's gen
	// instead of a random one, so that a test can name a file before it is
	// written. An option rather than a package variable, so that the tests
	// run in parallel.
	gen string
}

// withDefaults returns a deep copy of o with zero fields set to their
// defaults.
func (o Options) withDefaults() Options {
	o.Tables = slices.Clone(o.Tables)
	o.Metadata = maps.Clone(o.Metadata)
	o.TableMetadata = maps.Clone(o.TableMetadata)
	if len(o.Tables) == 0 {
		o.Tables = DefaultTables()
	}
	if o.Version == "" {
		o.Version = "devel"
	}
	if o.Input == "" {
		o.Input = o.RunID
	}
	if o.RowGroupRows == 0 {
		o.RowGroupRows = DefaultRowGroupRows
	}
	if o.FileRowGroups == 0 {
		o.FileRowGroups = DefaultFileRowGroups
	}
	if o.RowGroupBytes == 0 {
		o.RowGroupBytes = DefaultRowGroupBytes
	}
	if o.DictionaryBytes == 0 {
		o.DictionaryBytes = DefaultDictionaryBytes
	}
	return o
}

// Validate reports every problem with o at once (zero sizes are accepted:
// they mean the defaults).
func (o Options) Validate() error {
	var errs []error
	if o.Dir == "" {
		errs = append(errs, errors.New("schema: Options.Dir is empty"))
	}
	if err := validRunID(o.RunID); err != nil {
		errs = append(errs, err)
	}
	for _, t := range o.Tables {
		if !t.Valid() {
			errs = append(errs, fmt.Errorf("schema: unknown table %q", t))
		}
	}
	for k := range o.Metadata {
		if k == "" || strings.ContainsAny(k, " \t\r\n=") {
			errs = append(errs, fmt.Errorf("schema: metadata key %q must be non-empty without white space or '='", k))
		}
	}
	for t, m := range o.TableMetadata {
		if !t.Valid() {
			errs = append(errs, fmt.Errorf("schema: table metadata for unknown table %q", t))
		}
		for k := range m {
			if k == "" || strings.ContainsAny(k, " \t\r\n=") {
				errs = append(errs, fmt.Errorf("schema: metadata key %q must be non-empty without white space or '='", k))
			}
		}
	}
	if o.RowGroupRows < 0 || o.RowGroupBytes < 0 || o.DictionaryBytes < 0 || o.FileRowGroups < 0 {
		errs = append(errs, errors.New("schema: negative row group or dictionary size"))
	}
	return errors.Join(errs...)
}
