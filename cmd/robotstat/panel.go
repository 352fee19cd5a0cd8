package main

import (
	"context"
	"fmt"
	"io"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/wayback"
)

func init() {
	register(command{name: "panel", summary: "read a site list's robots.txt captures out of Common Crawl crawls through their URL index", run: (*Main).panel,
		exits: []int{ExitOK, ExitUsage, ExitInputErrors, ExitStrict, ExitInputsFailed, ExitInterrupted}})
}

// panelFlags are the flags of analyze that apply to a panel (the crawl
// flags but --sample and --segments; not --crawl, --sites, --responses,
// --manifest-base, --fields, which a panel decides itself).
var panelFlags = []string{
	"out", "workers", "tables", "bots", "bots-replace", "shard", "parse-limit", "429-unreachable",
	"connect-timeout", "header-timeout", "idle-timeout", "min-rate", "quiet", "errors", "strict", "redo", "json",
	"memory-limit", "cpuprofile", "memprofile",
	"cc-base", "downloads", "rate", "s3-endpoint", "s3-region", "s3-credentials", "retries",
}

// panelSpec is a panel's site list, read (panel.go's part of runAnalyze).
type panelSpec struct {
	file     string
	list     *pipeline.SiteListFile
	pipeline *pipeline.Panel
}

func (m *Main) panel(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("panel")
	f := analyzeFlags{name: "panel", crawls: &crawlFlags{}}
	all := cli.NewFlagSet("panel")
	f.register(all)
	f.crawls.register(all)
	for _, name := range panelFlags {
		fl := all.Lookup(name)
		usage := fl.Usage
		if name == "cc-base" {
			usage = "read the crawls from `URL` or folder: Common Crawl's https endpoint, s3://commoncrawl/, or a mirror laid out as crawl-data/CRAWL/cc-index-table.paths.gz and the index and WARC files it lists"
		}
		fs.Var(fl.Value, fl.Name, usage)
	}
	www := fs.Bool("www", false, "also read www. + each name of the list as a site of its own")
	waybackBase := fs.String("wayback-base", wayback.DefaultBase, "read wayback:FROM..TO from the Wayback Machine at `URL` (its cdx/search/cdx API and web/TSid_/URL replays)")
	pos, err := parseFlags(fs, args, m.Stdout, panelUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	if len(pos) < 2 {
		return cli.Usagef("panel", "need a site list and at least one crawl (CC-MAIN-YYYY-WW)")
	}
	sites, crawls := pos[0], pos[1:]
	fromWayback, err := pipeline.CheckPanelSources(crawls)
	if err != nil {
		return cli.Usagef("panel", "%v", err)
	}
	if fromWayback && !cli.Set(fs, "rate") {
		f.crawls.rate = wayback.DefaultRate
	}
	list, err := loadWith(m, sites, func(r io.Reader) (*pipeline.SiteListFile, error) { return pipeline.ReadSiteList(r, *www) })
	if err != nil {
		return fmt.Errorf("reading the site list: %w", err)
	}
	if len(list.Hosts) == 0 {
		return cli.Usagef("panel", "%s lists no host name (%d of its %d entries are not host names)", sites, len(list.Skipped), list.Entries)
	}
	if list.Ranked {
		f.sites = sites // ranks, as analyze --sites joins them
	}
	f.panel = &panelSpec{file: sites, list: list, pipeline: &pipeline.Panel{Hosts: list.Hosts}}
	if fromWayback {
		f.panel.pipeline = pipeline.WaybackPanel(list.Hosts, *waybackBase, f.out, "robotstat/"+Version+" (+"+projectURL+")")
	}
	return m.runAnalyze(ctx, f, crawls)
}
