package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
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
	g := &gen{rng: rand.New(rand.NewPCG(7, 7)), bodies: bodies, level: 6, crawl: "CC-MAIN-2024-22", date: time.Date(2024, 5, 18, 0, 0, 0, 0, time.UTC)}
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

// TestCrawlDate: a crawl is dated by the Monday of its ISO week, as
// robotstat dates a crawl by its name; a name that is not one is refused.
func TestCrawlDate(t *testing.T) {
	for _, tc := range []struct{ crawl, day, want string }{
		{"CC-MAIN-2024-22", "", "2024-05-27"},
		{"CC-MAIN-2023-06", "", "2023-02-06"},
		{"CC-MAIN-2021-01", "", "2021-01-04"}, // Jan 1st 2021 is a Friday of 2020's week 53
		{"CC-MAIN-2026-01", "", "2025-12-29"},
		{"CC-MAIN-2024-22", "2024-05-18", "2024-05-18"},
	} {
		got, err := crawlDate(tc.crawl, tc.day)
		if err != nil || got.Format("2006-01-02") != tc.want {
			t.Errorf("%s %q: %v %v, want %s", tc.crawl, tc.day, got, err, tc.want)
		}
	}
	for _, bad := range []string{"CC-MAIN-2024-333", "cc-main-2024-33", "CC-MAIN-2024-00", "x"} {
		if _, err := crawlDate(bad, ""); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestPopulationOverCrawls writes one population over three crawls and
// reads it back: every crawl has the same hosts under its own isPartOf,
// and the share of hosts whose robots.txt changed from one crawl to the
// next is near -churn (each redraw may also draw the same file again).
func TestPopulationOverCrawls(t *testing.T) {
	bodies, err := loadBodies("../../testdata/avuim")
	if err != nil {
		t.Fatal(err)
	}
	const n, churn = 3000, 0.3
	crawls := []string{"CC-MAIN-2023-06", "CC-MAIN-2024-33", "CC-MAIN-2025-38"}
	pop := population(bodies, n, 5, len(crawls), churn)
	out := t.TempDir()
	hosts := map[string]map[string]string{} // crawl -> host -> status and digest
	for k, name := range crawls {
		start, _ := crawlDate(name, "")
		g := &gen{rng: rand.New(rand.NewPCG(uint64(k), 9)), bodies: bodies, level: 1, crawl: name, date: start, sites: pop[k]}
		if err := g.crawlFiles(filepath.Join(out, "crawl-data", name, "robotstxt"), n, 1000); err != nil {
			t.Fatal(err)
		}
		hosts[name] = map[string]string{}
	}
	var mu sync.Mutex
	_, err = pipeline.Run(context.Background(), pipeline.Config{}, []string{out}, func(w int, c *record.Capture) error {
		mu.Lock()
		defer mu.Unlock()
		if pipeline.CrawlOfPath(c.Source) != c.Crawl {
			t.Errorf("%s: crawl %s", c.Source, c.Crawl)
		}
		if c.RobotsPath { // a redirect's target /robots.txt of www. is a host of its own
			_, rest, _ := strings.Cut(c.URL, "://")
			host, _, _ := strings.Cut(rest, "/")
			file := fmt.Sprint(c.Status) // an error page's padding is drawn anew each crawl
			if c.Status == 200 {
				file += c.PayloadDigest
			}
			hosts[c.Crawl][host] = file
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	shared, changed := 0, 0
	for h, a := range hosts[crawls[0]] {
		b, ok1 := hosts[crawls[1]][h]
		_, ok2 := hosts[crawls[2]][h]
		if ok1 && ok2 {
			shared++
			if a != b {
				changed++
			}
		}
	}
	if shared < n*9/10 {
		t.Errorf("%d hosts in all three crawls of %d", shared, n)
	}
	if p := float64(changed) / float64(shared); p < churn/2 || p > churn*1.2 {
		t.Errorf("%d of %d shared hosts changed from the first crawl to the second (%.2f), want near %.2f", changed, shared, p, churn)
	}
}
