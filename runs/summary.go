package runs

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/robotstat/robotstat/internal/words"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/schema"
)

// SummaryOptions are what the caller adds to a Result's summary
// (Result.WriteSummary). A plain value.
type SummaryOptions struct {
	// Sample: the run read robotstat's embedded sample, not inputs given.
	Sample bool
	// Panel, when set, is written after the captures line.
	Panel *PanelResult
	// Next: the dataset holds captures, so the summary ends by pointing
	// at robotstat report.
	Next bool
}

// WriteSummary writes the summary robotstat analyze prints on stderr: what
// was read, the captures by outcome, what was left out and why, what was
// written, skipped, replaced and repaired, and the inputs that failed (the
// first maxFailuresShown). Each line begins "robotstat: ". Write errors
// are the writer's to keep (a summary on stderr has no one to tell).
func (r *Result) WriteSummary(w io.Writer, o SummaryOptions) {
	what := "inputs"
	if o.Sample {
		what = "the embedded sample"
	}
	fmt.Fprintf(w, "robotstat: read %s: %s\n", what, r.Summary.Line())
	var parts []string
	for _, oc := range outcomeOrder {
		parts = append(parts, fmt.Sprintf("%d %s", r.Outcomes[oc.value], oc.label))
	}
	fmt.Fprintf(w, "robotstat: %d captures: %s\n", r.Captures, strings.Join(parts, ", "))
	o.Panel.write(w)
	if r.NotHosts > 0 {
		fmt.Fprintf(w, "robotstat: %d %s not read: %s (%s); a file of a folder or tar is read as the robots.txt of the host it is named by: example.com, example.com-robots.txt, example.com/robots.txt\n",
			r.NotHosts, plural(int(r.NotHosts), "file", "files"), plural(int(r.NotHosts), "its name is not a host name", "their names are not host names"), examples(r.NotHostExamples, r.NotHosts))
	}
	if r.Duplicates > 0 {
		fmt.Fprintf(w, "robotstat: %d %s named twice, read once: %s\n", r.Duplicates, plural(r.Duplicates, "input", "inputs"), examples(r.DuplicateExamples, int64(r.Duplicates)))
	}
	if r.OutputDirs > 0 {
		fmt.Fprintf(w, "robotstat: %d robotstat output %s inside the input folders not read: %s (%s _robotstat/: tables and records, not robots.txt files)\n",
			r.OutputDirs, plural(int(r.OutputDirs), "folder", "folders"), examples(r.OutputDirExamples, r.OutputDirs), plural(int(r.OutputDirs), "it has", "they have"))
	}
	if r.Empty > 0 {
		fmt.Fprintf(w, "robotstat: %d %s held no record or row at all: %s\n", r.Empty, plural(int(r.Empty), "input", "inputs"), examples(r.EmptyExamples, r.Empty))
	}
	if n := r.Summary.Errors[pipeline.ClassCrawl]; n > 0 {
		fmt.Fprintf(w, "robotstat: %d WARC %s another crawl in %s warcinfo (isPartOf) than %s path (crawl-data/CC-MAIN-YYYY-WW/): %s filed under the path's crawl; the errors table names each (class crawl)\n",
			n, plural(int(n), "file names", "files name"), plural(int(n), "its", "their"), plural(int(n), "its", "their"), plural(int(n), "its captures are", "their captures are"))
	}
	if r.Captures == 0 && r.OtherResponses > 0 {
		fmt.Fprintf(w, "robotstat: %d WARC %s read past: %s not /robots.txt, and outside a Common Crawl robotstxt WARC --responses auto counts only /robots.txt; --responses all counts every response\n",
			r.OtherResponses, plural(int(r.OtherResponses), "response", "responses"), plural(int(r.OtherResponses), "its target is", "their targets are"))
	}
	r.writeWritten(w, o.Next)
	refused := 0
	for i, f := range r.Failed {
		if f.Refused {
			refused++
		}
		if i == maxFailuresShown {
			fmt.Fprintf(w, "robotstat: ... and %d more failed inputs (robotstat status %s lists them all)\n", len(r.Failed)-i, r.Dir)
		}
		if i >= maxFailuresShown {
			continue
		}
		fmt.Fprintf(w, "robotstat: input failed: %s: %s (%d captures read before kept; a rerun retries it)\n", f.Input, f.Error, f.Captures)
	}
	if refused > 0 {
		fmt.Fprintf(w, "robotstat: %s\n", RefusedHint(refused))
	}
}

