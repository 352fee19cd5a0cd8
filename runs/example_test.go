package runs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

// A small analysis from Go, without the command line: two WARC files into
// a dataset folder, then what its completion records say of each input.
// A second run with the same options skips both.
func Example() {
	dir, err := os.MkdirTemp("", "runs-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	inputs, _ := filepath.Glob("testdata/crawl-data/CC-MAIN-2024-22/segments/*/robotstxt/*-0000[01].warc.gz")

	cfg := runs.Config{
		Dir:      dir,
		Pipeline: pipeline.Config{Workers: 2},
		Stats:    stats.DefaultOptions(),
		Version:  "example",
	}
	res, err := runs.Analyze(context.Background(), cfg, inputs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("committed %d inputs, %d captures, %d of them parsed\n", res.Committed, res.Captures, res.Outcomes["parsed"])

	st, err := runs.ReadStatus(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range st.Inputs {
		fmt.Printf("%s: %s, %d captures in %d files\n", filepath.Base(in.Input), in.State, in.Captures, in.Files)
	}

	// The records themselves: one per input, with the options it was read
	// with and a runs.UnitSummary.
	ix, err := schema.ReadIndex(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range st.Inputs {
		rec := ix.Runs[in.RunID]
		var sum runs.UnitSummary
		if err := json.Unmarshal(rec.Summary, &sum); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: parse_limit %s, responses %s, %d data errors\n", rec.RunID[:len(rec.RunID)-17], rec.Options[stats.OptionParseLimit], rec.Options[runs.OptionResponses], sum.DataErrors)
	}

	again, err := runs.Analyze(context.Background(), cfg, inputs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("again: %d skipped, %d committed\n", again.Skipped, again.Committed)
	// Output:
	// committed 2 inputs, 20 captures, 10 of them parsed
	// CC-MAIN-20240518000000-20240518030000-00000.warc.gz: done, 10 captures in 7 files
	// CC-MAIN-20240518000000-20240518030000-00001.warc.gz: done, 10 captures in 7 files
	// CC-MAIN-20240518000000-20240518030000-00000: parse_limit 512000, responses auto, 0 data errors
	// CC-MAIN-20240518000000-20240518030000-00001: parse_limit 512000, responses auto, 0 data errors
	// again: 2 skipped, 0 committed
}
