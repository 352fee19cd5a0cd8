// Package cli is the command line robotstat's subcommands share, in the
// style of litestream's cmd: a flag.FlagSet per subcommand whose flags are
// written --name and may come before, between or after the positional
// arguments (Parse); a --help made of the command's usage text, its flags
// as --name VALUE, and a footer (the exit codes it returns); mistakes on
// the command line as a *UsageError whose message ends with a "Try:"
// hint; an exit code carried by an error (*ExitError); and a writer that
// keeps its first error, so that output lost to a full disk fails the
// command.
//
// It prints nothing on its own: Parse writes the help to the writer it is
// given; the caller prints errors.
package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// NewFlagSet returns a FlagSet for a subcommand whose errors are returned,
// not printed, so that the caller formats them with a Try: hint.
func NewFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// ErrHelp reports that --help was served; the command exits 0.
var ErrHelp = errors.New("help shown")

// IgnoreHelp returns err, nil for ErrHelp: a command whose --help was
// served (Parse) succeeds.
func IgnoreHelp(err error) error {
	if errors.Is(err, ErrHelp) {
		return nil
	}
	return err
}

// Parse parses flags that may appear before, between or after the
// positional arguments ("--" ends flags), and returns the positional ones.
// --help writes the help (PrintUsage) to w and returns ErrHelp. A mistake
// is a *UsageError that says what is wrong (FlagError) and shows the
// usage's synopsis. Flags are written --name in help and messages; the
// flag package accepts -name too.
func Parse(fs *flag.FlagSet, args []string, w io.Writer, usage, footer string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				out := &ErrWriter{W: w}
				PrintUsage(fs, out, usage, footer)
				if out.Err != nil {
					return nil, fmt.Errorf("%s --help: writing: %w", fs.Name(), out.Err)
				}
				return nil, ErrHelp
			}
			return nil, Usagef(fs.Name(), "%s\n%s", FlagError(err), Synopsis(usage))
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

// FlagError rewrites the flag package's messages in the --name style:
// "flag provided but not defined: -x" reads "unknown flag --x".
func FlagError(err error) string {
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

// Synopsis returns the usage's "Usage:" lines (up to its first blank
// line), for a message about a mistake on the command line.
func Synopsis(usage string) string {
	head, _, _ := strings.Cut(strings.TrimSpace(usage), "\n\n")
	return head
}

// PrintUsage writes a command's help: its usage text, its flags in the
// --name VALUE style (VALUE from the backquoted word of the flag's help, as
// flag.UnquoteUsage reads it, in capitals; a default that is not the
// zero value in parentheses, quoted for a string), then a blank line and
// footer.
func PrintUsage(fs *flag.FlagSet, w io.Writer, usage, footer string) {
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
	fmt.Fprint(w, "\n", footer)
}

// ExitCode is an exit code and what it means, for --help. Text may span
// lines. A plain value.
type ExitCode struct {
	Code int
	Text string
}

// ExitCodeHelp returns the "Exit codes:" block of a --help: the codes of
// all that only lists (every one when only is nil), in the order of all,
// each text's lines after its first indented under the first.
func ExitCodeHelp(all []ExitCode, only []int) string {
	var b strings.Builder
	b.WriteString("Exit codes:\n")
	for _, e := range all {
		if only != nil && !slices.Contains(only, e.Code) {
			continue
		}
		fmt.Fprintf(&b, "  %-4d %s\n", e.Code, strings.ReplaceAll(e.Text, "\n", "\n       "))
	}
	return b.String()
}

// UsageError is a mistake on the command line of the subcommand Cmd (""
// for none: the program's own). A plain value.
type UsageError struct {
	Cmd string
	Msg string
}

func (e *UsageError) Error() string { return e.Msg }

// Try is the command the "Try:" hint after the message names.
func (e *UsageError) Try(program string) string {
	if e.Cmd == "" {
		return program + " help"
	}
	return program + " " + e.Cmd + " --help"
}

// Usagef returns a *UsageError of cmd with a message formatted as by
// fmt.Sprintf.
func Usagef(cmd, format string, args ...any) error {
	return &UsageError{Cmd: cmd, Msg: fmt.Sprintf(format, args...)}
}

// AsUsage returns the *UsageError in err's chain, if any.
func AsUsage(err error) (*UsageError, bool) {
	var u *UsageError
	ok := errors.As(err, &u)
	return u, ok
}

// ExitError carries an explicit exit code, with an error to print or none
// (Silent). A plain value.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// Silent is an exit code with nothing to print (e.g. check found a
// disallowed URL: the verdict lines already said so).
func Silent(code int) error { return &ExitError{Code: code} }

// IsSilent reports an error that carries only an exit code.
func IsSilent(err error) bool {
	var e *ExitError
	return errors.As(err, &e) && e.Err == nil
}

// WriteJSON writes v as the --json of every command writes it: indented
// by two spaces, one document ending in a newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// ErrWriter keeps the first error of the writes through it and drops the
// rest, so that a printer of many lines can be checked once at its end: a
// full disk or a closed pipe on stdout is a failed command, not exit 0
// with the data lost. Not safe for concurrent use.
type ErrWriter struct {
	W   io.Writer
	Err error
}

func (e *ErrWriter) Write(p []byte) (int, error) {
	if e.Err != nil {
		return 0, e.Err
	}
	n, err := e.W.Write(p)
	e.Err = err
	return n, err
}

// Set says whether the flag name was given on the command line of fs.
func Set(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// IsTerminal says whether f is a terminal (a character device), where
// progress lines may redraw themselves.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
