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
//	out/captures/crawl=CC-MAIN-2024-33/part-<run id>.<commit>.parquet
//
// Partition values are percent-encoded (every byte outside A-Z a-z 0-9 - _ .,
// and a leading dot), which DuckDB, Arrow and Spark decode back, so the
// partition key always equals the crawl column inside the file and names such
// as "../x" or "a/b" cannot leave the root. A capture whose crawl is unknown has
// a NULL crawl column and goes to crawl=__HIVE_DEFAULT_PARTITION__, the
// directory Hive, Spark, Arrow and DuckDB all read back as NULL.
//
// A partition that outgrows Options.FileRowGroups row groups continues in
// part-<run id>.<commit>-1.parquet, -2, ...: the Parquet writer keeps each row group's
// metadata in memory until it writes the footer, so rolling over keeps memory
// flat on runs of any size.
//
// File names come from a caller-supplied run id and a commit part new on
// every commit (8 random hex digits), so running the same inputs into the
// same root again replaces the earlier files instead of adding to them, and
// never overwrites one of them in place.
//
// # Atomicity
//
// Each file is written to a hidden temporary name in its final directory
// (.part-<run id>.<commit>.parquet.<random>.tmp, which a *.parquet glob never
// matches), and only [Dataset.Commit] writes the footers, fsyncs the files,
// renames them into place and fsyncs the directories. [Dataset.Abort], an
// error, or a cancelled context removes the temporary files; a killed
// process leaves only hidden temporary files, which [Sweep] removes (robotstat
// analyze sweeps, for the inputs it is about to read, when it starts). No
// reader ever sees a truncated *.parquet file.
//
// A run is committed all or nothing: each commit's files have names of
// their own (part-<run id>.<commit>.parquet), the new completion record
// ([Record], _robotstat/inputs/<run id>.json) replaces the old in one rename
// once they are all in place, and readers ([TableFiles], [Index]) list only
// the files a record names; the earlier commit's files (those its record
// named) are removed after the switch. A crash therefore leaves robotstat's
// readers the whole new commit or the whole old one, never a mix. (A reader
// that globs *.parquet itself, DuckDB say, may see a killed commit's files,
// or an earlier commit's not yet removed, beside the committed ones until
// the next writer takes the root's [Lock], which removes them, or a
// [Sweep].) A commit lists no folder, so committing one run per input costs
// the same in a partition of ten files or of a hundred thousand.
//
// # Writers
//
// [Lock] keeps writers of one root apart (flock(2) on _robotstat/lock,
// exclusive or shared) and, as it is taken, recovers what killed writers
// left, as far as its holder may: see Lock for who removes what.
//
// [Compact] merges many runs' files into few: it puts the merged files in
// place as a commit does, then writes one record of its own that names them
// and absorbs the runs (Record.Absorbs); readers skip an absorbed run's
// files, which are removed after the switch. The runs' records stay, so
// the dataset still says which inputs are done.
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
