package schema

// DirectiveRow is a row of the directives table: one row per capture and
// directive key (lower-cased) that appears in the file, standard or not,
// inside a group or not.
//
// A DirectiveRow is a plain value; TableWriter.Write copies what it needs
// (including Signals), so a batch may be reused once Write returns.
type DirectiveRow struct {
	Key

	// The key as written, lower-cased (user-agent, disallow, crawl-delay,
	// dissallow, content-signal, ...).
	Directive string `parquet:"directive,dict"`
	// Lines with this key.
	Count int32 `parquet:"count"`
	// Line number (from 1) of the key's first line.
	FirstLine int32 `parquet:"first_line"`
	// Value of the key's first line, white space trimmed, cut to 256 bytes
	// (MaxValueBytes).
	FirstValue string `parquet:"first_value,dict"`
	// standard (user-agent, allow, disallow: RFC 9309), extension (a known
	// non-standard key: sitemap, crawl-delay, host, clean-param, noindex,
	// request-rate, visit-time, content-signal, content-usage,
	// disallowaitraining, allowaitraining, ...), typo (a misspelling robotstat
	// accepts as a standard key) or unknown.
	Kind string `parquet:"kind,dict"`
	// The key robotstat reads this one as: the key itself for standard and
	// extension keys, the corrected spelling for a typo. NULL for unknown
	// keys.
	Canonical string `parquet:"canonical,optional,dict"`
	// For content-signal and content-usage, the key=value pairs of all its
	// lines in file order (keys lower-cased; a bare value has an empty key).
	// NULL for other keys. DuckDB: map_from_entries(signals) gives a MAP.
	Signals []Signal `parquet:"signals,list,optional"`
}

// Signal is one key=value pair of a Content-Signal or Content-Usage value,
// such as search=yes or ai-train=no.
type Signal struct {
	// Lower-cased key (search, ai-input, ai-train, ...).
	Key string `parquet:"key,dict"`
	// Value as written (yes, no, y, n, ...).
	Value string `parquet:"value,dict"`
}

// Values of directives.kind.
const (
	KindStandard  = "standard"
	KindExtension = "extension"
	KindTypo      = "typo"
	KindUnknown   = "unknown"
)

// MaxValueBytes is the most bytes of a line's value that directives.first_value
// and diagnostics.value keep, so one pathological line cannot bloat a table.
const MaxValueBytes = 256
