package stats

import (
	"bytes"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
)

func TestDefaultCatalog(t *testing.T) {
	c := DefaultCatalog()
	if c.Len() < 60 || c.Version() == "" {
		t.Fatalf("%d bots, version %q", c.Len(), c.Version())
	}
	// Every token issue 4 lists, plus search and SEO baselines.
	for _, tok := range []string{"GPTBot", "OAI-SearchBot", "ChatGPT-User", "ClaudeBot", "Claude-SearchBot", "Claude-User",
		"anthropic-ai", "Claude-Web", "CCBot", "Google-Extended", "Applebot-Extended", "Meta-ExternalAgent",
		"Meta-ExternalFetcher", "FacebookBot", "PerplexityBot", "Perplexity-User", "Bytespider", "cohere-ai",
		"cohere-training-data-crawler", "Amazonbot", "Diffbot", "omgili", "ImagesiftBot", "YouBot", "Timpibot",
		"AI2Bot", "DeepSeekBot", "MistralAI-User", "DuckAssistBot", "PetalBot",
		"Googlebot", "Bingbot", "AhrefsBot", "SemrushBot"} {
		b, ok := c.Lookup([]byte(strings.ToUpper(tok)))
		if !ok || !strings.EqualFold(b.Token, tok) {
			t.Errorf("%s missing (%+v)", tok, b)
		}
	}
	cats := map[string]int{}
	for _, b := range c.Bots() {
		cats[b.Category]++
		// A token must be found in a file that names it.
		var r parse.Robots
		parse.NewParser(parse.Options{}).Compile([]byte("User-agent: "+b.Token+"\nDisallow: /\n"), &r)
		if _, m := r.Lookup(b.Token); m != parse.MatchNamed {
			t.Errorf("%s not matched by its own group", b.Token)
		}
	}
	for _, cat := range []string{schema.CategoryAITraining, schema.CategoryAISearch, schema.CategoryAIUserFetch, schema.CategoryAIOptoutToken, schema.CategoryAIData, schema.CategorySearchDualUse, schema.CategoryGenericTool, schema.CategorySearch, schema.CategorySEO, schema.CategoryOther} {
		if cats[cat] == 0 {
			t.Errorf("no bot in category %s", cat)
		}
	}
}

// registrySnapshot is the ai.robots.txt registry file the catalog cites, and
// the date of that snapshot (the checked date of every entry sourced there).
const (
	registrySnapshot = "https://github.com/ai-robots-txt/ai.robots.txt/blob/738c80df/robots.json"
	registryDate     = "2026-08-22"
	catalogChecked   = "2026-12-01" // when the operator pages were read
)

// TestDefaultCatalogSources: every embedded entry says where it was checked
// and when, so `robotstat bots` can show it and a reader can re-check it.
func TestDefaultCatalogSources(t *testing.T) {
	last, _ := time.Parse(time.DateOnly, catalogChecked)
	for _, b := range DefaultCatalog().Bots() {
		u, err := url.Parse(b.Source)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			t.Errorf("%s: source %q is not an http(s) URL", b.Token, b.Source)
		}
		d, err := time.Parse(time.DateOnly, b.Checked)
		if err != nil {
			t.Errorf("%s: checked %q is not YYYY-MM-DD", b.Token, b.Checked)
			continue
		}
		if d.After(last) {
			t.Errorf("%s: checked %s is later than the catalog's last check %s", b.Token, b.Checked, catalogChecked)
		}
		if b.Source == registrySnapshot && b.Checked != registryDate {
			t.Errorf("%s: sourced from the registry snapshot of %s but checked %s", b.Token, registryDate, b.Checked)
		}
		if strings.Contains(b.Source, "ai-robots-txt") && b.Source != registrySnapshot {
			t.Errorf("%s: registry source %q is not the pinned snapshot", b.Token, b.Source)
		}
	}
}

