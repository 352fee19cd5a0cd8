package report

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/schema"
)

// Expectations in these tests are worked out by hand from the bodies.

// Crawls are ordered and dated by schema.CrawlDate, not by name:
// CC-MAIN-2024-10 is 2024-03-04, CC-MAIN-2023-50 2023-12-11, and my-scan
// (no date in the name) the day of its median fetch, 2024-08-03.
func TestTrendCrawlsInDateOrder(t *testing.T) {
	r := reportOf(t, ByCrawl, map[string][]site{
		"my-scan":         {{host: "a.example", status: 200, body: blockGPTBotByName, minute: 5}},
		"CC-MAIN-2024-10": {{host: "a.example", status: 200, body: allowAll}},
		"CC-MAIN-2023-50": {{host: "a.example", status: 200, body: blockAllByStar}},
	})
	var labels []string
	var dates []int32
	for _, g := range r.Groups {
		labels, dates = append(labels, g.Label), append(dates, g.Date)
	}
	want := []string{"CC-MAIN-2023-50", "CC-MAIN-2024-10", "my-scan"}
	if !reflect.DeepEqual(labels, want) {
		t.Fatalf("groups %v, want %v", labels, want)
	}
	if wd := []int32{day(t, "2023-12-11"), day(t, "2024-03-04"), day(t, "2024-08-03")}; !reflect.DeepEqual(dates, wd) {
		t.Errorf("dates %v, want %v", dates, wd)
	}
	var trend []string
	for _, c := range r.Trend.Crawls {
		trend = append(trend, c.Name+" "+c.DateString())
	}
	if w := []string{"CC-MAIN-2023-50 2023-12-11", "CC-MAIN-2024-10 2024-03-04", "my-scan 2024-08-03"}; !reflect.DeepEqual(trend, w) {
		t.Errorf("trend crawls %v, want %v", trend, w)
	}
	// GPTBot: full by * first, then allowed, then full by name.
	gpt := -1
	for i, b := range r.Bots {
		if b.Bot == "GPTBot" {
			gpt = i
		}
	}
	var got [][3]int64
	for _, p := range r.Trend.Points[PopAll][StratumAll] {
		bc := p.Bot(gpt)
		got = append(got, [3]int64{bc.Class(DefVerdict, ClassFull), bc.Counts[MatchedNamed][DefVerdict][ClassFull], bc.Counts[MatchedStar][DefVerdict][ClassFull]})
	}
	if w := [][3]int64{{1, 0, 1}, {0, 0, 0}, {1, 1, 0}}; !reflect.DeepEqual(got, w) {
		t.Errorf("GPTBot full/named/star by crawl %v, want %v", got, w)
	}
}

