package schema

import "errors"

// Errors the package returns. A Dataset's: Environment failures (a directory that cannot
// be created, a full disk, a failed rename) are returned wrapped with %w
// and the name of the file they concern, so errors.Is finds the underlying
// syscall error as well.
var (
	// ErrClosed is returned by Write and Commit after Commit or Abort.
	ErrClosed = errors.New("schema: dataset already committed or aborted")
	// ErrFailed is wrapped by every call after a write failed: the dataset
	// must be aborted.
	ErrFailed = errors.New("schema: dataset failed")
	// ErrUnsafeName is wrapped when a run id or crawl name cannot be made
	// into a file name inside the dataset's root.
	ErrUnsafeName = errors.New("schema: unsafe name")

	// Reading (TableFiles, ReadFile, ReadFileInfo).

	// ErrNoTable is wrapped when a dataset root has no folder for a table.
	ErrNoTable = errors.New("schema: table not found")
	// ErrColumn is wrapped when a file lacks a requested column, or holds it
	// with a type or nesting the row field cannot take.
	ErrColumn = errors.New("schema: column missing or of another type")
	// ErrSchemaVersion is wrapped when a file says it was written with a
	// schema version other than SchemaVersion.
	ErrSchemaVersion = errors.New("schema: file written with another schema version")
	// ErrConflict is wrapped by TableFiles when runs a compaction absorbed
	// were committed again afterwards (Index.Conflicts): their rows would
	// count twice.
	ErrConflict = errors.New("schema: runs committed again after a compaction absorbed them (their rows are in both); rebuild into a fresh output folder")
	// ErrDamaged is wrapped by TableFiles when a committed file of the
	// table is missing or not the size its completion record says
	// (Index.Damaged): reading on would count rows short.
	ErrDamaged = errors.New("schema: committed files are damaged")
)