// TestCatalogAmbiguousTokens: tokens that a site may name for something other
// than AI (a search engine, any Scrapy user) have categories of their own
// that reports do not count as AI.
func TestCatalogAmbiguousTokens(t *testing.T) {
	want := map[string]string{
		"Scrapy":   schema.CategoryGenericTool,
		"ExaBot":   schema.CategorySearchDualUse,
		"PetalBot": schema.CategorySearchDualUse,
		"Diffbot":  schema.CategorySearchDualUse,
		"Bravebot": schema.CategorySearchDualUse,
	}
	for tok, cat := range want {
		b, ok := DefaultCatalog().Lookup([]byte(tok))
		if !ok {
			t.Errorf("%s missing", tok)
			continue
		}
		if b.Category != cat {
			t.Errorf("%s: category %s, want %s", tok, b.Category, cat)
		}
		if schema.IsAICategory(b.Category) {
			t.Errorf("%s (%s) counts as AI", tok, b.Category)
		}
	}
	for _, cat := range []string{schema.CategorySearchDualUse, schema.CategoryGenericTool, schema.CategorySearch, schema.CategorySEO, schema.CategoryOther} {
		if schema.IsAICategory(cat) {
			t.Errorf("schema.IsAICategory(%q) = true", cat)
		}
	}
	for _, cat := range []string{schema.CategoryAITraining, schema.CategoryAISearch, schema.CategoryAIUserFetch, schema.CategoryAIOptoutToken, schema.CategoryAIData} {
		if !schema.IsAICategory(cat) {
			t.Errorf("schema.IsAICategory(%q) = false", cat)
		}
	}
}

// TestCatalogTokens2026: tokens operators documented in 2025-26.
func TestCatalogTokens2026(t *testing.T) {
	for tok, want := range map[string]struct{ op, cat, source string }{
		"KimiBot":            {"Moonshot AI (Kimi)", schema.CategoryAITraining, "https://www.kimi.com/policies/kimi-crawlers"},
		"Kimi-SearchBot":     {"Moonshot AI (Kimi)", schema.CategoryAISearch, "https://www.kimi.com/policies/kimi-crawlers"},
		"Kimi-User":          {"Moonshot AI (Kimi)", schema.CategoryAIUserFetch, "https://www.kimi.com/policies/kimi-crawlers"},
		"MistralAI-Training": {"Mistral AI", schema.CategoryAITraining, "https://docs.mistral.ai/en/robots"},
		"MistralAI-Index":    {"Mistral AI", schema.CategoryAISearch, "https://docs.mistral.ai/en/robots"},
		"MistralAI-User":     {"Mistral AI", schema.CategoryAIUserFetch, "https://docs.mistral.ai/en/robots"},
		"Diffbot-User":       {"Diffbot", schema.CategoryOther, "https://docs.diffbot.com/docs/does-crawl-respect-robotstxt"},
		"meta-webindexer":    {"Meta", schema.CategoryAISearch, registrySnapshot},
		"ExaSearchBot":       {"Exa", schema.CategoryAISearch, registrySnapshot},
	} {
		b, ok := DefaultCatalog().Lookup([]byte(tok))
		if !ok || b.Token != tok {
			t.Errorf("%s missing (%+v)", tok, b)
			continue
		}
		if b.Operator != want.op || b.Category != want.cat || b.Source != want.source {
			t.Errorf("%s: %+v, want %+v", tok, b, want)
		}
	}
}