// The panel is the hosts that are a parsed site in every crawl; --panel
// counts only them, and the trends count both populations either way.
func TestPanel(t *testing.T) {
	crawls := map[string][]site{
		"CC-MAIN-2024-10": {
			{host: "a.example", status: 200, body: blockGPTBotByName},
			{host: "b.example", status: 200, body: allowAll},
			{host: "c.example", status: 200, body: blockAllByStar},
			{host: "d.example", status: 404},
		},
		"CC-MAIN-2024-22": {
			{host: "a.example", status: 200, body: blockGPTBotByName},
			{host: "b.example", status: 200, body: blockGPTBotByName},
			{host: "d.example", status: 200, body: blockAllByStar},
		},
	}
	// a and b are parsed in both crawls; c misses the second, d is a 404 in
	// the first.
	for _, panel := range []bool{false, true} {
		r := reportWith(t, TallyOptions{Panel: panel}, crawls)
		if r.Trend.PanelHosts != 2 || !r.Trend.History {
			t.Fatalf("panel hosts %d (history %v), want 2", r.Trend.PanelHosts, r.Trend.History)
		}
		var all, pan []int64
		for i := range r.Trend.Crawls {
			all = append(all, r.Trend.Points[PopAll][StratumAll][i].Parsed)
			pan = append(pan, r.Trend.Points[PopPanel][StratumAll][i].Parsed)
		}
		if !reflect.DeepEqual(all, []int64{3, 3}) || !reflect.DeepEqual(pan, []int64{2, 2}) {
			t.Errorf("panel=%v: parsed all %v, panel %v; want [3 3] and [2 2]", panel, all, pan)
		}
		var parsed []int64
		for _, g := range r.Groups {
			parsed = append(parsed, g.Parsed)
		}
		want := []int64{3, 3}
		if panel {
			want = []int64{2, 2}
		}
		if !reflect.DeepEqual(parsed, want) {
			t.Errorf("panel=%v: tables' parsed %v, want %v", panel, parsed, want)
		}
		// GPTBot in the panel: a blocks it in both, b from the second.
		gpt := column(block(t, table(t, r, TableAIBlocking), "GPTBot"), 0)
		wantGPT := []Cell{{2, 3}, {3, 3}}
		if panel {
			wantGPT = []Cell{{1, 2}, {2, 2}}
		}
		if !reflect.DeepEqual(gpt, wantGPT) {
			t.Errorf("panel=%v: GPTBot %v, want %v", panel, gpt, wantGPT)
		}
		// First blocks of GPTBot: a in the first crawl; b, c, d later or
		// never (c blocks it by * in the first); in the panel a and b.
		fb := block(t, table(t, r, TableFirstBlocks), "GPTBot")
		wantFB := []Cell{{2, 4}, {2, 4}}
		if panel {
			wantFB = []Cell{{1, 2}, {1, 2}}
		}
		if got := fb[0].Cells; !reflect.DeepEqual(got, wantFB) {
			t.Errorf("panel=%v: GPTBot first blocks %v, want %v", panel, got, wantFB)
		}
	}
}

// Rank strata of the trends: cumulative top-k, then beyond a million and
// unranked; a --sites list given to the report replaces sites.rank.
func TestTrendStrata(t *testing.T) {
	crawls := map[string][]site{"CC-MAIN-2024-10": {
		{host: "a.example", status: 200, body: blockGPTBotByName, rank: 500},
		{host: "b.example", status: 200, body: blockAllByStar, rank: 50_000},
		{host: "c.example", status: 200, body: allowAll, rank: 3_000_000},
		{host: "d.example", status: 200, body: allowAll},
	}}
	parsedBy := func(r *Report) []int64 {
		var out []int64
		for st := range NumStrata {
			out = append(out, r.Trend.Points[PopAll][st][0].Parsed)
		}
		return out
	}
	r := reportOf(t, ByCrawl, crawls)
	// all, top 1k, 10k, 100k, 1M, > 1M, unranked
	if got, want := parsedBy(r), []int64{4, 1, 1, 2, 2, 1, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("parsed by stratum %v, want %v", got, want)
	}
	if r.RankedSites != 3 {
		t.Errorf("ranked sites %d, want 3", r.RankedSites)
	}
	// The report's own list: d is 7th, a unranked now.
	rr := reportWith(t, TallyOptions{Rank: func(host, _ string) (int64, bool) {
		return 7, host == "d.example"
	}}, crawls)
	if got, want := parsedBy(rr), []int64{4, 1, 1, 1, 1, 0, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("parsed by stratum with --sites %v, want %v", got, want)
	}
	if rr.RankedSites != 1 {
		t.Errorf("ranked sites with --sites %d, want 1", rr.RankedSites)
	}
}

