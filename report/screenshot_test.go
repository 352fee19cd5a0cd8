package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/robotstat/robotstat/internal/shotcheck"
)

// TestReportScreenshots checks the PNGs scripts/report-screenshot.sh took of
// the fixture's HTML report in headless Chromium, and is skipped unless
// ROBOTSTAT_SCREENSHOTS names their folder. It cannot judge looks (a person
// does: the script prints where the PNGs are), but it fails when the browser
// drew a blank or an error page, or when a chart did not render: each
// chart's fill colours must cover a plausible area, at both widths.
func TestReportScreenshots(t *testing.T) {
	dir := os.Getenv("ROBOTSTAT_SCREENSHOTS")
	if dir == "" {
		t.Skip("set ROBOTSTAT_SCREENSHOTS=DIR (scripts/report-screenshot.sh does)")
	}
	type colour = shotcheck.Colour
	var (
		named    = colour{Name: "lead: by name, first blocks: kept", R: 0x1d, G: 0x4e, B: 0x89, Min: 5000}
		star     = colour{Name: "lead: by *", R: 0x7f, G: 0xb2, B: 0xe5, Min: 5000}
		green    = colour{Name: "status: parsed", R: 0x00, G: 0x9e, B: 0x73, Min: 3000}
		sky      = colour{Name: "status: unavailable, signals: signal only", R: 0x56, G: 0xb4, B: 0xe9, Min: 300}
		orange   = colour{Name: "first blocks: later unblocked", R: 0xe6, G: 0x9f, B: 0x00, Min: 150}
		vermil   = colour{Name: "signals: contradict, status: 5xx", R: 0xd5, G: 0x5e, B: 0x00, Min: 40}
		pink     = colour{Name: "definitions: cc_class, signals: rules only", R: 0xcc, G: 0x79, B: 0xa7, Min: 1500}
		ink      = colour{Name: "title text", R: 0x1f, G: 0x23, B: 0x28, Min: 2000}
		topBlue  = colour{Name: "strata: top 1k line", R: 0x00, G: 0x72, B: 0xb2, Min: 300}
		panelBtn = colour{Name: "switch: the panel button is on", R: 0x1d, G: 0x4e, B: 0x89, Min: 5000}
	)
	shots := []struct {
		name    string
		colours []colour
	}{
		{"desktop-full.png", []colour{named, star, green, sky, orange, vermil, pink, ink}},
		{"narrow-full.png", []colour{named, star, green, sky, orange, vermil, pink, ink}},
		{"rank-desktop-full.png", []colour{named, green, sky, orange, pink, ink, topBlue}},
		{"panel-strata-desktop-full.png", []colour{panelBtn, green, orange, pink, ink, topBlue}},
		{"sample-desktop-full.png", []colour{named, star, green, sky, pink, ink}},
	}
	for _, shot := range shots {
		t.Run(shot.name, func(t *testing.T) {
			shotcheck.Check(t, filepath.Join(dir, shot.name), shot.colours)
		})
	}
}
