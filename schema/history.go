package schema

// SiteHistoryRow is a row of the site_history table: one row per host and
// catalog bot over every crawl of the dataset, saying when the host's
// robots.txt first and last blocked the bot fully, whether it later stopped,
// and how often its verdict changed. robotstat sites builds it from sites
// and site_bots, taking the crawls in the order of their dates
// (sites.crawl_date; crawls without a date after the others, then by name).
// Fully blocked means verdict full on a parsed site: the full that an
// unreachable (5xx) site implies does not count, since it says nothing of
// the site's rules. A crawl whose name is unknown reads as NULL in the
// crawl columns, like "never"; full_crawls tells them apart.
//
// A SiteHistoryRow is a plain value. Its columns that can be NULL are
// pointers (nil for NULL), so that TableWriter.Write takes whole batches of
// them (see nullsafe.go; measured: 9 s instead of 16 s for robotstat sites
// on 100,000 captures, a host having a row per catalog bot); rows may share
// what the pointers point to, which TableWriter.Write only reads.
type SiteHistoryRow struct {
	// Host, lower-cased, without port (as in sites).
	Host string `parquet:"host,dict"`
	// Registered domain of host (as in sites), so that a ranked list of
	// domains can be joined. NULL when host is an IP address or a public
	// suffix.
	RegisteredDomain *string `parquet:"registered_domain,optional,dict"`
	// The bot's product token as the catalog spells it (e.g. GPTBot).
	Bot string `parquet:"bot,dict"`
	// Who runs the bot (e.g. OpenAI).
	Operator string `parquet:"operator,dict"`
	// The catalog's category (see bots.category).
	Category string `parquet:"category,dict"`
	// Crawls of the dataset in which the host is a site (any outcome).
	Crawls int32 `parquet:"crawls"`
	// Crawls in which the host is a parsed site (outcome parsed).
	ParsedCrawls int32 `parquet:"parsed_crawls"`
	// Whether the host is a parsed site in every crawl of the dataset (that
	// has sites): the hosts robotstat report --panel keeps, so that a trend
	// is not an artefact of a changing set of hosts.
	Panel bool `parquet:"panel"`
	// First crawl, by date, in which the host is a site.
	FirstCrawl *string `parquet:"first_crawl,optional,dict"`
	// Last crawl, by date, in which the host is a site.
	LastCrawl *string `parquet:"last_crawl,optional,dict"`
	// First crawl in which the host is a parsed site whose verdict for the
	// bot is full. NULL when there is none.
	FirstFullCrawl *string `parquet:"first_full_crawl,optional,dict"`
	// crawl_date of first_full_crawl. NULL when that crawl has no date or
	// there is none.
	FirstFullDate *int32 `parquet:"first_full_date,date"`
	// How the rules matched the bot in first_full_crawl: named (a group names
	// it) or star (only the * group applies). NULL when there is none.
	FirstFullMatched *string `parquet:"first_full_matched,optional,dict"`
	// Last crawl in which the bot is fully blocked. NULL when there is none.
	LastFullCrawl *string `parquet:"last_full_crawl,optional,dict"`
	// Crawls in which the bot is fully blocked.
	FullCrawls int32 `parquet:"full_crawls"`
	// First crawl after first_full_crawl in which the host is a parsed site
	// and the bot's verdict is not full: the site stopped blocking the bot
	// fully (it may have started again later; last_full_crawl says). NULL
	// when the block never lapsed on a parsed site.
	UnblockedCrawl *string `parquet:"unblocked_crawl,optional,dict"`
	// Times the bot's verdict (full, partial, none) differs from its verdict
	// in the host's previous crawl as a parsed site; crawls in which the
	// host is not a parsed site are skipped.
	Changes int32 `parquet:"changes"`
	// The bot's verdict in the host's last crawl as a parsed site. NULL when
	// the host is never a parsed site.
	LastVerdict *string `parquet:"last_verdict,optional,dict"`
	// Rank of the host (sites.rank) in its last crawl as a site. NULL when
	// unranked there.
	Rank *int64 `parquet:"rank,optional"`
	// Always NULL: a row spans every crawl (the columns above name them).
	// The column is there because the table's files sit in the default
	// partition (crawl=__HIVE_DEFAULT_PARTITION__), which Hive-partitioned
	// reads add as a NULL crawl column: with it in the file too, the table
	// reads the same with Hive partitioning on and off, as every other
	// table does (the partition key equals the crawl column inside the
	// file). Files written before it lack it; read them with Hive
	// partitioning on to get it.
	Crawl *string `parquet:"crawl,optional,dict"`
}

// site_history spans every crawl: its crawl column is NULL, so its file
// lives in the default partition (crawl=__HIVE_DEFAULT_PARTITION__), which
// Hive-style readers read back as that same NULL crawl.
func (r SiteHistoryRow) crawl() string { return "" }
