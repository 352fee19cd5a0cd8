package schema

// AgentRow is a row of the agents table: one row per capture and product
// token that a user-agent line of the file names (the catch-all * included),
// with the token's groups merged as RFC 9309 section 2.2.1 requires.
//
// An AgentRow is a plain value; TableWriter.Write copies what it needs, so a
// batch may be reused once Write returns.
type AgentRow struct {
	Key

	// Product token, lower-cased, as the user-agent lines name it.
	Token string `parquet:"token,dict"`
	// Groups that name the token.
	Groups int32 `parquet:"groups"`
	// allow rules in those groups.
	AllowRules int32 `parquet:"allow_rules"`
	// disallow rules in those groups.
	DisallowRules int32 `parquet:"disallow_rules"`
	// Whether those groups hold the rule "disallow: /".
	DisallowRoot bool `parquet:"disallow_root"`
	// Whether the path / is allowed for the token by RFC 9309 matching over
	// its merged groups (longest match, allow winning ties).
	RootAllowed bool `parquet:"root_allowed"`
	// The bot catalog's token for this product token, as the catalog spells
	// it. NULL when the catalog has no entry.
	Bot string `parquet:"bot,optional,dict"`
	// The catalog's operator for the token. NULL when not in the catalog.
	Operator string `parquet:"operator,optional,dict"`
	// The catalog's category for the token (see bots.category). NULL when not
	// in the catalog.
	Category string `parquet:"category,optional,dict"`
}
