package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/robotstat/robotstat/internal/ranklist"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/wayback"
)

func init() {
	register(command{name: "panel", summary: "read a site list's robots.txt captures out of Common Crawl crawls through their URL index", run: (*Main).panel,
		exits: []int{ExitOK, ExitUsage, ExitInputErrors, ExitStrict, ExitInputsFailed, ExitInterrupted}})
}

const panelUsage = `Usage:
  robotstat panel [flags] SITES CRAWL...
  robotstat panel [flags] SITES wayback:FROM..TO [CRAWL...]

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

wayback:FROM..TO (months YYYY-MM) reads each listed host's history out of
the Wayback Machine (--wayback-base): each month is a crawl named
wayback-YYYY-MM, dated the month's first day, whose capture of a host is
the archive's first capture that month of the host's own /robots.txt
(http or https, the host exactly as listed), and the redirects it leads to
(at most five, read through the archive). One CDX query per site (a host
and its www.) covers the whole range; a body is replayed once per URL and
digest, later months with the same digest reuse it (a redirect is
replayed each time, for its Location). A month without a capture is no
row, and is counted. Every answer is archived as a WARC record under
OUT/warc/wayback/SITE/, dated when the archive captured it, and read back
from there when a killed run is rerun, so nothing is fetched twice; sites
are committed 100 at a time (an input each). A CDX answer that is not
JSON, a replay whose status or digest disagrees with its CDX row, or a
cut body is a located error (errors table, class index) and no row of
that month.

The archive is a shared public service that blocks clients that go too
fast: unless --rate is given, a panel with a wayback source makes at most
0.4 requests per second over CDX queries and replays together (24 a
minute, the CDX API's limit per IP as reported in 2026; above it the
archive answers 429, and blocks a client that keeps going for an hour,
then longer): about 35,000 requests a day. A 429 or 5xx of the archive
(one without Memento-Datetime: an archived 503 is a capture) is retried
after its Retry-After, with a line on stderr; a request refused on every
try fails its input (a rerun reads it), and 8 such in a row stop the run.

Examples:
  robotstat panel --out panel/ tranco-top10k.csv CC-MAIN-2024-33 CC-MAIN-2025-08
  robotstat panel --out history/ --www sites.txt wayback:2016-01..2026-11
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

	waybackBase, waybackArchive string // a wayback:FROM..TO source's (pipeline.Panel)
}

// pipeline is the pipeline's view of the panel.
func (p *panelSpec) pipeline() *pipeline.Panel {
	pp := &pipeline.Panel{Hosts: p.hosts, WaybackBase: p.waybackBase, WaybackArchive: p.waybackArchive}
	if p.waybackBase != "" {
		pp.WaybackUserAgent = "robotstat/" + Version + " (+" + projectURL + ")"
	}
	return pp
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
	waybackBase := fs.String("wayback-base", wayback.DefaultBase, "read wayback:FROM..TO from the Wayback Machine at `URL` (its cdx/search/cdx API and web/TSid_/URL replays)")
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
	fromWayback := false
	for _, c := range crawls {
		if strings.HasPrefix(c, wayback.SourcePrefix) {
			if _, err := wayback.ParseRange(c); err != nil {
				return usageErrorf("panel", "%v", err)
			}
			if fromWayback {
				return usageErrorf("panel", "more than one wayback:FROM..TO: a panel reads one range of months")
			}
			fromWayback = true
			continue
		}
		if !pipeline.IsCrawlName(c) || pathExists(c) {
			return usageErrorf("panel", "%q is not a Common Crawl crawl name (CC-MAIN-YYYY-WW) nor wayback:YYYY-MM..YYYY-MM: a panel reads crawls by name", c)
		}
	}
	if fromWayback {
		if !strings.HasSuffix(*waybackBase, "/") {
			*waybackBase += "/"
		}
		rateSet := false
		fs.Visit(func(fl *flag.Flag) { rateSet = rateSet || fl.Name == "rate" })
		if !rateSet {
			f.crawls.rate = wayback.DefaultRate
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
	if fromWayback {
		spec.waybackBase, spec.waybackArchive = *waybackBase, filepath.Join(f.out, "warc", "wayback")
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
	// Wayback is what the sites read from the Wayback Machine by this run
	// found, over them all (each site's is in robotstat status OUT).
	Wayback *waybackResult `json:"wayback,omitempty"`
}

// waybackResult sums the Wayback units of a run: their hosts (found in
// some month, in none, failed in some), requests, and each month's hosts.
type waybackResult struct {
	Range       string   `json:"range"`
	Sites       int      `json:"sites"`
	Listed      int      `json:"listed"`
	Found       int      `json:"found"`
	NotCaptured int      `json:"not_captured"`
	Failed      int      `json:"failed"`
	FailedHosts []string `json:"failed_hosts,omitempty"`
	CDXRequests int64    `json:"cdx_requests"`
	Replays     int64    `json:"replay_requests"`
	Captures    int64    `json:"captures"`
	Reused      int64    `json:"captures_reused"`
	Archived    int64    `json:"answers_read_back"`
	// RequestsPerSiteYear is (CDX + replay requests) / sites / years of
	// the range.
	RequestsPerSiteYear float64                  `json:"requests_per_site_year"`
	Months              []pipeline.MonthCoverage `json:"months"`
}

// addWayback adds a Wayback unit's coverage.
func (w *waybackResult) add(c pipeline.Coverage) {
	w.Range = c.Crawl
	w.Sites += c.Sites
	w.Listed += c.Listed
	w.Found += c.Found
	w.NotCaptured += c.NotCaptured
	w.Failed += c.Failed
	for _, h := range c.FailedHosts {
		if len(w.FailedHosts) < pipeline.MaxFailedHosts {
			w.FailedHosts = append(w.FailedHosts, h)
		}
	}
	w.CDXRequests += c.IndexRequests
	w.Replays += c.RecordRequests
	w.Captures += c.Records
	w.Reused += c.Reused
	w.Archived += c.Archived
	for i, m := range c.Months {
		if i >= len(w.Months) {
			w.Months = append(w.Months, pipeline.MonthCoverage{Crawl: m.Crawl})
		}
		w.Months[i].Listed += m.Listed
		w.Months[i].Found += m.Found
		w.Months[i].NotCaptured += m.NotCaptured
		w.Months[i].Failed += m.Failed
	}
	if years := float64(len(w.Months)) / 12; years > 0 {
		w.RequestsPerSiteYear = float64(w.CDXRequests+w.Replays) / float64(w.Sites) / years
	}
}

// maxSkippedShown bounds the skipped entries the summary names.
const maxSkippedShown = 5

func (p *panelSpec) result(cov []pipeline.Coverage) *panelResult {
	r := &panelResult{Sites: p.file, SiteList: schema.SiteListID(p.hosts), Entries: p.entries, Hosts: len(p.hosts),
		Skipped: len(p.skipped), SkippedExamples: p.skipped[:min(len(p.skipped), maxSkippedShown)]}
	for _, c := range cov {
		if strings.HasPrefix(c.Crawl, wayback.SourcePrefix) {
			if r.Wayback == nil {
				r.Wayback = &waybackResult{}
			}
			r.Wayback.add(c)
			continue
		}
		r.Crawls = append(r.Crawls, c)
	}
	if r.Wayback != nil {
		slices.Sort(r.Wayback.FailedHosts)
	}
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
	r.Wayback.print(w)
}

// print writes the Wayback source's lines of the summary: the sites, their
// cost, then each month's hosts.
func (w *waybackResult) print(out io.Writer) {
	if w == nil {
		return
	}
	fmt.Fprintf(out, "robotstat: panel %s: %d %s, %d listed %s: %d found in some month, %d in none, %d failed; %d CDX + %d replay %s (%.2f per site-year), %d %s of which %d reused a body already replayed, %d %s read back from the archive folder\n",
		w.Range, w.Sites, plural(w.Sites, "site", "sites"), w.Listed, plural(w.Listed, "host", "hosts"), w.Found, w.NotCaptured, w.Failed,
		w.CDXRequests, w.Replays, plural(int(w.CDXRequests+w.Replays), "request", "requests"), w.RequestsPerSiteYear,
		w.Captures, plural(int(w.Captures), "capture", "captures"), w.Reused, w.Archived, plural(int(w.Archived), "answer", "answers"))
	for _, m := range w.Months {
		fmt.Fprintf(out, "robotstat: panel %s: %d found, %d not captured, %d failed of %d listed\n", m.Crawl, m.Found, m.NotCaptured, m.Failed, m.Listed)
	}
	if w.Failed > 0 {
		more := ""
		if w.Failed > len(w.FailedHosts) {
			more = ", ..."
		}
		fmt.Fprintf(out, "robotstat: panel %s: failed: %s%s (the errors table locates why)\n", w.Range, strings.Join(w.FailedHosts, ", "), more)
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
