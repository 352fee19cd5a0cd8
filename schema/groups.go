package schema

// GroupRow is a row of the groups table: one row per group of a parsed
// robots.txt (RFC 9309 section 2.1: one or more consecutive user-agent lines
// and the rules that follow them, up to the next user-agent line that
// follows a rule). A file's groups are numbered in file order; a product
// token named by several groups is matched against all of them merged
// (section 2.2.1), which the agents and bots tables account for.
//
// A GroupRow is a plain value; TableWriter.Write copies what it needs
// (including the slices' contents), so a batch may be reused once Write
// returns.
type GroupRow struct {
	Key

	// Position of the group in the file, from 0.
	GroupIndex int32 `parquet:"group_index"`
	// Line number (from 1) of the group's first user-agent line.
	FirstLine int32 `parquet:"first_line"`
	// Values of the group's user-agent lines as written (white space
	// trimmed, comments removed), in file order.
	UserAgents []string `parquet:"user_agents,list" parquet-element:",dict"`
	// Product tokens the user-agent values name, lower-cased (RFC 9309
	// section 2.2.1: the leading run of letters, digits, "-" and "_",
	// parse.ProductToken; * for the catch-all), in file order, duplicates
	// removed.
	ProductTokens []string `parquet:"product_tokens,list" parquet-element:",dict"`
	// Whether one of the user-agent values is *.
	IsStar bool `parquet:"is_star"`
	// allow rules in the group.
	AllowRules int32 `parquet:"allow_rules"`
	// disallow rules in the group.
	DisallowRules int32 `parquet:"disallow_rules"`
	// Whether the group has a disallow line with an empty value (which
	// allows everything).
	EmptyDisallow bool `parquet:"empty_disallow"`
	// Value of the group's first crawl-delay line in seconds. NULL when there
	// is none or it is not a number.
	CrawlDelay *float64 `parquet:"crawl_delay,optional"`
	// Lower-cased keys of the group's other directive lines (neither
	// user-agent, allow nor disallow), one entry per line, in file order.
	OtherDirectives []string `parquet:"other_directives,list" parquet-element:",dict"`
}
