package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/record"
)

// A command reads its inputs with one parser per worker, prints the summary
// line always, and maps the outcome to an exit code in one place.
func ExampleRun() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	shard, err := pipeline.ParseShard("auto", os.Getenv) // the command passes the environment in
	if err != nil {
		shard = pipeline.Shard{}
	}
	cfg := pipeline.Config{
		Shard:        shard,
		Progress:     nil, // the command passes os.Stderr when it is a terminal and --quiet is off
		ManifestBase: "https://data.commoncrawl.org/",
	}
	perWorker := make([]int, pipeline.DefaultConfig().Workers)
	sum, err := pipeline.Run(ctx, cfg, []string{"crawl-data/CC-MAIN-2024-22/robotstxt.paths.gz"}, func(w int, c *record.Capture) error {
		if c.Status == 200 && c.RobotsPath {
			perWorker[w]++ // c.Body is only valid until we return
		}
		return nil
	})
	fmt.Fprintln(os.Stderr, sum.Line())
	var re *pipeline.ReadError
	switch {
	case errors.As(err, &re): // --strict and a data error
		os.Exit(1)
	case err != nil:
		os.Exit(1)
	case sum.HadErrors():
		os.Exit(3)
	}
}
