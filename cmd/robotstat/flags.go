package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
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
// --help prints the usage to w and returns errHelp. Flags are written
// --name in help and messages; the flag package accepts -name too.
func parseFlags(fs *flag.FlagSet, args []string, w io.Writer, usage string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				out := &errWriter{w: w}
				printUsage(fs, out, usage)
				if out.err != nil {
					return nil, fmt.Errorf("%s --help: writing: %w", fs.Name(), out.err)
				}
				return nil, errHelp
			}
			return nil, usageErrorf(fs.Name(), "%s\n%s", flagError(err), synopsis(usage))
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

// flagError rewrites the flag package's messages in the --name style:
// "flag provided but not defined: -x" reads "unknown flag --x".
func flagError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return "unknown flag --" + strings.TrimLeft(name, "-")
	}
	if rest, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return "flag --" + strings.TrimLeft(rest, "-") + " needs a value"
	}
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		// invalid value "x" for flag -n: parse error
		if v, f, ok := strings.Cut(rest, " for flag -"); ok {
			return "invalid value " + v + " for --" + f
		}
	}
	return msg
}

// synopsis returns the usage's "Usage:" lines, for a message about a
// mistake on the command line.
func synopsis(usage string) string {
	head, _, _ := strings.Cut(strings.TrimSpace(usage), "\n\n")
	return head
}

// errHelp reports that --help was served; the command exits 0.
var errHelp = errors.New("help shown")

// printUsage writes a command's help: its usage text, its flags in the
// --name VALUE style (VALUE from the backquoted word of the flag's help, as
// flag.UnquoteUsage reads it), and the exit codes it can return.
func printUsage(fs *flag.FlagSet, w io.Writer, usage string) {
	fmt.Fprint(w, usage)
	fmt.Fprintln(w, "\nFlags:")
	fs.VisitAll(func(f *flag.Flag) {
		name, help := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + strings.ToUpper(name)
		}
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(help, "\n", "\n    \t"))
		if d := f.DefValue; d != "" && d != "false" && d != "0" {
			if g, ok := f.Value.(flag.Getter); ok {
				if _, isString := g.Get().(string); isString {
					d = strconv.Quote(d)
				}
			}
			fmt.Fprintf(w, " (default %s)", d)
		}
		fmt.Fprintln(w)
	})
	fmt.Fprint(w, "\n", exitCodeHelp(exitsOf(fs.Name())))
}
