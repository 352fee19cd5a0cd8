package reporttest

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

// Site is one capture of a hand-built dataset: its crawl, URL, HTTP status,
// body and the rank --sites would give it.
type Site struct {
	Crawl, URL string
	Status     int
	Body       string
	Rank       int64
	// Minute is when it was fetched, in minutes after 2024-08-03 12:00 UTC
	// (0: unknown), for cases where the later of two captures answers.
	Minute int
}

// WriteSites runs the sites through the real Analyzer and Dataset writer into
// a dataset under dir, its files marked as written by robotstat version.
func WriteSites(dir string, sites []Site, version string) error {
	return WriteSitesWithout(dir, sites, version)
}

// WriteSitesWithout is WriteSites for a run that leaves the tables in omit
// unwritten, as analyze --tables does: their absence is recorded, not damage.
func WriteSitesWithout(dir string, sites []Site, version string, omit ...schema.TableName) error {
	so := stats.DefaultOptions()
	a, err := stats.NewAnalyzer(so)
	if err != nil {
		return err
	}
	var tables []schema.TableName
	for _, t := range schema.DefaultTables() {
		if !slices.Contains(omit, t) {
			tables = append(tables, t)
		}
	}
	ds, err := schema.Create(schema.Options{Dir: dir, RunID: "test", Version: version, Metadata: so.Metadata(), TableMetadata: so.TableMetadata(), Tables: tables})
	if err != nil {
		return err
	}
	defer ds.Abort()
	var rows schema.Batch
	for i, s := range sites {
		u, err := url.Parse(s.URL)
		if err != nil {
			return fmt.Errorf("site %d: %w", i, err)
		}
		c := &record.Capture{Source: "t.warc.gz", Offset: int64(i), Crawl: s.Crawl, URL: s.URL, RobotsPath: u.Path == "/robots.txt",
			Status: s.Status, Body: []byte(s.Body), BodyLen: int64(len(s.Body))}
		if s.Minute > 0 {
			c.FetchTime = time.Date(2024, 8, 3, 12, s.Minute, 0, 0, time.UTC)
		}
		before := len(rows.Captures)
		a.Analyze(c, &rows)
		rows.Captures[before].Rank = s.Rank
	}
	if err := ds.Sink().Write(&rows); err != nil {
		return err
	}
	if err := ds.Commit(context.Background()); err != nil {
		return err
	}
	_, err = reduce.Sites(context.Background(), reduce.Options{Dir: dir, Version: version})
	return err
}
