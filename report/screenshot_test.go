package report

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
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
	type colour struct {
		name    string
		r, g, b uint8
		min     int // pixels, at least
	}
	var (
		named    = colour{"lead: by name, first blocks: kept", 0x1d, 0x4e, 0x89, 5000}
		star     = colour{"lead: by *", 0x7f, 0xb2, 0xe5, 5000}
		green    = colour{"status: parsed", 0x00, 0x9e, 0x73, 3000}
		sky      = colour{"status: unavailable, signals: signal only", 0x56, 0xb4, 0xe9, 300}
		orange   = colour{"first blocks: later unblocked", 0xe6, 0x9f, 0x00, 150}
		vermil   = colour{"signals: contradict, status: 5xx", 0xd5, 0x5e, 0x00, 40}
		pink     = colour{"definitions: cc_class, signals: rules only", 0xcc, 0x79, 0xa7, 1500}
		ink      = colour{"title text", 0x1f, 0x23, 0x28, 2000}
		topBlue  = colour{"strata: top 1k line", 0x00, 0x72, 0xb2, 300}
		panelBtn = colour{"switch: the panel button is on", 0x1d, 0x4e, 0x89, 5000}
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
		name, colours := shot.name, shot.colours
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			counts := make([]int, len(colours))
			nonWhite := 0
			b := img.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					r, g, bl := rgb(img, x, y)
					if r < 245 || g < 245 || bl < 245 {
						nonWhite++
					}
					for i, c := range colours {
						if near(r, c.r) && near(g, c.g) && near(bl, c.b) {
							counts[i]++
						}
					}
				}
			}
			t.Logf("%s: %dx%d, %d non-white pixels", name, b.Dx(), b.Dy(), nonWhite)
			if nonWhite < b.Dx()*b.Dy()/50 {
				t.Errorf("%s is nearly blank (%d non-white pixels)", name, nonWhite)
			}
			for i, c := range colours {
				if counts[i] < c.min {
					t.Errorf("%s: %d pixels of %s (#%02x%02x%02x), want at least %d", name, counts[i], c.name, c.r, c.g, c.b, c.min)
				}
			}
		})
	}
}

func rgb(img image.Image, x, y int) (uint8, uint8, uint8) {
	r, g, b, _ := img.At(x, y).RGBA()
	return uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)
}

func near(a, b uint8) bool {
	d := int(a) - int(b)
	return d >= -6 && d <= 6
}
