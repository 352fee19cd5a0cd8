package runs

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robotstat/robotstat/internal/words"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
	"github.com/robotstat/robotstat/wayback"
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
	// Wayback is what the sites read from the Wayback Machine by this run
	// found, over them all (each unit's is in ReadStatus).
	Wayback *WaybackResult `json:"wayback,omitempty"`
}

// WaybackResult sums the Wayback units of a run (pipeline.Coverage.Months): their hosts (found in
// some month, in none, failed in some), requests, and each month's hosts.
type WaybackResult struct {
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

// add adds a Wayback unit's coverage.
func (w *WaybackResult) add(c pipeline.Coverage) {
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
}

// maxSkippedShown bounds the skipped entries a PanelResult names.
const maxSkippedShown = 5

// NewPanelResult is the result of a panel run over list, read from the
// file named file, that covered cov (Result.Coverage).
func NewPanelResult(file string, list *pipeline.SiteListFile, cov []pipeline.Coverage) *PanelResult {
	r := &PanelResult{Sites: file, SiteList: schema.SiteListID(list.Hosts), Entries: list.Entries, Hosts: len(list.Hosts),
		Skipped: len(list.Skipped), SkippedExamples: list.Skipped[:min(len(list.Skipped), maxSkippedShown)]}
	for _, c := range cov {
		if strings.HasPrefix(c.Crawl, wayback.SourcePrefix) {
			if r.Wayback == nil {
				r.Wayback = &WaybackResult{}
			}
			r.Wayback.add(c)
			continue
		}
		r.Crawls = append(r.Crawls, c)
	}
	if w := r.Wayback; w != nil {
		slices.Sort(w.FailedHosts)
		if years := float64(len(w.Months)) / 12; years > 0 {
			w.RequestsPerSiteYear = float64(w.CDXRequests+w.Replays) / float64(w.Sites) / years
		}
	}
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
		skipped = fmt.Sprintf("; %d %s, skipped: %s", r.Skipped, plural(r.Skipped, "entry is not a host name", "entries are not host names"), firstOf(r.SkippedExamples, r.Skipped, "; "))
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
			fmt.Fprintf(w, "robotstat: panel %s: failed: %s (the errors table locates why; a rerun with --redo reads the crawl again)\n", c.Crawl, firstOf(c.FailedHosts, c.Failed, ", "))
		}
	}
	r.Wayback.write(w)
}

// write writes the Wayback source's lines of the summary: the sites, their
// cost, then each month's hosts.
func (w *WaybackResult) write(out io.Writer) {
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
		fmt.Fprintf(out, "robotstat: panel %s: failed: %s (the errors table locates why)\n", w.Range, firstOf(w.FailedHosts, w.Failed, ", "))
	}
}

// firstOf writes the first names of a list of n, sep between them, and
// ", ..." after them when the list is longer.
func firstOf(names []string, n int, sep string) string {
	s := strings.Join(names, sep)
	if n > len(names) {
		s += ", ..."
	}
	return s
}
