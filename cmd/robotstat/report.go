package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/stats"
)

func init() {
	register(command{name: "report", summary: "print summary tables (and an HTML page with charts) from analyze's output", run: (*Main).reportCommand})
}

const reportUsage = `Usage:
  robotstat report [flags] OUT_DIR

Reads the Parquet tables robotstat analyze wrote under OUT_DIR and prints the
tables a researcher asks for first: captures and sites, sites by outcome and
HTTP status, robots.txt adoption, the AI bots sites block, every catalog bot
under each verdict definition (robotstat, somesite, cic, cc_class) split by
whether the bot is named or only * applies, the top named agents, what the
files contain, non-standard directives and platform templates.

A site is one per crawl and host: the first capture of the host in the crawl
whose URL path is /robots.txt. Common Crawl fetches a big site's robots.txt
many times per crawl; the repeats are counted and shown but are not sites.
Status and adoption are shares of sites; everything else is a share of the
sites whose robots.txt was fetched and parsed (2xx or no status). Every
table says what its percentages are of.

With several crawls each table has one column per crawl. --by rank gives one
column per rank stratum instead (top 1k, 10k, 100k, 1M, unranked, all, pooled
over the crawls), from captures.rank, which analyze --sites FILE fills.

--html FILE also writes the tables, with charts, as one self-contained HTML
page (inline CSS and SVG, nothing fetched when it is opened).

Examples:
  robotstat report out/
  robotstat report out/ --html report.html
  robotstat report out/ --by rank
`

type reportFlags struct {
	html, by string
}

func (m *Main) reportCommand(ctx context.Context, args []string) error {
	fs := newFlagSet("report")
	var f reportFlags
	fs.StringVar(&f.html, "html", "", "also write the report as a self-contained HTML page to `FILE`")
	fs.StringVar(&f.by, "by", stats.ByCrawl, "one column per `crawl` or per rank stratum (rank)")
	pos, err := parseFlags(fs, args, m.Stdout, reportUsage)
	if err != nil {
		if errors.Is(err, errHelp) {
			return nil
		}
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("report", "need one OUT_DIR (the --out folder of robotstat analyze), got %d arguments", len(pos))
	}
	if f.by != stats.ByCrawl && f.by != stats.ByRank {
		return usageErrorf("report", "--by must be crawl or rank, got %q", f.by)
	}
	return m.runReport(ctx, f, pos[0])
}

// reportData is everything the renderers need.
type reportData struct {
	Dir      string
	Version  string // robotstat version that wrote the data
	Catalog  string // bot catalog version
	Report   *stats.Report
	Missing  []schema.TableName // tables the report reads that the data lacks
	Warnings []string           // about rows the report could not count
}

func (m *Main) runReport(ctx context.Context, f reportFlags, dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return usageErrorf("report", "%s does not exist; write it with robotstat analyze --out %s", dir, dir)
	case err != nil:
		return fmt.Errorf("report: %w", err)
	case !st.IsDir():
		return usageErrorf("report", "%s is not a folder; give the --out folder of robotstat analyze", dir)
	}
	start := time.Now()
	data, rows, err := readReport(ctx, dir, f.by)
	if err != nil {
		return err
	}
	for _, t := range data.Missing {
		fmt.Fprintf(m.Stderr, "robotstat: %s has no %s table; its tables in the report are empty\n", dir, t)
	}
	for _, w := range data.Warnings {
		fmt.Fprintf(m.Stderr, "robotstat: %s: %s\n", dir, w)
	}
	if f.by == stats.ByRank && data.Report.RankedSites == 0 {
		return usageErrorf("report", "no site in %s has a rank; run robotstat analyze with --sites FILE (a Tranco rank,domain list) to fill captures.rank", dir)
	}
	if err := writeText(m.Stdout, data); err != nil {
		return fmt.Errorf("report: writing: %w", err)
	}
	if f.html != "" {
		if err := writeHTMLFile(f.html, data); err != nil {
			return err
		}
	}
	took := time.Since(start)
	fmt.Fprintf(m.Stderr, "robotstat: read %d rows in %.1f s (%.0f rows/s)", rows, took.Seconds(), float64(rows)/max(took.Seconds(), 1e-9))
	if f.html != "" {
		fmt.Fprintf(m.Stderr, "; wrote %s", f.html)
	}
	fmt.Fprintln(m.Stderr)
	return nil
}

// reportTables are the tables the report reads, captures first.
var reportTables = []schema.TableName{schema.Captures, schema.Bots, schema.Agents, schema.Directives}

