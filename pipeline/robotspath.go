package pipeline

import (
	"bytes"
	"strings"
)

// isRobotsPath reports whether the URL's path is exactly /robots.txt (RFC
// 9309 section 2.3: the file is at the top-level path, lower case). A query
// does not change the path.
func isRobotsPath(u []byte) bool {
	i := bytes.Index(u, []byte("://"))
	if i < 0 {
		return false
	}
	rest := u[i+3:]
	j := bytes.IndexByte(rest, '/')
	if j < 0 {
		return false
	}
	path := rest[j:]
	if k := bytes.IndexAny(path, "?#"); k >= 0 {
		path = path[:k]
	}
	return string(path) == "/robots.txt"
}

// isRobotstxtSource reports a Common Crawl robotstxt WARC by its name
// (crawl-data/CC-MAIN-YYYY-WW/segments/SEG/robotstxt/FILE.warc.gz, or a
// local copy): "robotstxt" anywhere in the path, in any case.
func isRobotstxtSource(name string) bool {
	return strings.Contains(strings.ToLower(name), "robotstxt")
}
