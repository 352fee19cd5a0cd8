package runs

import (
	"fmt"
	"maps"
	"slices"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
)

// Keys of a unit's options (schema.Options.Metadata, Record.Options) that
// this package adds to those of package stats (stats.Options.Metadata):
// the pipeline settings that change which captures a unit gives.
const (
	// OptionResponses is pipeline.Config.Responses (auto, robots, all).
	OptionResponses = "responses"
	// OptionCrawl is the crawl the unit's captures are filed under when it
	// is not the WARC's own: pipeline.Config.Crawl, or the crawl a unit was
	// listed by (pipeline.Unit.Crawl).
	OptionCrawl = "crawl"
	// OptionFields is pipeline.Config.Fields (the columns of a dump), when
	// not the defaults.
	OptionFields = "fields"
)

// metadata returns the options every unit of the run records: what shapes
// its rows. The shard is not among them: a unit's rows are the same
// whichever shard read it, so that rerunning with another shard count
// replaces them. A panel's site list is added once it is written
// (schema.OptionPanelSites).
func (c *Config) metadata() map[string]string {
	meta := c.Stats.Metadata()
	meta[OptionResponses] = c.Pipeline.Responses.String()
	if c.Pipeline.Crawl != "" {
		meta[OptionCrawl] = c.Pipeline.Crawl
	}
	if f := c.Pipeline.Fields.String(); f != "" {
		meta[OptionFields] = f
	}
	return meta
}

// unitOptions returns the options of a unit's dataset: the run's, with the
// crawl of a unit read from a crawl by name among them, as a run with
// pipeline.Config.Crawl would put it (a unit's rows depend on the crawl
// they are filed under).
func unitOptions(run schema.Options, unit pipeline.Unit) schema.Options {
	if unit.Crawl != "" {
		run.Metadata = maps.Clone(run.Metadata)
		run.Metadata[OptionCrawl] = unit.Crawl
	}
	return run
}

// OptionDiff says why rec does not hold what a run with opts would write
// for its input, "" when it does: another schema version, an option
// (schema.Options.Metadata) of another value, set or unset, or a table
// asked for that it lacks. A rerun skips an input only when it says "".
func OptionDiff(rec *schema.Record, opts *schema.Options) string {
	if rec.SchemaVersion != schema.SchemaVersion {
		return fmt.Sprintf("schema version %s, now %s", rec.SchemaVersion, schema.SchemaVersion)
	}
	for _, k := range slices.Sorted(maps.Keys(opts.Metadata)) {
		if v, ok := rec.Options[k]; !ok || v != opts.Metadata[k] {
			return fmt.Sprintf("%s %q, now %q", k, rec.Options[k], opts.Metadata[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(rec.Options)) {
		if _, ok := opts.Metadata[k]; !ok {
			return fmt.Sprintf("%s %q, now unset", k, rec.Options[k])
		}
	}
	tables := opts.Tables
	if len(tables) == 0 {
		tables = schema.DefaultTables()
	}
	for _, t := range tables {
		if !slices.Contains(rec.Tables, t) {
			return fmt.Sprintf("no %s table", t)
		}
	}
	return ""
}
