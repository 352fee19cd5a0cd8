package schema

// RuleRow is a row of the opt-in rules table: one row per allow or disallow
// line inside a group.
//
// A RuleRow is a plain value; TableWriter.Write copies what it needs, so a
// batch may be reused once Write returns.
type RuleRow struct {
	Key

	// Position (from 0) of the group the rule belongs to; joins to
	// groups.group_index.
	GroupIndex int32 `parquet:"group_index"`
	// Line number (from 1).
	Line int32 `parquet:"line"`
	// allow or disallow (a typo of either is recorded as what it was read
	// as).
	Directive string `parquet:"directive,dict"`
	// Pattern as written, white space trimmed, comments removed.
	Pattern string `parquet:"pattern,dict"`
	// Pattern as matched (RFC 9309 section 2.2.2): percent-encoding of
	// unreserved characters decoded, other non-ASCII and reserved bytes
	// percent-encoded with upper-case hex digits.
	PatternNormalized string `parquet:"pattern_normalized,dict"`
}

// Values of rules.directive.
const (
	DirectiveAllow    = "allow"
	DirectiveDisallow = "disallow"
)