// readReport feeds every table's files to a Summary, crawl by crawl, and
// returns the report and the number of rows read.
func readReport(ctx context.Context, dir, by string) (*reportData, int64, error) {
	sum, err := stats.NewSummary(stats.SummaryOptions{By: by})
	if err != nil {
		return nil, 0, usageErrorf("report", "%v", err)
	}
	data := &reportData{Dir: dir}
	// Crawls in TableFiles' order (by name, unknown last), each with its
	// files per table; captures come first. Rows of a crawl the captures
	// table lacks cannot belong to a site.
	var crawls []string
	byCrawl := map[string]map[schema.TableName][]schema.File{}
	orphans := map[string]bool{}
	for _, t := range reportTables {
		files, err := schema.TableFiles(dir, t)
		switch {
		case errors.Is(err, schema.ErrNoTable) && t == schema.Captures:
			return nil, 0, usageErrorf("report", "%s is not a robotstat output: it has no captures folder; write one with robotstat analyze --out %s", dir, dir)
		case errors.Is(err, schema.ErrNoTable):
			data.Missing = append(data.Missing, t)
			continue
		case err != nil:
			return nil, 0, fmt.Errorf("report: %w", err)
		}
		for _, f := range files {
			if byCrawl[f.Crawl] == nil {
				if t != schema.Captures {
					orphans[fmt.Sprintf("%s has crawl %q", t, f.Crawl)] = true
					continue
				}
				byCrawl[f.Crawl] = map[schema.TableName][]schema.File{}
				crawls = append(crawls, f.Crawl)
			}
			byCrawl[f.Crawl][t] = append(byCrawl[f.Crawl][t], f)
		}
	}
	if len(crawls) == 0 {
		return nil, 0, usageErrorf("report", "%s is not a robotstat output: %s holds no Parquet file", dir, filepath.Join(dir, string(schema.Captures)))
	}
	for o := range orphans {
		data.Warnings = append(data.Warnings, o+" but captures has not: its rows are not counted")
	}
	sort.Strings(data.Warnings)

	var rows int64
	for _, crawl := range crawls {
		tf := byCrawl[crawl]
		var n int64
		for _, f := range tf[schema.Captures] {
			info, err := schema.ReadFileInfo(f.Path)
			if err != nil {
				return nil, 0, fmt.Errorf("report: %w", err)
			}
			n += info.Rows
			if data.Version == "" {
				data.Version = info.Metadata[schema.MetaVersion]
				data.Catalog = info.Metadata[schema.MetaOptionPrefix+"robotstat.bot_catalog"]
			}
		}
		sum.BeginCrawl(crawl, n)
		for _, read := range []func() (int64, error){
			func() (int64, error) { return readTable(ctx, tf[schema.Captures], sum.AddCaptures) },
			func() (int64, error) { return readTable(ctx, tf[schema.Bots], sum.AddBots) },
			func() (int64, error) { return readTable(ctx, tf[schema.Agents], sum.AddAgents) },
			func() (int64, error) { return readTable(ctx, tf[schema.Directives], sum.AddDirectives) },
		} {
			k, err := read()
			rows += k
			if err != nil {
				return nil, 0, err
			}
		}
		sum.EndCrawl()
	}
	data.Report = sum.Report()
	return data, rows, nil
}

// readTable reads the summary's columns of files, in order, into add.
func readTable[T schema.Row](ctx context.Context, files []schema.File, add func([]T)) (int64, error) {
	var n int64
	for _, f := range files {
		err := schema.ReadFile(ctx, f.Path, stats.SummaryColumns(f.Table), func(rows []T) error {
			add(rows)
			n += int64(len(rows))
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return n, fmt.Errorf("report: interrupted: %w", ctx.Err())
			}
			return n, fmt.Errorf("report: %w", err)
		}
	}
	return n, nil
}

// writeHTMLFile writes the page under a temporary name beside path and
// renames it into place, so a reader never sees half a page.
func writeHTMLFile(path string, data *reportData) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("report: --html: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename this fails harmlessly
	if err := writeHTML(tmp, data); err != nil {
		tmp.Close()
		return fmt.Errorf("report: --html: writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report: --html: writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("report: --html: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("report: --html: %w", err)
	}
	return nil
}

// about is the report's preamble, as key and sentence, shared by the text
// and the HTML page.
func (d *reportData) about() [][2]string {
	r := d.Report
	var crawls []string
	for _, c := range r.Crawls {
		if c == "" {
			c = stats.UnknownCrawlLabel
		}
		crawls = append(crawls, c)
	}
	data := fmt.Sprintf("%d %s: %s", len(crawls), plural(len(crawls), "crawl", "crawls"), strings.Join(crawls, ", "))
	if d.Version != "" {
		data += "; written by robotstat " + d.Version
	}
	if d.Catalog != "" {
		data += ", bot catalog " + d.Catalog
	}
	lines := [][2]string{
		{"data", data},
		{"site", "one per crawl and host: the first capture of the host in the crawl whose URL path is /robots.txt; repeated captures of a host and captures of other paths are counted but are not sites"},
		{"shares", "outcome, status and adoption are shares of sites; everything else of parsed robots.txt (sites whose robots.txt was fetched and parsed: 2xx or no status); every table gives its denominators"},
	}
	if r.By == stats.ByRank {
		lines = append(lines, [2]string{"columns", fmt.Sprintf("rank strata from captures.rank, cumulative (top 1k is part of top 10k), pooled over %d %s", len(crawls), plural(len(crawls), "crawl", "crawls"))})
	} else if len(r.Groups) > 1 {
		lines = append(lines, [2]string{"columns", "one per crawl"})
	}
	return lines
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
