package cli

import (
	"runtime"
	"runtime/debug"
)

// VersionLine is what a program's --version prints: its version, the
// commit its binary was built from (vcs.revision, "unknown" when the build recorded
// none: go run, a build outside a checkout or with -buildvcs=false),
// whether the checkout had changes not committed (vcs.modified), and the
// Go version. A number published with its dataset can then be traced to
// the code that made it.
func VersionLine(program, version string, bi *debug.BuildInfo) string {
	commit, modified, goVersion := "unknown", false, runtime.Version()
	if bi != nil {
		goVersion = bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if s.Value != "" {
					commit = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	line := program + " " + version + " (commit " + commit
	if modified {
		line += ", with changes not committed"
	}
	return line + ", " + goVersion + ")"
}
