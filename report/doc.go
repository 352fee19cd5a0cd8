// Package report reads a robotstat dataset back and renders what
// researchers ask for, leading with the answer: the sites that block each
// AI bot fully over time (by name or only through *), by category, when
// sites first blocked and how many later stopped, the four verdict
// definitions as differences, the AI-use signals against the rules, then
// outcomes, adoption, named agents, contents, non-standard directives and
// platform templates; as text, as one self-contained HTML page with inline
// SVG charts, and as CSV or JSON for re-plotting.
//
// Read lists a dataset's files (schema.TableFiles) and streams the columns
// it needs (TallyColumns) into a Tally: site_history first (the panel and
// the first-block cohorts), then crawl by crawl. The Tally keeps counts per
// crawl, cell (panel membership × rank bucket) and distinct key (bot,
// agent, directive, template), never the rows, and decides which capture
// stands for each site with blocked Bloom filters (sitefilter.go); Report
// turns the counts into Tables of Lines and Cells and a Trend over the
// crawls in date order, which WriteText, WriteHTML, WriteCSV and WriteJSON
// render. tally.go defines a site and each denominator, signals.go how
// Content-Signal and Content-Usage are read.
//
// The package reads Parquet and writes text, HTML and CSV; it never writes
// a dataset. Package reporttest writes the fixture its tests and
// scripts/report-screenshot.sh read.
package report

//go:generate go test -run TestReportGolden -update .
