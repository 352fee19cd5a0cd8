package reduce_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/report/reporttest"
	"github.com/robotstat/robotstat/schema"
)

// Three crawls whose names sort differently from their dates:
// CC-MAIN-2024-10 (2024-03-04), CC-MAIN-2023-50 (2023-12-11) and my-scan
// (no date in its name: the day of its median fetch, 2024-08-03). In date
// order: 2023-50, 2024-10, my-scan. Expectations are worked out by hand.
func TestSiteHistory(t *testing.T) {
	t.Parallel()
	const (
		early, mid, late = "CC-MAIN-2023-50", "CC-MAIN-2024-10", "my-scan"
		blockGPT         = "User-agent: GPTBot\nDisallow: /\n"
		blockAll         = "User-agent: *\nDisallow: /\n"
		allowAll         = "User-agent: *\nDisallow:\n"
		partialGPT       = "User-agent: GPTBot\nDisallow: /private/\n"
	)
	var sites []reporttest.Site
	add := func(crawl, host string, status int, body string, rank int64) {
		s := reporttest.Site{Crawl: crawl, URL: "https://" + host + "/robots.txt", Status: status, Body: body, Rank: rank}
		if crawl == late {
			s.Minute = 1 // every capture of my-scan on 2024-08-03
		}
		sites = append(sites, s)
	}
	// a: named block, lifted, then blocked again by *: in all three crawls.
	add(early, "a.example", 200, blockGPT, 7)
	add(mid, "a.example", 200, partialGPT, 7)
	add(late, "a.example", 200, blockAll, 9)
	// b: 404 first, blocks in the middle, 503 at the end (its implied full
	// is not a block of its rules).
	add(early, "b.example", 404, "", 0)
	add(mid, "b.example", 200, blockGPT, 0)
	add(late, "b.example", 503, "", 0)
	// c: only in the last crawl, allows everything.
	add(late, "c.example", 200, allowAll, 0)
	// d: blocks by * in all three crawls.
	add(early, "d.example", 200, blockAll, 0)
	add(mid, "d.example", 200, blockAll, 0)
	add(late, "d.example", 200, blockAll, 0)
	dir := filepath.Join(t.TempDir(), "out")
	if err := reporttest.WriteSites(dir, sites, "test"); err != nil {
		t.Fatal(err)
	}

	files, err := schema.TableFiles(dir, schema.SiteHistory)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Crawl != "" {
		t.Fatalf("site_history files %+v, want one in the default partition", files)
	}
	cols := []string{"host", "bot", "crawls", "parsed_crawls", "panel", "first_crawl", "last_crawl", "first_full_crawl",
		"first_full_date", "first_full_matched", "last_full_crawl", "full_crawls", "unblocked_crawl", "changes", "last_verdict", "rank"}
	got := map[string]string{}
	hosts := map[string]int{}
	if err := schema.ReadFile(context.Background(), files[0].Path, cols, func(rows []schema.SiteHistoryRow) error {
		for _, r := range rows {
			hosts[r.Host]++
			if r.Bot != "GPTBot" && r.Bot != "ClaudeBot" {
				continue
			}
			date := ""
			if r.FirstFullDate != nil {
				date = schema.DaysDate(*r.FirstFullDate).Format("2006-01-02")
			}
			got[r.Host+" "+r.Bot] = fmt.Sprintf("crawls=%d parsed=%d panel=%v first=%s last=%s full=%s/%s/%s last_full=%s n_full=%d unblocked=%s changes=%d last_verdict=%s rank=%d",
				r.Crawls, r.ParsedCrawls, r.Panel, str(r.FirstCrawl), str(r.LastCrawl), str(r.FirstFullCrawl), date, str(r.FirstFullMatched),
				str(r.LastFullCrawl), r.FullCrawls, str(r.UnblockedCrawl), r.Changes, str(r.LastVerdict), num(r.Rank))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a.example GPTBot":    "crawls=3 parsed=3 panel=true first=CC-MAIN-2023-50 last=my-scan full=CC-MAIN-2023-50/2023-12-11/named last_full=my-scan n_full=2 unblocked=CC-MAIN-2024-10 changes=2 last_verdict=full rank=9",
		"a.example ClaudeBot": "crawls=3 parsed=3 panel=true first=CC-MAIN-2023-50 last=my-scan full=my-scan/2024-08-03/star last_full=my-scan n_full=1 unblocked= changes=1 last_verdict=full rank=9",
		"b.example GPTBot":    "crawls=3 parsed=1 panel=false first=CC-MAIN-2023-50 last=my-scan full=CC-MAIN-2024-10/2024-03-04/named last_full=CC-MAIN-2024-10 n_full=1 unblocked= changes=0 last_verdict=full rank=0",
		"b.example ClaudeBot": "crawls=3 parsed=1 panel=false first=CC-MAIN-2023-50 last=my-scan full=// last_full= n_full=0 unblocked= changes=0 last_verdict=none rank=0",
		"c.example GPTBot":    "crawls=1 parsed=1 panel=false first=my-scan last=my-scan full=// last_full= n_full=0 unblocked= changes=0 last_verdict=none rank=0",
		"d.example GPTBot":    "crawls=3 parsed=3 panel=true first=CC-MAIN-2023-50 last=my-scan full=CC-MAIN-2023-50/2023-12-11/star last_full=my-scan n_full=3 unblocked= changes=0 last_verdict=full rank=0",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s:\n got %s\nwant %s", k, got[k], w)
		}
	}
	// One row per host and catalog bot.
	var perHost []string
	for h, n := range hosts {
		perHost = append(perHost, fmt.Sprintf("%s:%d", h, n))
	}
	if len(hosts) != 4 || hosts["a.example"] != hosts["c.example"] || hosts["a.example"] < 50 {
		t.Errorf("rows per host %s", strings.Join(perHost, " "))
	}

	// The sites rows carry their crawl's date.
	sf, err := schema.TableFiles(dir, schema.Sites)
	if err != nil {
		t.Fatal(err)
	}
	dates := map[string]string{}
	for _, f := range sf {
		if err := schema.ReadFile(context.Background(), f.Path, []string{"crawl", "crawl_date"}, func(rows []schema.SiteRow) error {
			for _, r := range rows {
				dates[r.Crawl] = schema.DaysDate(r.CrawlDate).Format("2006-01-02")
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if want := map[string]string{early: "2023-12-11", mid: "2024-03-04", late: "2024-08-03"}; fmt.Sprint(dates) != fmt.Sprint(want) {
		t.Errorf("crawl dates %v, want %v", dates, want)
	}
}

// str and num print a NULL (nil) as empty and 0.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func num(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
