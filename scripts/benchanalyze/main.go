// Command benchanalyze measures `robotstat analyze` end to end against the
// decompression floor (package scripts/internal/floor: klauspost/compress
// gzip into io.Discard on one core, the figure scripts/benchpipeline uses
// too). scripts/bench builds the binary and the corpus and calls it.
//
//	go run ./scripts/benchanalyze -bin robotstat -workers 1,2 -runs 3 FILE...
//
// Each round measures the floor and then runs the real binary as a child,
// `robotstat analyze --quiet --json --workers W --out TMP FILE...` with the
// default tables, once per worker count, in an order that rotates from
// round to round so that no worker count always comes first after the
// floor. Wall time is taken around the child; CPU time (user+sys) and peak
// RSS (ru_maxrss) come from the child's own rusage, so they include
// everything the process did (reading, inflating, parsing, encoding,
// writing and committing the Parquet files) and nothing else.
//
// It prints, for each worker count, the best round's figures (least
// disturbed by other load on a shared machine) and the median captures/s:
//
//   - MB/s: compressed input bytes per wall second.
//   - floor×: analyze MB/s over floor MB/s; /worker divides by W (the
//     issue 5 target is /worker >= 0.5).
//   - cpu×: floor CPU seconds over analyze CPU seconds: the fraction of
//     the CPU spent that bare inflation would need, independent of how
//     busy the machine is. On C free cores, floor× can reach at most
//     about C × cpu×.
//   - RSS: the largest ru_maxrss over the rounds.
//
// It also prints the machine's load: the CPU time other processes used
// while it ran (from /proc/stat, less its own and its children's), in
// cores; figures taken while others use a core are not the machine's best.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/robotstat/robotstat/scripts/internal/floor"
)

type round struct {
	wall, cpu time.Duration
	rssKiB    int64
}

type config struct {
	workers int
	rounds  []round
	summary summary
}

// summary is the part of analyze --json this command reads.
type summary struct {
	Captures int64            `json:"captures"`
	Errors   int64            `json:"errors"`
	Rows     map[string]int64 `json:"rows"`
}

