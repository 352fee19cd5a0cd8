package schema

import (
	"strings"

	"github.com/parquet-go/parquet-go"
)

// Keys of the file key/value metadata every file carries. DuckDB shows them
// with parquet_kv_metadata('file.parquet'), pyarrow with
// pq.read_metadata(path).metadata.
const (
	MetaVersion       = "robotstat.version"        // Options.Version
	MetaSchemaVersion = "robotstat.schema_version" // SchemaVersion
	MetaTable         = "robotstat.table"          // the table's name
	MetaCrawl         = "robotstat.crawl"          // the partition's crawl, empty when unknown
	MetaRunID         = "robotstat.run_id"         // Options.RunID
	MetaOptionPrefix  = "robotstat.option."        // + each key of Options.Metadata
)

// fileMetadata returns the writer options that record a file's key/value
// metadata. (parquet-go sorts the pairs by key when it writes the footer.)
func fileMetadata(o *Options, table TableName, crawl string) []parquet.WriterOption {
	opts := []parquet.WriterOption{
		parquet.KeyValueMetadata(MetaVersion, o.Version),
		parquet.KeyValueMetadata(MetaSchemaVersion, SchemaVersion),
		parquet.KeyValueMetadata(MetaTable, string(table)),
		parquet.KeyValueMetadata(MetaCrawl, crawl),
		parquet.KeyValueMetadata(MetaRunID, o.RunID),
	}
	for k, v := range o.Metadata {
		opts = append(opts, parquet.KeyValueMetadata(MetaOptionPrefix+k, v))
	}
	for k, v := range o.TableMetadata[table] {
		opts = append(opts, parquet.KeyValueMetadata(k, v))
	}
	return opts
}

// OptionBotCatalog is the option (Options.Metadata key) under which the
// run names the version of its bot catalog (package stats writes it,
// package report reads it back).
const OptionBotCatalog = "bot_catalog"

// legacyOptionPrefix began the keys of package stats's options until they
// lost it (issue 24): records held robotstat.parse_limit and files
// robotstat.option.robotstat.parse_limit, where today's hold parse_limit
// and robotstat.option.parse_limit. No other option's key ever began so.
const legacyOptionPrefix = "robotstat."

// CanonicalOptions returns the options m (a record's, Options.Metadata)
// with the old spelling of a key read as today's (legacyOptionPrefix
// dropped), so that an output written before is read, and resumed rather
// than redone, as if written now. m itself is left as it is; a key spelt
// both ways keeps today's value.
func CanonicalOptions(m map[string]string) map[string]string {
	var out map[string]string
	for k := range m {
		if strings.HasPrefix(k, legacyOptionPrefix) {
			out = make(map[string]string, len(m))
			break
		}
	}
	if out == nil {
		return m
	}
	for k, v := range m {
		if rest, ok := strings.CutPrefix(k, legacyOptionPrefix); ok {
			if _, dup := m[rest]; !dup {
				out[rest] = v
			}
			continue
		}
		out[k] = v
	}
	return out
}

// canonicalFileMetadata reads a file's key/value metadata as
// CanonicalOptions reads options: robotstat.option.robotstat.<key> as
// robotstat.option.<key>.
func canonicalFileMetadata(m map[string]string) {
	for k, v := range m {
		if rest, ok := strings.CutPrefix(k, MetaOptionPrefix+legacyOptionPrefix); ok {
			delete(m, k)
			if _, dup := m[MetaOptionPrefix+rest]; !dup {
				m[MetaOptionPrefix+rest] = v
			}
		}
	}
}
