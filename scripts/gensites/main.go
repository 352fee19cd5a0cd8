// Command gensites writes the sites fixture (package reduce/reducetest): a
// Common-Crawl-shaped crawl in two robotstxt WARC files with one host per
// rule of the site resolution.
//
//	go run ./scripts/gensites testdata/sites
package main

import (
	"fmt"
	"os"

	"github.com/robotstat/robotstat/reduce/reducetest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/gensites DIR")
		os.Exit(2)
	}
	if err := os.MkdirAll(os.Args[1], 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gensites:", err)
		os.Exit(1)
	}
	if err := reducetest.Write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gensites:", err)
		os.Exit(1)
	}
}