// writeWritten writes what the run wrote, skipped, repaired and replaced.
func (r *Result) writeWritten(w io.Writer, next bool) {
	var rows []string
	for _, t := range schema.AllTables() {
		if n, ok := r.Rows[string(t)]; ok {
			rows = append(rows, string(t)+" "+strconv.FormatInt(n, 10))
		}
	}
	if len(rows) == 0 {
		rows = append(rows, "none")
	}
	failed := ""
	if len(r.Failed) > 0 { // committed too: their records say they failed
		failed = fmt.Sprintf(", %d of them failed", len(r.Failed))
	}
	then := ""
	if next {
		then = "; next: robotstat report " + r.Dir
	}
	fmt.Fprintf(w, "robotstat: wrote %s: %d %s%s (rows: %s)%s\n", r.Dir, r.Committed, plural(r.Committed, "input", "inputs"), failed, strings.Join(rows, ", "), then)
	if r.Skipped > 0 {
		fmt.Fprintf(w, "robotstat: %d %s already in %s from a run with the same options: skipped (--redo reads them again)\n", r.Skipped, plural(r.Skipped, "input", "inputs"), r.Dir)
	}
	if r.Repaired > 0 {
		fmt.Fprintf(w, "robotstat: %d %s in %s had missing, emptied or cut files (robotstat status %s named them): read again, their rows replaced\n", r.Repaired, plural(r.Repaired, "input", "inputs"), r.Dir, r.Dir)
	}
	for _, why := range slices.Sorted(maps.Keys(r.Replaced)) {
		n := r.Replaced[why]
		fmt.Fprintf(w, "robotstat: %d %s in %s had been analysed with other options (%s): read again, their rows replaced\n", n, plural(n, "input", "inputs"), r.Dir, why)
	}
}

// maxFailuresShown bounds the failed inputs the summary names.
const maxFailuresShown = 10

// outcomeOrder lists the values of captures.outcome in the order the
// summary prints them, with their labels.
var outcomeOrder = [...]struct{ value, label string }{
	{schema.OutcomeParsed, "parsed"},
	{schema.OutcomeUnavailable, "unavailable (4xx, allow all)"},
	{schema.OutcomeUnreachable, "unreachable (5xx, disallow all)"},
	{schema.OutcomeRedirect, "redirected (3xx)"},
}

// examples joins the examples of n things, with ", ..." when they are not
// all of them.
func examples(ex []string, n int64) string {
	s := strings.Join(ex, ", ")
	if n > int64(len(ex)) {
		s += ", ..."
	}
	return s
}

// WriteErrors writes the located data errors the run kept (the first
// pipeline.Config.MaxDiagnostics of them), sorted by input and offset,
// and how many there were in all; inTable says they are all in the errors
// table. It writes nothing when none was kept.
func (r *Result) WriteErrors(w io.Writer, inTable bool) {
	sum := &r.Summary
	if len(sum.Diagnostics) == 0 {
		return
	}
	diags := slices.Clone(sum.Diagnostics)
	slices.SortStableFunc(diags, func(a, b *pipeline.ReadError) int {
		return cmp.Or(strings.Compare(a.Source, b.Source), cmp.Compare(a.Offset, b.Offset))
	})
	total := sum.ErrorCount()
	where := ""
	if inTable {
		where = "; all of them are in the errors table"
	}
	if int64(len(diags)) < total {
		fmt.Fprintf(w, "robotstat: %d of the %d input errors (--errors N shows more)%s:\n", len(diags), total, where)
	} else {
		fmt.Fprintf(w, "robotstat: the %d input %s%s:\n", total, plural(int(total), "error", "errors"), where)
	}
	for _, e := range diags {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

// NothingRead says why a run read nothing, or "" when it read something:
// no input found to read, inputs read that held no capture, or inputs all
// skipped into a dataset that holds no capture. A rerun whose inputs were
// all read before into a dataset that holds captures read nothing new,
// and succeeded; so did a shard, a part of a run, which may hold no input
// (a list shorter than the shards) or only inputs without captures.
// inputs are the run's, as given, named in the message.
func (r *Result) NothingRead(inputs []string) string {
	if r.Captures > 0 {
		return ""
	}
	named := strings.Join(inputs[:min(len(inputs), 3)], ", ")
	if len(inputs) > 3 {
		named += ", ..."
	}
	switch {
	case r.Shard != "":
		return ""
	case r.Files == 0 && r.Skipped == 0:
		return fmt.Sprintf("analyze read nothing: %s %s no input to read (no WARC, JSON Lines or CSV dump, tar, or file named by host; what was left out is said above); nothing written. Give the files or folders of your captures, or a crawl name (CC-MAIN-YYYY-WW): robotstat analyze --help",
			named, plural(len(inputs), "holds", "hold"))
	case r.Files > 0:
		return fmt.Sprintf("analyze read nothing: the %d %s read held no robots.txt capture (why is said above: input errors, inputs with no record, responses that are not /robots.txt); nothing written",
			r.Files, plural(r.Files, "input", "inputs"))
	case !dirExists(filepath.Join(r.Dir, string(schema.Captures))):
		return fmt.Sprintf("analyze read nothing: the %d %s %s read before into %s, which holds no capture (they held none); --redo reads them again",
			r.Skipped, plural(r.Skipped, "input", "inputs"), plural(r.Skipped, "was", "were"), r.Dir)
	}
	return ""
}

// RefusedHint is the last word of a run in which an endpoint kept
// refusing n downloads (pipeline.ErrRefused, pipeline.ErrStopped).
func RefusedHint(n int) string {
	return fmt.Sprintf("the server kept refusing %d %s (403, 429 or 5xx on every try): Common Crawl answers so when requests come too fast or it is overloaded; wait a while and run the same command again (inputs done are skipped), with a lower --downloads or --rate, or more --retries",
		n, plural(n, "download", "downloads"))
}

var plural = words.Plural
