package report

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/report/reporttest"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

// site is one capture of a hand-built fixture: its robots.txt and how it was
// fetched. Expectations in these tests are counted by hand from the bodies,
// not by running the code under test.
type site struct {
	host   string
	path   string // default /robots.txt
	status int
	body   string
	rank   int64
	minute int // fetch time; the later capture of a host answers
}

// reportOf runs the sites of each crawl through the real Analyzer,
// Dataset and reduce step (robotstat sites), and returns the report Read
// builds from the dataset, with every table.
func reportOf(t testing.TB, by string, crawls map[string][]site) *Report {
	t.Helper()
	return reportWith(t, TallyOptions{By: by, AllBots: true}, crawls)
}

func reportWith(t testing.TB, o TallyOptions, crawls map[string][]site) *Report {
	t.Helper()
	var all []reporttest.Site
	for crawl, sites := range crawls {
		for _, s := range sites {
			path := s.path
			if path == "" {
				path = "/robots.txt"
			}
			all = append(all, reporttest.Site{Crawl: crawl, URL: "https://" + s.host + path, Status: s.status, Body: s.body, Rank: s.rank, Minute: s.minute})
		}
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := reporttest.WriteSites(dir, all, "test"); err != nil {
		t.Fatal(err)
	}
	d, _, err := Read(context.Background(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return d.Report
}

// block returns the rows of a grouped table from the one whose labels start
// with prefix to the next row with a first label of its own.
func block(t *testing.T, tb *Table, prefix ...string) []Line {
	t.Helper()
	for i, r := range tb.Rows {
		if len(r.Labels) >= len(prefix) && reflect.DeepEqual(r.Labels[:len(prefix)], prefix) {
			j := i + 1
			for j < len(tb.Rows) && tb.Rows[j].Labels[0] == "" {
				j++
			}
			return tb.Rows[i:j]
		}
	}
	t.Fatalf("table %s has no row %q", tb.ID, prefix)
	return nil
}

// column returns cell c of every row.
func column(rows []Line, c int) []Cell {
	var out []Cell
	for _, r := range rows {
		out = append(out, r.Cells[c])
	}
	return out
}

func day(t *testing.T, s string) int32 {
	t.Helper()
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		t.Fatal(err)
	}
	return schema.DateDays(d)
}

func table(t *testing.T, r *Report, id string) *Table {
	t.Helper()
	for _, tb := range r.Tables {
		if tb.ID == id {
			return tb
		}
	}
	t.Fatalf("no table %q", id)
	return nil
}

// cells returns the cells of the first row whose labels start with prefix.
func cells(t *testing.T, tb *Table, prefix ...string) []Cell {
	t.Helper()
	for _, r := range tb.Rows {
		if len(r.Labels) >= len(prefix) && reflect.DeepEqual(r.Labels[:len(prefix)], prefix) {
			return r.Cells
		}
	}
	t.Fatalf("table %s has no row %q", tb.ID, prefix)
	return nil
}

func botStat(t *testing.T, r *Report, bot string) *BotStat {
	t.Helper()
	for i := range r.Bots {
		if r.Bots[i].Bot == bot {
			return &r.Bots[i]
		}
	}
	t.Fatalf("no bot %s", bot)
	return nil
}

const (
	blockGPTBotByName = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"
	blockAllByStar    = "User-agent: *\nDisallow: /\n"
	allowAll          = "User-agent: *\nDisallow:\n"
	gptbotPartial     = "User-agent: GPTBot\nDisallow: /news/\nCrawl-delay: 3\nDissallow: /x\n"
)

// The brief's example: three sites, one blocks GPTBot by name, one by *,
// one not at all, plus a 404, a repeated capture of the first host (which
// says the opposite and must not count) and a redirect target at another
// path.
func threeSites() []site {
	return []site{
		{host: "a.example", status: 200, body: blockGPTBotByName, rank: 10, minute: 30},
		{host: "b.example", status: 200, body: blockAllByStar, rank: 5_000},
		{host: "c.example", status: 200, body: allowAll},
		{host: "d.example", status: 404, body: "<html>not found</html>", rank: 2_000_000},
		{host: "a.example", status: 200, body: allowAll, rank: 10, minute: 20},            // fetched earlier: does not answer
		{host: "e.example", path: "/moved/robots.txt", status: 200, body: blockAllByStar}, // no /robots.txt: no site
	}
}

func TestSummaryThreeSites(t *testing.T) {
	r := reportOf(t, ByCrawl, map[string][]site{"CC-MAIN-2024-33": threeSites()})

	if len(r.Groups) != 1 || r.Groups[0].Label != "CC-MAIN-2024-33" {
		t.Fatalf("groups %+v", r.Groups)
	}
	g := r.Groups[0]
	// a, b and d have ranks; a's second capture is no site.
	if want := (Group{Label: "CC-MAIN-2024-33", Crawl: "CC-MAIN-2024-33", Date: day(t, "2024-08-12"), Captures: 6, Candidates: 5, Sites: 4, Parsed: 3, Unavailable: 1, Ranked: 3}); g != want {
		t.Errorf("group\n got %+v\nwant %+v", g, want)
	}

	gpt := botStat(t, r, "GPTBot").Groups[0]
	if gpt.Sites != 3 {
		t.Errorf("GPTBot denominator %d, want 3 parsed sites", gpt.Sites)
	}
	// a: named full; b: * full; c: * none (empty disallow).
	for d := range NumDefinitions {
		if got := [3]int64{gpt.Class(d, ClassFull), gpt.Class(d, ClassPartial), gpt.Class(d, ClassNone)}; got != [3]int64{2, 0, 1} {
			t.Errorf("%s: full/partial/none %v, want [2 0 1]", DefinitionNames[d], got)
		}
		if n, st := gpt.Counts[MatchedNamed][d][ClassFull], gpt.Counts[MatchedStar][d][ClassFull]; n != 1 || st != 1 {
			t.Errorf("%s: full by name %d by * %d, want 1 and 1", DefinitionNames[d], n, st)
		}
	}
	cc := botStat(t, r, "CCBot").Groups[0]
	// b blocks it by *, a's * group disallows /private/, c allows all.
	if got := [3]int64{cc.Class(DefVerdict, ClassFull), cc.Class(DefVerdict, ClassPartial), cc.Class(DefVerdict, ClassNone)}; got != [3]int64{1, 1, 1} {
		t.Errorf("CCBot full/partial/none %v, want [1 1 1]", got)
	}

	// full, by name, by *, partial, none
	want := []Cell{{2, 3}, {1, 3}, {1, 3}, {0, 3}, {1, 3}}
	if got := cells(t, table(t, r, TableAIBlocking), "GPTBot"); !reflect.DeepEqual(got, want) {
		t.Errorf("ai-blocking GPTBot cells %v, want %v", got, want)
	}
	bots := table(t, r, TableBots)
	if got := cells(t, bots, "GPTBot", "ai-training", "verdict"); !reflect.DeepEqual(got, want) {
		t.Errorf("bots GPTBot verdict cells %v", got)
	}
	if got := cells(t, bots, "", "", "cc_class"); len(got) != 5 {
		t.Errorf("bots rows are not grouped by bot: %v", got)
	}

	if got := cells(t, table(t, r, TableCaptures), "candidates: captures of a site's /robots.txt"); got[0] != (Cell{5, 6}) {
		t.Errorf("candidates %v", got)
	}
	adoption := table(t, r, TableAdoption)
	if got := cells(t, adoption, "robots.txt with at least one group"); got[0] != (Cell{3, 4}) {
		t.Errorf("adoption %v", got)
	}
	if got := cells(t, adoption, "no robots.txt: 4xx, everything allowed"); got[0] != (Cell{1, 4}) {
		t.Errorf("4xx %v", got)
	}
	status := table(t, r, TableStatus)
	if got := cells(t, status, "parsed", "success"); got[0] != (Cell{3, 4}) {
		t.Errorf("status parsed/success %v", got)
	}
	if got := cells(t, status, "unavailable", "notfound"); got[0] != (Cell{1, 4}) {
		t.Errorf("status unavailable/notfound %v", got)
	}

	agents := table(t, r, TableAgents)
	if got := cells(t, agents, "*"); got[0] != (Cell{3, 3}) {
		t.Errorf("agents * %v, want all three parsed sites", got)
	}
	if got := cells(t, agents, "gptbot", "GPTBot", "ai-training"); got[0] != (Cell{1, 3}) {
		t.Errorf("agents gptbot %v: only a.example's later capture names it", got)
	}
	content := table(t, r, TableContent)
	if got := cells(t, content, "* disallows /"); got[0] != (Cell{1, 3}) {
		t.Errorf("* disallows / %v, want b only", got)
	}
	if got := cells(t, table(t, r, TableTemplates), "(none)"); got[0] != (Cell{3, 3}) {
		t.Errorf("templates (none) %v", got)
	}
}

func TestSummaryTrendAcrossCrawls(t *testing.T) {
	first := []site{
		{host: "a.example", status: 200, body: allowAll},
		{host: "b.example", status: 200, body: gptbotPartial},
	}
	second := []site{
		{host: "a.example", status: 200, body: blockGPTBotByName},
		{host: "b.example", status: 200, body: blockGPTBotByName},
		{host: "c.example", status: 503},
	}
	// the unknown crawl: the same hosts are new sites in it
	r := reportOf(t, ByCrawl, map[string][]site{"CC-MAIN-2024-33": first, "": second})
	if got := []string{r.Groups[0].Label, r.Groups[1].Label}; !reflect.DeepEqual(got, []string{"CC-MAIN-2024-33", UnknownCrawlLabel}) {
		t.Fatalf("groups %v", got)
	}
	ai := table(t, r, TableAIBlocking)
	if !reflect.DeepEqual(ai.Labels, []string{"bot", "operator", "category", "crawl"}) || !reflect.DeepEqual(ai.Columns, verdictColumns) {
		t.Errorf("trend table labels %v columns %v", ai.Labels, ai.Columns)
	}
	gptRows := block(t, ai, "GPTBot")
	if got := column(gptRows, 0); !reflect.DeepEqual(got, []Cell{{0, 2}, {2, 2}}) {
		t.Errorf("GPTBot trend %v, want 0/2 then 2/2 (the 503 is not parsed)", got)
	}
	// By name in the second crawl, partial (b's first file) in the first.
	if got := column(gptRows, 1); !reflect.DeepEqual(got, []Cell{{0, 2}, {2, 2}}) {
		t.Errorf("GPTBot by name %v", got)
	}
	if got := column(gptRows, 3); !reflect.DeepEqual(got, []Cell{{1, 2}, {0, 2}}) {
		t.Errorf("GPTBot partial %v", got)
	}
	if gptRows[1].Labels[3] != UnknownCrawlLabel {
		t.Errorf("second crawl row %v", gptRows[1].Labels)
	}
	bots := table(t, r, TableBots)
	if bots.Labels[3] != "crawl" {
		t.Errorf("bots labels %v", bots.Labels)
	}
	// b.example's first file: partial under robotstat and somesite, some
	// under cic, allow-part under cc_class.
	gpt := botStat(t, r, "GPTBot")
	for d := range NumDefinitions {
		if p := gpt.Groups[0].Class(d, ClassPartial); p != 1 {
			t.Errorf("%s partial in the first crawl: %d, want 1", DefinitionNames[d], p)
		}
	}
	directives := table(t, r, TableDirectives)
	if got := cells(t, directives, "crawl-delay", "extension", "crawl-delay"); !reflect.DeepEqual(got, []Cell{{1, 2}, {0, 2}}) {
		t.Errorf("crawl-delay %v", got)
	}
	if got := cells(t, directives, "dissallow", "typo", "disallow"); !reflect.DeepEqual(got, []Cell{{1, 2}, {0, 2}}) {
		t.Errorf("dissallow %v", got)
	}
	adoption := table(t, r, TableAdoption)
	if got := cells(t, adoption, "unreachable: 5xx, everything disallowed"); !reflect.DeepEqual(got, []Cell{{0, 2}, {1, 3}}) {
		t.Errorf("5xx %v", got)
	}
}

func TestSummaryByRank(t *testing.T) {
	r := reportOf(t, ByRank, map[string][]site{"CC-MAIN-2024-33": threeSites()})
	var labels []string
	for _, g := range r.Groups {
		labels = append(labels, g.Label)
	}
	if want := []string{"top 1k", "top 10k", "top 100k", "top 1M", "rank > 1M", "unranked", "all"}; !reflect.DeepEqual(labels, want) {
		t.Fatalf("strata %v, want %v", labels, want)
	}
	// Sites: a (rank 10), b (5,000), c (unranked), d (2,000,000, a 404).
	// Strata are cumulative: a is in every top-k, b from top 10k on.
	var sitesBy, parsedBy []int64
	for _, g := range r.Groups {
		sitesBy = append(sitesBy, g.Sites)
		parsedBy = append(parsedBy, g.Parsed)
	}
	if want := []int64{1, 2, 2, 2, 1, 1, 4}; !reflect.DeepEqual(sitesBy, want) {
		t.Errorf("sites by stratum %v, want %v", sitesBy, want)
	}
	if want := []int64{1, 2, 2, 2, 0, 1, 3}; !reflect.DeepEqual(parsedBy, want) {
		t.Errorf("parsed by stratum %v, want %v", parsedBy, want)
	}
	// GPTBot full: a by name (top 1k...), b by * (top 10k...), c none.
	got := column(block(t, table(t, r, TableAIBlocking), "GPTBot"), 0)
	want := []Cell{{1, 1}, {2, 2}, {2, 2}, {2, 2}, {0, 0}, {0, 1}, {2, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GPTBot by stratum %v, want %v", got, want)
	}
	if l := table(t, r, TableBots).Labels; l[len(l)-1] != "stratum" {
		t.Errorf("bots labels %v", l)
	}

	// Without ranks beyond a million the stratum is left out.
	for _, g := range reportOf(t, ByRank, map[string][]site{"x": threeSites()[:3]}).Groups {
		if g.Label == "rank > 1M" {
			t.Error("empty rank > 1M stratum reported")
		}
	}
}

// Many sites fed directly: every parsed site's site_bots rows count, the
// others' do not (the filters are sized far above this, so they are exact
// here).
func TestSummaryManySites(t *testing.T) {
	s, _ := NewTally(TallyOptions{})
	const hosts = 50_000
	var sites []schema.SiteRow
	var bots []schema.SiteBotRow
	for h := range hosts {
		host := fmt.Sprintf("h%d.example", h)
		outcome, verdict := schema.OutcomeParsed, schema.VerdictNone
		if h%4 == 0 {
			verdict = schema.VerdictFull
		}
		if h%10 == 9 {
			outcome, verdict = schema.OutcomeUnreachable, schema.VerdictFull
		}
		sites = append(sites, schema.SiteRow{Host: host, CaptureID: schema.CaptureID(host, "", "", 0), Outcome: outcome, Candidates: 2})
		bots = append(bots, schema.SiteBotRow{Host: host, Bot: "GPTBot", Category: "ai-training", Matched: schema.MatchedNamed, Verdict: verdict})
	}
	s.BeginCrawl("c", 2*hosts, hosts)
	s.AddSites(sites)
	s.AddSiteBots(bots)
	s.EndCrawl()
	r := s.Report()
	parsed := int64(hosts - hosts/10)
	if g := r.Groups[0]; g.Sites != hosts || g.Parsed != parsed || g.Candidates != 2*hosts {
		t.Errorf("sites %d parsed %d candidates %d", g.Sites, g.Parsed, g.Candidates)
	}
	gpt := r.Bots[0].Groups[0]
	// h%4 == 0 and h%10 == 9 never meet: a quarter of the parsed hosts' h.
	want := int64(0)
	for h := range hosts {
		if h%4 == 0 && h%10 != 9 {
			want++
		}
	}
	if gpt.Sites != parsed || gpt.Class(DefVerdict, ClassFull) != want {
		t.Errorf("GPTBot %d of %d full, want %d of %d (parsed sites only)", gpt.Class(DefVerdict, ClassFull), gpt.Sites, want, parsed)
	}
	if s.FilterBytes() != 2*filterMinBits/8 {
		t.Errorf("filters use %d bytes, want the 2×8 MiB floor", s.FilterBytes())
	}
}

func TestSummaryMisuse(t *testing.T) {
	panics := func(name string, f func(s *Tally)) {
		t.Helper()
		s, _ := NewTally(TallyOptions{})
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f(s)
	}
	panics("rows_outside_crawl", func(s *Tally) { s.AddSiteBots([]schema.SiteBotRow{{}}) })
	panics("crawl_twice", func(s *Tally) { s.BeginCrawl("a", 0, 0); s.EndCrawl(); s.BeginCrawl("a", 0, 0) })
	panics("sites_after_site_bots", func(s *Tally) {
		s.BeginCrawl("a", 0, 0)
		s.AddSiteBots([]schema.SiteBotRow{{}})
		s.AddSites([]schema.SiteRow{{}})
	})
	panics("signals_after_sites", func(s *Tally) {
		s.BeginCrawl("a", 0, 0)
		s.AddSites([]schema.SiteRow{{}})
		s.AddSignals([]schema.SignalRow{{}})
	})
	panics("history_after_a_crawl", func(s *Tally) {
		s.BeginCrawl("a", 0, 0)
		s.EndCrawl()
		s.AddHistory([]schema.SiteHistoryRow{{}})
	})
	if _, err := NewTally(TallyOptions{By: "host"}); err == nil || !strings.Contains(err.Error(), "host") {
		t.Errorf("By host: %v", err)
	}
}

func TestSummaryColumnsExist(t *testing.T) {
	// Every column the summary reads is a real column of its table.
	types := map[schema.TableName]any{schema.Sites: schema.SiteRow{}, schema.Captures: schema.CaptureRow{}, schema.SiteBots: schema.SiteBotRow{},
		schema.Agents: schema.AgentRow{}, schema.Directives: schema.DirectiveRow{}, schema.Signals: schema.SignalRow{}, schema.SiteHistory: schema.SiteHistoryRow{}}
	for table, v := range types {
		have := map[string]bool{}
		var walk func(reflect.Type)
		walk = func(t reflect.Type) {
			for i := range t.NumField() {
				f := t.Field(i)
				if f.Anonymous {
					walk(f.Type)
					continue
				}
				name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
				have[name] = true
			}
		}
		walk(reflect.TypeOf(v))
		for _, c := range TallyColumns(table) {
			if !have[c] {
				t.Errorf("%s has no column %q", table, c)
			}
		}
	}
}

// BenchmarkSummarySiteBots measures the site_bots rows AddSiteBots counts
// per second, the table that dominates a report (one row per site and
// catalog bot).
func BenchmarkSummarySiteBots(b *testing.B) {
	var sites []schema.SiteRow
	var bots []schema.SiteBotRow
	for h := range 1000 {
		host := fmt.Sprintf("h%d.example", h)
		sites = append(sites, schema.SiteRow{Host: host, CaptureID: schema.CaptureID(host, "", "", 0), Outcome: schema.OutcomeParsed})
		for _, bot := range stats.DefaultCatalog().Bots() {
			bots = append(bots, schema.SiteBotRow{Host: host, Bot: bot.Token, Category: bot.Category, Matched: schema.MatchedStar, Verdict: schema.VerdictPartial,
				Somesite: schema.VerdictPartial, CIC: schema.CICSome, CCClass: schema.CCClassAllowPart})
		}
	}
	s, _ := NewTally(TallyOptions{})
	s.BeginCrawl("c", int64(len(sites)), int64(len(sites)))
	s.AddSites(sites)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		s.AddSiteBots(bots)
		n += len(bots)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
}

// An HTML page served as robots.txt is parsed (a 2xx), but its unknown
// "keys" are markup or script: the directives table leaves them out (issue
// 25.5) while the page's site stays in the denominator and the contents
// table counts it. A known key on such a page (a CDN's Content-Signal
// line put before the origin's HTML) is still counted.
func TestDirectivesLeaveOutHTML(t *testing.T) {
	// The keys of such pages in the wild are mostly a script's object
	// literals: "accountId: 1284," reads as the key accountid.
	page := "Content-Signal: search=yes, ai-train=no\n<!DOCTYPE html>\n<html><head>\n<title>Home</title>\n<script>\nvar consent = {\n  accountId: 1284,\n  init: function () {\n  },\n" +
		"};\n</script>\n</head><body></body></html>\n"
	r := reportOf(t, ByCrawl, map[string][]site{"CC-MAIN-2024-33": {
		{host: "a.example", status: 200, body: "User-agent: *\nDisallow: /x\nCrawl-delay: 5\n"},
		{host: "b.example", status: 200, body: page},
	}})
	if got := cells(t, table(t, r, TableContent), "HTML page served as robots.txt"); got[0] != (Cell{1, 2}) {
		t.Fatalf("HTML pages %v, want 1 of 2 parsed", got)
	}
	tb := table(t, r, TableDirectives)
	got := map[string]Cell{}
	for _, row := range tb.Rows {
		got[row.Labels[0]] = row.Cells[0]
	}
	want := map[string]Cell{"crawl-delay": {1, 2}, "content-signal": {1, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("directives %v, want %v", got, want)
	}
	if !strings.Contains(strings.Join(tb.Notes, "\n"), "HTML page") {
		t.Errorf("notes do not say HTML pages' unknown keys are left out: %q", tb.Notes)
	}
}

// With TallyOptions.Domains a registered domain counts once, through the
// site the domains table names (its own host, else www.): counted by hand,
// a.example.com blocks GPTBot but example.com stands for the domain, and
// x.org's www. host, which blocks it, stands for x.org; the IP address has
// no registered domain and is left out.
func TestDomainsOnePerRegisteredDomain(t *testing.T) {
	crawl := map[string][]site{"CC-MAIN-2024-33": {
		{host: "a.example.com", status: 200, body: blockGPTBotByName},
		{host: "example.com", status: 200, body: allowAll},
		{host: "b.example.com", status: 404, body: "gone"},
		{host: "www.x.org", status: 200, body: blockGPTBotByName},
		{host: "y.x.org", status: 200, body: allowAll},
		{host: "192.0.2.7", status: 200, body: blockGPTBotByName},
	}}
	for _, c := range []struct {
		name                  string
		domains               bool
		sites, parsed, gptbot int64
	}{
		{"by_host", false, 6, 5, 3},
		{"by_domain", true, 2, 2, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := reportWith(t, TallyOptions{Domains: c.domains}, crawl)
			if got := cells(t, table(t, r, TableCaptures), "sites")[0].Count; got != c.sites {
				t.Errorf("%d sites, want %d", got, c.sites)
			}
			full := fullCell(&botStat(t, r, "GPTBot").Groups[0], DefVerdict)
			if full != (Cell{c.gptbot, c.parsed}) {
				t.Errorf("GPTBot blocked fully %v, want %d of %d", full, c.gptbot, c.parsed)
			}
			if r.Domains != c.domains {
				t.Errorf("Report.Domains %v", r.Domains)
			}
		})
	}
}
