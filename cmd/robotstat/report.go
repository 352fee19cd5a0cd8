package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/robotstat/robotstat/report"
)

func init() {
	register(command{name: "report", summary: "print summary tables (and an HTML page with charts) from analyze's output", run: (*Main).reportCommand,
		exits: []int{ExitOK, ExitUsage, ExitInterrupted}})
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
	fs.StringVar(&f.by, "by", report.ByCrawl, "one column per `crawl` or per rank stratum (rank)")
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
	if f.by != report.ByCrawl && f.by != report.ByRank {
		return usageErrorf("report", "--by must be crawl or rank, got %q", f.by)
	}
	return m.runReport(ctx, f, pos[0])
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
	data, rows, err := report.Read(ctx, dir, report.TallyOptions{By: f.by})
	switch {
	case errors.Is(err, report.ErrNotDataset):
		return usageErrorf("report", "%s is %v", dir, err)
	case err != nil:
		return err
	}
	data.Generator = Version
	for _, t := range data.Missing {
		fmt.Fprintf(m.Stderr, "robotstat: %s has no %s table; its tables in the report are empty\n", dir, t)
	}
	for _, w := range data.Warnings {
		fmt.Fprintf(m.Stderr, "robotstat: %s: %s\n", dir, w)
	}
	if f.by == report.ByRank && data.Report.RankedSites == 0 {
		return usageErrorf("report", "no site in %s has a rank; run robotstat analyze with --sites FILE (a Tranco rank,domain list) to fill captures.rank", dir)
	}
	if err := report.WriteText(m.Stdout, data); err != nil {
		return fmt.Errorf("report: writing: %w", err)
	}
	if f.html != "" {
		if err := report.WriteHTMLFile(f.html, data); err != nil {
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
