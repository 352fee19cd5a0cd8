//go:build race

package testkit

// Race says whether the race detector is on: code under it runs several
// times slower and allocates where it would not, so a test's own time
// limits (not what it checks) may need to be wider and an allocation
// count (testing.AllocsPerRun) cannot be asserted.
const Race = true
