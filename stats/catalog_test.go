package stats

import (
	"bytes"
	"errors"
	"strings"
	"testing"

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
	for _, cat := range []string{schema.CategoryAITraining, schema.CategoryAISearch, schema.CategoryAIUserFetch, schema.CategoryAIOptoutToken, schema.CategoryAIData, schema.CategorySearch, schema.CategorySEO, schema.CategoryOther} {
		if cats[cat] == 0 {
			t.Errorf("no bot in category %s", cat)
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
		{"csv_reordered_bom", "\uFEFFcategory,token,operator,extra\nsearch,FooBot,Foo,x\n", nil, 1},
		{"empty", "  \n", ErrCatalogEmpty, 0},
		{"json_wrong_format", `{"format":"x","version":"1","bots":[]}`, ErrCatalogFormat, 0},
		{"json_unknown_field", `{"format":"robotstat-bot-catalog","version":"1","bots":[],"x":1}`, ErrCatalogFormat, 0},
		{"csv_missing_column", "token,operator\nFooBot,Foo\n", ErrCatalogFormat, 0},
		{"bad_category", "token,operator,category\nFooBot,Foo,evil\n", ErrCatalogCategory, 0},
		{"no_token", "token,operator,category\n123,Foo,seo\n", ErrCatalogToken, 0},
		{"duplicate_product_token", "token,operator,category\nFooBot,Foo,seo\nfoobot/2.0,Foo,seo\n", ErrCatalogDup, 0},
		{"header_only", "token,operator,category\n", ErrCatalogEmpty, 0},
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
	var buf bytes.Buffer
	if err := WriteCatalog(&buf, DefaultCatalog()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "# robotstat bot catalog "+DefaultCatalog().Version()) {
		t.Errorf("header: %q", strings.SplitN(buf.String(), "\n", 2)[0])
	}
	back, err := ReadCatalog(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Bots()) != DefaultCatalog().Len() {
		t.Fatalf("%d bots back", back.Len())
	}
	for i, b := range back.Bots() {
		if b != DefaultCatalog().Bots()[i] {
			t.Errorf("bot %d: %+v != %+v", i, b, DefaultCatalog().Bots()[i])
		}
	}
}