func TestReadCatalog(t *testing.T) {
	tests := []struct {
		name, in string
		err      error
		n        int
	}{
		{"json", `{"format":"robotstat-bot-catalog","version":"9","bots":[{"token":"FooBot","operator":"Foo","category":"seo"}]}`, nil, 1},
		{"csv", "token,operator,category\nFooBot,Foo,seo\n# comment\nBarBot,\"Bar, Inc.\",other\n", nil, 2},
		// Issue 26.7: a JSON list was read as CSV ("CSV header lacks column token").
		{"json_list", `[{"token":"FooBot","operator":"Foo","category":"seo"},{"token":"BarBot","operator":"Bar","category":"other"}]`, nil, 2},
		{"json_list_unknown_field", `[{"token":"FooBot","operator":"Foo","category":"seo","x":1}]`, ErrCatalogFormat, 0},
		{"csv_reordered_bom", "\uFEFFcategory,token,operator,extra\nsearch,FooBot,Foo,x\n", nil, 1},
		{"empty", "  \n", ErrCatalogEmpty, 0},
		{"json_wrong_format", `{"format":"x","version":"1","bots":[]}`, ErrCatalogFormat, 0},
		{"json_unknown_field", `{"format":"robotstat-bot-catalog","version":"1","bots":[],"x":1}`, ErrCatalogFormat, 0},
		{"csv_missing_column", "token,operator\nFooBot,Foo\n", ErrCatalogFormat, 0},
		{"bad_category", "token,operator,category\nFooBot,Foo,evil\n", ErrCatalogCategory, 0},
		{"no_token", "token,operator,category\n/bot,Foo,seo\n", ErrCatalogToken, 0},
		{"ai2_tokens_distinct", "token,operator,category\nAI2Bot,Ai2,ai-training\nAi2Bot-Dolma,Ai2,ai-training\n", nil, 2},
		{"digits_are_a_token", "token,operator,category\n008,Foo,seo\nMJ12bot,Majestic,seo\nMJ,Other,seo\n", nil, 3},
		{"duplicate_product_token", "token,operator,category\nFooBot,Foo,seo\nfoobot/2.0,Foo,seo\n", ErrCatalogDup, 0},
		{"header_only", "token,operator,category\n", ErrCatalogEmpty, 0},
		{"csv_with_source", "token,operator,category,source,checked\nFooBot,Foo,seo,https://foo.example/bot,2026-12-01\nBarBot,Bar,other,,\n", nil, 2},
		{"json_with_source", `{"format":"robotstat-bot-catalog","version":"9","bots":[{"token":"FooBot","operator":"Foo","category":"seo","source":"https://foo.example/bot","checked":"2026-12-01"}]}`, nil, 1},
		{"json_new_categories", `{"format":"robotstat-bot-catalog","version":"9","bots":[{"token":"FooBot","operator":"Foo","category":"search-dual-use"},{"token":"BarBot","operator":"Bar","category":"generic-tool"}]}`, nil, 2},
		{"source_not_url", "token,operator,category,source\nFooBot,Foo,seo,see the docs\n", ErrCatalogSource, 0},
		{"source_not_http", "token,operator,category,source\nFooBot,Foo,seo,ftp://foo.example/bot\n", ErrCatalogSource, 0},
		{"checked_not_iso", "token,operator,category,checked\nFooBot,Foo,seo,01/12/2026\n", ErrCatalogSource, 0},
		{"checked_no_such_day", `{"format":"robotstat-bot-catalog","version":"9","bots":[{"token":"FooBot","operator":"Foo","category":"seo","checked":"2026-02-30"}]}`, ErrCatalogSource, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ReadCatalog(strings.NewReader(tc.in))
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Len() != tc.n {
				t.Errorf("%d bots", c.Len())
			}
		})
	}
}

func TestLoadCatalogModes(t *testing.T) {
	in := "token,operator,category\nGPTBot,OpenAI,ai-search\nNewBot,New,other\n"
	ext, err := LoadCatalog(strings.NewReader(in), CatalogExtend)
	if err != nil {
		t.Fatal(err)
	}
	if ext.Len() != DefaultCatalog().Len()+1 || !strings.HasSuffix(ext.Version(), "+custom") {
		t.Errorf("extend: %d bots, version %q", ext.Len(), ext.Version())
	}
	if b, _ := ext.Lookup([]byte("gptbot")); b.Category != "ai-search" {
		t.Errorf("extend did not replace GPTBot: %+v", b)
	}
	if ext.Bots()[0].Token != "GPTBot" {
		t.Errorf("extend moved GPTBot: %+v", ext.Bots()[0])
	}
	rep, err := LoadCatalog(strings.NewReader(in), CatalogReplace)
	if err != nil || rep.Len() != 2 {
		t.Fatalf("replace: %v %d", err, rep.Len())
	}
	if DefaultCatalog().Len() == ext.Len() {
		t.Error("default catalog modified")
	}
}

func TestWriteCatalogRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name    string
		write   func(*bytes.Buffer, *Catalog) error
		prefix  string
		version string
	}{
		{"csv", func(b *bytes.Buffer, c *Catalog) error { return WriteCatalog(b, c) }, "# robotstat bot catalog " + DefaultCatalog().Version(), "custom"},
		{"json", func(b *bytes.Buffer, c *Catalog) error { return WriteCatalogJSON(b, c) }, "{", DefaultCatalog().Version()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.write(&buf, DefaultCatalog()); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(buf.String(), tc.prefix) {
				t.Errorf("starts %q", strings.SplitN(buf.String(), "\n", 2)[0])
			}
			if !strings.Contains(buf.String(), "https://www.kimi.com/policies/kimi-crawlers") {
				t.Error("output lacks the sources")
			}
			back, err := ReadCatalog(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if back.Version() != tc.version {
				t.Errorf("version %q, want %q", back.Version(), tc.version)
			}
			if len(back.Bots()) != DefaultCatalog().Len() {
				t.Fatalf("%d bots back", back.Len())
			}
			for i, b := range back.Bots() {
				if b != DefaultCatalog().Bots()[i] {
					t.Errorf("bot %d: %+v != %+v", i, b, DefaultCatalog().Bots()[i])
				}
			}
		})
	}
}

