package reduce_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/reduce/reducetest"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

// The rules of the sites table (schema/README.md, "Sites: how a host's
// answer is resolved", and the package documentation), each asserted on a
// dataset written directly (reducetest.WriteDataset: captures and verdicts
// through the real Analyzer, no WARC files), reduced by Sites.

// crawlOf is one crawl of a test dataset.
type crawlOf struct {
	name  string
	sites []reducetest.Site
	opts  stats.Options // the zero value: analyze's defaults
}

// build writes the crawls into a new dataset, runs Sites over it with o
// (o.Dir is set) and returns the dataset's folder and the summary.
func build(t *testing.T, o reduce.Options, crawls ...crawlOf) (string, reduce.Summary) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	for _, c := range crawls {
		opts := c.opts
		if opts.Tables == nil {
			opts.Tables = stats.DefaultOptions().Tables
		}
		if err := reducetest.WriteDataset(dir, c.name, c.sites, opts); err != nil {
			t.Fatal(err)
		}
	}
	o.Dir, o.Version = dir, "test"
	sum, err := reduce.Sites(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return dir, sum
}

// sitesByHost returns the sites rows of crawl by host, failing on a host
// with two rows.
func sitesByHost(t *testing.T, dir, crawl string) map[string]schema.SiteRow {
	t.Helper()
	sites := map[string]schema.SiteRow{}
	for _, r := range reducetest.ReadTable[schema.SiteRow](t, dir, schema.Sites) {
		if r.Crawl != crawl {
			continue
		}
		if _, dup := sites[r.Host]; dup {
			t.Errorf("two sites rows for %s", r.Host)
		}
		sites[r.Host] = r
	}
	return sites
}

// botVerdicts returns bot's site_bots verdict by host in crawl, and the
// number of site_bots rows of each host.
func botVerdicts(t *testing.T, dir, crawl, bot string) (map[string]string, map[string]int) {
	t.Helper()
	verdicts, perSite := map[string]string{}, map[string]int{}
	for _, r := range reducetest.ReadTable[schema.SiteBotRow](t, dir, schema.SiteBots) {
		if r.Crawl != crawl {
			continue
		}
		perSite[r.Host]++
		if r.Bot == bot {
			verdicts[r.Host] = r.Verdict
		}
	}
	return verdicts, perSite
}

// checkSites checks the sites row and GPTBot's site_bots verdict of every
// case against what the case says.
func checkSites(t *testing.T, dir, crawl string, cases []reducetest.Site) {
	t.Helper()
	sites := sitesByHost(t, dir, crawl)
	gpt, perSite := botVerdicts(t, dir, crawl, "GPTBot")
	bots := stats.DefaultCatalog().Len()
	for _, want := range cases {
		t.Run(want.Host, func(t *testing.T) {
			got, ok := sites[want.Host]
			if !ok {
				t.Fatalf("no sites row (%s)", want.Rule)
			}
			hops := -1
			if got.RedirectHops != nil {
				hops = int(*got.RedirectHops)
			}
			type view struct {
				Outcome, URL, FinalURL, Reason, GPTBot string
				Hops, Candidates                       int
			}
			g := view{got.Outcome, got.URL, got.FinalURL, got.Reason, gpt[want.Host], hops, int(got.Candidates)}
			w := view{want.Outcome, want.URL, want.FinalURL, want.Reason, want.GPTBot, want.Hops, want.Candidates}
			if g != w {
				t.Errorf("%s:\n got %+v\nwant %+v", want.Rule, g, w)
			}
			if got.RegisteredDomain == "" {
				t.Errorf("no registered domain")
			}
			// capture_id is NULL exactly when final_url is (schema: sites).
			if (got.CaptureID == "") != (want.FinalURL == "") {
				t.Errorf("capture_id %q with final_url %q", got.CaptureID, want.FinalURL)
			}
			if perSite[want.Host] != bots {
				t.Errorf("%d site_bots rows, want one per catalog bot (%d)", perSite[want.Host], bots)
			}
		})
	}
}

