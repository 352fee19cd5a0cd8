package shotcheck

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Helper()             {}

// TestCheck: a white page is nearly blank; a page half in one colour passes
// for that colour and fails for one it lacks.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, fill func(x, y int) color.Color) string {
		img := image.NewRGBA(image.Rect(0, 0, 100, 100))
		for y := range 100 {
			for x := range 100 {
				img.Set(x, y, fill(x, y))
			}
		}
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		return p
	}
	white := write("white.png", func(int, int) color.Color { return color.White })
	half := write("half.png", func(x, _ int) color.Color {
		if x < 50 {
			return color.RGBA{0x1d, 0x4e, 0x89, 0xff}
		}
		return color.White
	})
	blue := Colour{Name: "accent", R: 0x1f, G: 0x4a, B: 0x8c, Min: 5000} // within ±6
	red := Colour{Name: "red", R: 0xb3, G: 0x26, B: 0x1e, Min: 1}

	r := &recorder{TB: t}
	Check(r, white, nil)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "nearly blank") {
		t.Errorf("white page: %q", r.errs)
	}
	r = &recorder{TB: t}
	Check(r, half, []Colour{blue})
	if len(r.errs) != 0 {
		t.Errorf("half accent: %q", r.errs)
	}
	r = &recorder{TB: t}
	Check(r, half, []Colour{blue, red})
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "0 pixels of red") {
		t.Errorf("missing red: %q", r.errs)
	}
}
