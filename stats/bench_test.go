package stats

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/schema"
)

// BenchmarkAnalyzer measures Analyzer throughput with the default tables:
// the whole corpus of real files (captures/s and MB/s of bodies) and a few
// single files. cpu-ns/capture is the process's CPU time per capture, which
// other load on a shared machine inflates far less than the wall clock.
func BenchmarkAnalyzer(b *testing.B) {
	files := corpusFiles(b)
	var bodies [][]byte
	total := 0
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, body)
		total += len(body)
	}
	run := func(b *testing.B, o Options, set [][]byte, size int) {
		a, err := NewAnalyzer(o)
		if err != nil {
			b.Fatal(err)
		}
		var rows schema.Batch
		c := captureOf(nil, 200)
		b.SetBytes(int64(size))
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			for _, body := range set {
				c.Body, c.BodyLen = body, int64(len(body))
				rows.Reset()
				a.Analyze(c, &rows)
			}
		}
		n := float64(b.N) * float64(len(set))
		b.ReportMetric(n/b.Elapsed().Seconds(), "captures/s")
		b.ReportMetric(float64(cpuTime()-cpu0)/n, "cpu-ns/capture")
		b.ReportMetric(0, "ns/op")
	}
	b.Run("corpus", func(b *testing.B) { run(b, DefaultOptions(), bodies, total) })
	all := DefaultOptions()
	all.Tables = schema.AllTables()
	b.Run("corpus-all-tables", func(b *testing.B) { run(b, all, bodies, total) })
	for _, name := range []string{"www.atv-quad-magazin.com-robots.txt", "www.garmin.com-robots.txt", "www.tagesschau.de-robots.txt", "www.areamobile.de-robots.txt"} {
		body, err := os.ReadFile(filepath.Join("..", "testdata", "avuim", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) { run(b, DefaultOptions(), [][]byte{body}, len(body)) })
	}
}

// TestAnalyzerAllocs bounds the allocations of a warmed-up Analyzer on a
// typical file: the capture id, the digest and the public-suffix lookup
// allocate; per-line and per-bot work must not.
func TestAnalyzerAllocs(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("..", "testdata", "avuim", "www.tagesschau.de-robots.txt"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewAnalyzer(DefaultOptions())
	var rows schema.Batch
	c := captureOf(body, 200)
	run := func() {
		rows.Reset()
		a.Analyze(c, &rows)
	}
	run()
	if n := testing.AllocsPerRun(50, run); n > 8 {
		t.Errorf("%v allocations per capture, want at most 8", n)
	}
}

// BenchmarkAnalyzeWrite measures the analyze path after the pipeline: the
// Analyzer over a Common-Crawl-like mix of captures (every real file of the
// corpus as a 200, plus 404s, 403s, 5xx and redirects in Common Crawl's
// proportions, each capture with its own URL and record id) and its rows
// written with schema's Dataset in batches of 8192 rows as robotstat
// analyze does, default tables, commit (fsync) included. workers=2 runs two
// goroutines with an Analyzer each, writing to the same Dataset, through
// the shared TableWriters (writer=shared: each table's encoding is
// serialised) or through LocalWriters of their own for the tables of many
// rows per capture (writer=local, what analyze does). cpu-ns/capture is the process's CPU time (user+sys) per
// capture, which other load on a shared machine does not inflate.
func BenchmarkAnalyzeWrite(b *testing.B) {
	files := corpusFiles(b)
	var caps []*record.Capture
	var size int64
	add := func(body []byte, status int) {
		i := len(caps)
		host := "www.site" + strconv.Itoa(i) + ".example"
		caps = append(caps, &record.Capture{
			Source: "/data/CC-MAIN-x.warc.gz", Offset: int64(i) * 2048, Crawl: "CC-MAIN-2025-08",
			RecordID: "<urn:uuid:" + strconv.Itoa(1e9+i) + ">",
			URL:      "https://" + host + "/robots.txt", RobotsPath: true,
			Status: status, Body: body, BodyLen: int64(len(body)),
		})
		size += int64(len(body))
	}
	notFound := []byte("<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>\n")
	for i, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		add(body, 200)
		// per 72 200s: 16 404, 6 redirects, 3 403, 2 5xx (gencorpus's mix)
		switch {
		case i%9 < 2:
			add(notFound, 404)
		case i%12 == 2:
			add(nil, 301)
		case i%24 == 3:
			add(notFound, 403)
		case i%36 == 4:
			add(nil, 503)
		}
	}
	run := func(b *testing.B, workers int, local bool) {
		analyzers := make([]*Analyzer, workers)
		for w := range analyzers {
			a, err := NewAnalyzer(DefaultOptions())
			if err != nil {
				b.Fatal(err)
			}
			analyzers[w] = a
		}
		b.SetBytes(size)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			ds, err := schema.Create(schema.Options{Dir: b.TempDir(), RunID: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make([]error, workers)
			for w := range workers {
				wg.Go(func() {
					var rows schema.Batch
					out := tableWriters(ds, local)
					for i := w; i < len(caps); i += workers {
						analyzers[w].Analyze(caps[i], &rows)
						if rows.Len() >= 8192 {
							if errs[w] = out.write(&rows); errs[w] != nil {
								return
							}
						}
					}
					errs[w] = out.write(&rows)
				})
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					b.Fatal(err)
				}
			}
			if err := ds.Commit(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
		n := float64(b.N) * float64(len(caps))
		b.ReportMetric(n/b.Elapsed().Seconds(), "captures/s")
		b.ReportMetric(float64(cpuTime()-cpu0)/n, "cpu-ns/capture")
	}
	for _, workers := range []int{1, 2} {
		for _, local := range []bool{false, true} {
			name := "workers=" + strconv.Itoa(workers) + "/writer=shared"
			if local {
				name = "workers=" + strconv.Itoa(workers) + "/writer=local"
			}
			b.Run(name, func(b *testing.B) { run(b, workers, local) })
		}
	}
}

// writers writes the default tables' rows of a Batch, through a Sink (as
// analyze does) or, to measure what the Sink's LocalWriters save, through
// the shared TableWriters only.
type writers struct {
	ds    *schema.Dataset
	sink  *schema.Sink
	local bool
}

func tableWriters(ds *schema.Dataset, local bool) *writers {
	w := &writers{ds: ds, local: local}
	if local {
		w.sink = ds.Sink()
	}
	return w
}

func (w *writers) write(rows *schema.Batch) error {
	if w.local {
		return w.sink.Write(rows)
	}
	ds := w.ds
	err := errors.Join(schema.WriterOf[schema.CaptureRow](ds).Write(rows.Captures),
		schema.WriterOf[schema.GroupRow](ds).Write(rows.Groups),
		schema.WriterOf[schema.AgentRow](ds).Write(rows.Agents),
		schema.WriterOf[schema.BotRow](ds).Write(rows.BotRows()),
		schema.WriterOf[schema.DirectiveRow](ds).Write(rows.Directives))
	rows.Reset()
	return err
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
