package report

import (
	"math"
	"testing"
)

// The expected bounds are worked by hand from the closed form
// (k + z²/2 ± z·sqrt(k(n-k)/n + z²/4)) / (n + z²), z = 1.959964, z² =
// 3.841459: not by the function under test.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		name   string
		k, n   int64
		lo, hi float64
	}{
		// k = 0: lo = 0, hi = z²/(n+z²) = 3.841459/13.841459.
		{"none_of_10", 0, 10, 0, 0.2775328},
		// k = n/2: (5 + 1.920730 ± 1.959964·sqrt(2.5 + 0.960365)) / 13.841459
		// = (6.920730 ± 3.646076) / 13.841459.
		{"half_of_10", 5, 10, 0.2365931, 0.7634069},
		// k = n: lo = n/(n+z²) = 10/13.841459, hi = 1.
		{"all_of_10", 10, 10, 0.7224672, 1},
		// (1 + 1.920730 ± 1.959964·sqrt(0.999 + 0.960365)) / 1003.841459
		// = (2.920730 ± 2.743540) / 1003.841459.
		{"one_of_1000", 1, 1000, 0.0001765, 0.0056426},
		// (2 + 1.920730 ± 1.959964·sqrt(0.666667 + 0.960365)) / 6.841459
		// = (3.920730 ± 2.500101) / 6.841459.
		{"two_of_3", 2, 3, 0.2076596, 0.9385081},
		// k = n = 1: lo = 1/4.841459.
		{"one_of_1", 1, 1, 0.2065493, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			lo, hi, ok := wilson(c.k, c.n)
			if !ok || math.Abs(lo-c.lo) > 5e-7 || math.Abs(hi-c.hi) > 5e-7 {
				t.Errorf("wilson(%d, %d) = %.7f, %.7f, %v; want %.7f, %.7f", c.k, c.n, lo, hi, ok, c.lo, c.hi)
			}
			// The share lies inside its interval.
			if p := float64(c.k) / float64(c.n); p < lo || p > hi {
				t.Errorf("share %.7f outside [%.7f, %.7f]", p, lo, hi)
			}
		})
	}
	for _, c := range []struct {
		name string
		k, n int64
	}{{"no_denominator", 0, 0}, {"negative_n", 1, -1}, {"more_than_n", 11, 10}, {"negative_k", -1, 10}} {
		t.Run(c.name, func(t *testing.T) {
			if lo, hi, ok := wilson(c.k, c.n); ok {
				t.Errorf("wilson(%d, %d) = %v, %v, true; want no interval", c.k, c.n, lo, hi)
			}
		})
	}
	// Exactly 0 and 1 at the ends, not a rounding error away.
	if lo, _, _ := wilson(0, 7); lo != 0 {
		t.Errorf("lo of 0/7 is %g", lo)
	}
	if _, hi, _ := wilson(7, 7); hi != 1 {
		t.Errorf("hi of 7/7 is %g", hi)
	}
}

func TestCellLowN(t *testing.T) {
	for _, c := range []struct {
		cell Cell
		want bool
	}{{Cell{0, 0}, false}, {Cell{3, 17}, true}, {Cell{50, 99}, true}, {Cell{50, 100}, false}} {
		if got := c.cell.LowN(); got != c.want {
			t.Errorf("%+v.LowN() = %v", c.cell, got)
		}
	}
}
