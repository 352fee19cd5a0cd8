// Package shotcheck checks a screenshot a headless browser took of one of
// robotstat's pages (the report, the tester). It cannot judge looks (a
// person does), but it fails when the browser drew a blank or an error
// page, or when a part of the page did not render: each Colour must cover
// at least its Min pixels.
package shotcheck

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// Colour is a fill or text colour a rendered page must show, and how many
// pixels of it (within ±6 per channel) it must show at least.
type Colour struct {
	Name    string
	R, G, B uint8
	Min     int
}

// Check decodes the PNG at path and reports, through t, a page that is
// nearly blank (under 2% of its pixels not white) or short of any of the
// colours.
func Check(t testing.TB, path string, colours []Colour) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
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
				if near(r, c.R) && near(g, c.G) && near(bl, c.B) {
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
		if counts[i] < c.Min {
			t.Errorf("%s: %d pixels of %s (#%02x%02x%02x), want at least %d", name, counts[i], c.Name, c.R, c.G, c.B, c.Min)
		}
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
