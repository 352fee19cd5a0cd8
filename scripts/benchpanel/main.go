// Command benchpanel measures `robotstat panel` on a generated crawl served
// by a local HTTP server with Range support: the index and record requests
// and bytes each listed host costs, captures per second, and the child's
// peak RSS (ru_maxrss), against a whole-crawl analyze of the same crawl
// from the same server.
//
//	go build -o /tmp/robotstat ./cmd/robotstat
//	go run ./scripts/benchpanel -bin /tmp/robotstat -n 100000 -hosts 100,1000,10000
//
// The crawl is scripts/gencorpus's (-n captures, 50,000 a file, Common
// Crawl's status mix and real bodies), laid out as a mirror of crawl
// CC-MAIN-2024-22 over 20 segments, with a URL index written by
// ccindex/ccindextest in Common Crawl's schema, -files files sorted by
// url_surtkey, parquet-mr's page and dictionary sizes (1 MiB each) and
// one row group a file (parquet-mr's 128 MiB row groups hold a whole file
// of this size). The listed hosts are every k-th distinct host of the
// index, so they spread over the key space as a site list does. The
// server (in this process, 127.0.0.1) counts requests and bytes per file;
// nothing leaves loopback. --rate -1 (no pacing) and --downloads 8 measure
// robotstat's own cost; on Common Crawl's servers a request waits on the
// network and on --rate.
package main

import (
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

	"github.com/robotstat/robotstat/ccindex/ccindextest"
)

const crawl = "CC-MAIN-2024-22"

