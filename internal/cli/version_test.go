package cli

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionLine (issue 25.7): the --version line names the commit the binary was
// built from (vcs.revision) and whether its checkout had changes
// (vcs.modified); "unknown" when the build recorded none.
func TestVersionLine(t *testing.T) {
	rev := "4063576" + strings.Repeat("0", 33)
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no_build_info", nil, "robotstat 0.1.0 (commit unknown, " + runtime.Version() + ")"},
		{"no_vcs", &debug.BuildInfo{GoVersion: "go1.26.8"}, "robotstat 0.1.0 (commit unknown, go1.26.8)"},
		{"clean", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}},
			"robotstat 0.1.0 (commit " + rev + ", go1.26.8)"},
		{"modified", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}},
			"robotstat 0.1.0 (commit " + rev + ", with changes not committed, go1.26.8)"},
	} {
		if got := VersionLine("robotstat", "0.1.0", tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
