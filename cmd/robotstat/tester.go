package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
	"github.com/robotstat/robotstat/tester"
)

func init() {
	register(command{name: "tester", summary: "write a robots.txt tester: one offline HTML page that explains decisions", run: (*Main).tester})
}

const testerUsage = `Usage:
  robotstat tester --out FILE [--status CODE] [--base URL] [ROBOTS_FILE [AGENT [URL...]]]

Writes one HTML page that answers, for a robots.txt, agents and URLs, what
"robotstat check --explain" answers and shows why: the group that applies
and why, the deciding line, every rule that matched and why it lost, the
normalised path and patterns, the file's findings and non-standard records,
and for each AI bot in the catalog its verdict (full, partial or none),
named or via *. The page runs robotstat's own parser compiled to
WebAssembly and needs nothing else: it opens offline from the file.

A test case travels in the page's URL fragment
(#robots=...&agent=...&url=..., URL-encoded; agent and url may repeat), so
one link carries it. Given ROBOTS_FILE ("-" reads standard input), AGENT
and URLs, the page opens with that case, and the link to it is printed on
stdout: the file's URL, or --base URL (where you will put the page) with
the fragment. Without them the page opens with an example, and stdout gets
the page's URL.

FILE is written as cp writes its destination, but a regular file (or
none) atomically: a hidden temporary file beside it, synced, then renamed
over it; nothing else is written. A FIFO or character device (/dev/stdout,
a named pipe) is written through and never replaced, a symbolic link is
followed (a link to a regular file has its target replaced); a folder, a
dangling link, "-" and other special files are refused.
`

func (m *Main) tester(ctx context.Context, args []string) error {
	fs := newFlagSet("tester")
	out := fs.String("out", "", "write the page to `FILE`")
	status := fs.Int("status", 200, "HTTP `status` the robots.txt was served with, for the page's case")
	base := fs.String("base", "", "print the link with this page `URL` instead of the file's")
	pos, err := parseFlags(fs, args, m.Stdout, testerUsage)
	if err != nil {
		if errors.Is(err, errHelp) {
			return nil
		}
		return err
	}
	if *out == "" {
		return usageErrorf("tester", "--out FILE is required")
	}
	if _, err := explain.CheckStatus(*status, parse.StatusOptions{}); err != nil {
		return usageErrorf("tester", "--%v", err)
	}
	if *base != "" {
		if u, err := url.Parse(*base); err != nil || u.Scheme == "" || u.Fragment != "" {
			return usageErrorf("tester", "--base %q: want an absolute URL without a fragment", *base)
		}
	}
	page := &tester.Page{Version: Version, Catalog: stats.DefaultCatalog().Version()}
	for _, b := range stats.DefaultCatalog().Bots() {
		if schema.IsAICategory(b.Category) {
			page.Bots = append(page.Bots, explain.Bot{Token: b.Token, Operator: b.Operator, Category: b.Category})
		}
	}
	if len(pos) > 0 {
		body, err := m.readRobots(pos[0], parse.Options{})
		if err != nil {
			return err
		}
		page.Case = tester.Case{Robots: string(body), Status: *status, Agents: []string{}, URLs: []string{}}
		if len(pos) > 1 {
			m.noteAgent(pos[1], page.Bots)
			page.Case.Agents = pos[1:2]
			page.Case.URLs = pos[2:]
		}
	}
	if err := tester.WritePageFile(*out, page); err != nil {
		return err
	}
	link := *base
	if link == "" {
		abs, err := filepath.Abs(*out)
		if err != nil {
			return fmt.Errorf("tester: %w", err)
		}
		link = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	}
	if len(pos) > 0 {
		link += "#" + tester.Fragment(page.Case)
	}
	fmt.Fprintln(m.Stdout, link)
	raw, gz := tester.WasmSize()
	fmt.Fprintf(m.Stderr, "robotstat: wrote %s (the parser as WebAssembly: %d KB, %d KB gzipped inside the page)\n", *out, raw/1000, gz/1000)
	return nil
}
