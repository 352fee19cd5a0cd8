package main

import (
	"context"
	"fmt"
	"io"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/pipeline"
)

func init() {
	register(command{name: "panel", summary: "read a site list's robots.txt captures out of Common Crawl crawls through their URL index", run: (*Main).panel,
		exits: []int{ExitOK, ExitUsage, ExitInputErrors, ExitStrict, ExitInputsFailed, ExitInterrupted}})
}

const panelUsage = `Usage:
  robotstat panel [flags] SITES CRAWL...

Reads the robots.txt captures of the hosts SITES lists out of each Common
Crawl CRAWL (CC-MAIN-YYYY-WW) through the crawl's columnar URL index, record
by record, instead of downloading the crawl's whole robotstxt subset, and
writes the tables analyze writes under --out (captures ... sites, site_bots,
site_history): for each listed host, the rows a whole-crawl analyze of the
crawl gives it, capture ids included.

SITES is a Tranco list (rank,domain; its ranks fill captures.rank and
sites.rank, as analyze --sites does) or one host per line; --www also reads
www. + each name as a site of its own. A line that is not a host name is
skipped and named in the summary.

Each crawl's index files are listed by
crawl-data/CRAWL/cc-index-table.paths.gz under --cc-base (https, s3:// or a
mirror folder); only its subset=robotstxt files are read, and of those only
the row groups and pages whose statistics can hold a listed host. Every
capture of a listed host (any path, http and https, any port) is read with
one range request (records of a file close to each other share one), and a
redirect to another URL is looked up in the same index and read, at most
five redirects from a host's /robots.txt, so that robotstat sites resolves
each site as over the whole crawl. A redirect target whose host is not
listed is read, but is not a site of the panel.

Downloads are as polite as analyze's: --downloads at once, --rate requests
per second over index and record requests together, refusals retried with
a line on stderr, a refusing endpoint stops the run. Each crawl is one
input, committed when read: a killed run resumes at the crawl it was in. A
crawl with no index list (404) fails, and the others are read (exit code 5).

The summary says, per crawl, how many listed hosts were found, not captured
(the crawl has no robots.txt of theirs) and failed (an index file or record
their answer depends on could not be read: located in the errors table), and
what the index and the records cost; robotstat status OUT says it again.

Examples:
  robotstat panel --out panel/ tranco-top10k.csv CC-MAIN-2024-33 CC-MAIN-2025-08
  robotstat panel --out panel/ --www --cc-base s3://commoncrawl/ --rate 50 --downloads 16 sites.txt CC-MAIN-2025-08
`

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
	file string
	list *pipeline.SiteListFile
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
	pos, err := parseFlags(fs, args, m.Stdout, panelUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	if len(pos) < 2 {
		return cli.Usagef("panel", "need a site list and at least one crawl (CC-MAIN-YYYY-WW)")
	}
	sites, crawls := pos[0], pos[1:]
	for _, c := range crawls {
		if !pipeline.IsCrawlInput(c) {
			return cli.Usagef("panel", "%q is not a Common Crawl crawl name (CC-MAIN-YYYY-WW): a panel reads crawls by name", c)
		}
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
	f.panel = &panelSpec{file: sites, list: list}
	return m.runAnalyze(ctx, f, crawls)
}