func main() {
	bin := flag.String("bin", "robotstat", "the robotstat binary")
	n := flag.Int("n", 100000, "captures in the generated crawl")
	files := flag.Int("files", 10, "index files of the robotstxt subset")
	hostList := flag.String("hosts", "100,1000", "site list sizes to measure, comma-separated")
	dir := flag.String("dir", "", "work folder (default: a new temporary one, removed at the end)")
	workers := flag.Int("workers", 2, "robotstat --workers")
	downloads := flag.Int("downloads", 8, "robotstat --downloads")
	whole := flag.Bool("whole", true, "also run a whole-crawl analyze")
	flag.Parse()
	if *dir == "" {
		d, err := os.MkdirTemp("", "benchpanel-")
		check(err)
		defer os.RemoveAll(d)
		*dir = d
	}
	gen := filepath.Join(*dir, "gen")
	if _, err := os.Stat(gen); err != nil {
		cmd := exec.Command("go", "run", "./scripts/gencorpus", "-n", strconv.Itoa(*n), "-out", gen)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		check(cmd.Run())
	}
	warcs, _ := filepath.Glob(filepath.Join(gen, "robotstxt", "*.warc.gz"))
	base := filepath.Join(*dir, "mirror")
	start := time.Now()
	c, err := ccindextest.Build(base, crawl, 20, warcs, ccindextest.Options{Files: *files, PageBytes: 1 << 20, DictBytes: 1 << 20})
	check(err)
	var indexBytes, warcBytes int64
	for _, rel := range c.Index {
		st, err := os.Stat(filepath.Join(base, filepath.FromSlash(rel)))
		check(err)
		indexBytes += st.Size()
	}
	for _, rel := range c.WARCs {
		st, err := os.Stat(filepath.Join(base, filepath.FromSlash(rel)))
		check(err)
		warcBytes += st.Size()
	}
	hosts := map[string]bool{}
	var order []string
	for _, r := range c.Rows {
		if !hosts[r.URLHostName] {
			hosts[r.URLHostName] = true
			order = append(order, r.URLHostName)
		}
	}
	slices.Sort(order)
	fmt.Printf("crawl: %d captures in %d WARC files (%.1f MB), %d index rows in %d files (%.2f MB), %d hosts; built in %.1f s\n\n",
		*n, len(c.WARCs), float64(warcBytes)/1e6, len(c.Rows), len(c.Index), float64(indexBytes)/1e6, len(order), time.Since(start).Seconds())

	fmt.Println("| run | listed hosts | captures | index requests | index bytes | record requests | record bytes | per host: index req | index kB | record req | record kB | s | captures/s | peak RSS |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, f := range strings.Split(*hostList, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		check(err)
		k = min(k, len(order))
		var list []string
		for i := 0; i < k; i++ {
			list = append(list, order[i*len(order)/k])
		}
		sites := filepath.Join(*dir, "sites-"+strconv.Itoa(k)+".txt")
		check(os.WriteFile(sites, []byte(strings.Join(list, "\n")+"\n"), 0o644))
		srv := ccindextest.NewServer(base)
		out := filepath.Join(*dir, "panel-"+strconv.Itoa(k))
		os.RemoveAll(out)
		res, secs, rss := runChild(*bin, "panel", "--quiet", "--json", "--rate", "-1", "--downloads", strconv.Itoa(*downloads), "--workers", strconv.Itoa(*workers),
			"--cc-base", srv.Base(), "--out", out, sites, crawl)
		ir, ib := srv.Total("/cc-index/")
		wr, wb := srv.Total("/robotstxt/CC-")
		srv.Close()
		var cov struct {
			Captures int64 `json:"captures"`
			Panel    struct {
				Crawls []struct {
					Listed, Found, NotCaptured, Failed int
				} `json:"crawls"`
			} `json:"panel"`
		}
		check(json.Unmarshal(res, &cov))
		kf := float64(k)
		fmt.Printf("| panel | %d | %d | %d | %.2f MB | %d | %.2f MB | %.2f | %.1f | %.2f | %.1f | %.2f | %.0f | %d MiB |\n",
			k, cov.Captures, ir, float64(ib)/1e6, wr, float64(wb)/1e6, float64(ir)/kf, float64(ib)/1e3/kf, float64(wr)/kf, float64(wb)/1e3/kf,
			secs, float64(cov.Captures)/secs, rss>>10)
		if len(cov.Panel.Crawls) == 1 && cov.Panel.Crawls[0].Failed != 0 {
			fmt.Fprintf(os.Stderr, "benchpanel: %d hosts failed\n", cov.Panel.Crawls[0].Failed)
		}
	}
	if *whole {
		srv := ccindextest.NewServer(base)
		out := filepath.Join(*dir, "whole")
		os.RemoveAll(out)
		res, secs, rss := runChild(*bin, "analyze", "--quiet", "--json", "--rate", "-1", "--downloads", strconv.Itoa(*downloads), "--workers", strconv.Itoa(*workers),
			"--cc-base", srv.Base(), "--out", out, crawl)
		wr, wb := srv.Total("/robotstxt/CC-")
		srv.Close()
		var sum struct {
			Captures int64 `json:"captures"`
		}
		check(json.Unmarshal(res, &sum))
		fmt.Printf("| analyze (whole crawl) | %d | %d | 0 | 0 | %d | %.2f MB | | | | | %.2f | %.0f | %d MiB |\n",
			len(order), sum.Captures, wr, float64(wb)/1e6, secs, float64(sum.Captures)/secs, rss>>10)
	}
}

// runChild runs robotstat with args and returns its stdout, the seconds it
// took and its peak RSS in KiB. The RSS is GNU time's %M (the child's
// ru_maxrss) when /usr/bin/time is there: this process's own ru_maxrss of
// its children would count the memory it held when it forked them, which
// Linux carries over exec into the child's high-water mark.
func runChild(bin string, args ...string) ([]byte, float64, int64) {
	var cmd *exec.Cmd
	timed := false
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		cmd = exec.Command("/usr/bin/time", append([]string{"-f", "benchpanel-maxrss %M", bin}, args...)...)
		timed = true
	} else {
		cmd = exec.Command(bin, args...)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	secs := time.Since(start).Seconds()
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchpanel: %s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.String())
		os.Exit(1)
	}
	if timed {
		_, v, _ := strings.Cut(stderr.String(), "benchpanel-maxrss ")
		kib, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		check(err)
		return out, secs, kib
	}
	return out, secs, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchpanel:", err)
		os.Exit(1)
	}
}
