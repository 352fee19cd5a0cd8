package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/robotstat/robotstat/internal/ranklist"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
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
	file    string
	entries int
	hosts   []string
	skipped []string // "line N: why", in list order
	ranked  bool     // every entry had a rank: a Tranco list
}

func (m *Main) panel(ctx context.Context, args []string) error {
	fs := newFlagSet("panel")
	f := analyzeFlags{name: "panel", crawls: &crawlFlags{}}
	all := newFlagSet("panel")
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
		if errors.Is(err, errHelp) {
			return nil
		}
		return err
	}
	if len(pos) < 2 {
		return usageErrorf("panel", "need a site list and at least one crawl (CC-MAIN-YYYY-WW)")
	}
	sites, crawls := pos[0], pos[1:]
	for _, c := range crawls {
		if !pipeline.IsCrawlName(c) || pathExists(c) {
			return usageErrorf("panel", "%q is not a Common Crawl crawl name (CC-MAIN-YYYY-WW): a panel reads crawls by name", c)
		}
	}
	spec, err := loadWith(m, sites, func(r io.Reader) (*panelSpec, error) { return readPanelSites(r, *www) })
	if err != nil {
		return fmt.Errorf("reading the site list: %w", err)
	}
	spec.file = sites
	if len(spec.hosts) == 0 {
		return usageErrorf("panel", "%s lists no host name (%d of its %d entries are not host names)", sites, len(spec.skipped), spec.entries)
	}
	if spec.ranked {
		f.sites = sites // ranks, as analyze --sites joins them
	}
	f.panel = spec
	return m.runAnalyze(ctx, f, crawls)
}

// readPanelSites reads a site list: Tranco's rank,domain lines or hosts,
// one a line (ranklist.EachEntry), made hosts by pipeline.SiteList.
func readPanelSites(r io.Reader, www bool) (*panelSpec, error) {
	var entries []string
	var lines []int
	ranked := true
	err := ranklist.EachEntry(r, func(line int, rank int64, dom string) bool {
		entries, lines = append(entries, dom), append(lines, line)
		ranked = ranked && rank > 0
		return true
	})
	if err != nil {
		return nil, err
	}
	spec := &panelSpec{entries: len(entries), ranked: ranked && len(entries) > 0}
	var skipped []pipeline.EntryError
	spec.hosts, skipped = pipeline.SiteList(entries, www)
	for _, e := range skipped {
		spec.skipped = append(spec.skipped, "line "+strconv.Itoa(lines[e.Index])+": "+e.Error())
	}
	return spec, nil
}

// panelResult is what a panel run found (analyzeResult.Panel).
type panelResult struct {
	Sites           string   `json:"sites"`
	SiteList        string   `json:"site_list"` // its id in --out (schema.SiteListDir)
	Entries         int      `json:"entries"`
	Hosts           int      `json:"hosts"`
	Skipped         int      `json:"entries_skipped,omitempty"`
	SkippedExamples []string `json:"entries_skipped_examples,omitempty"`
	// Crawls are the crawls read by this run, in name order: those --out
	// already held were skipped (robotstat status OUT says theirs).
	Crawls []pipeline.Coverage `json:"crawls"`
}

// maxSkippedShown bounds the skipped entries the summary names.
const maxSkippedShown = 5

func (p *panelSpec) result(cov []pipeline.Coverage) *panelResult {
	r := &panelResult{Sites: p.file, SiteList: schema.SiteListID(p.hosts), Entries: p.entries, Hosts: len(p.hosts),
		Skipped: len(p.skipped), SkippedExamples: p.skipped[:min(len(p.skipped), maxSkippedShown)], Crawls: slices.Clone(cov)}
	slices.SortFunc(r.Crawls, func(a, b pipeline.Coverage) int { return strings.Compare(a.Crawl, b.Crawl) })
	return r
}

// print writes the panel's lines of the summary: the list, then each
// crawl's coverage and cost.
func (r *panelResult) print(w io.Writer) {
	if r == nil {
		return
	}
	skipped := ""
	if r.Skipped > 0 {
		more := ""
		if r.Skipped > len(r.SkippedExamples) {
			more = ", ..."
		}
		skipped = fmt.Sprintf("; %d %s, skipped: %s%s", r.Skipped, plural(r.Skipped, "entry is not a host name", "entries are not host names"), strings.Join(r.SkippedExamples, "; "), more)
	}
	fmt.Fprintf(w, "robotstat: panel of %d %s from %d %s of %s%s\n", r.Hosts, plural(r.Hosts, "host", "hosts"), r.Entries, plural(r.Entries, "entry", "entries"), r.Sites, skipped)
	for _, c := range r.Crawls {
		per := float64(max(c.Listed, 1))
		fmt.Fprintf(w, "robotstat: panel %s: %d found, %d not captured, %d failed of %d listed; index %d %s, %s (%d of %d row groups, %d of %d key pages); %d %s in %d %s, %s; %d redirect %s looked up; per listed host %.2f index + %.2f record requests, %s + %s\n",
			c.Crawl, c.Found, c.NotCaptured, c.Failed, c.Listed,
			c.IndexRequests, plural(int(c.IndexRequests), "request", "requests"), byteSize(c.IndexBytes), c.RowGroupsRead, c.RowGroups, c.PagesRead, c.Pages,
			c.Records, plural(int(c.Records), "record", "records"), c.RecordRequests, plural(int(c.RecordRequests), "request", "requests"), byteSize(c.RecordBytes),
			c.RedirectTargets, plural(c.RedirectTargets, "target", "targets"),
			float64(c.IndexRequests)/per, float64(c.RecordRequests)/per, byteSize(int64(float64(c.IndexBytes)/per)), byteSize(int64(float64(c.RecordBytes)/per)))
		if c.Failed > 0 {
			more := ""
			if c.Failed > len(c.FailedHosts) {
				more = ", ..."
			}
			fmt.Fprintf(w, "robotstat: panel %s: failed: %s%s (the errors table locates why; a rerun with --redo reads the crawl again)\n", c.Crawl, strings.Join(c.FailedHosts, ", "), more)
		}
	}
}

// byteSize writes n bytes in kB, MB or GB (powers of 1000).
func byteSize(n int64) string {
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 2, 64) + " GB"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	case n >= 1e3:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " kB"
	}
	return strconv.FormatInt(n, 10) + " B"
}
