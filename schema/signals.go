package schema

// SignalRow is a row of the signals table: one row per key=value pair (or
// bare value) of a Content-Signal or Content-Usage line, with the line it
// is on and the group it sits in, so that a preference can be read the way
// each vocabulary scopes it: Cloudflare's Content-Signal (contentsignals.org)
// by the group it is placed in or the whole file, the IETF AI Preferences
// Content-Usage rule (draft-ietf-aipref-attach-05) by group and, within a
// group, by the longest path that matches. directives.signals holds the
// same pairs without lines and groups. parse/doc.go names the versions of
// both vocabularies robotstat reads.
//
// A SignalRow is a plain value; TableWriter.Write copies what it needs, so
// a batch may be reused once Write returns.
type SignalRow struct {
	Key

	// The key as robotstat reads it: content-signal or content-usage.
	Directive string `parquet:"directive,dict"`
	// Line number (from 1) of the line.
	Line int32 `parquet:"line"`
	// Position (from 0) of the group the line sits in (groups.group_index):
	// after a run of user-agent lines, up to the next run (RFC 9309 section
	// 2.2.1). NULL when the line comes before the first user-agent line,
	// where it belongs to no group (file-wide).
	GroupIndex *int32 `parquet:"group_index,optional"`
	// Whether that group has a "User-agent: *" line, so that the line
	// applies to every crawler without a group of its own. False outside
	// any group.
	StarGroup bool `parquet:"star_group"`
	// For content-usage, the line's path: a value starting with / runs to
	// the first white space and scopes the rule (draft-ietf-aipref-attach-05
	// section 3.2). NULL when the line has none (the rule applies to every
	// path) and for content-signal.
	Path string `parquet:"path,optional,dict"`
	// Key of the pair, lower-cased (search, ai-input, ai-train, use,
	// train-ai, ai-use, ...); empty for a bare value.
	Name string `parquet:"key,dict"`
	// Value as written (yes, no, y, n, reference, ...), cut to 256 bytes
	// (MaxValueBytes).
	Value string `parquet:"value,dict"`
}
