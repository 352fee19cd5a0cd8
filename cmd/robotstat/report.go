package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/internal/outfile"
	"github.com/robotstat/robotstat/report"
	"github.com/robotstat/robotstat/stats"
)

func init() {
	register(command{name: "report", summary: "print summary tables (and an HTML page with charts) from analyze's output", run: (*Main).reportCommand,
		exits: []int{ExitOK, ExitUsage, ExitInterrupted}})
}

type reportFlags struct {
	html, by, csv, sites         string
	json, panel, strata, allBots bool
}

func (m *Main) reportCommand(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("report")
	var f reportFlags
	fs.StringVar(&f.html, "html", "", "also write the report as a self-contained HTML page to `FILE`")
	fs.StringVar(&f.by, "by", report.ByCrawl, "one column per `crawl`, per rank stratum (rank), or per crawl counting one site per registered domain (domain)")
	fs.StringVar(&f.csv, "csv", "", "also write every table and chart's data as CSV files into `DIR`")
	fs.BoolVar(&f.json, "json", false, "print the tables and charts' data as JSON on stdout instead of text")
	fs.BoolVar(&f.panel, "panel", false, "count only hosts that are a parsed site in every crawl")
	fs.BoolVar(&f.strata, "strata", false, "open the HTML page on the trends by rank stratum")
	fs.BoolVar(&f.allBots, "all-bots", false, "add the table of every catalog bot under every definition")
	fs.StringVar(&f.sites, "sites", "", "rank sites by the ranked list `FILE` (Tranco's rank,domain CSV) instead of sites.rank")
	pos, err := parseFlags(fs, args, m.Stdout, reportUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	if len(pos) != 1 {
		return cli.Usagef("report", "need one OUT_DIR (the --out folder of robotstat analyze), got %d arguments", len(pos))
	}
	if _, err := report.ColumnsBy(f.by); err != nil {
		return cli.Usagef("report", "--by must be crawl, rank or domain, got %q", f.by)
	}
	return m.runReport(ctx, f, pos[0])
}

func (m *Main) runReport(ctx context.Context, f reportFlags, dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return cli.Usagef("report", "%s does not exist; write it with robotstat analyze --out %s", dir, dir)
	case err != nil:
		return fmt.Errorf("report: %w", err)
	case !st.IsDir():
		return cli.Usagef("report", "%s is not a folder; give the --out folder of robotstat analyze", dir)
	}
	// A page that cannot be written fails before the report is read and
	// printed, not after.
	if f.html != "" {
		if err := outfile.Check(f.html); err != nil {
			return cli.Usagef("report", "--html %v: nothing done; give the name of a file to write (the page is one self-contained file), in a folder that exists", err)
		}
	}
	o, _ := report.ColumnsBy(f.by) // checked by reportCommand
	o.Panel, o.AllBots = f.panel, f.allBots
	if f.sites != "" {
		ranks, err := loadWith(m, f.sites, stats.ReadRanks)
		if err != nil {
			return fmt.Errorf("--sites: %w", err)
		}
		o.Rank = ranks.Rank
	}
	start := time.Now()
	data, rows, err := report.Read(ctx, dir, o)
	switch {
	case errors.Is(err, report.ErrNotDataset):
		return cli.Usagef("report", "%s is %v", dir, err)
	case errors.Is(err, report.ErrOldSites), errors.Is(err, report.ErrNoHistory), errors.Is(err, report.ErrNoDomains):
		return cli.Usagef("report", "%s: %v", dir, err)
	case err != nil:
		return err
	}
	data.Generator, data.Strata = Version, f.strata
	for _, n := range data.Notes(dir) {
		fmt.Fprintf(m.Stderr, "robotstat: %s\n", n)
	}
	if f.by == report.ByRank && data.Report.RankedSites == 0 {
		return cli.Usagef("report", "no site in %s has a rank; give --sites FILE (a Tranco rank,domain list), or run robotstat analyze with --sites FILE to fill sites.rank", dir)
	}
	if f.json {
		err = report.WriteJSON(m.Stdout, data)
	} else {
		err = report.WriteText(m.Stdout, data)
	}
	if err != nil {
		return fmt.Errorf("report: writing: %w", err)
	}
	var wrote []string
	if f.html != "" {
		if err := report.WriteHTMLFile(f.html, data); err != nil {
			return err
		}
		wrote = append(wrote, f.html)
	}
	if f.csv != "" {
		if err := report.WriteCSV(f.csv, data); err != nil {
			return err
		}
		wrote = append(wrote, fmt.Sprintf("%d CSV files in %s", len(data.Exports()), f.csv))
	}
	took := time.Since(start)
	fmt.Fprintf(m.Stderr, "robotstat: read %d rows in %.1f s (%.0f rows/s)", rows, took.Seconds(), float64(rows)/max(took.Seconds(), 1e-9))
	if len(wrote) > 0 {
		fmt.Fprintf(m.Stderr, "; wrote %s", strings.Join(wrote, ", "))
	}
	fmt.Fprintln(m.Stderr)
	return nil
}
