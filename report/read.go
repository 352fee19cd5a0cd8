package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/robotstat/robotstat/internal/outfile"
	"github.com/robotstat/robotstat/internal/words"
	"github.com/robotstat/robotstat/schema"
)

// Data is everything the renderers need: the report and where it came from.
type Data struct {
	Dir      string
	Version  string // robotstat version that wrote the data
	Catalog  string // bot catalog version
	Report   *Report
	Missing  []schema.TableName // tables the report reads that the data lacks
	Warnings []string           // about rows the report could not count
	// Generator is the version of robotstat that renders the page (the
	// caller's), which may differ from Version.
	Generator string
	// Strata opens the HTML page on the trends by rank stratum.
	Strata bool
	// Coverage is, per crawl a robotstat panel read, what it found of its
	// site list: from the panel runs' completion records, by crawl.
	Coverage []ListCoverage
}

// Notes says what the report could not read, one line each: the tables
// dir lacks and which command writes them (a dataset of one crawl has no
// site_history, and that is said as what it is), then Warnings, each
// naming dir.
func (d *Data) Notes(dir string) []string {
	var notes []string
	for _, t := range d.Missing {
		hint := "robotstat analyze writes it; versions before schema 2 did not"
		if slices.Contains(schema.ReduceTables(), t) {
			hint = "robotstat sites " + dir + " builds it"
		}
		if t == schema.SiteHistory && len(d.Report.Crawls) < 2 {
			// Not missing: robotstat sites says the same.
			notes = append(notes, fmt.Sprintf("%s holds one crawl: no site_history table, which robotstat sites builds once the dataset holds two (analyze another crawl into %s); the report's panel and first-block cohorts are empty", dir, dir))
			continue
		}
		notes = append(notes, fmt.Sprintf("%s has no %s table; what the report reads from it is empty (%s)", dir, t, hint))
	}
	for _, w := range d.Warnings {
		notes = append(notes, dir+": "+w)
	}
	return notes
}

// ListCoverage is what a robotstat panel found of its listed hosts in a
// crawl: those the crawl has a /robots.txt of (each a site), those it does
// not (no site: not captured), and those whose answer could not be read
// whole (failed). It is the "panel" object of the panel run's completion
// record summary (pipeline.Coverage's JSON); the report reads these fields.
type ListCoverage struct {
	Crawl       string `json:"crawl"`
	Listed      int    `json:"listed"`
	Found       int    `json:"found"`
	NotCaptured int    `json:"not_captured"`
	Failed      int    `json:"failed"`
}

// listCoverage reads the coverage of the panel runs of ix, by crawl. A
// Wayback source records one run per site, with its coverage per month
// (months: a crawl wayback-YYYY-MM each): those are summed by month.
func listCoverage(ix *schema.Index) []ListCoverage {
	var out []ListCoverage
	months := map[string]int{} // crawl -> its index in out
	for _, r := range ix.Sorted() {
		if r.Options[schema.OptionPanelSites] == "" || len(r.Summary) == 0 {
			continue
		}
		var s struct {
			Panel *struct {
				ListCoverage
				Months []ListCoverage `json:"months"`
			} `json:"panel"`
		}
		if json.Unmarshal(r.Summary, &s) != nil || s.Panel == nil {
			continue
		}
		if s.Panel.Months == nil {
			out = append(out, s.Panel.ListCoverage)
			continue
		}
		for _, m := range s.Panel.Months {
			i, ok := months[m.Crawl]
			if !ok {
				i = len(out)
				months[m.Crawl] = i
				out = append(out, ListCoverage{Crawl: m.Crawl})
			}
			out[i].Listed += m.Listed
			out[i].Found += m.Found
			out[i].NotCaptured += m.NotCaptured
			out[i].Failed += m.Failed
		}
	}
	slices.SortStableFunc(out, func(a, b ListCoverage) int { return strings.Compare(a.Crawl, b.Crawl) })
	return out
}

// reportTables are the tables the report reads crawl by crawl, sites
// first; site_history, which spans crawls, is read before them.
var reportTables = []schema.TableName{schema.Sites, schema.Signals, schema.Captures, schema.SiteBots, schema.Agents, schema.Directives}

