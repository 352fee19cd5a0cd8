package ccindex

import "time"

// Row is one row of Common Crawl's columnar URL index, with the columns,
// names and Parquet types of cc-index-schema-flat.json (commoncrawl/cc-index-table)
// as Spark writes them: strings as BYTE_ARRAY (UTF8), integers as INT32,
// fetch_status as INT32 annotated INT(16), fetch_time as INT64
// TIMESTAMP(MILLIS, UTC) (older crawls: INT96; Lookup does not read it),
// nullable columns optional. The partition columns crawl and subset are
// not in the files (they are the crawl= and subset= folders), nor is
// warc_record_id (BYTE_ARRAY since CC-MAIN-2026-30). It is what
// ccindextest writes; Lookup reads only the five columns named below.
//
// A Row is a plain value.
type Row struct {
	URLSurtKey              string    `parquet:"url_surtkey,dict"`
	URL                     string    `parquet:"url,dict"`
	URLHostName             string    `parquet:"url_host_name,dict"`
	URLHostTLD              *string   `parquet:"url_host_tld,optional,dict"`
	URLHost2ndLastPart      *string   `parquet:"url_host_2nd_last_part,optional,dict"`
	URLHost3rdLastPart      *string   `parquet:"url_host_3rd_last_part,optional,dict"`
	URLHost4thLastPart      *string   `parquet:"url_host_4th_last_part,optional,dict"`
	URLHost5thLastPart      *string   `parquet:"url_host_5th_last_part,optional,dict"`
	URLHostRegistrySuffix   *string   `parquet:"url_host_registry_suffix,optional,dict"`
	URLHostRegisteredDomain *string   `parquet:"url_host_registered_domain,optional,dict"`
	URLHostPrivateSuffix    *string   `parquet:"url_host_private_suffix,optional,dict"`
	URLHostPrivateDomain    *string   `parquet:"url_host_private_domain,optional,dict"`
	URLHostNameReversed     *string   `parquet:"url_host_name_reversed,optional,dict"`
	URLProtocol             string    `parquet:"url_protocol,dict"`
	URLPort                 *int32    `parquet:"url_port,optional"`
	URLPath                 string    `parquet:"url_path,dict"`
	URLQuery                *string   `parquet:"url_query,optional,dict"`
	FetchTime               time.Time `parquet:"fetch_time,timestamp(millisecond)"`
	FetchStatus             int16     `parquet:"fetch_status"`
	FetchRedirect           *string   `parquet:"fetch_redirect,optional,dict"`
	ContentDigest           *string   `parquet:"content_digest,optional"`
	ContentMimeType         *string   `parquet:"content_mime_type,optional,dict"`
	ContentMimeDetected     *string   `parquet:"content_mime_detected,optional,dict"`
	ContentCharset          *string   `parquet:"content_charset,optional,dict"`
	ContentLanguages        *string   `parquet:"content_languages,optional,dict"`
	ContentTruncated        *string   `parquet:"content_truncated,optional,dict"`
	WARCFilename            string    `parquet:"warc_filename,dict"`
	WARCRecordOffset        int32     `parquet:"warc_record_offset"`
	WARCRecordLength        int32     `parquet:"warc_record_length"`
	WARCSegment             string    `parquet:"warc_segment,dict"`
}

// The columns Lookup reads.
const (
	ColSURTKey = "url_surtkey"
	ColURL     = "url"
	ColFile    = "warc_filename"
	ColOffset  = "warc_record_offset"
	ColLength  = "warc_record_length"
)
