package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/schema"
)

func init() {
	register(command{name: "compact", summary: "merge an output folder's small per-input files into a few large ones", run: (*Main).compact,
		exits: []int{ExitOK, ExitUsage, ExitInterrupted}})
}

func (m *Main) compact(ctx context.Context, args []string) error {
	fs := newFlagSet("compact")
	target := fs.Int64("target-size", schema.DefaultCompactTarget, "merge about this many `bytes` of files into one")
	asJSON := fs.Bool("json", false, "print the summary as JSON on stdout")
	pos, err := parseFlags(fs, args, m.Stdout, compactUsage)
	if err != nil {
		if errors.Is(err, errHelp) {
			return nil
		}
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("compact", "need one OUT_DIR (the --out folder of robotstat analyze), got %d arguments", len(pos))
	}
	if *target <= 0 {
		return usageErrorf("compact", "--target-size must be a positive number of bytes, got %d", *target)
	}
	dir := pos[0]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usageErrorf("compact", "%s is not a folder; give the --out folder of robotstat analyze", dir)
	}
	unlock, err := m.lockOut("compact", dir, true)
	if err != nil {
		return err
	}
	defer unlock()
	sum, err := schema.Compact(ctx, schema.CompactOptions{
		Dir: dir, TargetBytes: *target, Version: Version,
		// analyze's runs only: robotstat sites replaces its output whole.
		Eligible: func(r *schema.Record) bool { return r.RunID != reduce.RunID },
	})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("compact: interrupted; %s is as it was: %w", dir, ctx.Err())
		}
		return fmt.Errorf("compact: %w", err)
	}
	printCompact(m.Stderr, dir, sum)
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return fmt.Errorf("writing the summary: %w", err)
		}
	}
	return nil
}

// printCompact writes the summary: a line per table merged, then one for
// the whole compaction.
func printCompact(w io.Writer, dir string, sum schema.CompactSummary) {
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
		if k == schema.LeftIneligible {
			why = "sites (robotstat sites rebuilds it whole)" // the one run Eligible refuses
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
