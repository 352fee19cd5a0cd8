// Package tester writes the robots.txt tester: one HTML page that answers,
// for a robots.txt, agents and URLs, what `robotstat check --explain` answers
// and shows why (package explain), with nothing outside the page. The parse,
// lint, verdict and explain packages run in it compiled to WebAssembly
// (GOOS=js GOARCH=wasm, tester/wasm), gzipped and inlined as base64 with the
// Go distribution's wasm_exec.js, so the page opens offline from a file; its
// hand-written script only reads the inputs and the URL fragment and renders
// the module's JSON.
//
// A test case travels in the fragment (Fragment): #robots=...&agent=...&
// url=...[&status=...], URL-encoded, agent and url repeated as needed, so a
// link carries it. Each decision is an element with data-decision="allowed"
// or "disallowed" and data-agent and data-url, for machines to read.
package tester

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/internal/outfile"
)

// Case is a test case: what the page's inputs hold.
type Case struct {
	Robots string   `json:"robots"`
	Agents []string `json:"agents"`
	URLs   []string `json:"urls"`
	// Status is the HTTP status the robots.txt was served with; 0 is 200.
	Status int `json:"status"`
}

// Page is what a page is written from.
type Page struct {
	// Version is robotstat's, shown in the footer.
	Version string
	// Catalog is the bot catalog's version; Bots the catalog's AI bots, in
	// catalog order: the page lists their verdicts and offers them as
	// agents.
	Catalog string
	Bots    []explain.Bot
	// Case is what the page shows when its URL has no test case in the
	// fragment; the zero Case is an example.
	Case Case
}

// example is the case a page without one opens with: stacked AI agents, a
// "*" group with an allow inside a disallow, an anchored wildcard and two
// non-standard records.
var example = Case{
	Robots: "# An example: edit it, or paste or drop your own robots.txt.\n" +
		"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n" +
		"User-agent: *\nDisallow: /private/\nAllow: /private/press/\nDisallow: /*.pdf$\nCrawl-delay: 10\n\n" +
		"Sitemap: https://example.com/sitemap.xml\n",
	Agents: []string{"GPTBot", "Googlebot"},
	URLs:   []string{"https://example.com/private/press/kit.html", "/private/notes", "/docs/report.pdf", "/"},
}

// Fragment returns the URL fragment (without "#") that makes the page open
// with c: robots, then each agent and url, then status unless it is 200,
// each value URL-encoded as the page's script reads it (URLSearchParams).
func Fragment(c Case) string {
	var b strings.Builder
	b.WriteString("robots=")
	b.WriteString(escape(c.Robots))
	for _, a := range c.Agents {
		b.WriteString("&agent=")
		b.WriteString(escape(a))
	}
	for _, u := range c.URLs {
		b.WriteString("&url=")
		b.WriteString(escape(u))
	}
	if c.Status != 0 && c.Status != 200 {
		b.WriteString("&status=")
		b.WriteString(strconv.Itoa(c.Status))
	}
	return b.String()
}

// Link is the URL that opens the page written to path: base (the URL the
// page will be put at) when set, else path's file:// URL; with c's
// Fragment when c is not nil.
func Link(base, path string, c *Case) (string, error) {
	link := base
	if link == "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", err
		}
		link = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	}
	if c != nil {
		link += "#" + Fragment(*c)
	}
	return link, nil
}

// escape is url.QueryEscape with spaces as %20, as JavaScript's
// encodeURIComponent writes them: "+" reads back as a space too, but %20 is
// what the page itself writes, so a link reads the same from either.
func escape(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }

// WritePage writes the page to w.
func WritePage(w io.Writer, p *Page) error {
	c := p.Case
	if c.Robots == "" && len(c.Agents) == 0 && len(c.URLs) == 0 {
		c = example
	}
	if c.Status == 0 {
		c.Status = 200
	}
	if c.Agents == nil {
		c.Agents = []string{}
	}
	if c.URLs == nil {
		c.URLs = []string{}
	}
	bots := p.Bots
	if bots == nil {
		bots = []explain.Bot{}
	}
	// json.Marshal escapes <, > and & (\u003c), so neither value can end
	// the <script> element that holds it.
	caseJSON, err := json.Marshal(c)
	if err != nil {
		return err
	}
	botsJSON, err := json.Marshal(bots)
	if err != nil {
		return err
	}
	for name, js := range map[string]string{"wasm_exec.js": wasmExecJS, "page.js": pageJS} {
		if strings.Contains(strings.ToLower(js), "</script") {
			return fmt.Errorf("tester: %s holds </script and cannot be inlined", name)
		}
	}
	return pageTemplate.Execute(w, map[string]any{
		"Version":  p.Version,
		"Catalog":  p.Catalog,
		"NBots":    len(bots),
		"CSS":      pageCSS,
		"JS":       pageJS,
		"WasmExec": wasmExecJS,
		"Wasm":     base64.StdEncoding.EncodeToString(wasmGz),
		"Case":     string(caseJSON),
		"Bots":     string(botsJSON),
	})
}

// The page's values are robotstat's own (its version, the catalog, the
// assets, JSON that escapes <, > and &), not a user's: a test case reaches
// the page only through caseJSON or the fragment, which the script renders
// as text. So text/template, with html escaping where a value is text.
var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"html": template.HTMLEscapeString,
}).Parse(pageHTML))

// WritePageFile writes the page to path through internal/outfile: a
// regular file (or none) atomically (a temporary file beside it, synced,
// then renamed over path), so path is never a partial page and nothing
// else is written; a character device or FIFO (/dev/stdout, a named pipe)
// written through, never replaced; a link followed; anything else
// refused.
func WritePageFile(path string, p *Page) error {
	var buf bytes.Buffer
	if err := WritePage(&buf, p); err != nil {
		return err
	}
	if err := outfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	}); err != nil {
		return fmt.Errorf("tester: %w", err)
	}
	return nil
}

// WasmSize returns the embedded module's size, uncompressed (from its
// stamp) and gzipped.
func WasmSize() (raw, gzipped int) {
	s := 0
	for _, line := range strings.Split(string(wasmStamp), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "wasm" {
			s, _ = strconv.Atoi(f[2])
		}
	}
	return s, len(wasmGz)
}