// Read feeds every table's files under dir to a Tally, crawl by crawl, and
// returns what the renderers need and the number of rows read. A dir that
// is not robotstat output is an error wrapping ErrNotDataset.
func Read(ctx context.Context, dir string, o TallyOptions) (*Data, int64, error) {
	sum, err := NewTally(o)
	if err != nil {
		return nil, 0, err
	}
	data := &Data{Dir: dir}
	// Crawls in TableFiles' order (by name, unknown last; the report puts
	// them in date order), each with its files per table. Rows of a crawl
	// the sites table lacks cannot belong to a site.
	ix, err := schema.ReadIndex(dir)
	if err != nil {
		return nil, 0, err
	}
	// A compaction killed after its record leaves the files it merged,
	// which TableFiles skips without counting them as uncommitted.
	if left, err := schema.FindLeftovers(dir); err != nil {
		return nil, 0, fmt.Errorf("report: %w", err)
	} else if left.Absorbed > 0 {
		data.Warnings = append(data.Warnings, fmt.Sprintf("%d files of inputs robotstat compact merged are still there (a compaction was killed before it removed them): not counted here, but a query that globs *.parquet counts their rows twice until the next robotstat analyze, sites or compact into %s removes them", left.Absorbed, dir))
	}
	data.Coverage = listCoverage(ix)
	var crawls []string
	byCrawl := map[string]map[schema.TableName][]schema.File{}
	orphans := map[string]bool{}
	tables := reportTables
	if o.Domains {
		tables = append(slices.Clone(reportTables), schema.Domains)
	}
	for _, t := range tables {
		files, uncommitted, err := ix.TableFiles(t)
		if uncommitted > 0 {
			data.Warnings = append(data.Warnings, fmt.Sprintf("%d %s files belong to no committed run (a killed run or one still writing, or copied in by hand): not counted here, but a query that globs *.parquet counts them until the next robotstat analyze, sites or compact into %s removes them (robotstat status %s says what is left)", uncommitted, t, dir, dir))
		}
		switch {
		case errors.Is(err, schema.ErrNoTable) && t == schema.Sites:
			if _, cerr := os.Stat(filepath.Join(dir, string(schema.Captures))); cerr == nil {
				return nil, 0, fmt.Errorf("%w: it has captures but no sites table; build it with robotstat sites %s", ErrNotDataset, dir)
			}
			return nil, 0, fmt.Errorf("%w: it has no sites folder; write one with robotstat analyze --out %s", ErrNotDataset, dir)
		case errors.Is(err, schema.ErrNoTable) && t == schema.Domains:
			return nil, 0, fmt.Errorf("%w: --by domain needs the domains table, which %s lacks (robotstat sites builds it; rebuild it with robotstat sites %s)", ErrNoDomains, dir, dir)
		case errors.Is(err, schema.ErrNoTable):
			data.Missing = append(data.Missing, t)
			continue
		case err != nil:
			return nil, 0, fmt.Errorf("report: %w", err)
		}
		for _, f := range files {
			if byCrawl[f.Crawl] == nil {
				if t != schema.Sites {
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
		return nil, 0, fmt.Errorf("%w: %s holds no Parquet file", ErrNotDataset, filepath.Join(dir, string(schema.Sites)))
	}
	// sites built before schema version 2 have no crawl_date: the trends
	// need it, and robotstat sites rebuilds it from the same inputs.
	for _, c := range crawls {
		for _, f := range byCrawl[c][schema.Sites] {
			info, err := schema.ReadFileInfo(f.Path)
			if err != nil {
				return nil, 0, fmt.Errorf("report: %w", err)
			}
			if v := info.Metadata[schema.MetaSchemaVersion]; v == "1" {
				return nil, 0, fmt.Errorf("%w: its sites table was built by an older robotstat (schema version 1, without crawl_date); rebuild it with robotstat sites %s", ErrOldSites, dir)
			}
		}
	}
	var rows int64
	// site_history first: the panel and the first-block cohorts.
	hist, uncommitted, err := ix.TableFiles(schema.SiteHistory)
	if uncommitted > 0 {
		data.Warnings = append(data.Warnings, fmt.Sprintf("%d %s files belong to no committed run: not counted here (the next robotstat analyze, sites or compact into %s removes them)", uncommitted, schema.SiteHistory, dir))
	}
	switch {
	case errors.Is(err, schema.ErrNoTable):
		data.Missing = append(data.Missing, schema.SiteHistory)
		if o.Panel {
			return nil, 0, fmt.Errorf("%w: --panel needs the site_history table, which %s lacks (robotstat sites builds it once a dataset holds two crawls; rebuild it with robotstat sites %s)", ErrNoHistory, dir, dir)
		}
	case err != nil:
		return nil, 0, fmt.Errorf("report: %w", err)
	default:
		k, err := readTable(ctx, hist, sum.AddHistory)
		rows += k
		if err != nil {
			return nil, 0, err
		}
	}
	for o := range orphans {
		data.Warnings = append(data.Warnings, o+" but sites has not: its rows are not counted (rebuild with robotstat sites)")
	}
	sort.Strings(data.Warnings)

	for _, crawl := range crawls {
		tf := byCrawl[crawl]
		var n [2]int64 // captures, sites
		for i, t := range []schema.TableName{schema.Captures, schema.Sites} {
			for _, f := range tf[t] {
				info, err := schema.ReadFileInfo(f.Path)
				if err != nil {
					return nil, 0, fmt.Errorf("report: %w", err)
				}
				n[i] += info.Rows
				if data.Version == "" && t == schema.Captures {
					data.Version = info.Metadata[schema.MetaVersion]
					data.Catalog = info.Metadata[schema.MetaOptionPrefix+schema.OptionBotCatalog]
				}
			}
		}
		sum.BeginCrawl(crawl, n[0], n[1])
		if o.Domains {
			k, err := readTable(ctx, tf[schema.Domains], sum.AddDomains)
			rows += k
			if err != nil {
				return nil, 0, err
			}
		}
		for _, read := range []func() (int64, error){
			func() (int64, error) { return readTable(ctx, tf[schema.Signals], sum.AddSignals) },
			func() (int64, error) { return readTable(ctx, tf[schema.Sites], sum.AddSites) },
			func() (int64, error) { return readTable(ctx, tf[schema.Captures], sum.AddCaptures) },
			func() (int64, error) { return readTable(ctx, tf[schema.SiteBots], sum.AddSiteBots) },
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
		err := schema.ReadFile(ctx, f.Path, TallyColumns(f.Table), func(rows []T) error {
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

// WriteHTMLFile writes the page to path through internal/outfile: a
// regular file (or none) under a temporary name beside it, renamed into
// place, so a reader never sees half a page; a character device or FIFO
// (/dev/stdout, a named pipe) written through, never replaced; a link
// followed; anything else refused.
func WriteHTMLFile(path string, data *Data) error {
	if err := outfile.Write(path, func(w io.Writer) error { return WriteHTML(w, data) }); err != nil {
		return fmt.Errorf("report: --html: %w", err)
	}
	return nil
}

// about is the report's preamble, as key and sentence, shared by the text
// and the HTML page.
func (d *Data) about() [][2]string {
	r := d.Report
	var crawls []string
	for _, c := range r.Trend.Crawls {
		s := c.Label
		if ds := c.DateString(); ds != "" {
			s += " (" + ds + ")"
		}
		crawls = append(crawls, s)
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
		{"site", "one per crawl and host (the sites table): the answer its robots.txt gave in the crawl, the best of the host's captures of /robots.txt, redirects followed (at most five)"},
		{"shares", "outcome, status and adoption are shares of sites; everything else of parsed robots.txt (2xx or no status); every table gives its denominators (n), a count/n one that differs from them"},
		{"bounds", "each share is followed by its 95% Wilson score interval in percent, [low-high]; ! marks a share of fewer than 100 (n < 100)"},
	}
	if r.Domains {
		lines = append(lines, [2]string{"domains", "one site per crawl and registered domain (the domains table: the domain's own host, else its www. host, else the best rank, else the first host); sites without a registered domain are left out; first blocks and the panel still count hosts"})
	}
	if len(crawls) > 1 {
		lines = append(lines, [2]string{"dates", "a CC-MAIN-YYYY-WW crawl is dated to the Monday of ISO week WW, a wayback-YYYY-MM month to its first day, any other to the day of its median fetch (sites.crawl_date); trends run in date order"})
	}
	if len(d.Coverage) > 0 {
		var parts []string
		for _, c := range d.Coverage {
			parts = append(parts, fmt.Sprintf("%s %s found, %s not captured, %s failed", c.Crawl, formatCount(int64(c.Found)), formatCount(int64(c.NotCaptured)), formatCount(int64(c.Failed))))
		}
		lines = append(lines, [2]string{"list", fmt.Sprintf("robotstat panel of %s listed hosts; the sites are those found (a host not captured has no site in that crawl): %s",
			formatCount(int64(d.Coverage[0].Listed)), strings.Join(parts, "; "))})
	}
	t := r.Trend
	switch {
	case r.Panel:
		lines = append(lines, [2]string{"panel", fmt.Sprintf("the tables count only the %s hosts that are a parsed site in all %d crawls (site_history.panel)", formatCount(t.PanelHosts), len(crawls))})
	case t.History && len(crawls) > 1:
		lines = append(lines, [2]string{"panel", fmt.Sprintf("%s hosts are a parsed site in all %d crawls (site_history.panel); --panel restricts the tables to them", formatCount(t.PanelHosts), len(crawls))})
	}
	if r.RankedSites > 0 {
		var all int64
		for _, c := range t.Crawls {
			all += c.Sites
		}
		lines = append(lines, [2]string{"ranks", fmt.Sprintf("%s of %s sites (%s) matched the ranked list; strata are cumulative (top 1k is part of top 10k)",
			formatCount(r.RankedSites), formatCount(all), formatShare(Cell{r.RankedSites, all}))})
	}
	if r.By == ByRank {
		lines = append(lines, [2]string{"columns", fmt.Sprintf("rank strata, pooled over %d %s", len(crawls), plural(len(crawls), "crawl", "crawls"))})
	} else if len(r.Groups) > 1 {
		lines = append(lines, [2]string{"columns", "one per crawl, in date order"})
	}
	return lines
}

// plural is words.Plural, the one every package's messages share.
var plural = words.Plural
