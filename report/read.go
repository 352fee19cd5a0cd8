package report

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

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
}

// reportTables are the tables the report reads, sites first.
var reportTables = []schema.TableName{schema.Sites, schema.Captures, schema.SiteBots, schema.Agents, schema.Directives}

// Read feeds every table's files under dir to a Tally, crawl by crawl, and
// returns what the renderers need and the number of rows read. A dir that
// is not robotstat output is an error wrapping ErrNotDataset.
func Read(ctx context.Context, dir string, o TallyOptions) (*Data, int64, error) {
	sum, err := NewTally(o)
	if err != nil {
		return nil, 0, err
	}
	data := &Data{Dir: dir}
	// Crawls in TableFiles' order (by name, unknown last), each with its
	// files per table; captures come first. Rows of a crawl the captures
	// table lacks cannot belong to a site.
	ix, err := schema.ReadIndex(dir)
	if err != nil {
		return nil, 0, err
	}
	var crawls []string
	byCrawl := map[string]map[schema.TableName][]schema.File{}
	orphans := map[string]bool{}
	for _, t := range reportTables {
		files, uncommitted, err := ix.TableFiles(t)
		if uncommitted > 0 {
			data.Warnings = append(data.Warnings, fmt.Sprintf("%d %s files belong to no committed run (a killed run or one still writing, or copied in by hand): not counted", uncommitted, t))
		}
		switch {
		case errors.Is(err, schema.ErrNoTable) && t == schema.Sites:
			if _, cerr := os.Stat(filepath.Join(dir, string(schema.Captures))); cerr == nil {
				return nil, 0, fmt.Errorf("%w: it has captures but no sites table; build it with robotstat sites %s", ErrNotDataset, dir)
			}
			return nil, 0, fmt.Errorf("%w: it has no sites folder; write one with robotstat analyze --out %s", ErrNotDataset, dir)
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
	for o := range orphans {
		data.Warnings = append(data.Warnings, o+" but sites has not: its rows are not counted (rebuild with robotstat sites)")
	}
	sort.Strings(data.Warnings)

	var rows int64
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
					data.Catalog = info.Metadata[schema.MetaOptionPrefix+"robotstat.bot_catalog"]
				}
			}
		}
		sum.BeginCrawl(crawl, n[0], n[1])
		for _, read := range []func() (int64, error){
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

// writeHTMLFile writes the page under a temporary name beside path and
// renames it into place, so a reader never sees half a page.
func WriteHTMLFile(path string, data *Data) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("report: --html: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename this fails harmlessly
	if err := WriteHTML(tmp, data); err != nil {
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
func (d *Data) about() [][2]string {
	r := d.Report
	var crawls []string
	for _, c := range r.Crawls {
		if c == "" {
			c = UnknownCrawlLabel
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
		{"site", "one per crawl and host (the sites table): the answer its robots.txt gave in the crawl, the best of the host's captures of /robots.txt, redirects followed through the crawl's captures (at most five), as robotstat sites resolves them"},
		{"shares", "outcome, status and adoption are shares of sites; everything else of parsed robots.txt (sites whose robots.txt was fetched and parsed: 2xx or no status); every table gives its denominators"},
	}
	if r.By == ByRank {
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
