package lint

import (
	"os"
	"strings"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
	"github.com/robotstat/robotstat/parse"
)

func TestLooksHTML(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
	}{
		{"doctype", "<!DOCTYPE html><html>", true},
		{"html_after_bom_and_space", "\xEF\xBB\xBF\n  <HTML lang=de>", true},
		{"comment_first", "<!-- generated -->\n<html>", true},
		{"xml", "<?xml version=\"1.0\"?><urlset>", true},
		{"prose_then_html", "Error 500\n<html><body>x</body></html>", true},
		{"prose_then_body_upper", "Oops <b>x</b> <BODY onload=x>", true},
		{"lt_before_html_in_comment", "# a < b\nUser-agent: *\n<Html>", true},
		{"html_past_first_KiB", strings.Repeat("x", 1020) + "<html>", false},
		{"lt_at_the_end", "User-agent: *\n<", false},
		{"robots", "User-agent: *\nDisallow: /\n", false},
		{"robots_mentioning_html_path", "User-agent: *\nDisallow: /*.html$\n", false},
		{"lt_not_a_tag", "<3 robots\n", false},
		{"empty", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := LooksHTML([]byte(tc.body)); got != tc.want {
				t.Errorf("LooksHTML = %v", got)
			}
		})
	}
}

func TestLooksBinary(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
	}{
		{"gzip", "\x1f\x8b\x08\x00\x00\x00", true},
		{"nul", "User-agent: *\x00", true},
		{"utf8_text", "# Ünïcödé 日本語\nUser-agent: *\n", false},
		{"tabs_crlf", "User-agent:\t*\r\nDisallow: /\r\n", false},
		{"few_controls", "User-agent: *\x01" + strings.Repeat("x", 100), false},
		{"many_controls", "\x01\x02\x1b\x1fabcdefgh", true},
		{"del_counts", "\x7f\x7f\x7fabcdefgh", true},
		{"vt_ff_do_not_count", "\v\f\v\f\t\r\nab", false},
		{"nul_past_first_KiB", strings.Repeat("x", 1024) + "\x00", false},
		{"empty", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := LooksBinary([]byte(tc.body)); got != tc.want {
				t.Errorf("LooksBinary = %v", got)
			}
		})
	}
}

// TestLooksHTMLSharedCorpus: the corpus README counts 51 HTML-like bodies
// among the 1,347 avuim files by its own heuristic; robotstat's must flag
// every body that begins with markup and no file that parses into groups.
func TestLooksHTMLSharedCorpus(t *testing.T) {
	files := avuimFiles(t)
	var r parse.Robots
	p := parse.NewParser(parse.Options{})
	n := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if !LooksHTML(b) {
			continue
		}
		n++
		p.Compile(b, &r)
		if len(r.Rules()) > 0 && !strings.Contains(strings.ToLower(string(b[:min(len(b), 200)])), "<") {
			t.Errorf("%s: flagged HTML but has %d rules", f, len(r.Rules()))
		}
	}
	if n < 51 || n > 60 {
		t.Errorf("%d HTML-like bodies, corpus README says 51", n)
	}
}

// BenchmarkSniff runs LooksHTML and LooksBinary, as every capture does,
// over the real robots.txt corpus.
func BenchmarkSniff(b *testing.B) {
	var bodies [][]byte
	var size int64
	for _, f := range corpusFiles(b) {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, body)
		size += int64(min(len(body), sniffLen))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, body := range bodies {
			if LooksHTML(body) || LooksBinary(body) {
				n++
			}
		}
	}
	if n == 0 {
		b.Fatal("no HTML or binary body in the corpus")
	}
}

// corpusFiles and avuimFiles are testkit's (shared with stats and cmd).
var (
	corpusFiles = testkit.CorpusFiles
	avuimFiles  = testkit.AvuimFiles
)
