package runs

import (
	"fmt"
	"io"
	"strings"

	"github.com/robotstat/robotstat/schema"
)

// WriteText writes the status as robotstat status prints it: the counts,
// then every input that is not done, the damaged files, the conflicts and
// the leftovers, and what to run. Write errors are w's to keep.
func (r *Status) WriteText(w io.Writer) {
	damaged := ""
	if n := r.Counts[StateDamaged]; n > 0 {
		damaged = fmt.Sprintf(", %d damaged", n)
	}
	fmt.Fprintf(w, "%s: %d inputs done, %d failed, %d partial, %d left%s; sites %s\n", r.Dir,
		r.Counts[schema.RecordDone], r.Counts[schema.RecordFailed], r.Counts[StatePartial], r.Counts[StateLeft], damaged, r.Sites)
	for _, in := range r.Inputs {
		if c := in.Panel; c != nil && c.Months == nil { // a Wayback unit's: summed by month below
			fmt.Fprintf(w, "panel    %s: %d found, %d not captured, %d failed of %d listed hosts\n", c.Crawl, c.Found, c.NotCaptured, c.Failed, c.Listed)
		}
		switch in.State {
		case schema.RecordDone:
		case StateLeft:
			fmt.Fprintf(w, "left     %s\n", in.Input)
		case StateDamaged:
			fmt.Fprintf(w, "damaged  %s: %s\n", in.Input, in.Error)
		default:
			fmt.Fprintf(w, "%-8s %s: %s (%d captures kept)\n", in.State, in.Input, in.Error, in.Captures)
		}
	}
	for _, c := range r.WaybackMonths {
		fmt.Fprintf(w, "panel    %s: %d found, %d not captured, %d failed of %d listed hosts\n", c.Crawl, c.Found, c.NotCaptured, c.Failed, c.Listed)
	}
	for _, d := range r.Damaged {
		fmt.Fprintf(w, "damaged  %s: %s: %s\n", d.Path, d.Why, d.Redo)
	}
	if len(r.Conflicts) > 0 {
		fmt.Fprintf(w, "conflict: %d %s committed again after robotstat compact merged %s rows, which are now in two places (%s); readers refuse %s: analyze the inputs into a fresh --out\n",
			len(r.Conflicts), plural(len(r.Conflicts), "run", "runs"), plural(len(r.Conflicts), "its", "their"), strings.Join(r.Conflicts, ", "), r.Dir)
	}
	if l := r.Leftovers; l != nil {
		ex := strings.Join(l.Examples, ", ")
		if l.Temps+l.Visible() > len(l.Examples) {
			ex += ", ..."
		}
		n := l.Temps + l.Visible()
		fmt.Fprintf(w, "leftovers: %d %s a killed (or running) robotstat left: %d that no record names and %d of runs robotstat compact merged, which a query that globs *.parquet reads beside the committed files (robotstat's readers skip them), and %d hidden temporary (%s); the next robotstat analyze, sites or compact into %s removes them\n",
			n, plural(n, "file", "files"), l.Unnamed, l.Absorbed, l.Temps, ex, r.Dir)
	}
	if r.Counts[schema.RecordFailed]+r.Counts[StatePartial]+r.Counts[StateLeft] > 0 {
		fmt.Fprintf(w, "rerun the analyze command to read the inputs failed, partial and left; done ones are skipped\n")
	}
}
