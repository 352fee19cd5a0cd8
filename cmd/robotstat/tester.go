package main

import (
	"context"
	"fmt"
	"net/url"

	"github.com/robotstat/robotstat/explain"
	"github.com/robotstat/robotstat/explain/check"
	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/parse"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
	"github.com/robotstat/robotstat/tester"
)

func init() {
	register(command{name: "tester", summary: "write a robots.txt tester: one offline HTML page that explains decisions", run: (*Main).tester})
}

func (m *Main) tester(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("tester")
	out := fs.String("out", "", "write the page to `FILE`")
	status := fs.Int("status", 200, "HTTP `status` the robots.txt was served with, for the page's case")
	base := fs.String("base", "", "print the link with this page `URL` instead of the file's")
	pos, err := parseFlags(fs, args, m.Stdout, testerUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	if *out == "" {
		return cli.Usagef("tester", "--out FILE is required")
	}
	if _, err := explain.CheckStatus(*status, parse.StatusOptions{}); err != nil {
		return cli.Usagef("tester", "--%v", err)
	}
	if *base != "" {
		if u, err := url.Parse(*base); err != nil || u.Scheme == "" || u.Fragment != "" {
			return cli.Usagef("tester", "--base %q: want an absolute URL without a fragment", *base)
		}
	}
	cat := stats.DefaultCatalog()
	page := &tester.Page{Version: Version, Catalog: cat.Version(), Bots: check.Bots(cat, schema.IsAICategory)}
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
	var shown *tester.Case // the page's case when one was given, else its example
	if len(pos) > 0 {
		shown = &page.Case
	}
	link, err := tester.Link(*base, *out, shown)
	if err != nil {
		return fmt.Errorf("tester: %w", err)
	}
	fmt.Fprintln(m.Stdout, link)
	raw, gz := tester.WasmSize()
	fmt.Fprintf(m.Stderr, "robotstat: wrote %s (the parser as WebAssembly: %d KB, %d KB gzipped inside the page)\n", *out, raw/1000, gz/1000)
	return nil
}
