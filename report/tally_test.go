package report

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/record"
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
}

// analyzeSites runs the Analyzer over the sites of one crawl and returns its
// rows, with ranks set as --sites would.
func analyzeSites(t testing.TB, crawl string, sites []site) *schema.Batch {
	t.Helper()
	a, err := stats.NewAnalyzer(stats.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var rows schema.Batch
	for i, s := range sites {
		path := s.path
		if path == "" {
			path = "/robots.txt"
		}
		c := &record.Capture{
			Source: "fixture.warc.gz", Offset: int64(i) * 1000, Crawl: crawl,
			URL: "https://" + s.host + path, RobotsPath: path == "/robots.txt",
			Status: s.status, Body: []byte(s.body), BodyLen: int64(len(s.body)),
			RecordID: fmt.Sprintf("<urn:uuid:%s-%d>", crawl, i),
		}
		before := len(rows.Captures)
		a.Analyze(c, &rows)
		rows.Captures[before].Rank = s.rank
	}
	return &rows
}

func feed(t *testing.T, s *Tally, crawl string, rows *schema.Batch) {
	t.Helper()
	s.BeginCrawl(crawl, int64(len(rows.Captures)))
	// Feed in small batches, in a different table order than written, as
	// the report does.
	for i := 0; i < len(rows.Captures); i += 2 {
		s.AddCaptures(rows.Captures[i:min(i+2, len(rows.Captures))])
	}
	s.AddDirectives(rows.Directives)
	s.AddAgents(rows.Agents)
	bots := rows.BotRows()
	for i := 0; i < len(bots); i += 7 {
		s.AddBots(bots[i:min(i+7, len(bots))])
	}
	s.EndCrawl()
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
		{host: "a.example", status: 200, body: blockGPTBotByName, rank: 10},
		{host: "b.example", status: 200, body: blockAllByStar, rank: 5_000},
		{host: "c.example", status: 200, body: allowAll},
		{host: "d.example", status: 404, body: "<html>not found</html>", rank: 2_000_000},
		{host: "a.example", status: 200, body: allowAll, rank: 10},
		{host: "e.example", path: "/moved/robots.txt", status: 200, body: blockAllByStar},
	}
}

