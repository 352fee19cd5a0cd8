// Package schema defines robotstat's Parquet tables and writes them
// atomically.
//
// # Tables
//
// There is one row type per table: [CaptureRow] (captures), [GroupRow]
// (groups), [AgentRow] (agents), [BotRow] (bots) and [DirectiveRow]
// (directives) are written by default; [RuleRow] (rules), [SitemapRow]
// (sitemaps) and [DiagnosticRow] (diagnostics) are opt-in. Every row type
// embeds [Key] first, so every table carries capture_id, crawl, url and host
// and can be queried alone or joined to any other on capture_id. The field
// comments are the column documentation: schema/README.md is generated from
// them (go generate ./schema) and a test fails when the two drift.
//
// # Files
//
// Files follow the Apache Parquet format (parquet-format 2.x, data page v2)
// as written by github.com/parquet-go/parquet-go: every column zstd
// compressed, every string column dictionary encoded (falling back to plain
// pages when a row group's dictionary outgrows [DefaultDictionaryBytes]),
// timestamps as TIMESTAMP(MILLIS, isAdjustedToUTC=true), lists as the LIST
// logical type (three-level encoding), optional values as nullable columns.
// The file key/value metadata carries the robotstat version, the schema
// version ([SchemaVersion]), the table, the crawl, the run id and every option
// the caller passes (see [Options.Metadata]).
//
// # Layout
//
// A [Dataset] writes under one root directory (robotstat's --out), one folder
// per table, Hive-partitioned by crawl:
//
//	out/captures/crawl=CC-MAIN-2024-33/part-<run id>.parquet
//
// Partition values are percent-encoded (every byte outside A-Z a-z 0-9 - _ .,
// and a leading dot), which DuckDB, Arrow and Spark decode back, so the
// partition key always equals the crawl column inside the file and names such
// as "../x" or "a/b" cannot leave the root. A capture whose crawl is unknown has
// a NULL crawl column and goes to crawl=__HIVE_DEFAULT_PARTITION__, the
// directory Hive, Spark, Arrow and DuckDB all read back as NULL.
//
// A partition that outgrows Options.FileRowGroups row groups continues in
// part-<run id>-1.parquet, -2, ...: the Parquet writer keeps each row group's
// metadata in memory until it writes the footer, so rolling over keeps memory
// flat on runs of any size.
//
// File names come from a caller-supplied run id, so running the same inputs
// into the same root again replaces the earlier files instead of adding to
// them.
//
// # Atomicity
//
// Each file is written to a hidden temporary name in its final directory
// (.part-<run id>.parquet.<random>.tmp, which a *.parquet glob never
// matches), and only [Dataset.Commit] writes the footers, fsyncs the files,
// renames them into place and fsyncs the directories. [Dataset.Abort], an
// error, or a cancelled context removes the temporary files; a killed
// process leaves only hidden temporary files, which the next commit of the
// same run id removes. No reader ever sees a truncated *.parquet file.
//
// A run is committed all or nothing: Commit removes the run's earlier
// completion record before it renames anything and writes the new one
// ([Record], _robotstat/inputs/<run id>.json) after every file is in place,
// and readers ([TableFiles], [Index]) list only the files a record names. A
// run killed between its first and last rename therefore leaves files that
// no robotstat reader counts, until a rerun of the same run id replaces
// them. (A reader that globs *.parquet itself, DuckDB say, sees such files;
// robotstat status names them.)
//
// # Reading
//
// [TableFiles] lists a table's complete files under a root (never the
// hidden temporary ones) and [ReadFile] streams a file's rows of type T in
// batches, decoding only the columns asked for; robotstat report reads
// through them. [ReadFileInfo] returns what a file's footer says about it
// (rows, robotstat version, options).
//
// # Deviations
//
// Partition directories are created only for crawls that have rows, so
// tables never hold empty partitions; a table that received no rows at all
// gets one zero-row file, so that every enabled table can be opened. Rows
// are not sorted: their order within a file follows the order of Write calls.
package schema

//go:generate go test -run TestSchemaDoc -update .
