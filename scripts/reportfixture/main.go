// Command reportfixture writes the report fixture (package
// report/reporttest) into a folder, for scripts/report-screenshot.sh:
//
//	go run ./scripts/reportfixture DIR
//
// Run it from the module root, where report/reporttest.Bodies is.
package main

import (
	"fmt"
	"os"

	"github.com/robotstat/robotstat/report/reporttest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/reportfixture DIR")
		os.Exit(2)
	}
	if _, err := reporttest.Write(os.Args[1], reporttest.Bodies, "devel"); err != nil {
		fmt.Fprintln(os.Stderr, "reportfixture:", err)
		os.Exit(1)
	}
}
