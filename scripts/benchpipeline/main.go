// Command benchpipeline measures pipeline capture throughput against the
// floor: plain decompression of the same files with klauspost/compress/gzip
// into io.Discard on one core (nothing can read a .warc.gz faster than it
// inflates; package scripts/internal/floor, shared with scripts/bench).
//
//	go run ./scripts/benchpipeline -workers 1,2 -runs 5 FILE...
//
// Each round runs the floor and then, for each worker count, the pipeline
// with a consumer that does nothing and one that copies every body into a
// per-worker buffer; rounds repeat -runs times and the best figure of each
// is kept, so that all figures come from the least disturbed moments of a
// shared machine. It prints MB/s of compressed input, captures/s and:
//
//   - wall: pipeline MB/s over floor MB/s.
//   - cpu: floor CPU seconds over pipeline CPU seconds (user+sys of this
//     process): how close the pipeline's work per byte comes to bare
//     inflation. 1.00 would be framing, parsing and hand-off for free.
//   - wall/w: wall divided by the worker count.
//
// Pass -cpuprofile to profile the pipeline runs.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/scripts/internal/floor"
)

type figure struct {
	name      string
	workers   int
	copyBody  bool
	wall, cpu time.Duration
	captures  int64
}

func main() {
	workers := flag.String("workers", "1,2", "comma-separated worker counts")
	runs := flag.Int("runs", 5, "rounds; the best of each figure is reported")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the pipeline runs")
	flag.Parse()
	files := flag.Args()
	if len(files) == 0 {
		fmt.Fprintln(os.Stderr, "usage: benchpipeline [-workers 1,2] [-runs 5] FILE.warc.gz...")
		os.Exit(2)
	}
	size, err := floor.Size(files)
	if err != nil {
		fail(err)
	}
	figs := []*figure{{name: "floor: gzip -> io.Discard, 1 core"}}
	for _, ws := range strings.Split(*workers, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(ws))
		if err != nil || w < 1 {
			fail(fmt.Errorf("bad worker count %q", ws))
		}
		figs = append(figs,
			&figure{name: fmt.Sprintf("pipeline, %d worker(s), consume nothing", w), workers: w},
			&figure{name: fmt.Sprintf("pipeline, %d worker(s), copy body", w), workers: w, copyBody: true})
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fail(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	for i := 0; i < *runs; i++ {
		for _, fg := range figs {
			var wall, cpu time.Duration
			if fg.workers == 0 {
				if wall, cpu, err = floor.Measure(files); err != nil {
					fail(err)
				}
			} else {
				c0, t0 := floor.CPUTime(), time.Now()
				fg.captures = run(files, fg.workers, fg.copyBody)
				wall, cpu = time.Since(t0), floor.CPUTime()-c0
			}
			if i == 0 || wall < fg.wall {
				fg.wall = wall
			}
			if i == 0 || cpu < fg.cpu {
				fg.cpu = cpu
			}
		}
	}
	mb := float64(size) / 1e6
	fmt.Printf("input: %d file(s), %.1f MB compressed, best of %d rounds\n", len(files), mb, *runs)
	fmt.Printf("%-42s %8s %11s %6s %6s %7s\n", "", "MB/s", "captures/s", "wall", "cpu", "wall/w")
	fl := figs[0]
	for _, fg := range figs {
		ratio := fl.wall.Seconds() / fg.wall.Seconds()
		perW, caps := "", ""
		if fg.workers > 0 {
			perW = strconv.FormatFloat(ratio/float64(fg.workers), 'f', 2, 64)
			caps = strconv.FormatFloat(float64(fg.captures)/fg.wall.Seconds(), 'f', 0, 64)
		}
		fmt.Printf("%-42s %8.1f %11s %6.2f %6.2f %7s\n", fg.name, mb/fg.wall.Seconds(), caps, ratio, fl.cpu.Seconds()/fg.cpu.Seconds(), perW)
	}
}

func run(files []string, workers int, copyBody bool) int64 {
	bufs := make([][]byte, workers)
	consume := func(worker int, c *record.Capture) error { return nil }
	if copyBody {
		consume = func(worker int, c *record.Capture) error {
			bufs[worker] = append(bufs[worker][:0], c.Body...)
			return nil
		}
	}
	sum, err := pipeline.Run(context.Background(), pipeline.Config{Workers: workers}, files, consume)
	if err != nil {
		fail(err)
	}
	if sum.HadErrors() {
		fail(fmt.Errorf("data errors in the benchmark corpus: %s", sum.Line()))
	}
	return sum.Captures
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchpipeline:", err)
	os.Exit(1)
}