// TestReadCatalogWithoutSources: a catalog written before source and checked
// existed (the three-column CSV robotstat bots printed) still reads.
func TestReadCatalogWithoutSources(t *testing.T) {
	c, err := ReadCatalog(strings.NewReader("# robotstat bot catalog 2026.11.1: 2 bots\ntoken,operator,category\nGPTBot,OpenAI,ai-training\nScrapy,Zyte (open-source framework),ai-data\n"))
	if err != nil {
		t.Fatal(err)
	}
	if b := c.Bots()[1]; b != (Bot{Token: "Scrapy", Operator: "Zyte (open-source framework)", Category: "ai-data"}) {
		t.Errorf("%+v", b)
	}
}

// catalogDigitTokens are the catalog's bots whose token holds a digit, each
// tested by name below (parse's Deviation_token_digits). A bot added to the
// catalog with such a token fails TestCatalogDigitTokens until it is added
// here.
var catalogDigitTokens = []string{"img2dataset", "AI2Bot", "MJ12bot"}

// TestCatalogDigitTokens: every catalog bot whose token has a digit finds
// its own group, and neither the group of its letters before the digit
// (what Google's parser reads, and robotstat before issue 21 read) nor that
// of a token that differs only in its digits.
func TestCatalogDigitTokens(t *testing.T) {
	c := DefaultCatalog()
	var found []string
	for _, b := range c.Bots() {
		if strings.ContainsAny(b.Token, "0123456789") || !parse.RFCProductToken(parse.ProductToken([]byte(b.Token))) {
			found = append(found, b.Token)
		}
	}
	if strings.Join(found, ",") != strings.Join(catalogDigitTokens, ",") {
		t.Fatalf("catalog bots with digits or non-ASCII letters: %q; tested by name: %q", found, catalogDigitTokens)
	}
	for _, tok := range catalogDigitTokens {
		t.Run(tok, func(t *testing.T) {
			b, ok := c.Lookup([]byte(tok))
			if !ok || b.Token != tok {
				t.Fatalf("Lookup(%q) = %+v, %v", tok, b, ok)
			}
			prefix := string(parse.GoogleProductToken([]byte(tok)))
			sibling := strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return '0' + (r-'0'+1)%10
				}
				return r
			}, tok)
			if _, ok := c.Lookup([]byte(prefix)); ok {
				t.Errorf("catalog Lookup(%q) finds a bot", prefix)
			}
			cases := []struct {
				robots string
				want   parse.Match
			}{
				{"User-agent: " + tok + "\nDisallow: /\n\nUser-agent: *\nAllow: /\n", parse.MatchNamed},
				{"User-agent: " + strings.ToUpper(tok) + "/1.0\nDisallow: /\n", parse.MatchNamed},
				{"User-agent: " + prefix + "\nDisallow: /\n\nUser-agent: *\nAllow: /\n", parse.MatchStar},
				{"User-agent: " + sibling + "\nDisallow: /\n\nUser-agent: *\nAllow: /\n", parse.MatchStar},
			}
			for _, cs := range cases {
				var r parse.Robots
				parse.NewParser(parse.Options{}).Compile([]byte(cs.robots), &r)
				if _, m := r.Lookup(b.Token); m != cs.want {
					t.Errorf("%q in\n%s\nmatched %v, want %v", b.Token, cs.robots, m, cs.want)
				}
			}
			// Google's reading: the file's "User-agent: MJ12bot" names mj,
			// so the bot never finds its own group.
			var r parse.Robots
			parse.NewParser(parse.Options{Grouping: parse.GroupingGoogle}).Compile([]byte(cases[0].robots), &r)
			if _, m := r.Lookup(b.Token); m != parse.MatchStar {
				t.Errorf("GroupingGoogle: %s matched %v, want star", b.Token, m)
			}
		})
	}
}
