package main

import (
	"strings"
	"testing"
)

// TestCommandLine checks the command line a new user meets: mistakes say
// what is wrong and show the usage, help spells flags --name VALUE as the
// README does, and each command lists only the exit codes it can return.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	t.Run("unknown_flag_says_so_and_shows_usage", func(t *testing.T) {
		_, errOut, code := run(t, "", "analyze", "--frobnicate")
		if code != ExitUsage {
			t.Errorf("exit %d", code)
		}
		for _, want := range []string{"robotstat: unknown flag --frobnicate\n", "Usage:\n  robotstat analyze [flags] [INPUT...]", "Try: robotstat analyze --help"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errOut)
			}
		}
	})
	t.Run("flag_without_value", func(t *testing.T) {
		_, errOut, _ := run(t, "", "analyze", "--out")
		if !strings.Contains(errOut, "flag --out needs a value") {
			t.Errorf("stderr:\n%s", errOut)
		}
	})
	t.Run("help_uses_double_dash", func(t *testing.T) {
		out, _, _ := run(t, "", "analyze", "--help")
		for _, want := range []string{"\n  --out DIR\n", "\n  --workers N\n", "\n  --bots-replace\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("help lacks %q", want)
			}
		}
		if strings.Contains(out, "\n  -out") {
			t.Error("help shows -out")
		}
	})
	exits := []struct {
		cmd        string
		has, lacks []string
	}{
		{"check", []string{"  1    check:"}, []string{"  3    analyze", "  4    analyze --strict"}},
		{"analyze", []string{"  3    analyze", "  4    analyze --strict", "  130"}, []string{"  1    check"}},
		{"panel", []string{"  3    analyze, panel", "  4    analyze --strict, panel --strict", "  5    analyze, panel", "  130"}, []string{"  1    check"}},
		{"bots", []string{"  0 ", "  2 "}, []string{"  1    check", "  3    analyze", "  130"}},
	}
	for _, e := range exits {
		t.Run("exit_codes_of_"+e.cmd, func(t *testing.T) {
			out, _, _ := run(t, "", e.cmd, "--help")
			for _, s := range e.has {
				if !strings.Contains(out, s) {
					t.Errorf("help lacks %q", s)
				}
			}
			for _, s := range e.lacks {
				if strings.Contains(out, s) {
					t.Errorf("help lists %q", s)
				}
			}
		})
	}
	t.Run("bots_and_analyze_share_the_flag", func(t *testing.T) {
		if _, errOut, code := run(t, "", "bots", "--bots-replace"); code != ExitUsage || !strings.Contains(errOut, "--bots-replace needs --bots FILE") {
			t.Errorf("exit %d: %s", code, errOut)
		}
	})
}
