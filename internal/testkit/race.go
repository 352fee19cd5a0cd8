//go:build race

package testkit

// Race says whether the race detector is on: code under it runs several
// times slower, so a test's own time limits (not what it checks) may
// need to be wider.
const Race = true
