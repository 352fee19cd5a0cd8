package stats

import (
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/lint"
	"github.com/robotstat/robotstat/record"
	"github.com/robotstat/robotstat/schema"
)

func captureOf(body []byte, status int) *record.Capture {
	return &record.Capture{
		Source: "/data/CC-MAIN-x.warc.gz", Offset: 1234, Index: 7, Crawl: "CC-MAIN-2025-08",
		URL: "https://www.example.com/robots.txt", RobotsPath: true,
		Status: status, Body: body, BodyLen: int64(len(body)),
	}
}

func analyze(t testing.TB, o Options, c *record.Capture) *schema.Batch {
	t.Helper()
	a, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	var rows schema.Batch
	a.Analyze(c, &rows)
	return &rows
}

const basicBody = "User-agent: *\nDisallow: /a\nAllow: /a/b*\nDisallow: /*.pdf$\n# c\n\nSitemap: https://x/s.xml\nCrawl-delay: 5\nDissallow: /x\nUser-agent GPTBot\nfoo bar baz\n"

func TestCaptureRowBasic(t *testing.T) {
	rows := analyze(t, DefaultOptions(), captureOf([]byte(basicBody), 200))
	if len(rows.Captures) != 1 {
		t.Fatalf("%d capture rows", len(rows.Captures))
	}
	c := rows.Captures[0]
	type counts struct {
		Lines, Blank, Comment, Directive, Invalid, Groups, UA, Allow, Disallow, Star, Dollar, Sitemaps, Nonstd, Typo, NoColon int32
	}
	got := counts{c.Lines, c.BlankLines, c.CommentLines, c.DirectiveLines, c.InvalidLines, c.Groups, c.UserAgentLines,
		c.AllowRules, c.DisallowRules, c.RulesWithStar, c.RulesWithDollar, c.Sitemaps, c.NonstandardLines, c.TypoLines, c.MissingColonLines}
	want := counts{11, 1, 1, 8, 1, 2, 2, 1, 3, 2, 1, 1, 3, 1, 1}
	if got != want {
		t.Errorf("counts\n got %+v\nwant %+v", got, want)
	}
	if !c.HasCrawlDelay || c.StarDisallowsRoot || c.Template != "" || c.LineEndings != "lf" {
		t.Errorf("crawl-delay %v star-root %v template %q endings %q", c.HasCrawlDelay, c.StarDisallowsRoot, c.Template, c.LineEndings)
	}
	if c.Outcome != "parsed" || c.StatusClass != "success" || c.HTTPStatus != 200 {
		t.Errorf("outcome %q class %q status %d", c.Outcome, c.StatusClass, c.HTTPStatus)
	}
	if c.Host != "www.example.com" || c.Scheme != "https" || c.Port != 443 || c.RegisteredDomain != "example.com" {
		t.Errorf("site %q %q %d %q", c.Host, c.Scheme, c.Port, c.RegisteredDomain)
	}
	if c.Source != "CC-MAIN-x.warc.gz" || c.RecordOffset != 1234 || c.Crawl != "CC-MAIN-2025-08" || !c.RobotsPath {
		t.Errorf("source %q offset %d crawl %q robots-path %v", c.Source, c.RecordOffset, c.Crawl, c.RobotsPath)
	}
	if c.CaptureID != schema.CaptureID("", "CC-MAIN-2025-08", "CC-MAIN-x.warc.gz", 1234) || len(c.CaptureID) != 32 {
		t.Errorf("capture id %q", c.CaptureID)
	}
	sum := sha1.Sum([]byte(basicBody))
	if want := "sha1:" + base32.StdEncoding.EncodeToString(sum[:]); c.BodyDigest != want {
		t.Errorf("digest %q, want %q", c.BodyDigest, want)
	}
	if c.BodyBytes != int64(len(basicBody)) || c.ParsedBytes != int64(len(basicBody)) || c.Over500KiB {
		t.Errorf("bytes %d parsed %d over %v", c.BodyBytes, c.ParsedBytes, c.Over500KiB)
	}
}

