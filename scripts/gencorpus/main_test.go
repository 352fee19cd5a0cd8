package main

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/record"
)

// TestCorpusReadsBack generates a small corpus and reads it with the
// pipeline: every capture comes back, no errors, Common Crawl's shape.
func TestCorpusReadsBack(t *testing.T) {
	bodies, err := loadBodies("../../../shared/corpus/robots")
	if err != nil {
		t.Skip("shared corpus not found:", err)
	}
	dir := filepath.Join(t.TempDir(), "robotstxt")
	os.MkdirAll(dir, 0o755)
	g := &gen{rng: rand.New(rand.NewPCG(7, 7)), bodies: bodies, level: 6, date: time.Date(2024, 5, 18, 0, 0, 0, 0, time.UTC)}
	const n = 2000
	got, _, err := g.file(filepath.Join(dir, "CC-MAIN-test-00000.warc.gz"), n)
	if err != nil || got != n {
		t.Fatal(got, err)
	}
	var mu sync.Mutex
	status := map[int]int{}
	robots := 0
	sum, err := pipeline.Run(context.Background(), pipeline.Config{}, []string{dir}, func(w int, c *record.Capture) error {
		mu.Lock()
		defer mu.Unlock()
		status[c.Status]++
		if c.RobotsPath {
			robots++
		}
		if c.Crawl != "CC-MAIN-2024-22" || c.BodyTruncated || c.PayloadDigest == "" {
			t.Errorf("%+v", c)
		}
		return nil
	})
	if err != nil || sum.HadErrors() || sum.Captures != n || sum.Records != 2*n+1 {
		t.Fatalf("err %v summary %s", err, sum.Line())
	}
	if p := float64(status[200]) / n; p < 0.68 || p > 0.80 {
		t.Errorf("200 share %.2f: %v", p, status)
	}
	if p := float64(status[404]) / n; p < 0.12 || p > 0.20 {
		t.Errorf("404 share %.2f: %v", p, status)
	}
	if status[301]+status[302] == 0 || status[403] == 0 || status[500]+status[502]+status[503]+status[504] == 0 || robots == n {
		t.Errorf("status mix %v, robots-path %d of %d", status, robots, n)
	}
}
