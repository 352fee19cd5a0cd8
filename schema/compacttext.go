package schema

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// WriteText writes the summary of a compaction of the dataset dir as
// robotstat compact prints it on stderr: its warnings and leftovers
// removed, a line per table merged, then one for the whole compaction.
// ineligible names the runs CompactOptions.Eligible refused, for the
// runs left as they are. Write errors are w's to keep.
func (sum *CompactSummary) WriteText(w io.Writer, dir, ineligible string) {
	for _, warn := range sum.Warnings {
		fmt.Fprintf(w, "robotstat: compact: %s\n", warn)
	}
	if sum.Leftovers > 0 {
		fmt.Fprintf(w, "robotstat: compact: removed %d %s a killed compaction left\n", sum.Leftovers, plural(sum.Leftovers, "file", "files"))
	}
	var before, after int
	var bytesBefore, bytesAfter int64
	for _, t := range sum.Tables {
		fmt.Fprintf(w, "robotstat: compact: %-12s %6d files -> %4d, %s -> %s, %d rows\n",
			t.Table, t.FilesBefore, t.FilesAfter, mib(t.BytesBefore), mib(t.BytesAfter), t.Rows)
		before += t.FilesBefore
		after += t.FilesAfter
		bytesBefore += t.BytesBefore
		bytesAfter += t.BytesAfter
	}
	var left []string
	for _, k := range slices.Sorted(maps.Keys(sum.Left)) {
		why := k
		if k == LeftIneligible {
			why = ineligible
		}
		left = append(left, fmt.Sprintf("%d %s", sum.Left[k], why))
	}
	leftText := ""
	if len(left) > 0 {
		leftText = "; runs left as they are: " + strings.Join(left, ", ")
	}
	if sum.Runs == 0 {
		fmt.Fprintf(w, "robotstat: compact: nothing to merge in %s%s\n", dir, leftText)
		return
	}
	fmt.Fprintf(w, "robotstat: compact: %d inputs, %d files (%s) -> %d files (%s) in %.1fs, as %s%s\n",
		sum.Runs, before, mib(bytesBefore), after, mib(bytesAfter), sum.Seconds, sum.RunID, leftText)
}

// mib formats a byte count for the summary.
func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