// The AI bots no file names take the * group's verdicts: one line.
func TestStarOnlyCollapsed(t *testing.T) {
	r := reportOf(t, ByCrawl, map[string][]site{"c": threeSites()})
	if len(r.Named) == 0 || len(r.StarOnly) < 10 {
		t.Fatalf("named %d, star only %d", len(r.Named), len(r.StarOnly))
	}
	if got := len(r.Named) + len(r.StarOnly); got != len(r.AIOrder) {
		t.Errorf("%d named + %d star only, %d AI bots", len(r.Named), len(r.StarOnly), len(r.AIOrder))
	}
	for _, i := range r.Named {
		if r.Bots[i].Bot == "ClaudeBot" {
			t.Error("ClaudeBot is named by no file of the three sites, yet has its own line")
		}
	}
	ai := table(t, r, TableAIBlocking)
	if n := len(ai.Rows); n != len(r.Named)+1 {
		t.Errorf("AI table has %d rows, want %d named bots and one for the rest", n, len(r.Named))
	}
	last := ai.Rows[len(ai.Rows)-1]
	if !strings.HasPrefix(last.Labels[0], "every other AI bot (") || last.Labels[2] != "only * applies" {
		t.Errorf("last row %v", last.Labels)
	}
	// b blocks everything by *, c allows it: 1 of 3 full, by *.
	if want := []Cell{{1, 3}, {0, 3}, {1, 3}, {1, 3}, {1, 3}}; !reflect.DeepEqual(last.Cells, want) {
		t.Errorf("every other AI bot %v, want %v", last.Cells, want)
	}
}

// Category roll-ups: a site counts once per category, as blocking some
// or every bot of it.
func TestCategories(t *testing.T) {
	r := reportOf(t, ByCrawl, map[string][]site{"c": {
		{host: "a.example", status: 200, body: blockGPTBotByName}, // one training bot
		{host: "b.example", status: 200, body: blockAllByStar},    // every bot
		{host: "c.example", status: 200, body: allowAll},
	}})
	cat := table(t, r, TableCategories)
	tr := block(t, cat, "ai-training")
	if got := column(tr, 0); !reflect.DeepEqual(got, []Cell{{2, 3}, {1, 3}}) {
		t.Errorf("ai-training some/every %v, want 2/3 and 1/3", got)
	}
	if got := column(block(t, cat, "ai-search"), 0); !reflect.DeepEqual(got, []Cell{{1, 3}, {1, 3}}) {
		t.Errorf("ai-search some/every %v, want 1/3 and 1/3", got)
	}
}

// Content-Signal and Content-Usage per site, and against the rules.
func TestSignals(t *testing.T) {
	r := reportOf(t, ByCrawl, map[string][]site{"c": {
		// refuses by signal (in the * group) and blocks GPTBot: agree in part
		{host: "a.example", status: 200, body: "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n"},
		// allows training (file-wide) but blocks everything: contradict
		{host: "b.example", status: 200, body: "Content-Signal: ai-train=yes\n\nUser-agent: *\nDisallow: /\n"},
		// Content-Usage: n for /, y under /open/ only: refuses, rules open
		{host: "c.example", status: 200, body: "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y\n"},
		// a path rule for / beats the path-less one: allows
		{host: "d.example", status: 200, body: "User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: train-ai=n\nDisallow:\n"},
		// a named group's Content-Signal, and an old label
		{host: "e.example", status: 200, body: "User-agent: CCBot\nContent-Signal: ai-input=no\nContent-Usage: ai=n\nDisallow:\n"},
		{host: "f.example", status: 200, body: allowAll},
	}})
	sig := table(t, r, TableSignals)
	want := map[string]Cell{
		"any line\x00Content-Signal":       {3, 6},
		"in the * group":                   {1, 6},
		"in a group naming bots":           {1, 6},
		"outside any group (file-wide)":    {1, 6},
		"ai-train=no":                      {1, 6},
		"ai-train=yes":                     {1, 6},
		"ai-input=no":                      {1, 6},
		"any line\x00Content-Usage":        {3, 6},
		"a rule with a path":               {2, 6},
		"train-ai=n at /":                  {1, 6},
		"train-ai=y at /":                  {1, 6},
		"a label vocab-08 does not define": {1, 6},
	}
	dir := ""
	for _, row := range sig.Rows {
		if row.Labels[0] != "" {
			dir = row.Labels[0]
		}
		k := row.Labels[1]
		if k == "any line" {
			k += "\x00" + dir
		}
		if w, ok := want[k]; ok {
			if row.Cells[0] != w {
				t.Errorf("signals %s %q: %v, want %v", dir, row.Labels[1], row.Cells[0], w)
			}
			delete(want, k)
		}
	}
	for k := range want {
		t.Errorf("signals table lacks %q", k)
	}
	cross := map[[2]string]int64{}
	st := ""
	for _, row := range table(t, r, TableSignalRules).Rows {
		if row.Labels[0] != "" {
			st = row.Labels[0]
		}
		cross[[2]string{st, row.Labels[2]}] = row.Cells[0].Count
	}
	wantCross := map[[2]string]int64{
		{"refused", "agree in part"}: 1, // a
		{"allowed", "contradict"}:    1, // b
		{"refused", "signal only"}:   1, // c
		{"allowed", "agree"}:         1, // d
		{"not stated", "neither"}:    2, // e (its signals state nothing on training), f
	}
	if !reflect.DeepEqual(cross, wantCross) {
		t.Errorf("signals against rules %v, want %v", cross, wantCross)
	}
}