func TestSummaryThreeSites(t *testing.T) {
	s, err := NewTally(TallyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	feed(t, s, "CC-MAIN-2024-33", analyzeSites(t, "CC-MAIN-2024-33", threeSites()))
	r := s.Report()

	if len(r.Groups) != 1 || r.Groups[0].Label != "CC-MAIN-2024-33" {
		t.Fatalf("groups %+v", r.Groups)
	}
	g := r.Groups[0]
	if want := (Group{Label: "CC-MAIN-2024-33", Captures: 6, OtherPaths: 1, Duplicates: 1, Sites: 4, Parsed: 3, Unavailable: 1}); g != want {
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

	if got := cells(t, table(t, r, TableCaptures), "not a site: another capture of a host already counted"); got[0] != (Cell{1, 6}) {
		t.Errorf("duplicates %v", got)
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
		t.Errorf("agents gptbot %v: only a.example's first capture names it", got)
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
	s, err := NewTally(TallyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	first := []site{
		{host: "a.example", status: 200, body: allowAll},
		{host: "b.example", status: 200, body: gptbotPartial},
	}
	second := []site{
		{host: "a.example", status: 200, body: blockGPTBotByName},
		{host: "b.example", status: 200, body: blockGPTBotByName},
		{host: "c.example", status: 503},
	}
	feed(t, s, "CC-MAIN-2024-33", analyzeSites(t, "CC-MAIN-2024-33", first))
	feed(t, s, "", analyzeSites(t, "", second)) // unknown crawl; the same hosts are new sites in it
	r := s.Report()
	if got := []string{r.Groups[0].Label, r.Groups[1].Label}; !reflect.DeepEqual(got, []string{"CC-MAIN-2024-33", UnknownCrawlLabel}) {
		t.Fatalf("groups %v", got)
	}
	ai := table(t, r, TableAIBlocking)
	if !reflect.DeepEqual(ai.Columns, []string{"CC-MAIN-2024-33", UnknownCrawlLabel}) {
		t.Errorf("trend columns %v", ai.Columns)
	}
	if got := cells(t, ai, "GPTBot"); !reflect.DeepEqual(got, []Cell{{0, 2}, {2, 2}}) {
		t.Errorf("GPTBot trend %v, want 0/2 then 2/2 (the 503 is not parsed)", got)
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
	s, err := NewTally(TallyOptions{By: ByRank})
	if err != nil {
		t.Fatal(err)
	}
	feed(t, s, "CC-MAIN-2024-33", analyzeSites(t, "CC-MAIN-2024-33", threeSites()))
	r := s.Report()
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
	got := cells(t, table(t, r, TableAIBlocking), "GPTBot")
	want := []Cell{{1, 1}, {2, 2}, {2, 2}, {2, 2}, {0, 0}, {0, 1}, {2, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GPTBot by stratum %v, want %v", got, want)
	}
	if l := table(t, r, TableBots).Labels; l[len(l)-1] != "stratum" {
		t.Errorf("bots labels %v", l)
	}

	// Without ranks beyond a million the stratum is left out.
	s2, _ := NewTally(TallyOptions{By: ByRank})
	feed(t, s2, "x", analyzeSites(t, "x", threeSites()[:3]))
	for _, g := range s2.Report().Groups {
		if g.Label == "rank > 1M" {
			t.Error("empty rank > 1M stratum reported")
		}
	}
}

// A crawl with many repeated hosts: every repeat is found, no site is lost
// (the filters are sized far above this, so they are exact here).
func TestSummaryManyDuplicates(t *testing.T) {
	s, _ := NewTally(TallyOptions{})
	const hosts = 50_000
	var rows []schema.CaptureRow
	var bots []schema.BotRow
	for rep := range 3 {
		for h := range hosts {
			id := schema.CaptureID(fmt.Sprintf("<urn:%d:%d>", rep, h), "", 0)
			rows = append(rows, schema.CaptureRow{Key: schema.Key{CaptureID: id, Host: fmt.Sprintf("h%d.example", h)},
				RobotsPath: true, Outcome: schema.OutcomeParsed, Groups: 1})
			verdict := schema.VerdictNone
			if rep == 0 && h%4 == 0 {
				verdict = schema.VerdictFull
			}
			bots = append(bots, schema.BotRow{Key: schema.Key{CaptureID: id}, Bot: "GPTBot", Category: "ai-training", Matched: schema.MatchedNamed, Verdict: verdict})
		}
	}
	s.BeginCrawl("c", int64(len(rows)))
	s.AddCaptures(rows)
	s.AddBots(bots)
	s.EndCrawl()
	r := s.Report()
	if g := r.Groups[0]; g.Sites != hosts || g.Duplicates != 2*hosts {
		t.Errorf("sites %d duplicates %d, want %d and %d", g.Sites, g.Duplicates, hosts, 2*hosts)
	}
	gpt := r.Bots[0].Groups[0]
	if gpt.Sites != hosts || gpt.Class(DefVerdict, ClassFull) != hosts/4 {
		t.Errorf("GPTBot %d of %d full, want %d of %d (the first capture of each host)", gpt.Class(DefVerdict, ClassFull), gpt.Sites, hosts/4, hosts)
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
	panics("rows_outside_crawl", func(s *Tally) { s.AddBots([]schema.BotRow{{}}) })
	panics("crawl_twice", func(s *Tally) { s.BeginCrawl("a", 0); s.EndCrawl(); s.BeginCrawl("a", 0) })
	panics("captures_after_bots", func(s *Tally) {
		s.BeginCrawl("a", 0)
		s.AddBots([]schema.BotRow{{}})
		s.AddCaptures([]schema.CaptureRow{{}})
	})
	if _, err := NewTally(TallyOptions{By: "host"}); err == nil || !strings.Contains(err.Error(), "host") {
		t.Errorf("By host: %v", err)
	}
}

func TestSummaryColumnsExist(t *testing.T) {
	// Every column the summary reads is a real column of its table.
	types := map[schema.TableName]any{schema.Captures: schema.CaptureRow{}, schema.Bots: schema.BotRow{},
		schema.Agents: schema.AgentRow{}, schema.Directives: schema.DirectiveRow{}}
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

// BenchmarkSummaryBots measures the bots rows AddBots counts per second, the
// table that dominates a report (one row per capture and catalog bot).
func BenchmarkSummaryBots(b *testing.B) {
	rows := analyzeSites(b, "c", threeSites())
	s, _ := NewTally(TallyOptions{})
	s.BeginCrawl("c", int64(len(rows.Captures)))
	s.AddCaptures(rows.Captures)
	bots := rows.BotRows()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		s.AddBots(bots)
		n += len(bots)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
}
