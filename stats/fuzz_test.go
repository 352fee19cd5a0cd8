package stats

import (
	"testing"
	"unicode/utf8"

	"github.com/robotstat/robotstat/schema"
)

// FuzzAnalyzer feeds arbitrary bodies, statuses and URLs to an Analyzer
// with every table on: it must not panic, must emit exactly one capture
// row and one bot row per catalog bot, keep its verdicts consistent and
// produce only valid UTF-8 strings (Parquet readers reject anything else).
// Seeds: testdata/fuzz/FuzzAnalyzer.
func FuzzAnalyzer(f *testing.F) {
	f.Add([]byte(basicBody), uint16(200), "https://www.example.com/robots.txt")
	f.Add([]byte("User-agent: a\nUser-agent: b\nDisallow: /\nAllow: /*x*$\n"), uint16(200), "http://Bücher.de:8080/robots.txt")
	f.Add([]byte("\xEF\xBB\xBF<html>\x00\xff\r\rDisallow /x\n"), uint16(0), "")
	f.Add([]byte("Content-Signal: a=b, =, c\nUser-agent: *\nCrawl-delay: 1e9\n"), uint16(503), "//x")
	o := DefaultOptions()
	o.Tables = schema.AllTables()
	a, err := NewAnalyzer(o)
	if err != nil {
		f.Fatal(err)
	}
	var rows schema.Batch
	f.Fuzz(func(t *testing.T, body []byte, status uint16, url string) {
		rows.Reset()
		c := captureOf(body, int(status%700))
		c.URL = url
		a.Analyze(c, &rows)
		if len(rows.Captures) != 1 || len(rows.BotRows()) != DefaultCatalog().Len() {
			t.Fatalf("%d captures, %d bots", len(rows.Captures), len(rows.BotRows()))
		}
		for _, b := range rows.BotRows() {
			switch b.Verdict {
			case schema.VerdictFull, schema.VerdictPartial, schema.VerdictNone, schema.VerdictUnknown:
			default:
				t.Fatalf("verdict %q", b.Verdict)
			}
			if b.RootAllowed != nil && (b.Verdict == schema.VerdictFull && *b.RootAllowed || b.Verdict == schema.VerdictNone && !*b.RootAllowed) {
				t.Fatalf("%s: verdict %s root %v", b.Bot, b.Verdict, *b.RootAllowed)
			}
		}
		check := func(s string) {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		for _, g := range rows.Groups {
			for _, s := range g.UserAgents {
				check(s)
			}
		}
		for _, d := range rows.Directives {
			check(d.Directive)
			check(d.FirstValue)
			if len(d.FirstValue) > schema.MaxValueBytes {
				t.Fatalf("first value %d bytes", len(d.FirstValue))
			}
			for _, s := range d.Signals {
				check(s.Key)
				check(s.Value)
			}
		}
		for _, r := range rows.Rules {
			check(r.Pattern)
			check(r.PatternNormalized)
		}
		for _, d := range rows.Diagnostics {
			check(d.Value)
			if len(d.Value) > schema.MaxValueBytes {
				t.Fatalf("diagnostic value %d bytes", len(d.Value))
			}
		}
		for _, s := range rows.Sitemaps {
			check(s.SitemapURL)
		}
		check(rows.Captures[0].Host)
	})
}
