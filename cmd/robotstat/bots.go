package main

import (
	"context"
	"fmt"
	"io"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/stats"
)

func init() {
	register(command{name: "bots", summary: "print the bot catalog the bots table reports on", run: (*Main).bots,
		exits: []int{ExitOK, ExitUsage}})
}

func (m *Main) bots(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("bots")
	file := fs.String("bots", "", "read bots from `FILE` (CSV or JSON)")
	replace := fs.Bool("bots-replace", false, "use FILE's bots alone instead of extending the embedded catalog")
	asJSON := fs.Bool("json", false, "print the JSON form instead of CSV")
	pos, err := parseFlags(fs, args, m.Stdout, botsUsage)
	if err != nil {
		return cli.IgnoreHelp(err)
	}
	if len(pos) > 0 {
		return cli.Usagef("bots", "bots takes no arguments, got %q", pos[0])
	}
	if *replace && *file == "" {
		return cli.Usagef("bots", "--bots-replace needs --bots FILE")
	}
	cat := stats.DefaultCatalog()
	if *file != "" {
		if cat, err = m.loadCatalog(*file, *replace); err != nil {
			return fmt.Errorf("bots: %w", err)
		}
	}
	write := stats.WriteCatalog
	if *asJSON {
		write = stats.WriteCatalogJSON
	}
	if err := write(m.Stdout, cat); err != nil {
		return fmt.Errorf("bots: writing: %w", err)
	}
	return nil
}

// loadCatalog reads the catalog robotstat bots and analyze take from --bots
// FILE: the embedded one extended by FILE's bots, or FILE's alone with
// replace.
func (m *Main) loadCatalog(name string, replace bool) (*stats.Catalog, error) {
	mode := stats.CatalogExtend
	if replace {
		mode = stats.CatalogReplace
	}
	return loadWith(m, name, func(r io.Reader) (*stats.Catalog, error) { return stats.LoadCatalog(r, mode) })
}
