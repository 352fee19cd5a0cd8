package main

import _ "embed"

// Each command's usage text, the part of its --help above the flags, is a
// file of its own under help/: prose is easier to keep true, and to review,
// as text than as a Go string.
var (
	//go:embed help/analyze.txt
	analyzeUsage string
	//go:embed help/bots.txt
	botsUsage string
	//go:embed help/check.txt
	checkUsage string
	//go:embed help/compact.txt
	compactUsage string
	//go:embed help/panel.txt
	panelUsage string
	//go:embed help/report.txt
	reportUsage string
	//go:embed help/scan.txt
	scanUsage string
	//go:embed help/sites.txt
	sitesUsage string
	//go:embed help/status.txt
	statusUsage string
	//go:embed help/tester.txt
	testerUsage string
)