func TestMatchesRoot(t *testing.T) {
	for _, tt := range []struct {
		path string
		ok   bool
	}{{"/", true}, {"/*", true}, {"*", true}, {"/$", true}, {"*$", true}, {"/**", true},
		{"/a", false}, {"/a*", false}, {"$", false}, {"/*a", false}} {
		if n, ok := matchesRoot(tt.path); ok != tt.ok || ok && n != len(tt.path) {
			t.Errorf("matchesRoot(%q) = %d, %v; want %v", tt.path, n, ok, tt.ok)
		}
	}
}

// WriteCSV writes every export, complete, into DIR and nowhere else;
// bots_by_crawl holds the trend's numbers.
func TestWriteCSV(t *testing.T) {
	dir := fixtureDir(t)
	d := readFixture(t, dir, TallyOptions{})
	out := filepath.Join(t.TempDir(), "csv")
	if err := WriteCSV(out, d); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	var want []string
	for _, n := range d.Exports() {
		want = append(want, n+".csv")
	}
	slices.Sort(want)
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	f, err := os.Open(filepath.Join(out, "bots_by_crawl.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if h := strings.Join(recs[0], ","); h != "crawl,crawl_date,bot,operator,category,definition,sites,full,full_lo,full_hi,full_named,full_named_lo,full_named_hi,full_star,full_star_lo,full_star_hi,partial,partial_lo,partial_hi,none,none_lo,none_hi" {
		t.Errorf("header %s", h)
	}
	r := d.Report
	if n := len(recs) - 1; n != len(r.Trend.Crawls)*len(r.Bots)*NumDefinitions {
		t.Errorf("%d rows, want crawls × bots × definitions", n)
	}
	// GPTBot's verdict row of the last crawl is the AI table's.
	last := r.Trend.Crawls[len(r.Trend.Crawls)-1]
	gpt := block(t, table(t, r, TableAIBlocking), "GPTBot")
	cells := gpt[len(gpt)-1].Cells
	found := false
	for _, rec := range recs[1:] {
		if rec[0] == last.Name && rec[2] == "GPTBot" && rec[5] == "verdict" {
			found = true
			if rec[1] != last.DateString() || rec[6] != itoa(cells[0].Of) || rec[7] != itoa(cells[0].Count) || rec[10] != itoa(cells[1].Count) ||
				rec[13] != itoa(cells[2].Count) || rec[16] != itoa(cells[3].Count) {
				t.Errorf("bots_by_crawl %v, AI table %v", rec, cells)
			}
			// Each share's bounds beside it, as fractions, as the table
			// prints them in percent: the full share's "[42.9-53.1]".
			lo, hi, _ := cells[0].Interval()
			if rec[8] != strconv.FormatFloat(lo, 'f', 6, 64) || rec[9] != strconv.FormatFloat(hi, 'f', 6, 64) ||
				formatInterval(cells[0]) != "["+pct1(t, rec[8])+"-"+pct1(t, rec[9])+"]" {
				t.Errorf("full bounds %s, %s; the table's interval %s", rec[8], rec[9], formatInterval(cells[0]))
			}
			if lo >= float64(cells[0].Count)/float64(cells[0].Of) || hi <= float64(cells[0].Count)/float64(cells[0].Of) {
				t.Errorf("full share outside its interval [%v, %v]", lo, hi)
			}
		}
	}
	if !found {
		t.Error("no GPTBot verdict row for the last crawl")
	}
}

// pct1 writes a fraction from the CSV as a percentage with one decimal.
func pct1(t *testing.T, s string) string {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bound %q: %v", s, err)
	}
	return strconv.FormatFloat(100*v, 'f', 1, 64)
}

