package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/runs"
	"github.com/robotstat/robotstat/schema"
)

func init() {
	register(command{name: "status", summary: "say which inputs an output folder holds, which failed and which are left", run: (*Main).status,
		exits: []int{ExitOK, ExitUsage, ExitInterrupted}})
}

func (m *Main) status(ctx context.Context, args []string) error {
	fs := newFlagSet("status")
	asJSON := fs.Bool("json", false, "print the report as JSON on stdout")
	manifestBase := fs.String("manifest-base", "", "as for analyze: `URL` or folder prefixed to relative lines of a manifest")
	shardFlag := fs.String("shard", "", "as for analyze: only the inputs of shard `i/n`, or auto")
	verify := fs.Bool("verify", false, "also read every committed file's Parquet footer and compare its rows with its record (a read per file; without it, a stat)")
	var crawls crawlFlags
	crawls.register(fs)
	pos, err := parseFlags(fs, args, m.Stdout, statusUsage)
	if err != nil {
		if errors.Is(err, errHelp) {
			return nil
		}
		return err
	}
	if len(pos) == 0 {
		return usageErrorf("status", "need the OUT_DIR of robotstat analyze")
	}
	dir, inputs := pos[0], pos[1:]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usageErrorf("status", "%s is not a folder; give the --out folder of robotstat analyze", dir)
	}
	var units []pipeline.Unit
	if len(inputs) > 0 {
		var shard pipeline.Shard
		if *shardFlag != "" {
			if shard, err = pipeline.ParseShard(*shardFlag, m.getenv); err != nil {
				return usageErrorf("status", "--shard: %v", err)
			}
		}
		pc := pipeline.Config{ManifestBase: *manifestBase, Shard: shard, Stdin: m.Stdin}
		if err := crawls.apply("status", &pc, inputs, "", m.Getenv); err != nil {
			return err
		}
		pc.OnRetry = (&retryPrinter{w: m.Stderr}).notice
		m.withRetryDelays(&pc)
		if units, err = pipeline.Units(ctx, pc, inputs); err != nil {
			return fmt.Errorf("status: listing the inputs: %w", err)
		}
	}
	rep, err := runs.ReadStatusChecked(dir, units, *verify)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	out := &errWriter{w: m.Stdout}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		printStatus(out, rep)
	}
	if out.err != nil {
		return fmt.Errorf("status: writing: %w", out.err)
	}
	return nil
}

// printStatus writes the report as text: the counts, then every input
// that is not done.
func printStatus(w io.Writer, r *runs.Status) {
	damaged := ""
	if n := r.Counts[runs.StateDamaged]; n > 0 {
		damaged = fmt.Sprintf(", %d damaged", n)
	}
	fmt.Fprintf(w, "%s: %d inputs done, %d failed, %d partial, %d left%s; sites %s\n", r.Dir,
		r.Counts[schema.RecordDone], r.Counts[schema.RecordFailed], r.Counts[runs.StatePartial], r.Counts[runs.StateLeft], damaged, r.Sites)
	for _, in := range r.Inputs {
		if c := in.Panel; c != nil {
			fmt.Fprintf(w, "panel    %s: %d found, %d not captured, %d failed of %d listed hosts\n", c.Crawl, c.Found, c.NotCaptured, c.Failed, c.Listed)
		}
		switch in.State {
		case schema.RecordDone:
		case runs.StateLeft:
			fmt.Fprintf(w, "left     %s\n", in.Input)
		case runs.StateDamaged:
			fmt.Fprintf(w, "damaged  %s: %s\n", in.Input, in.Error)
		default:
			fmt.Fprintf(w, "%-8s %s: %s (%d captures kept)\n", in.State, in.Input, in.Error, in.Captures)
		}
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
	if r.Counts[schema.RecordFailed]+r.Counts[runs.StatePartial]+r.Counts[runs.StateLeft] > 0 {
		fmt.Fprintf(w, "rerun the analyze command to read the inputs failed, partial and left; done ones are skipped\n")
	}
}