func TestCaptureRowCases(t *testing.T) {
	big := strings.Repeat("Disallow: /x\n", 10)
	tests := []struct {
		name  string
		setup func(c *record.Capture, o *Options)
		check func(t *testing.T, c schema.CaptureRow)
	}{
		{"RFC9309_2_3_1_3_404_unavailable", func(c *record.Capture, o *Options) {
			c.Status = 404
			c.Body = []byte("<html><body>Not found</body></html>")
		},
			func(t *testing.T, c schema.CaptureRow) {
				if c.Outcome != "unavailable" || c.StatusClass != "notfound" || c.Lines != 0 || c.ParsedBytes != 0 || !c.LooksHTML || c.Groups != 0 {
					t.Errorf("%+v", c)
				}
			}},
		{"RFC9309_2_3_1_4_503_unreachable", func(c *record.Capture, o *Options) { c.Status = 503 },
			func(t *testing.T, c schema.CaptureRow) {
				if c.Outcome != "unreachable" || c.StatusClass != "defer_visits" || c.StarDisallowsRoot {
					t.Errorf("%q %q", c.Outcome, c.StatusClass)
				}
			}},
		{"RFC9309_2_3_1_2_301_redirect", func(c *record.Capture, o *Options) { c.Status = 301; c.Location = "/new/robots.txt" },
			func(t *testing.T, c schema.CaptureRow) {
				if c.Outcome != "redirect" || c.StatusClass != "redirect" || c.RedirectTarget != "https://www.example.com/new/robots.txt" {
					t.Errorf("%q %q %q", c.Outcome, c.StatusClass, c.RedirectTarget)
				}
			}},
		{"status_429_rfc", func(c *record.Capture, o *Options) { c.Status = 429 },
			func(t *testing.T, c schema.CaptureRow) {
				if c.Outcome != "unavailable" || c.StatusClass != "defer_visits" {
					t.Errorf("%q %q", c.Outcome, c.StatusClass)
				}
			}},
		{"Google_429_option", func(c *record.Capture, o *Options) { c.Status = 429; o.TooManyRequestsUnreachable = true },
			func(t *testing.T, c schema.CaptureRow) {
				if c.Outcome != "unreachable" {
					t.Errorf("%q", c.Outcome)
				}
			}},
		{"status_0_file", func(c *record.Capture, o *Options) { c.Status = 0 },
			func(t *testing.T, c schema.CaptureRow) {
				if c.Outcome != "parsed" || c.StatusClass != "other" || c.HTTPStatus != 0 || c.Lines != 2 {
					t.Errorf("%q %q %d", c.Outcome, c.StatusClass, c.Lines)
				}
			}},
		{"bom_crlf", func(c *record.Capture, o *Options) { c.Body = []byte("\xEF\xBB\xBFUser-agent: *\r\nDisallow: /\r\n") },
			func(t *testing.T, c schema.CaptureRow) {
				if !c.BOM || c.LineEndings != "crlf" || !c.StarDisallowsRoot || c.Groups != 1 {
					t.Errorf("bom %v endings %q star %v", c.BOM, c.LineEndings, c.StarDisallowsRoot)
				}
			}},
		{"cr_only", func(c *record.Capture, o *Options) { c.Body = []byte("User-agent: *\rDisallow: /\r") },
			func(t *testing.T, c schema.CaptureRow) {
				if c.LineEndings != "cr" || c.Lines != 2 || !c.StarDisallowsRoot {
					t.Errorf("%q %d", c.LineEndings, c.Lines)
				}
			}},
		{"mixed", func(c *record.Capture, o *Options) { c.Body = []byte("User-agent: *\r\nDisallow: /\nAllow: /x\r") },
			func(t *testing.T, c schema.CaptureRow) {
				if c.LineEndings != "mixed" {
					t.Errorf("%q", c.LineEndings)
				}
			}},
		{"single_line_none", func(c *record.Capture, o *Options) { c.Body = []byte("User-agent: *") },
			func(t *testing.T, c schema.CaptureRow) {
				if c.LineEndings != "none" || c.Lines != 1 {
					t.Errorf("%q", c.LineEndings)
				}
			}},
		{"binary", func(c *record.Capture, o *Options) { c.Body = []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03") },
			func(t *testing.T, c schema.CaptureRow) {
				if !c.LooksBinary || c.LooksHTML {
					t.Errorf("binary %v html %v", c.LooksBinary, c.LooksHTML)
				}
			}},
		{"over_500kib", func(c *record.Capture, o *Options) { c.Body = []byte(big); c.BodyLen = 600000 },
			func(t *testing.T, c schema.CaptureRow) {
				if !c.Over500KiB || c.BodyBytes != 600000 || c.ParsedBytes != int64(len(big)) {
					t.Errorf("over %v bytes %d parsed %d", c.Over500KiB, c.BodyBytes, c.ParsedBytes)
				}
			}},
		{"payload_digest_and_record_id", func(c *record.Capture, o *Options) {
			c.PayloadDigest = "sha1:AAAA"
			c.RecordID = "<urn:uuid:0f0e>"
		},
			func(t *testing.T, c schema.CaptureRow) {
				if c.BodyDigest != "sha1:AAAA" || c.WARCRecordID != "urn:uuid:0f0e" || c.CaptureID != schema.CaptureID("urn:uuid:0f0e", "", "", 0) {
					t.Errorf("%q %q %q", c.BodyDigest, c.WARCRecordID, c.CaptureID)
				}
			}},
		{"idn_host_port", func(c *record.Capture, o *Options) { c.URL = "http://Bücher.DE:8080/robots.txt" },
			func(t *testing.T, c schema.CaptureRow) {
				if c.Host != "xn--bcher-kva.de" || c.Port != 8080 || c.RegisteredDomain != "xn--bcher-kva.de" || c.Scheme != "http" {
					t.Errorf("%q %d %q", c.Host, c.Port, c.RegisteredDomain)
				}
			}},
		{"ip_host", func(c *record.Capture, o *Options) { c.URL = "http://192.0.2.1/robots.txt" },
			func(t *testing.T, c schema.CaptureRow) {
				if c.Host != "192.0.2.1" || c.RegisteredDomain != "" || c.Port != 80 {
					t.Errorf("%q %q", c.Host, c.RegisteredDomain)
				}
			}},
		{"rank_by_registered_domain", func(c *record.Capture, o *Options) {
			o.Ranks, _ = ReadRanks(strings.NewReader("1,google.com\n2,example.com\n"))
		},
			func(t *testing.T, c schema.CaptureRow) {
				if c.Rank != 2 {
					t.Errorf("rank %d", c.Rank)
				}
			}},
		{"fetch_time_utc", func(c *record.Capture, o *Options) {
			c.FetchTime = time.Date(2025, 2, 3, 4, 5, 6, 0, time.FixedZone("x", 3600))
		},
			func(t *testing.T, c schema.CaptureRow) {
				if c.FetchTime.Location() != time.UTC || c.FetchTime.Hour() != 3 {
					t.Errorf("%v", c.FetchTime)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := captureOf([]byte("User-agent: *\nDisallow: /private/\n"), 200)
			o := DefaultOptions()
			tc.setup(c, &o)
			rows := analyze(t, o, c)
			tc.check(t, rows.Captures[0])
		})
	}
}

func TestGroupAndAgentRows(t *testing.T) {
	body := "User-agent: GPTBot/1.1\nUser-agent: CCBot\nUser-agent: ccbot\nCrawl-delay: 2.5\nDisallow: /\nNoindex: /x\n\nUser-agent: *\nDisallow:\nAllow: /\n\nUser-agent: GPTBot\nAllow: /public/\nSitemap: https://www.example.com/s.xml\n"
	rows := analyze(t, DefaultOptions(), captureOf([]byte(body), 200))
	if len(rows.Groups) != 3 {
		t.Fatalf("%d groups", len(rows.Groups))
	}
	g0 := rows.Groups[0]
	if !reflect.DeepEqual(g0.UserAgents, []string{"GPTBot/1.1", "CCBot", "ccbot"}) ||
		!reflect.DeepEqual(g0.ProductTokens, []string{"gptbot", "ccbot"}) ||
		g0.IsStar || g0.DisallowRules != 1 || g0.AllowRules != 0 || g0.CrawlDelay == nil || *g0.CrawlDelay != 2.5 ||
		!reflect.DeepEqual(g0.OtherDirectives, []string{"crawl-delay", "noindex"}) || g0.FirstLine != 1 {
		t.Errorf("group 0: %+v", g0)
	}
	g1 := rows.Groups[1]
	if !g1.IsStar || !g1.EmptyDisallow || g1.AllowRules != 1 || g1.CrawlDelay != nil || g1.GroupIndex != 1 ||
		!reflect.DeepEqual(g1.ProductTokens, []string{"*"}) {
		t.Errorf("group 1: %+v", g1)
	}
	if g2 := rows.Groups[2]; !reflect.DeepEqual(g2.OtherDirectives, []string{"sitemap"}) {
		t.Errorf("group 2: %+v", g2)
	}
	agents := map[string]schema.AgentRow{}
	for _, a := range rows.Agents {
		if _, dup := agents[a.Token]; dup {
			t.Errorf("token %q twice", a.Token)
		}
		agents[a.Token] = a
	}
	if len(agents) != 3 {
		t.Fatalf("agents %+v", rows.Agents)
	}
	// GPTBot's two groups merge (RFC 9309 §2.2.1): Disallow: / with Allow: /public/.
	if a := agents["gptbot"]; a.Groups != 2 || a.AllowRules != 1 || a.DisallowRules != 1 || !a.DisallowRoot || a.RootAllowed ||
		a.Bot != "GPTBot" || a.Operator != "OpenAI" || a.Category != "ai-training" {
		t.Errorf("gptbot %+v", a)
	}
	if a := agents["ccbot"]; a.Groups != 1 || !a.DisallowRoot || a.RootAllowed || a.Category != "ai-data" {
		t.Errorf("ccbot %+v", a)
	}
	if a := agents["*"]; a.Groups != 1 || a.DisallowRoot || !a.RootAllowed || a.Bot != "" {
		t.Errorf("star %+v", a)
	}
}

func TestBotRows(t *testing.T) {
	body := "User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n"
	rows := analyze(t, withBots(DefaultOptions()), captureOf([]byte(body), 200))
	if len(rows.BotRows()) != DefaultCatalog().Len() {
		t.Fatalf("%d bot rows for %d bots", len(rows.BotRows()), DefaultCatalog().Len())
	}
	bots := map[string]schema.BotRow{}
	for _, b := range rows.BotRows() {
		bots[b.Bot] = b
	}
	for _, tc := range []struct{ bot, matched, verdict, somesite, cic, cc string }{
		{"GPTBot", "named", "full", "full", "all", "disallow-all"},
		{"ClaudeBot", "named", "full", "full", "all", "disallow-all"},
		{"CCBot", "star", "partial", "partial", "some", "allow-part"},
		{"Googlebot", "star", "partial", "partial", "some", "allow-part"},
	} {
		b := bots[tc.bot]
		if b.Matched != tc.matched || b.Verdict != tc.verdict || b.Somesite != tc.somesite || b.CIC != tc.cic || b.CCClass != tc.cc || b.RootAllowed == nil {
			t.Errorf("%s: %+v", tc.bot, b)
		}
	}
	if *bots["GPTBot"].RootAllowed || !*bots["CCBot"].RootAllowed {
		t.Errorf("root allowed wrong")
	}
	rows = analyze(t, DefaultOptions(), captureOf([]byte(body), 302))
	for _, b := range rows.BotRows() {
		if b.Verdict != "unknown" || b.RootAllowed != nil || b.Matched != "none" {
			t.Fatalf("redirect: %+v", b)
		}
	}
}

func TestDirectiveRows(t *testing.T) {
	body := "User-Agent: *\nuser-agent: GPTBot\nContent-Signal: search=yes, ai-train=no\nDissallow: /x\nDisallow: /y\nFoo-Bar: 1\nContent-Usage: /news/ train-ai=n\nCONTENT-SIGNAL: ai-input=yes\n"
	rows := analyze(t, DefaultOptions(), captureOf([]byte(body), 200))
	got := map[string]schema.DirectiveRow{}
	for _, d := range rows.Directives {
		got[d.Directive] = d
	}
	check := func(key, kind, canonical string, count, line int32, first string) {
		t.Helper()
		d, ok := got[key]
		if !ok {
			t.Errorf("no row for %q", key)
			return
		}
		if d.Kind != kind || d.Canonical != canonical || d.Count != count || d.FirstLine != line || d.FirstValue != first {
			t.Errorf("%q: %+v", key, d)
		}
	}
	check("user-agent", "standard", "user-agent", 2, 1, "*")
	check("dissallow", "typo", "disallow", 1, 4, "/x")
	check("disallow", "standard", "disallow", 1, 5, "/y")
	check("foo-bar", "unknown", "", 1, 6, "1")
	check("content-signal", "extension", "content-signal", 2, 3, "search=yes, ai-train=no")
	check("content-usage", "extension", "content-usage", 1, 7, "/news/ train-ai=n")
	if len(got) != 6 {
		t.Errorf("%d keys: %+v", len(got), rows.Directives)
	}
	wantSig := []schema.Signal{{Key: "search", Value: "yes"}, {Key: "ai-train", Value: "no"}, {Key: "ai-input", Value: "yes"}}
	if !reflect.DeepEqual(got["content-signal"].Signals, wantSig) {
		t.Errorf("signals %+v", got["content-signal"].Signals)
	}
	if s := got["content-usage"].Signals; !reflect.DeepEqual(s, []schema.Signal{{Key: "", Value: "/news/"}, {Key: "train-ai", Value: "n"}}) {
		t.Errorf("usage %+v", s)
	}
	if got["disallow"].Signals != nil {
		t.Errorf("signals on disallow")
	}
}

func TestOptInTables(t *testing.T) {
	body := "Disallow: /before\nUser-agent: Mozilla/5.0 (compatible; GPTBot)\nDisallow: /a\nAllow: *.css\nSitemap: https://x/1.xml\n<html>\nDisallow /b\n"
	o := DefaultOptions()
	o.Tables = schema.AllTables()
	rows := analyze(t, o, captureOf([]byte(body), 200))
	if len(rows.Rules) != 3 || rows.Rules[1].PatternNormalized != "*.css" || rows.Rules[0].Line != 3 || rows.Rules[2].Pattern != "/b" {
		t.Errorf("rules %+v", rows.Rules)
	}
	if len(rows.Sitemaps) != 1 || rows.Sitemaps[0].SitemapURL != "https://x/1.xml" || rows.Sitemaps[0].Line != 5 {
		t.Errorf("sitemaps %+v", rows.Sitemaps)
	}
	codes := map[string]int32{}
	for _, d := range rows.Diagnostics {
		codes[d.Code] = d.Line
		if d.Message == "" {
			t.Errorf("no message for %s", d.Code)
		}
	}
	want := map[string]int32{lint.RuleOutside: 1, lint.AgentNotToken: 2, lint.InvalidLine: 6, lint.MissingColon: 7}
	for code, line := range want {
		if l, ok := codes[code]; !ok || l != line {
			t.Errorf("%s: line %d (present %v), want %d; all %v", code, l, ok, line, codes)
		}
	}
	// Default tables only: nothing opt-in is built.
	rows = analyze(t, DefaultOptions(), captureOf([]byte(body), 200))
	if len(rows.Rules)+len(rows.Sitemaps)+len(rows.Diagnostics) != 0 {
		t.Errorf("opt-in tables filled by default")
	}
}

func TestOptionsValidate(t *testing.T) {
	if err := (Options{ParseLimit: 1000}).Validate(); err == nil {
		t.Error("limit below 500 KiB accepted")
	}
	if err := (Options{Tables: []schema.TableName{"nope"}}).Validate(); err == nil {
		t.Error("unknown table accepted")
	}
	if err := DefaultOptions().Validate(); err != nil {
		t.Error(err)
	}
	if err := (Options{}).Validate(); err != nil {
		t.Error(err)
	}
	if _, err := NewAnalyzer(Options{ParseLimit: 10}); err == nil {
		t.Error("NewAnalyzer accepted a bad limit")
	}
	if m := DefaultOptions().Metadata(); m[OptionBotCatalog] != DefaultCatalog().Version() || m[OptionParseLimit] != "512000" {
		t.Errorf("%v", m)
	}
}

// TestRowsReuse checks that Rows can be reset and refilled and that the
// analyzer carries nothing from one capture into the next.
func TestRowsReuse(t *testing.T) {
	a, _ := NewAnalyzer(DefaultOptions())
	var rows schema.Batch
	a.Analyze(captureOf([]byte(basicBody), 200), &rows)
	first := rows.Len()
	a.Analyze(captureOf([]byte("User-agent: *\nDisallow: /\n"), 200), &rows)
	if len(rows.Captures) != 2 || rows.Captures[1].Groups != 1 || rows.Captures[1].Sitemaps != 0 || rows.Captures[1].HasCrawlDelay {
		t.Errorf("second capture %+v", rows.Captures[1])
	}
	rows.Reset()
	a.Analyze(captureOf([]byte(basicBody), 200), &rows)
	if rows.Len() != first {
		t.Errorf("after reset %d rows, first time %d", rows.Len(), first)
	}
}

// TestAnalyzersShareOptions runs several Analyzers concurrently on shared
// options (catalog, templates, ranks), as robotstat's workers do; run with
// -race.
func TestAnalyzersShareOptions(t *testing.T) {
	o := DefaultOptions()
	o.Tables = schema.AllTables()
	o.Ranks, _ = ReadRanks(strings.NewReader("1,example.com\n"))
	done := make(chan *schema.Batch)
	for w := 0; w < 4; w++ {
		go func() {
			a, err := NewAnalyzer(o)
			if err != nil {
				t.Error(err)
			}
			var rows schema.Batch
			for i := 0; i < 20; i++ {
				a.Analyze(captureOf([]byte(basicBody), 200), &rows)
			}
			done <- &rows
		}()
	}
	var first *schema.Batch
	for w := 0; w < 4; w++ {
		r := <-done
		if first == nil {
			first = r
		} else if !reflect.DeepEqual(first.BotRows(), r.BotRows()) || !reflect.DeepEqual(first.Captures, r.Captures) {
			t.Error("workers disagree")
		}
	}
}

// withBots adds the opt-in bots table to o's tables.
func withBots(o Options) Options {
	o.Tables = append(slices.Clone(o.Tables), schema.Bots)
	return o
}

// TestVerdictsRowFoldsBots: the verdicts row of a capture, decoded, gives
// every catalog bot exactly its bots row's verdicts, for each outcome.
func TestVerdictsRowFoldsBots(t *testing.T) {
	bodies := []string{
		"User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n",
		"User-agent: CCBot\nAllow: /\nDisallow: /x\n",
		"",
	}
	for _, status := range []int{200, 404, 503, 301} {
		for i, body := range bodies {
			rows := analyze(t, withBots(DefaultOptions()), captureOf([]byte(body), status))
			if len(rows.Verdicts) != 1 {
				t.Fatalf("%d verdicts rows", len(rows.Verdicts))
			}
			tuples, idx, err := schema.ParseVerdicts(&rows.Verdicts[0], DefaultCatalog().Len())
			if err != nil {
				t.Fatal(err)
			}
			for j, b := range rows.BotRows() {
				v := tuples[idx[j]]
				if v.Matched != b.Matched || v.Verdict != b.Verdict || v.Somesite != b.Somesite || v.CIC != b.CIC || v.CCClass != b.CCClass ||
					(v.RootAllowed == nil) != (b.RootAllowed == nil) || v.RootAllowed != nil && *v.RootAllowed != *b.RootAllowed {
					t.Errorf("status %d body %d bot %s: verdicts row says %+v, bots row %+v", status, i, b.Bot, v, b)
				}
			}
		}
	}
}

// TestVerdictsRow200Bots: a catalog of 200 bots, each named by a group of
// its own with rules that give the bots different verdicts (more group sets
// than the 62 a one-digit bot_tuple can tell apart): the verdicts row,
// decoded, gives every bot exactly its bots row's verdicts. Before issue 21
// the bots past the 62nd group set silently took the 62nd set's verdicts.
func TestVerdictsRow200Bots(t *testing.T) {
	var cat, body strings.Builder
	cat.WriteString("token,operator,category\n")
	for i := range 200 {
		tok := fmt.Sprintf("bot%c%c", 'a'+i/26, 'a'+i%26)
		fmt.Fprintf(&cat, "%s,Op %d,other\n", tok, i)
		switch i % 5 {
		case 0:
			fmt.Fprintf(&body, "User-agent: %s\nDisallow: /\n\n", tok)
		case 1:
			fmt.Fprintf(&body, "User-agent: %s\nDisallow: /p%d/\n\n", tok, i)
		case 2:
			fmt.Fprintf(&body, "User-agent: %s\nAllow: /\n\n", tok)
		case 3:
			fmt.Fprintf(&body, "User-agent: %s\nDisallow: /\nAllow: /pub%d\n\n", tok, i)
		} // case 4: no group, the * group applies
	}
	body.WriteString("User-agent: *\nDisallow: /private\n")
	c, err := ReadCatalog(strings.NewReader(cat.String()))
	if err != nil {
		t.Fatal(err)
	}
	o := withBots(DefaultOptions())
	o.Catalog = c
	rows := analyze(t, o, captureOf([]byte(body.String()), 200))
	if len(rows.Groups) != 161 || len(rows.Verdicts) != 1 {
		t.Fatalf("%d groups, %d verdicts rows", len(rows.Groups), len(rows.Verdicts))
	}
	tuples, idx, err := schema.ParseVerdicts(&rows.Verdicts[0], c.Len())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for j, b := range rows.BotRows() {
		v := tuples[idx[j]]
		seen[v.Verdict+"/"+v.Matched] = true
		if v.Matched != b.Matched || v.Verdict != b.Verdict || v.Somesite != b.Somesite || v.CIC != b.CIC || v.CCClass != b.CCClass ||
			(v.RootAllowed == nil) != (b.RootAllowed == nil) || v.RootAllowed != nil && *v.RootAllowed != *b.RootAllowed {
			t.Errorf("bot %s: verdicts row says %+v, bots row %+v", b.Bot, v, b)
		}
	}
	if len(seen) < 4 {
		t.Errorf("only %d kinds of verdicts: %v", len(seen), seen)
	}
}
