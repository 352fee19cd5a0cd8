// Command benchscan measures `robotstat scan` against a local virtual-host
// server: hosts per second at each concurrency, the child's peak RSS
// (ru_maxrss, the kernel's VmHWM of the process) and the WARC bytes each
// host costs.
//
//	go build -o /tmp/robotstat ./cmd/robotstat
//	go run ./scripts/benchscan -bin /tmp/robotstat -hosts 20000 -c 32,256
//	go run ./scripts/benchscan -bin /tmp/robotstat -hosts 100000 -c 32 -analyze
//
// The server (in this process) answers every host on 127.0.0.1 with one of
// the real robots.txt files under -corpus (cycled by host number; 12% of
// hosts get a 404 and 4% a 301 to another host's /robots.txt, about Common
// Crawl's mix), so the archive compresses like a real one. The scan runs
// as a child, `robotstat scan --quiet --schemes http --fetch-only
// --resolve *=127.0.0.1:PORT --sites LIST`, with -analyze dropping
// --fetch-only so the tables are written too. Nothing leaves loopback.
// The figures measure robotstat's own cost: on the real web a fetch waits
// on the network, and hosts/s is concurrency over latency.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "robotstat", "the robotstat binary")
	hosts := flag.Int("hosts", 20000, "hosts to scan")
	conc := flag.String("c", "32,256", "concurrencies to measure, comma-separated")
	corpus := flag.String("corpus", "../shared/corpus/robots/avuim-2025", "folder of robots.txt files to serve")
	analyze := flag.Bool("analyze", false, "also write the tables (drop --fetch-only)")
	keep := flag.String("keep", "", "leave the last run's output in `DIR` (default: a temporary folder, removed)")
	flag.Parse()

	bodies := loadBodies(*corpus)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	srv := &http.Server{Handler: handler(bodies), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	defer srv.Close()

	tmp, err := os.MkdirTemp("", "benchscan-")
	check(err)
	defer os.RemoveAll(tmp)
	sites := filepath.Join(tmp, "sites.csv")
	var b strings.Builder
	for i := range *hosts {
		fmt.Fprintf(&b, "%d,h%d.bench\n", i+1, i)
	}
	check(os.WriteFile(sites, []byte(b.String()), 0o644))

	fmt.Printf("%d hosts, %d bodies from %s, server and scan on this machine (%d cores)\n", *hosts, len(bodies), *corpus, numCPU())
	fmt.Printf("%-12s %10s %10s %12s %14s %14s\n", "concurrency", "seconds", "hosts/s", "peak RSS MiB", "WARC bytes", "bytes/host")
	for _, cs := range strings.Split(*conc, ",") {
		c, err := strconv.Atoi(cs)
		check(err)
		out := filepath.Join(tmp, "out-"+cs)
		if *keep != "" {
			out = *keep
			os.RemoveAll(out)
		}
		args := []string{"scan", "--quiet", "--schemes", "http", "--concurrency", cs, "--out", out,
			"--resolve", "*=" + l.Addr().String(), "--sites", sites}
		if !*analyze {
			args = append(args, "--fetch-only")
		}
		cmd := exec.Command(*bin, args...)
		cmd.Stderr = os.Stderr
		start := time.Now()
		err = cmd.Run()
		wall := time.Since(start)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchscan:", err)
			os.Exit(1)
		}
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
		size := dirSize(filepath.Join(out, "warc"))
		fmt.Printf("%-12d %10.1f %10.0f %12.0f %14d %14.0f\n", c, wall.Seconds(), float64(*hosts)/wall.Seconds(),
			float64(rss)/1024, size, float64(size)/float64(*hosts))
		if *keep == "" {
			os.RemoveAll(out)
		}
	}
}

// handler serves /robots.txt of host hN from bodies[N % len], a 404 for
// N%25 in 0..2, a 301 to h(N+1)'s /robots.txt for N%25 == 3.
func handler(bodies [][]byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(host, "h"), ".bench"))
		switch n % 25 {
		case 0, 1, 2:
			http.NotFound(w, r)
			return
		case 3:
			http.Redirect(w, r, "http://h"+strconv.Itoa(n+1)+".bench/robots.txt", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(len(bodies[n%len(bodies)])))
		w.Write(bodies[n%len(bodies)])
	})
}

func loadBodies(dir string) [][]byte {
	var out [][]byte
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && !e.IsDir() {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		out = append(out, []byte("User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"))
	}
	return out
}

func dirSize(dir string) int64 {
	var n int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			n += fi.Size()
		}
	}
	return n
}

func numCPU() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return max(1, strings.Count(string(b), "\nprocessor")+strings.Count(string(b[:min(len(b), 10)]), "processor"))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchscan:", err)
		os.Exit(1)
	}
}
