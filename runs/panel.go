package runs

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robotstat/robotstat/internal/words"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
)

// PanelResult is what a panel run (pipeline.Config.Panel) found of its
// site list's hosts in each crawl: robotstat panel's part of the summary
// (SummaryOptions.Panel) and of its --json. A plain value.
type PanelResult struct {
	Sites           string   `json:"sites"`
	SiteList        string   `json:"site_list"` // its id in the dataset (schema.SiteListDir)
	Entries         int      `json:"entries"`
	Hosts           int      `json:"hosts"`
	Skipped         int      `json:"entries_skipped,omitempty"`
	SkippedExamples []string `json:"entries_skipped_examples,omitempty"`
	// Crawls are the crawls read by this run, in name order: those the
	// dataset already held were skipped (ReadStatus says theirs).
	Crawls []pipeline.Coverage `json:"crawls"`
}

// maxSkippedShown bounds the skipped entries a PanelResult names.
const maxSkippedShown = 5

// NewPanelResult is the result of a panel run over list, read from the
// file named file, that covered cov (Result.Coverage).
func NewPanelResult(file string, list *pipeline.SiteListFile, cov []pipeline.Coverage) *PanelResult {
	r := &PanelResult{Sites: file, SiteList: schema.SiteListID(list.Hosts), Entries: list.Entries, Hosts: len(list.Hosts),
		Skipped: len(list.Skipped), SkippedExamples: list.Skipped[:min(len(list.Skipped), maxSkippedShown)], Crawls: slices.Clone(cov)}
	slices.SortFunc(r.Crawls, func(a, b pipeline.Coverage) int { return strings.Compare(a.Crawl, b.Crawl) })
	return r
}

// write writes the panel's lines of the summary: the list, then each
// crawl's coverage and cost. A nil r writes nothing.
func (r *PanelResult) write(w io.Writer) {
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
	size := words.Bytes
	for _, c := range r.Crawls {
		per := float64(max(c.Listed, 1))
		fmt.Fprintf(w, "robotstat: panel %s: %d found, %d not captured, %d failed of %d listed; index %d %s, %s (%d of %d row groups, %d of %d key pages); %d %s in %d %s, %s; %d redirect %s looked up; per listed host %.2f index + %.2f record requests, %s + %s\n",
			c.Crawl, c.Found, c.NotCaptured, c.Failed, c.Listed,
			c.IndexRequests, plural(int(c.IndexRequests), "request", "requests"), size(c.IndexBytes), c.RowGroupsRead, c.RowGroups, c.PagesRead, c.Pages,
			c.Records, plural(int(c.Records), "record", "records"), c.RecordRequests, plural(int(c.RecordRequests), "request", "requests"), size(c.RecordBytes),
			c.RedirectTargets, plural(c.RedirectTargets, "target", "targets"),
			float64(c.IndexRequests)/per, float64(c.RecordRequests)/per, size(int64(float64(c.IndexBytes)/per)), size(int64(float64(c.RecordBytes)/per)))
		if c.Failed > 0 {
			more := ""
			if c.Failed > len(c.FailedHosts) {
				more = ", ..."
			}
			fmt.Fprintf(w, "robotstat: panel %s: failed: %s%s (the errors table locates why; a rerun with --redo reads the crawl again)\n", c.Crawl, strings.Join(c.FailedHosts, ", "), more)
		}
	}
}
