// Command ccmirror lays WARC files out as a Common Crawl crawl with its
// columnar URL index, so that robotstat panel (and analyze by crawl name)
// can read it offline, from the folder or from any HTTP server of it:
//
//	go run ./scripts/ccmirror -crawl CC-MAIN-2025-05 -out /tmp/cc testdata/sites
//	robotstat panel --cc-base /tmp/cc --out panel/ sites.txt CC-MAIN-2025-05
//
// It writes crawl-data/CRAWL/segments/SEG/robotstxt/NAME (the WARCs, over
// -segments segments), crawl-data/CRAWL/robotstxt.paths.gz, the index in
// Common Crawl's schema sorted by url_surtkey over -files files under
// cc-index/table/cc-main/warc/crawl=CRAWL/subset=robotstxt/, and
// crawl-data/CRAWL/cc-index-table.paths.gz listing them
// (ccindex/ccindextest, which the tests use). The WARCs must hold one
// record per gzip member, as Common Crawl writes them.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/robotstat/robotstat/ccindex/ccindextest"
)

func main() {
	crawl := flag.String("crawl", "", "crawl name, CC-MAIN-YYYY-WW (required)")
	out := flag.String("out", "", "mirror folder to write into (required)")
	files := flag.Int("files", 2, "index files of the robotstxt subset")
	segments := flag.Int("segments", 2, "segments to spread the WARC files over")
	flag.Parse()
	if *crawl == "" || *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: ccmirror -crawl CC-MAIN-YYYY-WW -out DIR [-files N] [-segments N] WARC|FOLDER...")
		os.Exit(2)
	}
	var warcs []string
	for _, a := range flag.Args() {
		st, err := os.Stat(a)
		if err != nil {
			fail(err)
		}
		if !st.IsDir() {
			warcs = append(warcs, a)
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(a, "*.warc.gz"))
		warcs = append(warcs, matches...)
	}
	sort.Strings(warcs)
	c, err := ccindextest.Build(*out, *crawl, *segments, warcs, ccindextest.Options{Files: *files})
	if err != nil {
		fail(err)
	}
	fmt.Printf("ccmirror: %s: %d WARC files, %d index rows in %d files under %s\n", *crawl, len(c.WARCs), len(c.Rows), len(c.Index), *out)
	hosts := map[string]bool{}
	for _, r := range c.Rows {
		hosts[r.URLHostName] = true
	}
	var hs []string
	for h := range hosts {
		hs = append(hs, h)
	}
	sort.Strings(hs)
	fmt.Printf("ccmirror: %d hosts, e.g. %s\n", len(hs), strings.Join(hs[:min(len(hs), 5)], ", "))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ccmirror:", err)
	os.Exit(1)
}
