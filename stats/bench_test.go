package stats

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
)

// BenchmarkAnalyzer measures Analyzer throughput with the default tables:
// the whole corpus of real files (captures/s and MB/s of bodies) and a few
// single files.
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
		var rows Rows
		c := captureOf(nil, 200)
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			for _, body := range set {
				c.Body, c.BodyLen = body, int64(len(body))
				rows.Reset()
				a.Analyze(c, &rows)
			}
		}
		b.ReportMetric(float64(b.N)*float64(len(set))/b.Elapsed().Seconds(), "captures/s")
		b.ReportMetric(0, "ns/op")
	}
	b.Run("corpus", func(b *testing.B) { run(b, DefaultOptions(), bodies, total) })
	all := DefaultOptions()
	all.Tables = schema.AllTables()
	b.Run("corpus-all-tables", func(b *testing.B) { run(b, all, bodies, total) })
	for _, name := range []string{"www.atv-quad-magazin.com-robots.txt", "www.garmin.com-robots.txt", "www.tagesschau.de-robots.txt", "www.areamobile.de-robots.txt"} {
		body, err := os.ReadFile(filepath.Join("testdata", "avuim", name))
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
	body, err := os.ReadFile(filepath.Join("testdata", "avuim", "www.tagesschau.de-robots.txt"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := NewAnalyzer(DefaultOptions())
	var rows Rows
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

var _ = pipeline.Capture{}
