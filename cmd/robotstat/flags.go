package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlagSet returns a FlagSet for a subcommand whose errors are returned, not
// printed, so that Main.report formats them with a Try: hint.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses flags that may appear before, between or after the
// positional arguments ("--" ends flags), and returns the positional ones.
// --help prints the usage to w and returns errHelp.
func parseFlags(fs *flag.FlagSet, args []string, w io.Writer, usage string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printUsage(fs, w, usage)
				return nil, errHelp
			}
			return nil, usageErrorf(fs.Name(), "%v", strings.TrimPrefix(err.Error(), "flag provided but not defined: "))
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// errHelp reports that --help was served; the command exits 0.
var errHelp = errors.New("help shown")

func printUsage(fs *flag.FlagSet, w io.Writer, usage string) {
	fmt.Fprint(w, usage)
	fmt.Fprintln(w, "\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprint(w, "\n", exitCodeHelp)
}
