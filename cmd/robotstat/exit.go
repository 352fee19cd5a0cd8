package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Exit codes, mapped in one place (ExitCode) and documented in --help.
const (
	// ExitOK: success; for check, every URL is allowed.
	ExitOK = 0
	// ExitDisallowed: check only: at least one URL is disallowed.
	ExitDisallowed = 1
	// ExitUsage: a usage error, or an environment failure: an input that is
	// not there or is not an input, found before anything is read (a path
	// that does not exist, a file that is no WARC, dump, tar, manifest or
	// folder, a crawl list that cannot be fetched), unwritable output, a
	// Parquet write error, disk full. An input listed that fails while it
	// is read is ExitInputsFailed.
	ExitUsage = 2
	// ExitInputErrors: analyze finished and wrote its output, but some
	// inputs had content errors (broken records, truncated gzip members);
	// they are counted in the summary.
	ExitInputErrors = 3
	// ExitStrict: analyze --strict stopped at the first input error; the
	// inputs committed before it are kept, that input is not written.
	ExitStrict = 4
	// ExitInputsFailed: analyze finished, but some inputs could not be read
	// to their end (a download refused after its retries, a file that
	// cannot be opened); the rows read before are kept, the errors are in
	// the summary and in robotstat status, and a rerun retries them.
	ExitInputsFailed = 5
	// ExitNothingRead: analyze read nothing: no input was found to read
	// (an empty folder, a manifest that lists nothing), or the inputs
	// read held no robots.txt capture (not WARCs, only other responses,
	// empty files). A run that read nothing does not succeed: no table
	// is written and no next step is suggested but how to give inputs.
	ExitNothingRead = 6
	// ExitInterrupted: cancelled by SIGINT or SIGTERM; no partial Parquet
	// file is left behind.
	ExitInterrupted = 130
)

// exitCodes describes every exit code, in order; a command's --help lists
// the ones it can return (command.exits), robotstat help all of them.
var exitCodes = []struct {
	code int
	text string
}{
	{ExitOK, "success (check: every URL allowed)"},
	{ExitDisallowed, "check: at least one URL disallowed"},
	{ExitUsage, "usage error, or an environment failure (an input that is not there or is\n       not an input, found before anything is read; output not writable, disk\n       full, Parquet write error, another robotstat writing into the output\n       folder; analyze: 8 downloads in a row refused on every try, what was\n       committed kept)"},
	{ExitInputErrors, "analyze, panel: output written, but some inputs had errors (see the summary)"},
	{ExitStrict, "analyze --strict, panel --strict: stopped at the first input error; that input not written\n       (inputs committed before it are kept)"},
	{ExitInputsFailed, "analyze, panel: output written, but some inputs listed could not be read to\n       their end (a download failed after its retries, a file could not be\n       opened; see the summary or robotstat status; a rerun retries them)"},
	{ExitNothingRead, "analyze: nothing read: no input found (an empty folder, a manifest listing\n       nothing), or the inputs read held no robots.txt capture; no table written"},
	{ExitInterrupted, "interrupted; no partial output file is left"},
}

// exitCodeHelp returns the "Exit codes:" block for codes (every code when
// codes is nil).
func exitCodeHelp(codes []int) string {
	var b strings.Builder
	b.WriteString("Exit codes:\n")
	for _, e := range exitCodes {
		if codes != nil && !slices.Contains(codes, e.code) {
			continue
		}
		fmt.Fprintf(&b, "  %-4d %s\n", e.code, e.text)
	}
	return b.String()
}

// exitError carries an explicit exit code with an optional message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// silentExit is an exit code with nothing to print (e.g. check found a
// disallowed URL: the verdict lines already said so).
func silentExit(code int) error { return &exitError{code: code} }

// usageError is a mistake on the command line.
type usageError struct {
	cmd string // subcommand, for the Try: hint
	msg string
}

func (e *usageError) Error() string { return e.msg }

func (e *usageError) try() string {
	if e.cmd == "" {
		return "robotstat help"
	}
	return "robotstat " + e.cmd + " --help"
}

func usageErrorf(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

func asUsage(err error) (*usageError, bool) {
	var u *usageError
	ok := errors.As(err, &u)
	return u, ok
}

// ExitCode maps an error returned by Main.Run to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	if errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	return ExitUsage
}

// isSilent reports an error that carries only an exit code.
func isSilent(err error) bool {
	var e *exitError
	return errors.As(err, &e) && e.err == nil
}
