package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/robotstat/robotstat/internal/cli"
)

// Exit codes, mapped in one place (ExitCode). What each means is said
// once, in exitCodes, which --help prints.
const (
	ExitOK           = 0
	ExitDisallowed   = 1
	ExitUsage        = 2
	ExitInputErrors  = 3
	ExitStrict       = 4
	ExitInputsFailed = 5
	ExitNothingRead  = 6
	ExitInterrupted  = 130
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

// ExitCode maps an error returned by Main.Run to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var e *cli.ExitError
	if errors.As(err, &e) {
		return e.Code
	}
	if errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	return ExitUsage
}
