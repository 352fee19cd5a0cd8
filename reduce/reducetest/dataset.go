package reducetest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

// WriteDataset writes the fetches of sites as the captures of crawl into the
// dataset at dir, without WARC files: each capture goes through the real
// Analyzer (package stats, with options o) and the dataset writer (package
// schema), and the fetches of each Fetch.File are committed as a run of
// their own, as two input files would be. In the fixture's Crawl the
// record ids are those Write gives the WARC records, so the fixture's Sites
// written here have the capture_ids analyze gives the fixture's WARC files;
// in any other crawl the crawl's name is part of them, so that capture_ids
// stay unique in a dataset of several crawls.
//
// Fetch.Minute is the fetch time in minutes after 2025-01-15 00:00 UTC, as
// in the WARC files; Fetch.Undated leaves it unknown. Site.Rank is the rank
// of each of the site's captures (analyze --sites). Calling WriteDataset
// again with another crawl adds that crawl to the dataset.
func WriteDataset(dir, crawl string, sites []Site, o stats.Options) error {
	files := 0
	for _, s := range sites {
		for _, f := range s.Fetches {
			files = max(files, f.File+1)
		}
	}
	for file := range files {
		if err := writeRun(dir, crawl, file, sites, o); err != nil {
			return fmt.Errorf("reducetest: crawl %s, file %d: %w", crawl, file, err)
		}
	}
	return nil
}

// writeRun commits the fetches of one file of crawl as one run.
func writeRun(dir, crawl string, file int, sites []Site, o stats.Options) error {
	a, err := stats.NewAnalyzer(o)
	if err != nil {
		return err
	}
	// The run id names the crawl, the file and the sites, so that another
	// call (another crawl, or more sites of this one) adds a run.
	h := sha256.New()
	for _, s := range sites {
		h.Write([]byte(s.Host + "\x00"))
	}
	runID := fmt.Sprintf("t-%x-%d", sha256.Sum256(append(h.Sum(nil), crawl...)), file)
	ds, err := schema.Create(schema.Options{Dir: dir, RunID: runID, Input: runID, Tables: o.Tables, Version: "reducetest",
		Metadata: o.Metadata(), TableMetadata: o.TableMetadata()})
	if err != nil {
		return err
	}
	defer ds.Abort()
	var rows schema.Batch
	for _, s := range sites {
		for k, fe := range s.Fetches {
			if fe.File != file {
				continue
			}
			u, err := url.Parse(fe.URL)
			if err != nil {
				return fmt.Errorf("%s: %w", s.Host, err)
			}
			c := &record.Capture{Source: runID, Path: runID, Offset: int64(len(rows.Captures)), Crawl: crawl,
				URL: fe.URL, RobotsPath: u.Path == "/robots.txt", RecordID: recordID(crawl, s.Host, k),
				Status: fe.Status, Reason: reasons[fe.Status], Location: fe.Location, Body: []byte(fe.Body), BodyLen: int64(len(fe.Body))}
			if !fe.Undated {
				c.FetchTime = start.Add(time.Duration(fe.Minute) * time.Minute)
			}
			before := len(rows.Captures)
			a.Analyze(c, &rows)
			rows.Captures[before].Rank = s.Rank
		}
	}
	if err := ds.Sink().Write(&rows); err != nil {
		return err
	}
	return ds.Commit(context.Background())
}

// recordID is the WARC-Record-ID of fetch k of host's site in crawl.
func recordID(crawl, host string, k int) string {
	if crawl == Crawl {
		return id("response", host, strconv.Itoa(k))
	}
	return id("response", crawl, host, strconv.Itoa(k))
}
