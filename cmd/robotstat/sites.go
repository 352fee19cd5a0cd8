package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/internal/profile"
	"github.com/robotstat/robotstat/reduce"
	"github.com/robotstat/robotstat/schema"
)

func init() {
	register(command{name: "sites", summary: "(re)build the sites and site_bots tables from everything in an output folder", run: (*Main).sites,
		exits: []int{ExitOK, ExitUsage, ExitInterrupted}})
}

func (m *Main) sites(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("sites")
	asJSON := fs.Bool("json", false, "print the summary as JSON on stdout")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "resolve `N` partitions at once")
	var prof profile.Paths
	fs.StringVar(&prof.CPU, "cpuprofile", "", "write a CPU profile of the build to `FILE` (go tool pprof)")
	fs.StringVar(&prof.Mutex, "mutexprofile", "", "write a profile of the build's contended locks to `FILE` (go tool pprof)")
	fs.StringVar(&prof.Block, "blockprofile", "", "write a profile of where the build's goroutines waited to `FILE` (go tool pprof)")
	pos, err := parseFlags(fs, args, m.Stdout, sitesUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	if len(pos) != 1 {
		return cli.Usagef("sites", "need one OUT_DIR (the --out folder of robotstat analyze), got %d arguments", len(pos))
	}
	if *workers < 1 {
		return cli.Usagef("sites", "--workers must be at least 1, got %d", *workers)
	}
	dir := pos[0]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return cli.Usagef("sites", "%s is not a folder; give the --out folder of robotstat analyze", dir)
	}
	if _, err := schema.TableFiles(dir, schema.Captures); errors.Is(err, schema.ErrNoTable) {
		return cli.Usagef("sites", "%s is not a robotstat output: it has no captures folder; write one with robotstat analyze --out %s", dir, dir)
	}
	unlock, err := m.lockOut("sites", dir, true)
	if err != nil {
		return err
	}
	defer unlock()
	p, err := profile.Start(prof)
	if err != nil {
		return err
	}
	defer p.Stop()
	sum, err := m.buildSites(ctx, dir, *workers)
	if err != nil {
		return err
	}
	if err := p.Stop(); err != nil {
		return err
	}
	if *asJSON {
		if err := cli.WriteJSON(m.Stdout, sum); err != nil {
			return fmt.Errorf("writing the summary: %w", err)
		}
	}
	return nil
}

// buildSites runs the reduce step over dir, workers partitions at once,
// and prints its summary on stderr.
func (m *Main) buildSites(ctx context.Context, dir string, workers int) (reduce.Summary, error) {
	sum, err := reduce.Sites(ctx, reduce.Options{Dir: dir, Version: Version, Workers: workers})
	if err != nil {
		if ctx.Err() != nil {
			return sum, fmt.Errorf("sites: interrupted; the previous sites tables are kept: %w", ctx.Err())
		}
		return sum, fmt.Errorf("sites: %w", err)
	}
	sum.WriteText(m.Stderr, dir)
	return sum, nil
}
