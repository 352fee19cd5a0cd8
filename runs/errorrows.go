package runs

import (
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
)

// ErrorRows returns the errors table's rows of a unit: its data errors, in
// the input's order, then the failure that stopped it, if any, as a row of
// class "input". Their crawl is crawl: the unit's captures' (the first by
// name when they have several, so that it does not depend on which worker
// read first), else the run's (pipeline.Config.Crawl), else the one the
// unit was listed by or its name names (pipeline.CrawlOfPath), else the
// first by name of the run's captures' crawls (a unit that failed before
// any capture of a WARC without warcinfo; see unitWriter.finish).
func ErrorRows(r pipeline.UnitResult, crawl string) []schema.ErrorRow {
	rows := make([]schema.ErrorRow, 0, len(r.Errors)+1)
	for _, e := range r.Errors {
		source := e.Path // as captures.source names the file
		if source == "" {
			source = e.Source
		}
		row := schema.ErrorRow{Crawl: crawl, Input: r.Name, Source: source,
			RecordID: schema.TrimRecordID(e.RecordID), Class: e.Class.String(), Excerpt: e.Excerpt}
		if e.Offset >= 0 { // a whole file (a panel's unreadable index file) has none
			row.Offset = &e.Offset
		}
		if e.Record >= 0 {
			row.Record = &e.Record
		}
		if e.Err != nil {
			row.Message = e.Err.Error()
		}
		rows = append(rows, row)
	}
	if r.Err != nil {
		rows = append(rows, schema.ErrorRow{Crawl: crawl, Input: r.Name, Source: r.Name, Class: "input", Message: r.Err.Error()})
	}
	return rows
}
