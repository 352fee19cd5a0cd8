package testkit

import (
	"strconv"
	"strings"
)

// FirstLineDiff describes the first line in which two texts differ, for a
// test failure that must not print two whole files; "" when they are equal.
func FirstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "first difference at line " + strconv.Itoa(i+1) + ":\n got  " + strconv.Quote(a) + "\n want " + strconv.Quote(b)
		}
	}
	return ""
}

// FirstDiff describes the first place in which two sorted lists (of rows,
// say) differ: a row missing, one extra, or two that differ; "" when they
// are equal.
func FirstDiff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			return "missing " + want[i]
		case i >= len(want):
			return "extra " + got[i]
		case got[i] != want[i]:
			return "\n got  " + got[i] + "\n want " + want[i]
		}
	}
	return ""
}
