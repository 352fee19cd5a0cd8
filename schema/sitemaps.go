package schema

// SitemapRow is a row of the opt-in sitemaps table: one row per sitemap
// line.
//
// A SitemapRow is a plain value; TableWriter.Write copies what it needs, so
// a batch may be reused once Write returns.
type SitemapRow struct {
	Key

	// Line number (from 1).
	Line int32 `parquet:"line"`
	// Value of the line as written, white space trimmed: the sitemap's URL.
	SitemapURL string `parquet:"sitemap_url,dict"`
}
