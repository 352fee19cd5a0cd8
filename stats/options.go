package stats

import (
	"fmt"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

// Options shape an Analyzer. Start from DefaultOptions; the zero value also
// works and means the defaults.
type Options struct {
	// Tables are the tables to fill. Empty means schema.DefaultTables();
	// the others analyze writes (schema.AnalyzeTables) are opt-in. Rows
	// for a table not listed are not built.
	Tables []schema.TableName
	// ParseLimit is how many bytes of a body are parsed (RFC 9309 §2.5):
	// 0 means parse.DefaultLimit (500 KiB), a negative value no limit. A
	// positive value below 500 KiB is rejected.
	ParseLimit int
	// TooManyRequestsUnreachable treats HTTP 429 as 5xx (complete disallow),
	// as Google does, instead of RFC 9309's 4xx (allow all).
	TooManyRequestsUnreachable bool
	// Catalog is the bot catalog the bots table reports on; nil means
	// DefaultCatalog().
	Catalog *Catalog
	// Templates are the platform fingerprints; nil means DefaultTemplates().
	Templates *TemplateSet
	// Ranks, when not nil, fills captures.rank (robotstat analyze --sites).
	Ranks *RankTable
	// Grouping is parse.GroupingRFC (the default, RFC 9309 §2.2.4) or
	// parse.GroupingGoogle (a sitemap or other record ends a run of
	// user-agent lines, as in Google's parser), for sensitivity analyses.
	// Every table follows it: groups, agents and verdicts alike.
	Grouping parse.Grouping
}

// DefaultOptions returns the options robotstat analyze uses without flags.
func DefaultOptions() Options {
	return Options{
		Tables:    schema.DefaultTables(),
		Catalog:   DefaultCatalog(),
		Templates: DefaultTemplates(),
	}
}

// Validate checks the options.
func (o Options) Validate() error {
	for _, t := range o.Tables {
		if !t.Valid() {
			return fmt.Errorf("%w: %q", ErrUnknownTable, t)
		}
	}
	if err := (parse.Options{Limit: o.ParseLimit, Grouping: o.Grouping}).Validate(); err != nil {
		return err
	}
	return nil
}

// withDefaults fills the nil and empty fields.
func (o Options) withDefaults() Options {
	if len(o.Tables) == 0 {
		o.Tables = schema.DefaultTables()
	}
	if o.Catalog == nil {
		o.Catalog = DefaultCatalog()
	}
	if o.Templates == nil {
		o.Templates = DefaultTemplates()
	}
	return o
}

// Keys of Metadata. The files record each as schema.MetaOptionPrefix +
// key (robotstat.option.parse_limit); outputs written before these keys
// lost a doubled "robotstat." prefix are read as if written with them
// (schema.CanonicalOptions).
const (
	OptionParseLimit        = "parse_limit"
	OptionUnreachable429    = "429_unreachable"
	OptionBotCatalog        = schema.OptionBotCatalog
	OptionBotCatalogSize    = "bot_catalog_size"
	OptionTemplates         = "templates"
	OptionVerdictDefinition = "verdict_definition"
	OptionSitesRanked       = "sites_ranked"
	OptionGrouping          = "grouping"
)

// Metadata returns the options that shape the numbers, as key/value pairs
// for the Parquet files' metadata (schema.Options.Metadata).
func (o Options) Metadata() map[string]string {
	o = o.withDefaults()
	limit := o.ParseLimit
	if limit == 0 {
		limit = parse.DefaultLimit
	}
	m := map[string]string{
		OptionParseLimit:        fmt.Sprint(limit),
		OptionUnreachable429:    fmt.Sprint(o.TooManyRequestsUnreachable),
		OptionBotCatalog:        o.Catalog.Version(),
		OptionBotCatalogSize:    fmt.Sprint(o.Catalog.Len()),
		OptionTemplates:         o.Templates.Version(),
		OptionVerdictDefinition: verdictDefinitionVersion,
	}
	if o.Ranks != nil {
		m[OptionSitesRanked] = fmt.Sprint(o.Ranks.Len())
	}
	if o.Grouping == parse.GroupingGoogle {
		m[OptionGrouping] = "google"
	}
	return m
}

// TableMetadata returns the per-table file metadata the options imply
// (schema.Options.TableMetadata): the catalog the verdicts table's
// bot_tuple column follows.
func (o Options) TableMetadata() map[schema.TableName]map[string]string {
	o = o.withDefaults()
	return map[schema.TableName]map[string]string{
		schema.Verdicts: {schema.MetaBots: schema.BotsMetadata(o.Catalog.List())},
	}
}

// verdictDefinitionVersion changes whenever a verdict definition changes,
// so that numbers from different robotstat versions can be told apart (and
// analyze reads an input again rather than mix them). 2: product tokens
// keep their digits and non-ASCII letters (parse's Deviation_token_digits),
// which changes which group a bot such as MJ12bot or AI2Bot finds.
const verdictDefinitionVersion = "2"
