package main

import (
	"context"
	"fmt"
	"os"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/pipeline"
	"github.com/robotstat/robotstat/runs"
)

func init() {
	register(command{name: "status", summary: "say which inputs an output folder holds, which failed and which are left", run: (*Main).status,
		exits: []int{ExitOK, ExitUsage, ExitInterrupted}})
}

func (m *Main) status(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("status")
	asJSON := fs.Bool("json", false, "print the report as JSON on stdout")
	manifestBase := fs.String("manifest-base", "", "as for analyze: `URL` or folder prefixed to relative lines of a manifest")
	shardFlag := fs.String("shard", "", "as for analyze: only the inputs of shard `i/n`, or auto")
	verify := fs.Bool("verify", false, "also read every committed file's Parquet footer and compare its rows with its record (a read per file; without it, a stat)")
	var crawls crawlFlags
	crawls.register(fs)
	pos, err := parseFlags(fs, args, m.Stdout, statusUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	if len(pos) == 0 {
		return cli.Usagef("status", "need the OUT_DIR of robotstat analyze")
	}
	dir, inputs := pos[0], pos[1:]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return cli.Usagef("status", "%s is not a folder; give the --out folder of robotstat analyze", dir)
	}
	var units []pipeline.Unit
	if len(inputs) > 0 {
		shard, err := pipeline.ParseShard(*shardFlag, m.getenv) // "": no shard
		if err != nil {
			return cli.Usagef("status", "--shard: %v", err)
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
	out := &cli.ErrWriter{W: m.Stdout}
	if *asJSON {
		cli.WriteJSON(out, rep) // its error is out's, checked below
	} else {
		rep.WriteText(out)
	}
	if out.Err != nil {
		return fmt.Errorf("status: writing: %w", out.Err)
	}
	return nil
}
