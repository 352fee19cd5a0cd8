package report

import "math"

// Every share the report prints, exports or draws travels with its
// denominator n and a 95% Wilson score interval (E. B. Wilson, "Probable
// inference, the law of succession, and statistical inference", JASA
// 1927): unlike the normal approximation p ± z·sqrt(p(1-p)/n), it stays
// inside [0, 1], is not empty at 0 or n, and keeps close to its nominal
// coverage for the small n of a panel of a few dozen hosts, which is
// where a share most needs its uncertainty shown.

// z95 is the standard normal quantile of 0.975: a two-sided 95% interval.
const z95 = 1.959963984540054

// lowN is the denominator below which the report flags a share: its 95%
// interval is then some ±10 percentage points wide or more.
const lowN = 100

// wilson returns the 95% Wilson score interval of k successes in n
// trials, as fractions: (k + z²/2 ± z·sqrt(k(n-k)/n + z²/4)) / (n + z²).
// The bounds are exactly 0 for k = 0 and exactly 1 for k = n. ok is false
// when n <= 0 or k is outside [0, n]: there is no share to bound.
func wilson(k, n int64) (lo, hi float64, ok bool) {
	if n <= 0 || k < 0 || k > n {
		return 0, 0, false
	}
	fk, fn := float64(k), float64(n)
	z2 := z95 * z95
	centre := fk + z2/2
	half := z95 * math.Sqrt(fk*(fn-fk)/fn+z2/4)
	den := fn + z2
	lo, hi = (centre-half)/den, (centre+half)/den
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return max(lo, 0), min(hi, 1), true
}

// Interval returns the 95% Wilson score interval of the cell's share, and
// false when the cell has no denominator.
func (c Cell) Interval() (lo, hi float64, ok bool) { return wilson(c.Count, c.Of) }

// LowN reports whether the cell's denominator is below 100 (and not 0):
// the report marks such a share as uncertain.
func (c Cell) LowN() bool { return c.Of > 0 && c.Of < lowN }
