// Package report reads a robotstat dataset back and renders what
// researchers ask for first: captures and sites, outcomes and HTTP status,
// adoption, the AI bots sites block under each verdict definition, named
// agents, contents, non-standard directives and platform templates, as
// text, as one self-contained HTML page with inline SVG charts, per crawl
// or per rank stratum.
//
// Read lists a dataset's files (schema.TableFiles) and streams the columns
// it needs (TallyColumns) into a Tally, crawl by crawl; the Tally keeps counts
// per distinct key (crawl, bot, agent, directive, template), never the rows,
// and decides which capture stands for each site with blocked Bloom filters
// (sitefilter.go); Report turns the counts into Tables of Lines and Cells,
// which WriteText and WriteHTML render. tally.go defines a site and each
// denominator.
//
// The package reads Parquet and writes text; it never writes a dataset.
// Package reporttest writes the fixture its tests and
// scripts/report-screenshot.sh read.
package report

//go:generate go test -run TestReportGolden -update .
