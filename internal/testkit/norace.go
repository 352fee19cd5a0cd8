//go:build !race

package testkit

// Race says whether the race detector is on (see race.go).
const Race = false