// TestSitesFixture: every host of the sites fixture (one per rule of the
// resolution, its fetches over two committed runs) has the sites row and
// GPTBot verdict reducetest says, and the crawl's summary counts them.
func TestSitesFixture(t *testing.T) {
	t.Parallel()
	dir, sum := build(t, reduce.Options{}, crawlOf{name: reducetest.Crawl, sites: reducetest.Sites})
	if n := len(sitesByHost(t, dir, reducetest.Crawl)); n != len(reducetest.Sites) {
		t.Errorf("%d sites, want %d", n, len(reducetest.Sites))
	}
	checkSites(t, dir, reducetest.Crawl, reducetest.Sites)

	captures := 0
	byOutcome := map[string]int64{}
	for _, s := range reducetest.Sites {
		captures += len(s.Fetches)
		byOutcome[s.Outcome]++
	}
	if len(sum.Crawls) != 1 {
		t.Fatalf("summary of %d crawls, want 1: %+v", len(sum.Crawls), sum)
	}
	c := sum.Crawls[0]
	want := reduce.CrawlSummary{Crawl: reducetest.Crawl, Date: "2025-01-27", Captures: int64(captures), Sites: int64(len(reducetest.Sites)),
		ByOutcome: byOutcome, SiteBots: int64(len(reducetest.Sites) * stats.DefaultCatalog().Len())}
	if c.Crawl != want.Crawl || c.Date != want.Date || c.Captures != want.Captures || c.Sites != want.Sites ||
		c.SiteBots != want.SiteBots || !mapsEqual(c.ByOutcome, want.ByOutcome) {
		t.Errorf("summary\n got %+v\nwant %+v", c, want)
	}
	if sum.Captures != want.Captures || len(sum.Warnings) != 0 || sum.History != nil {
		t.Errorf("summary: %d captures, warnings %q, history %+v; want %d, none, none (one crawl)", sum.Captures, sum.Warnings, sum.History, want.Captures)
	}
	if _, err := schema.TableFiles(dir, schema.SiteHistory); err == nil {
		t.Errorf("a site_history table with one crawl")
	}
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestFixtureFresh: the committed fixture WARCs are what reducetest.Write
// writes.
func TestFixtureFresh(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := reducetest.Write(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range reducetest.Files {
		got, _ := os.ReadFile(filepath.Join(dir, name))
		want, err := os.ReadFile(filepath.Join("..", "testdata", "sites", name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale (%v): go run ./scripts/gensites testdata/sites", name, err)
		}
	}
}

const (
	blockGPTBot = "User-agent: GPTBot\nDisallow: /\n"
	allowAll    = "User-agent: *\nDisallow:\n"
)

func robots(host string) string { return "https://" + host + "/robots.txt" }

// rules are cases the fixture does not show, one host each (except where a
// second host is the target), with what the sites row must say.
var rules = []reducetest.Site{
	{Host: "no-status.example", Rule: "RFC9309_2_3_1_no_status: a capture without a status (a file, a dump row) is parsed",
		Fetches: []reducetest.Fetch{{URL: robots("no-status.example"), Body: blockGPTBot, Minute: 1}},
		Outcome: "parsed", Hops: 0, URL: robots("no-status.example"), FinalURL: robots("no-status.example"), Candidates: 1, GPTBot: "full"},
	{Host: "gone.example", Rule: "RFC9309_2_3_1_3_4xx: a 410 is unavailable, everything allowed",
		Fetches: []reducetest.Fetch{{URL: robots("gone.example"), Status: 410, Minute: 2}},
		Outcome: "unavailable", Hops: 0, URL: robots("gone.example"), FinalURL: robots("gone.example"), Candidates: 1, GPTBot: "none"},
	{Host: "forbidden.example", Rule: "RFC9309_2_3_1_3_4xx: a 403 too (RFC 9309 makes no exception of 401 and 403)",
		Fetches: []reducetest.Fetch{{URL: robots("forbidden.example"), Status: 403, Minute: 3}},
		Outcome: "unavailable", Hops: 0, URL: robots("forbidden.example"), FinalURL: robots("forbidden.example"), Candidates: 1, GPTBot: "none"},
	{Host: "to-5xx.example", Rule: "a redirect to a 5xx is unreachable, one hop",
		Fetches: []reducetest.Fetch{{URL: robots("to-5xx.example"), Status: 302, Location: robots("cdn5.example"), Minute: 4}},
		Outcome: "unreachable", Hops: 1, URL: robots("to-5xx.example"), FinalURL: robots("cdn5.example"), Candidates: 1, GPTBot: "full"},
	{Host: "cdn5.example", Rule: "the 5xx target is a site of its own",
		Fetches: []reducetest.Fetch{{URL: robots("cdn5.example"), Status: 503, Minute: 5}},
		Outcome: "unreachable", Hops: 0, URL: robots("cdn5.example"), FinalURL: robots("cdn5.example"), Candidates: 1, GPTBot: "full"},
	{Host: "to-404.example", Rule: "a redirect to a 404 is unavailable, one hop",
		Fetches: []reducetest.Fetch{
			{URL: robots("to-404.example"), Status: 301, Location: "https://to-404.example/moved", Minute: 6},
			{URL: "https://to-404.example/moved", Status: 404, Minute: 7},
		},
		Outcome: "unavailable", Hops: 1, URL: robots("to-404.example"), FinalURL: "https://to-404.example/moved", Candidates: 1, GPTBot: "none"},
	{Host: "cross-never.example", Rule: "a redirect to another host the crawl never fetched is unresolved",
		Fetches: []reducetest.Fetch{{URL: robots("cross-never.example"), Status: 301, Location: robots("elsewhere.example"), Minute: 8}},
		Outcome: "unresolved", Hops: -1, URL: robots("cross-never.example"), Candidates: 1, Reason: "not-captured", GPTBot: "unknown"},
	{Host: "self-loop.example", Rule: "RFC9309_2_3_1_2_loop: a robots.txt that redirects to itself is unavailable",
		Fetches: []reducetest.Fetch{{URL: robots("self-loop.example"), Status: 301, Location: robots("self-loop.example"), Minute: 9}},
		Outcome: "unavailable", Hops: -1, URL: robots("self-loop.example"), Candidates: 1, Reason: "redirect-limit", GPTBot: "none"},
	{Host: "www-pair.example", Rule: "no host folding: a bare host that redirects to its www host is answered by www's capture, one hop",
		Fetches: []reducetest.Fetch{{URL: robots("www-pair.example"), Status: 301, Location: robots("www.www-pair.example"), Minute: 10}},
		Outcome: "parsed", Hops: 1, URL: robots("www-pair.example"), FinalURL: robots("www.www-pair.example"), Candidates: 1, GPTBot: "full"},
	{Host: "www.www-pair.example", Rule: "and the www host is a site of its own",
		Fetches: []reducetest.Fetch{{URL: robots("www.www-pair.example"), Status: 200, Body: blockGPTBot, Minute: 11}},
		Outcome: "parsed", Hops: 0, URL: robots("www.www-pair.example"), FinalURL: robots("www.www-pair.example"), Candidates: 1, GPTBot: "full"},
	{Host: "target-hops.example", Rule: "of a target's captures in one class, fewer redirects first, whatever the fetch times",
		Fetches: []reducetest.Fetch{
			{URL: robots("target-hops.example"), Status: 301, Location: "https://target-hops.example/t", Minute: 12},
			{URL: "https://target-hops.example/t", Status: 200, Body: allowAll, Minute: 13},
			{URL: "https://target-hops.example/t", Status: 301, Location: "https://target-hops.example/u", Minute: 60},
			{URL: "https://target-hops.example/u", Status: 200, Body: blockGPTBot, Minute: 61},
		},
		Outcome: "parsed", Hops: 1, URL: robots("target-hops.example"), FinalURL: "https://target-hops.example/t", Candidates: 1, GPTBot: "none"},
	{Host: "target-class.example", Rule: "of a target's captures, the class first: parsed two hops away beats unreachable one hop away",
		Fetches: []reducetest.Fetch{
			{URL: robots("target-class.example"), Status: 301, Location: "https://target-class.example/t", Minute: 14},
			{URL: "https://target-class.example/t", Status: 503, Minute: 70},
			{URL: "https://target-class.example/t", Status: 301, Location: "https://target-class.example/u", Minute: 15},
			{URL: "https://target-class.example/u", Status: 200, Body: blockGPTBot, Minute: 16},
		},
		Outcome: "parsed", Hops: 2, URL: robots("target-class.example"), FinalURL: "https://target-class.example/u", Candidates: 1, GPTBot: "full"},
	{Host: "target-latest.example", Rule: "of a target's captures in one class and as many redirects, the latest fetch",
		Fetches: []reducetest.Fetch{
			{URL: robots("target-latest.example"), Status: 301, Location: "https://target-latest.example/t", Minute: 17},
			{URL: "https://target-latest.example/t", Status: 200, Body: allowAll, Minute: 18},
			{URL: "https://target-latest.example/t", Status: 200, Body: blockGPTBot, Minute: 80, File: 1},
		},
		Outcome: "parsed", Hops: 1, URL: robots("target-latest.example"), FinalURL: "https://target-latest.example/t", Candidates: 1, GPTBot: "full"},
	{Host: "target-reasons.example", Rule: "a target with no answer takes the first reason: not-captured before no-location",
		Fetches: []reducetest.Fetch{
			{URL: robots("target-reasons.example"), Status: 301, Location: "https://target-reasons.example/t", Minute: 19},
			{URL: "https://target-reasons.example/t", Status: 302, Minute: 20},
			{URL: "https://target-reasons.example/t", Status: 301, Location: "https://target-reasons.example/gone", Minute: 21},
		},
		Outcome: "unresolved", Hops: -1, URL: robots("target-reasons.example"), Candidates: 1, Reason: "not-captured", GPTBot: "unknown"},
	{Host: "to-no-location.example", Rule: "a redirect to a 3xx without a Location is unresolved",
		Fetches: []reducetest.Fetch{
			{URL: robots("to-no-location.example"), Status: 301, Location: "https://to-no-location.example/t", Minute: 28},
			{URL: "https://to-no-location.example/t", Status: 302, Minute: 29},
		},
		Outcome: "unresolved", Hops: -1, URL: robots("to-no-location.example"), Candidates: 1, Reason: "no-location", GPTBot: "unknown"},
	{Host: "hops-dont-count.example", Rule: "between candidates of one class and scheme hops do not count: the later fetch answers, through its redirect",
		Fetches: []reducetest.Fetch{
			{URL: robots("hops-dont-count.example"), Status: 200, Body: allowAll, Minute: 22},
			{URL: robots("hops-dont-count.example"), Status: 301, Location: "https://hops-dont-count.example/new", Minute: 81, File: 1},
			{URL: "https://hops-dont-count.example/new", Status: 200, Body: blockGPTBot, Minute: 82, File: 1},
		},
		Outcome: "parsed", Hops: 1, URL: robots("hops-dont-count.example"), FinalURL: "https://hops-dont-count.example/new", Candidates: 2, GPTBot: "full"},
	{Host: "404-and-503.example", Rule: "unavailable beats unreachable, even fetched earlier",
		Fetches: []reducetest.Fetch{
			{URL: robots("404-and-503.example"), Status: 404, Minute: 23},
			{URL: robots("404-and-503.example"), Status: 503, Minute: 83, File: 1},
		},
		Outcome: "unavailable", Hops: 0, URL: robots("404-and-503.example"), FinalURL: robots("404-and-503.example"), Candidates: 2, GPTBot: "none"},
	{Host: "503-and-unresolved.example", Rule: "unreachable beats unresolved, even fetched earlier",
		Fetches: []reducetest.Fetch{
			{URL: robots("503-and-unresolved.example"), Status: 503, Minute: 24},
			{URL: robots("503-and-unresolved.example"), Status: 301, Location: "https://503-and-unresolved.example/gone", Minute: 84, File: 1},
		},
		Outcome: "unreachable", Hops: 0, URL: robots("503-and-unresolved.example"), FinalURL: robots("503-and-unresolved.example"), Candidates: 2, GPTBot: "full"},
	{Host: "https-unresolved.example", Rule: "the class comes before the scheme: an http 200 beats an https redirect to nowhere",
		Fetches: []reducetest.Fetch{
			{URL: "http://https-unresolved.example/robots.txt", Status: 200, Body: blockGPTBot, Minute: 25},
			{URL: robots("https-unresolved.example"), Status: 301, Location: "https://https-unresolved.example/gone", Minute: 85, File: 1},
		},
		Outcome: "parsed", Hops: 0, URL: "http://https-unresolved.example/robots.txt", FinalURL: "http://https-unresolved.example/robots.txt", Candidates: 2, GPTBot: "full"},
	{Host: "undated.example", Rule: "a known fetch time is later than an unknown one",
		Fetches: []reducetest.Fetch{
			{URL: robots("undated.example"), Status: 200, Body: blockGPTBot, Undated: true},
			{URL: robots("undated.example"), Status: 200, Body: allowAll, Minute: 26, File: 1},
		},
		Outcome: "parsed", Hops: 0, URL: robots("undated.example"), FinalURL: robots("undated.example"), Candidates: 2, GPTBot: "none"},
	{Host: "deep.example", Rule: "a candidate that is not robots.txt's own path is no candidate: only /robots.txt makes a site",
		Fetches: []reducetest.Fetch{
			{URL: robots("deep.example"), Status: 200, Body: allowAll, Minute: 27},
			{URL: "https://deep.example/robots.txt.bak", Status: 200, Body: blockGPTBot, Minute: 90},
		},
		Outcome: "parsed", Hops: 0, URL: robots("deep.example"), FinalURL: robots("deep.example"), Candidates: 1, GPTBot: "none"},
}

// TestSitesRules checks the rules the fixture does not show (see rules).
func TestSitesRules(t *testing.T) {
	t.Parallel()
	dir, _ := build(t, reduce.Options{}, crawlOf{name: reducetest.Crawl, sites: rules})
	checkSites(t, dir, reducetest.Crawl, rules)
	if got := sitesByHost(t, dir, reducetest.Crawl); len(got) != len(rules) {
		var hosts []string
		for h := range got {
			hosts = append(hosts, h)
		}
		slices.Sort(hosts)
		t.Errorf("%d sites, want %d: %s", len(got), len(rules), strings.Join(hosts, " "))
	}
}

// TestSites429 follows the captures' outcome: 429 is a 4xx by RFC 9309
// (§2.3.1.3), unavailable, and unreachable when the captures were analysed
// with TooManyRequestsUnreachable (analyze --429-unreachable, Google's
// reading).
func TestSites429(t *testing.T) {
	t.Parallel()
	site := func(outcome, gpt string) []reducetest.Site {
		return []reducetest.Site{{Host: "rate-limited.example", Rule: "429",
			Fetches: []reducetest.Fetch{{URL: robots("rate-limited.example"), Status: 429, Minute: 1}},
			Outcome: outcome, Hops: 0, URL: robots("rate-limited.example"), FinalURL: robots("rate-limited.example"), Candidates: 1, GPTBot: gpt}}
	}
	t.Run("RFC9309_2_3_1_3_429_unavailable", func(t *testing.T) {
		s := site("unavailable", "none")
		dir, _ := build(t, reduce.Options{}, crawlOf{name: "c", sites: s})
		checkSites(t, dir, "c", s)
	})
	t.Run("Google_429_unreachable", func(t *testing.T) {
		s := site("unreachable", "full")
		o := stats.DefaultOptions()
		o.TooManyRequestsUnreachable = true
		dir, _ := build(t, reduce.Options{}, crawlOf{name: "c", sites: s, opts: o})
		checkSites(t, dir, "c", s)
	})
}

// TestSitesCaptureIDTie: two candidates of one class and scheme fetched at
// the same time are told apart by the smaller capture_id.
func TestSitesCaptureIDTie(t *testing.T) {
	t.Parallel()
	s := []reducetest.Site{{Host: "tie.example", Fetches: []reducetest.Fetch{
		{URL: robots("tie.example"), Status: 200, Body: blockGPTBot, Minute: 5},
		{URL: robots("tie.example"), Status: 200, Body: allowAll, Minute: 5, File: 1},
	}}}
	dir, _ := build(t, reduce.Options{}, crawlOf{name: "c", sites: s})
	// The expected answer, from the captures table.
	var ids []string
	blocks := map[string]bool{}
	for _, r := range reducetest.ReadTable[schema.CaptureRow](t, dir, schema.Captures) {
		ids = append(ids, r.CaptureID)
		blocks[r.CaptureID] = r.BodyBytes == int64(len(blockGPTBot))
	}
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Fatalf("capture ids %q", ids)
	}
	smallest := slices.Min(ids)
	got := sitesByHost(t, dir, "c")["tie.example"]
	gpt, _ := botVerdicts(t, dir, "c", "GPTBot")
	want := map[bool]string{true: "full", false: "none"}[blocks[smallest]]
	if got.CaptureID != smallest || got.Candidates != 2 || gpt["tie.example"] != want {
		t.Errorf("capture %s (of %d candidates), GPTBot %s; want %s, 2, %s", got.CaptureID, got.Candidates, gpt["tie.example"], smallest, want)
	}
}

// TestSitesCrawlDate: every site of a crawl carries the crawl's date: the
// Monday of the ISO week of a Common Crawl name, else the UTC day of the
// lower median fetch time, else none (NULL); the summary says the same.
func TestSitesCrawlDate(t *testing.T) {
	t.Parallel()
	one := func(host string, fetches ...reducetest.Fetch) reducetest.Site {
		return reducetest.Site{Host: host, Fetches: fetches}
	}
	day := 24 * 60
	crawls := []crawlOf{
		// CC-MAIN-2024-10 is the week of 2024-03-04, though fetched in 2025.
		{name: "CC-MAIN-2024-10", sites: []reducetest.Site{one("a.example", reducetest.Fetch{URL: robots("a.example"), Status: 200, Minute: 1})}},
		// Fetched on 2025-01-15, -17, -17 and -20: the lower median of
		// four is the second, 2025-01-17.
		{name: "my-scan", sites: []reducetest.Site{
			one("a.example", reducetest.Fetch{URL: robots("a.example"), Status: 200, Minute: 1}),
			one("b.example", reducetest.Fetch{URL: robots("b.example"), Status: 404, Minute: 2*day + 5}),
			one("c.example", reducetest.Fetch{URL: robots("c.example"), Status: 200, Minute: 2*day + 6}),
			one("d.example", reducetest.Fetch{URL: robots("d.example"), Status: 200, Minute: 5 * day}),
		}},
		// Neither a dated name nor fetch times.
		{name: "undated-dump", sites: []reducetest.Site{one("a.example", reducetest.Fetch{URL: robots("a.example"), Status: 200, Undated: true})}},
	}
	dir, sum := build(t, reduce.Options{}, crawls...)
	want := map[string]string{"CC-MAIN-2024-10": "2024-03-04", "my-scan": "2025-01-17", "undated-dump": ""}
	got := map[string]string{}
	for _, r := range reducetest.ReadTable[schema.SiteRow](t, dir, schema.Sites) {
		d := ""
		if r.CrawlDate != 0 {
			d = schema.DaysDate(r.CrawlDate).Format(time.DateOnly)
		}
		if old, ok := got[r.Crawl]; ok && old != d {
			t.Errorf("crawl %s: rows with dates %q and %q", r.Crawl, old, d)
		}
		got[r.Crawl] = d
	}
	summary := map[string]string{}
	for _, c := range sum.Crawls {
		summary[c.Crawl] = c.Date
	}
	for crawl, w := range want {
		if got[crawl] != w || summary[crawl] != w {
			t.Errorf("crawl %s: crawl_date %q, summary %q; want %q", crawl, got[crawl], summary[crawl], w)
		}
	}
}

// TestSitesNoVerdicts: a crawl analysed without the verdicts table has its
// sites but no site_bots rows, and the summary warns.
func TestSitesNoVerdicts(t *testing.T) {
	t.Parallel()
	o := stats.DefaultOptions()
	o.Tables = slices.DeleteFunc(slices.Clone(o.Tables), func(t schema.TableName) bool { return t == schema.Verdicts })
	dir, sum := build(t, reduce.Options{}, crawlOf{name: reducetest.Crawl, sites: reducetest.Sites, opts: o})
	if n := len(sitesByHost(t, dir, reducetest.Crawl)); n != len(reducetest.Sites) {
		t.Errorf("%d sites, want %d", n, len(reducetest.Sites))
	}
	if n := len(reducetest.ReadTable[schema.SiteBotRow](t, dir, schema.SiteBots)); n != 0 || sum.Crawls[0].SiteBots != 0 {
		t.Errorf("%d site_bots rows (summary %d) without a verdicts table", n, sum.Crawls[0].SiteBots)
	}
	if len(sum.Warnings) != 1 || !strings.Contains(sum.Warnings[0], "has no verdicts table") {
		t.Errorf("warnings %q", sum.Warnings)
	}
}

// TestSitesCatalogs: a crawl whose runs were analysed with two bot
// catalogs: each site's rows follow its answer's catalog, sites without an
// answer the first catalog's, and the summary warns.
func TestSitesCatalogs(t *testing.T) {
	t.Parallel()
	small, err := stats.ReadCatalog(strings.NewReader("token,operator,category\nGPTBot,OpenAI,ai-training\nFooBot,Foo,search\n"))
	if err != nil {
		t.Fatal(err)
	}
	full := stats.DefaultOptions()
	o := stats.DefaultOptions()
	o.Catalog = small
	// The first run (file 0) with the default catalog, the second with small.
	first := []reducetest.Site{
		{Host: "a.example", Fetches: []reducetest.Fetch{{URL: robots("a.example"), Status: 200, Body: blockGPTBot, Minute: 1}}},
		{Host: "nowhere.example", Fetches: []reducetest.Fetch{{URL: robots("nowhere.example"), Status: 301, Location: "https://nowhere.example/x", Minute: 2}}},
	}
	second := []reducetest.Site{
		{Host: "b.example", Fetches: []reducetest.Fetch{{URL: robots("b.example"), Status: 200, Body: blockGPTBot, Minute: 3}}},
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := reducetest.WriteDataset(dir, "c", first, full); err != nil {
		t.Fatal(err)
	}
	if err := reducetest.WriteDataset(dir, "c", second, o); err != nil {
		t.Fatal(err)
	}
	// A second crawl, so that site_history is built too.
	if err := reducetest.WriteDataset(dir, "d", first[:1], full); err != nil {
		t.Fatal(err)
	}
	sum, err := reduce.Sites(context.Background(), reduce.Options{Dir: dir, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	// The first catalog is the first verdicts file's.
	files, err := schema.TableFiles(dir, schema.Verdicts)
	if err == nil {
		files = slices.DeleteFunc(files, func(f schema.File) bool { return f.Crawl != "c" })
	}
	if err != nil || len(files) != 2 {
		t.Fatalf("verdicts files %v (%v)", files, err)
	}
	info, err := schema.ReadFileInfo(files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	firstCat, err := schema.ParseBotsMetadata(info.Metadata[schema.MetaBots])
	if err != nil {
		t.Fatal(err)
	}
	gpt, perSite := botVerdicts(t, dir, "c", "GPTBot")
	n := stats.DefaultCatalog().Len()
	if perSite["a.example"] != n || perSite["b.example"] != 2 || perSite["nowhere.example"] != firstCat.Len() {
		t.Errorf("site_bots rows per site %v, want a.example %d, b.example 2, nowhere.example %d", perSite, n, firstCat.Len())
	}
	if gpt["a.example"] != "full" || gpt["b.example"] != "full" || gpt["nowhere.example"] != "unknown" {
		t.Errorf("GPTBot verdicts %v", gpt)
	}
	if len(sum.Warnings) != 1 || !strings.Contains(sum.Warnings[0], "2 bot catalogs") {
		t.Errorf("warnings %q", sum.Warnings)
	}
	// site_history: each host's rows are the bots of the catalogs its
	// sites followed.
	bots := map[string][]string{}
	for _, r := range reducetest.ReadTable[schema.SiteHistoryRow](t, dir, schema.SiteHistory) {
		bots[r.Host] = append(bots[r.Host], r.Bot)
		if r.Bot == "GPTBot" && r.Host != "nowhere.example" && r.FullCrawls == 0 {
			t.Errorf("%s: GPTBot never fully blocked in site_history", r.Host)
		}
	}
	slices.Sort(bots["b.example"])
	if len(bots["a.example"]) != n || strings.Join(bots["b.example"], " ") != "FooBot GPTBot" || len(bots["nowhere.example"]) != firstCat.Len() {
		t.Errorf("site_history bots: a.example %d, b.example %q, nowhere.example %d; want %d, FooBot GPTBot, %d",
			len(bots["a.example"]), bots["b.example"], len(bots["nowhere.example"]), n, firstCat.Len())
	}
}

// TestSitesDuplicateRuns: two runs of one crawl that hold the same
// captures (an input committed under two run ids) give every site the
// answer and the verdicts one run gives it.
func TestSitesDuplicateRuns(t *testing.T) {
	t.Parallel()
	once, _ := build(t, reduce.Options{}, crawlOf{name: reducetest.Crawl, sites: reducetest.Sites})
	extra := reducetest.Site{Host: "extra.example", Fetches: []reducetest.Fetch{{URL: robots("extra.example"), Status: 404, Minute: 1}}}
	twice, _ := build(t, reduce.Options{}, crawlOf{name: reducetest.Crawl, sites: reducetest.Sites},
		crawlOf{name: reducetest.Crawl, sites: append(slices.Clone(reducetest.Sites), extra)})
	a, b := sitesByHost(t, once, reducetest.Crawl), sitesByHost(t, twice, reducetest.Crawl)
	for host, x := range a {
		y := b[host]
		if x.CaptureID != y.CaptureID || x.Outcome != y.Outcome || x.FinalURL != y.FinalURL || x.Reason != y.Reason {
			t.Errorf("%s: %+v once, %+v twice", host, x, y)
		}
	}
	bots := func(dir string) map[string]schema.SiteBotRow {
		m := map[string]schema.SiteBotRow{}
		for _, r := range reducetest.ReadTable[schema.SiteBotRow](t, dir, schema.SiteBots) {
			if r.Host != extra.Host {
				m[r.Host+" "+r.Bot] = r
			}
		}
		return m
	}
	if x, y := bots(once), bots(twice); len(x) == 0 || !reflect.DeepEqual(x, y) {
		t.Errorf("site_bots rows differ when the captures are committed twice (%d, %d rows)", len(x), len(y))
	}
}
