// Package ccindex reads Common Crawl's columnar URL index (the cc-index
// table, s3://commoncrawl/cc-index/table/cc-main/warc/, built by
// commoncrawl/cc-index-table) to find where a list of hosts' captures are:
// the WARC file, offset and length of each record, so that a panel of
// sites can be read record by record instead of crawl by crawl.
//
// # The index
//
// A crawl's index is the Parquet files that crawl-data/CRAWL/cc-index-table.paths.gz
// lists, Hive-partitioned as
// cc-index/table/cc-main/warc/crawl=CRAWL/subset=SUBSET/part-*.parquet,
// SUBSET one of warc, crawldiagnostics and robotstxt (Paths picks a
// subset's files out of the list). Columns are those of
// cc-index-schema-flat.json (Row lists them with their Parquet types);
// Lookup reads five: url_surtkey (BYTE_ARRAY, the SURT key rows are sorted
// by), url, warc_filename (BYTE_ARRAY), warc_record_offset and
// warc_record_length (INT32; INT64 is read too).
//
// # What Lookup reads
//
// A file is opened through an io.ReaderAt, footer first. Row groups whose
// url_surtkey statistics (min_value, max_value) cannot hold a wanted key
// are skipped; of the others, when the file has a page index (column index
// and offset index, which parquet-mr writes since 1.11), only the
// url_surtkey pages whose bounds can hold a wanted key are read, and then,
// of the other four columns, only the pages holding a matching row. A
// ReaderAt that implements Prefetcher is told each byte range before it is
// read, so that a remote file costs one request per run of nearby pages
// (RangeReader does this over any ranged source, with a bounded cache).
//
// Files written by parquet-mr before 1.10 have only the deprecated min and
// max fields, computed with a signed byte order (PARQUET-686), which
// readers ignore for byte arrays. Lookup uses them only when the file says
// parquet-mr 1.8.0 or later wrote it (earlier versions could corrupt
// byte-array statistics, PARQUET-251) and both are ASCII, as SURT keys
// are: an ASCII key then compares with them alike in either order. Where a
// file has no statistics Lookup can use, every row group's url_surtkey
// chunk is read; without a page index, whole column chunks are read. The
// answer is the same either way; only the bytes differ.
//
// # Keys
//
// SURT and HostKey compute keys as the surt library (internetarchive/surt,
// the Python port of archive-commons' WaybackURLKeyMaker that Common
// Crawl's CDX indexer uses) does with its defaults. A host is looked up by
// the two key ranges its captures can have, KEY) and KEY:PORT), where KEY
// is HostKey(host) (see Query): the host part of a SURT key is simple and
// stable, while its path part depends on canonicalisation details, so
// rows are picked by their url column, compared exactly, not by a whole
// key. Deviations from the surt library, none of which affects a host key:
// session ids in paths and queries (jsessionid, phpsessid, ASP.NET ids)
// are not stripped, and dotted host names that are numbers in octal or
// short forms (0177.1) are not rewritten as IPv4 addresses.
//
// Nothing here makes a network request or reads an environment variable;
// pipeline supplies the ranged reads, through its pacer and retries.
package ccindex
