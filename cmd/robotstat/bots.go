package main

import (
	"context"
	"fmt"
	"io"

	"github.com/robotstat/robotstat/stats"
)

func init() {
	register(command{name: "bots", summary: "print the bot catalog the bots table reports on", run: (*Main).bots,
		exits: []int{ExitOK, ExitUsage}})
}

const botsUsage = `Usage: robotstat bots [--json] [--bots FILE [--bots-replace]]

Prints the bot catalog as CSV (token,operator,category,source,checked) after
a comment line with its version, or with --json in the JSON form of the
embedded catalog: the embedded catalog, or the one robotstat analyze --bots
FILE would use. source is where the entry was checked (the operator's
documentation or the ai.robots.txt registry) and checked the date it was
read there. Only the ai-* categories count as AI in reports; search-dual-use
and generic-tool mark tokens a site may name for other reasons.

FILE is CSV with a token,operator,category header (source and checked
optional) or the JSON form; both outputs of this command are such files. Its
bots extend the embedded catalog (an entry with the same product token
replaces it) unless --bots-replace is given, as with robotstat analyze.
`

func (m *Main) bots(ctx context.Context, args []string) error {
	fs := newFlagSet("bots")
	file := fs.String("bots", "", "read bots from `FILE` (CSV or JSON)")
	replace := fs.Bool("bots-replace", false, "use FILE's bots alone instead of extending the embedded catalog")
	asJSON := fs.Bool("json", false, "print the JSON form instead of CSV")
	pos, err := parseFlags(fs, args, m.Stdout, botsUsage)
	if err != nil {
		if err == errHelp {
			return nil
		}
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("bots", "bots takes no arguments, got %q", pos[0])
	}
	if *replace && *file == "" {
		return usageErrorf("bots", "--bots-replace needs --bots FILE")
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
