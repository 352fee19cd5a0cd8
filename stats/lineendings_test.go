package stats

import (
	"testing"

	"github.com/robotstat/robotstat/parse"
)

func TestLineEndings(t *testing.T) {
	tests := []struct {
		s    parse.LineCounts
		want string
	}{
		{parse.LineCounts{LF: 3}, "lf"}, {parse.LineCounts{CRLF: 1}, "crlf"}, {parse.LineCounts{CR: 2}, "cr"},
		{parse.LineCounts{LF: 1, CRLF: 1}, "mixed"}, {parse.LineCounts{}, "none"},
	}
	for _, tc := range tests {
		if got := LineEndings(&tc.s); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}
