// Command robotstat measures the robots.txt web: it reads robots.txt captures
// from WARC files and dumps, parses them per RFC 9309, and writes statistics
// to Parquet. Run "robotstat help" for the subcommands and exit codes.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/robotstat/robotstat/internal/cli"
	"github.com/robotstat/robotstat/internal/textesc"
	"github.com/robotstat/robotstat/pipeline"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	m := NewMain()
	err := m.Run(ctx, os.Args[1:])
	stop()
	if err != nil && !cli.IsSilent(err) {
		m.report(err)
	}
	os.Exit(ExitCode(err))
}

// Main is the program with its environment made explicit, so tests run it
// in-process. It is not safe for concurrent use.
type Main struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment (only main passes os.Getenv; libraries
	// never read it themselves).
	Getenv func(string) string
	// StderrIsTerminal turns progress bars on.
	StderrIsTerminal bool

	// open opens input files; tests replace it to count reads.
	open func(name string) (io.ReadCloser, error)
	// retryDelays, when its BaseDelay and MaxDelay are set, replaces the
	// backoff between tries of an http(s) input (--retries still sets
	// MaxTries): tests make it milliseconds, so that a refused download
	// does not wait the 31 s of the defaults. No flag sets it.
	retryDelays pipeline.RetryPolicy
}

// withRetryDelays puts m.retryDelays into pc (zero: the pipeline's defaults).
func (m *Main) withRetryDelays(pc *pipeline.Config) {
	if m.retryDelays.BaseDelay > 0 {
		pc.Retry.BaseDelay = m.retryDelays.BaseDelay
	}
	if m.retryDelays.MaxDelay > 0 {
		pc.Retry.MaxDelay = m.retryDelays.MaxDelay
	}
}

func (m *Main) openFile(name string) (io.ReadCloser, error) {
	if m.open != nil {
		return m.open(name)
	}
	return os.Open(name)
}

// NewMain returns a Main wired to the process's standard streams.
func NewMain() *Main {
	return &Main{
		Stdin:            os.Stdin,
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		Getenv:           os.Getenv,
		StderrIsTerminal: cli.IsTerminal(os.Stderr),
	}
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(m *Main, ctx context.Context, args []string) error
	// exits are the exit codes the command can return, as its --help
	// lists them.
	exits []int
}

// exitsOf returns the exit codes of the named command (nil: all).
func exitsOf(name string) []int {
	for _, c := range commands {
		if c.name == name {
			return c.exits
		}
	}
	return nil
}

// parseFlags parses a command's flags (cli.Parse); its --help ends with
// the exit codes it can return.
func parseFlags(fs *flag.FlagSet, args []string, w io.Writer, usage string) ([]string, error) {
	return cli.Parse(fs, args, w, usage, cli.ExitCodeHelp(exitCodes, exitsOf(fs.Name())))
}

// commands lists the subcommands in the order help shows them. Each lives in
// its own file.
var commands []command

func register(c command) { commands = append(commands, c) }

// Run executes one command line (without the program name).
func (m *Main) Run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		m.usage(m.Stderr)
		return cli.Usagef("", "no command given")
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help", "version", "--version":
		out := &cli.ErrWriter{W: m.Stdout}
		if name == "version" || name == "--version" {
			bi, _ := debug.ReadBuildInfo() // nil when the binary has none
			fmt.Fprintln(out, cli.VersionLine("robotstat", Version, bi))
		} else {
			m.usage(out)
		}
		if out.Err != nil {
			return fmt.Errorf("%s: writing: %w", strings.TrimLeft(name, "-"), out.Err)
		}
		return nil
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(m, ctx, args[1:])
		}
	}
	return cli.Usagef("", "unknown command %q", name)
}

// Version is robotstat's version, written into every Parquet file.
const Version = "0.1.0"

func (m *Main) usage(w io.Writer) {
	fmt.Fprintf(w, "robotstat measures the robots.txt web (RFC 9309).\n\nUsage:\n  robotstat <command> [flags] [args]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-9s %s\n  %-9s %s\n", "help", "show this help", "version", "print the version")
	fmt.Fprintf(w, "\nRun \"robotstat <command> --help\" for a command's flags.\n\n%s", cli.ExitCodeHelp(exitCodes, nil))
}

// report prints err to stderr in the one format every command uses.
func (m *Main) report(err error) {
	// A file name in the message may hold control characters.
	fmt.Fprintf(m.Stderr, "robotstat: %s\n", textesc.Lines(err.Error()))
	if u, ok := cli.AsUsage(err); ok {
		fmt.Fprintf(m.Stderr, "Try: %s\n", u.Try("robotstat"))
	}
}

// getenv is Getenv, "" for every variable when it is nil.
func (m *Main) getenv(key string) string {
	if m.Getenv == nil {
		return ""
	}
	return m.Getenv(key)
}
