package reduce

import (
	"fmt"
	"io"
	"strings"

	"github.com/robotstat/robotstat/schema"
)

// WriteText writes the summary of a build of the dataset dir as robotstat
// sites prints it on stderr: its warnings, one line per crawl (its sites
// by outcome), then site_history's. Write errors are w's to keep.
func (sum *Summary) WriteText(w io.Writer, dir string) {
	for _, warn := range sum.Warnings {
		fmt.Fprintf(w, "robotstat: sites: %s\n", warn)
	}
	for _, c := range sum.Crawls {
		crawl := c.Crawl
		if crawl == "" {
			crawl = "(unknown crawl)"
		}
		var parts []string
		for _, o := range []string{schema.OutcomeParsed, schema.OutcomeUnavailable, schema.OutcomeUnreachable, schema.OutcomeUnresolved} {
			parts = append(parts, fmt.Sprintf("%d %s", c.ByOutcome[o], o))
		}
		date := c.Date
		if date == "" {
			date = "no date"
		}
		fmt.Fprintf(w, "robotstat: sites of %s (%s): %d sites from %d captures: %s\n", crawl, date, c.Sites, c.Captures, strings.Join(parts, ", "))
	}
	if len(sum.Crawls) == 0 {
		fmt.Fprintf(w, "robotstat: sites: %s holds no committed captures\n", dir)
		return
	}
	h := sum.History
	if h == nil {
		fmt.Fprintf(w, "robotstat: site_history: not built (one crawl; it is built once the dataset holds two)\n")
		return
	}
	fmt.Fprintf(w, "robotstat: site_history: %d hosts over %d crawls, %d of them parsed sites in every crawl (the panel of robotstat report --panel)\n",
		h.Hosts, h.Crawls, h.Panel)
}
