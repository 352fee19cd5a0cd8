package schema

import "github.com/parquet-go/parquet-go"

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