// A capture's signals rows may be split over two calls: the longest path
// still wins within its group (here "/" with y over the path-less n).
func TestSignalsSplitOverCalls(t *testing.T) {
	s, _ := NewTally(TallyOptions{})
	id := schema.CaptureID("", "", "x", 1)
	g := int32(0)
	rows := []schema.SignalRow{
		{Key: schema.Key{CaptureID: id}, Directive: "content-usage", Line: 2, GroupIndex: &g, StarGroup: true, Path: "/", Name: "train-ai", Value: "y"},
		{Key: schema.Key{CaptureID: id}, Directive: "content-usage", Line: 3, GroupIndex: &g, StarGroup: true, Name: "train-ai", Value: "n"},
	}
	s.BeginCrawl("c", 1, 1)
	s.AddSignals(rows[:1])
	s.AddSignals(rows[1:])
	s.AddSites([]schema.SiteRow{{Host: "a.example", CaptureID: id, URL: "u", FinalURL: "u", Outcome: schema.OutcomeParsed}})
	s.AddSiteBots([]schema.SiteBotRow{{Host: "a.example", Bot: "GPTBot", Category: schema.CategoryAITraining, Matched: schema.MatchedStar, Verdict: schema.VerdictNone}})
	s.EndCrawl()
	rows2 := table(t, s.Report(), TableSignalRules).Rows
	if len(rows2) != 1 || rows2[0].Labels[0] != "allowed" || rows2[0].Labels[2] != "agree" {
		t.Errorf("signals against rules %+v, want one site: allowed, agree", rows2)
	}
}

// A capture's signals rows may come apart, another capture's between them
// (analyze's workers write row groups of their own, and a capture's rows
// may be split over two): its groups are still combined as one, so the
// longest path wins as in TestSignalsSplitOverCalls, whatever the order.
func TestSignalsApart(t *testing.T) {
	id, other := schema.CaptureID("", "", "x", 1), schema.CaptureID("", "", "y", 2)
	g := int32(0)
	rows := []schema.SignalRow{
		{Key: schema.Key{CaptureID: id}, Directive: "content-usage", Line: 2, GroupIndex: &g, StarGroup: true, Path: "/", Name: "train-ai", Value: "y"},
		{Key: schema.Key{CaptureID: other}, Directive: "content-usage", Line: 2, GroupIndex: &g, StarGroup: true, Name: "train-ai", Value: "n"},
		{Key: schema.Key{CaptureID: id}, Directive: "content-usage", Line: 3, GroupIndex: &g, StarGroup: true, Name: "train-ai", Value: "n"},
	}
	for name, order := range map[string][]int{"together": {0, 2, 1}, "apart": {0, 1, 2}, "apart_reversed": {2, 1, 0}} {
		t.Run(name, func(t *testing.T) {
			s, _ := NewTally(TallyOptions{})
			s.BeginCrawl("c", 1, 1)
			for _, i := range order {
				s.AddSignals(rows[i : i+1])
			}
			s.AddSites([]schema.SiteRow{{Host: "a.example", CaptureID: id, URL: "u", FinalURL: "u", Outcome: schema.OutcomeParsed}})
			s.AddSiteBots([]schema.SiteBotRow{{Host: "a.example", Bot: "GPTBot", Category: schema.CategoryAITraining, Matched: schema.MatchedStar, Verdict: schema.VerdictNone}})
			s.EndCrawl()
			got := table(t, s.Report(), TableSignalRules).Rows
			if len(got) != 1 || got[0].Labels[0] != "allowed" || got[0].Labels[2] != "agree" {
				t.Errorf("signals against rules %+v, want one site: allowed, agree", got)
			}
		})
	}
}