func main() {
	bin := flag.String("bin", "", "robotstat binary (required)")
	workers := flag.String("workers", "1,2", "comma-separated worker counts")
	runs := flag.Int("runs", 3, "rounds; each figure is reported for its best round")
	tmp := flag.String("tmp", os.TempDir(), "folder for the runs' --out (removed after each run)")
	extra := flag.String("args", "", "extra analyze flags, space-separated (e.g. \"--tables all\")")
	noFloor := flag.Bool("no-floor", false, "skip the floor (and the ratios)")
	flag.Parse()
	files := flag.Args()
	if *bin == "" || len(files) == 0 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "usage: benchanalyze -bin ROBOTSTAT [-workers 1,2] [-runs 3] FILE.warc.gz...")
		os.Exit(2)
	}
	size, err := floor.Size(files)
	if err != nil {
		fail(err)
	}
	var cfgs []*config
	for _, ws := range strings.Split(*workers, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(ws))
		if err != nil || w < 1 {
			fail(fmt.Errorf("bad worker count %q", ws))
		}
		cfgs = append(cfgs, &config{workers: w})
	}

	var floorWall, floorCPU time.Duration
	var ownCPU time.Duration // this process's and its children's CPU
	busy0, jiffies0 := machineBusy()
	start := time.Now()
	for i := range *runs {
		if !*noFloor {
			w, c, err := floor.Measure(files)
			if err != nil {
				fail(err)
			}
			ownCPU += c
			if i == 0 || w < floorWall {
				floorWall = w
			}
			if i == 0 || c < floorCPU {
				floorCPU = c
			}
		}
		for k := range cfgs {
			cfg := cfgs[(i+k)%len(cfgs)]
			r, sum, err := analyze(*bin, *tmp, cfg.workers, *extra, files)
			if err != nil {
				fail(err)
			}
			ownCPU += r.cpu
			cfg.rounds = append(cfg.rounds, r)
			cfg.summary = sum
		}
	}
	elapsed := time.Since(start)
	busy1, jiffies1 := machineBusy()

	mb := float64(size) / 1e6
	captures := cfgs[0].summary.Captures
	fmt.Printf("input: %d file(s), %.1f MB compressed, %d captures; %d round(s), best round shown\n",
		len(files), mb, captures, *runs)
	if jiffies1 > jiffies0 {
		others := time.Duration(busy1-busy0)*time.Second/hz - ownCPU
		fmt.Printf("machine: %.2f cores busy with other processes on average while measuring (%s)\n",
			max(0, others.Seconds()/elapsed.Seconds()), loadavg())
	}
	if !*noFloor {
		fmt.Printf("floor: gzip -> io.Discard, 1 core: %.1f MB/s (%.2f s wall, %.2f s CPU)\n",
			mb/floorWall.Seconds(), floorWall.Seconds(), floorCPU.Seconds())
	}
	fmt.Printf("%-8s %11s %11s %8s %7s %8s %6s %9s %8s\n",
		"workers", "captures/s", "(median)", "MB/s", "floor×", "/worker", "cpu×", "CPU s", "RSS MiB")
	for _, cfg := range cfgs {
		best := slices.MinFunc(cfg.rounds, func(a, b round) int { return int(a.wall - b.wall) })
		walls := make([]float64, len(cfg.rounds))
		var rss int64
		for i, r := range cfg.rounds {
			walls[i] = r.wall.Seconds()
			rss = max(rss, r.rssKiB)
		}
		slices.Sort(walls)
		median := walls[len(walls)/2]
		if len(walls)%2 == 0 {
			median = (walls[len(walls)/2-1] + walls[len(walls)/2]) / 2
		}
		ratio, perW, cpuR := "-", "-", "-"
		if !*noFloor {
			r := floorWall.Seconds() / best.wall.Seconds()
			ratio = strconv.FormatFloat(r, 'f', 2, 64)
			perW = strconv.FormatFloat(r/float64(cfg.workers), 'f', 2, 64)
			cpuR = strconv.FormatFloat(floorCPU.Seconds()/best.cpu.Seconds(), 'f', 2, 64)
		}
		fmt.Printf("%-8d %11.0f %11.0f %8.1f %7s %8s %6s %9.2f %8.0f\n", cfg.workers,
			float64(captures)/best.wall.Seconds(), float64(captures)/median,
			mb/best.wall.Seconds(), ratio, perW, cpuR, best.cpu.Seconds(), float64(rss)/1024)
	}
	var rows []string
	for k, v := range cfgs[0].summary.Rows {
		rows = append(rows, k+" "+strconv.FormatInt(v, 10))
	}
	slices.Sort(rows)
	fmt.Printf("rows written: %s\n", strings.Join(rows, ", "))
}

// analyze runs the binary once and returns its figures and summary.
func analyze(bin, tmp string, workers int, extra string, files []string) (round, summary, error) {
	out, err := os.MkdirTemp(tmp, "robotstat-bench-out-")
	if err != nil {
		return round{}, summary{}, err
	}
	defer os.RemoveAll(out)
	args := []string{"analyze", "--quiet", "--json", "--workers", strconv.Itoa(workers), "--out", filepath.Join(out, "out")}
	args = append(args, strings.Fields(extra)...)
	args = append(args, files...)
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err = cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		return round{}, summary{}, fmt.Errorf("%s %s: %w\n%s", bin, strings.Join(args, " "), err, stderr.Bytes())
	}
	var sum summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		return round{}, summary{}, fmt.Errorf("reading analyze --json: %w", err)
	}
	if sum.Errors > 0 {
		return round{}, summary{}, fmt.Errorf("%d input errors in the benchmark corpus:\n%s", sum.Errors, stderr.Bytes())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return round{
		wall:   wall,
		cpu:    time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		rssKiB: ru.Maxrss, // KiB on Linux
	}, sum, nil
}

// hz is USER_HZ, the unit of /proc/stat (100 on every Linux this runs on).
const hz = 100

// machineBusy returns the machine's busy and total CPU time from /proc/stat
// in USER_HZ ticks; zeros where /proc is missing.
func machineBusy() (busy, total int64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0
	}
	// user nice system idle iowait irq softirq steal; guest time is
	// already counted in user.
	for i, s := range f[1:min(len(f), 9)] {
		v, _ := strconv.ParseInt(s, 10, 64)
		total += v
		if i != 3 && i != 4 { // idle, iowait
			busy += v
		}
	}
	return busy, total
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "load average unknown"
	}
	return "load average at the end " + strings.Join(f[:3], " ")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchanalyze:", err)
	os.Exit(1)
}
