package main

import (
	"context"
	"errors"

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
var exitCodes = []cli.ExitCode{
	{Code: ExitOK, Text: "success (check: every URL allowed)"},
	{Code: ExitDisallowed, Text: "check: at least one URL disallowed"},
	{Code: ExitUsage, Text: "usage error, or an environment failure (an input that is not there or is\nnot an input, found before anything is read; output not writable, disk\nfull, Parquet write error, another robotstat writing into the output\nfolder; analyze: 8 downloads in a row refused on every try, what was\ncommitted kept)"},
	{Code: ExitInputErrors, Text: "analyze, panel: output written, but some inputs had errors (see the summary)"},
	{Code: ExitStrict, Text: "analyze --strict, panel --strict: stopped at the first input error; that input not written\n(inputs committed before it are kept)"},
	{Code: ExitInputsFailed, Text: "analyze, panel: output written, but some inputs listed could not be read to\ntheir end (a download failed after its retries, a file could not be\nopened; see the summary or robotstat status; a rerun retries them)"},
	{Code: ExitNothingRead, Text: "analyze: nothing read: no input found (an empty folder, a manifest listing\nnothing), or the inputs read held no robots.txt capture; no table written"},
	{Code: ExitInterrupted, Text: "interrupted; no partial output file is left"},
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
