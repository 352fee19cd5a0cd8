package ccindex

import (
	"path"
	"strings"
)

// Subset names of the index's subset= partition (cc-index-schema-flat.json):
// robotstxt holds the robots.txt fetches, warc the successful captures,
// crawldiagnostics redirects and other non-successful ones.
const (
	SubsetRobotstxt        = "robotstxt"
	SubsetWARC             = "warc"
	SubsetCrawlDiagnostics = "crawldiagnostics"
)

// SubsetDir is where a crawl's index files of a subset lie below a base.
func SubsetDir(crawl, subset string) string {
	return "cc-index/table/cc-main/warc/crawl=" + crawl + "/subset=" + subset
}

// PathsFile is where a crawl lists its index files, below a Common Crawl
// base (https://data.commoncrawl.org/, s3://commoncrawl/ or a mirror).
func PathsFile(crawl string) string { return "crawl-data/" + crawl + "/cc-index-table.paths.gz" }

// Paths returns, in listed order, the lines of a cc-index-table.paths list
// that are Parquet files of crawl's subset: a path with the elements
// crawl=CRAWL and subset=SUBSET (cc-index/table/cc-main/warc/crawl=CRAWL/subset=SUBSET/part-....parquet).
// Lines of other subsets or crawls are left out; white space around a
// line is ignored.
func Paths(lines []string, crawl, subset string) []string {
	var out []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if !strings.HasSuffix(l, ".parquet") {
			continue
		}
		var hasCrawl, hasSubset bool
		for _, e := range strings.Split(path.Dir(l), "/") {
			hasCrawl = hasCrawl || e == "crawl="+crawl
			hasSubset = hasSubset || e == "subset="+subset
		}
		if hasCrawl && hasSubset {
			out = append(out, l)
		}
	}
	return out
}
