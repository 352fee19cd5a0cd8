package stats

import "errors"

// Errors the package returns, each wrapped with the detail (a line, a
// token, a file name). Content never fails: these are all about the files
// and options a caller supplies.
var (
	// ErrUnknownTable is returned by Options.Validate for a table name
	// that is not one of schema.AllTables().
	ErrUnknownTable = errors.New("stats: unknown table")

	// Bot catalogs (ReadCatalog, LoadCatalog).
	ErrCatalogFormat   = errors.New("stats: not a bot catalog")
	ErrCatalogEmpty    = errors.New("stats: bot catalog has no bots")
	ErrCatalogToken    = errors.New("stats: bot token names no product token")
	ErrCatalogCategory = errors.New("stats: unknown bot category")
	ErrCatalogDup      = errors.New("stats: bot listed twice")
	ErrCatalogSource   = errors.New("stats: bot source is not an http(s) URL or checked is not a YYYY-MM-DD date")

	// ErrTemplates reports a malformed template file (ReadTemplates).
	ErrTemplates = errors.New("stats: bad template file")

	// ErrRankFormat reports a line of a ranked list that is not
	// "rank,domain" (ReadRanks).
	ErrRankFormat = errors.New("stats: ranked list line is not rank,domain")
)
