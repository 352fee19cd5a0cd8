package main

import (
	"context"
	"fmt"
	"os"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/schema"
)

func init() {
	register(command{name: "compact", summary: "merge an output folder's small per-input files into a few large ones", run: (*Main).compact,
		exits: []int{ExitOK, ExitUsage, ExitInterrupted}})
}

func (m *Main) compact(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("compact")
	target := fs.Int64("target-size", schema.DefaultCompactTarget, "merge about this many `bytes` of files into one")
	asJSON := fs.Bool("json", false, "print the summary as JSON on stdout")
	pos, err := parseFlags(fs, args, m.Stdout, compactUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	if len(pos) != 1 {
		return cli.Usagef("compact", "need one OUT_DIR (the --out folder of robotstat analyze), got %d arguments", len(pos))
	}
	if *target <= 0 {
		return cli.Usagef("compact", "--target-size must be a positive number of bytes, got %d", *target)
	}
	dir := pos[0]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return cli.Usagef("compact", "%s is not a folder; give the --out folder of robotstat analyze", dir)
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
	sum.WriteText(m.Stderr, dir, "sites (robotstat sites rebuilds it whole)") // the one run Eligible refuses
	if *asJSON {
		if err := cli.WriteJSON(m.Stdout, sum); err != nil {
			return fmt.Errorf("writing the summary: %w", err)
		}
	}
	return nil
}
