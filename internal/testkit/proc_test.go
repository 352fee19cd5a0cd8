package testkit

import (
	"os"
	"strings"
	"testing"
)

// TestSelfChildCannotStartChild: a child that Self started, even one whose
// environment lost Self's mark, fails instead of starting children of its
// own; and Kill ends a child that would run for ever.
func TestSelfChildCannotStartChild(t *testing.T) {
	if os.Getenv("TESTKIT_TEST_CHILD") == "1" {
		return // the child, asked to run this test: it must not get here
	}
	cmd := Self(t, nil, "-test.run=^TestSelfChild$")
	// Replace the environment, as a careless caller would.
	cmd.Env = []string{"TESTKIT_TEST_CHILD=1"}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "may not start another") {
		t.Errorf("the child started a child of its own: %v\n%s", err, out)
	}

	sleeper := Command(t, "sleep", "600")
	if err := sleeper.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	if err := Kill(sleeper); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Kill: %v, want signal: killed", err)
	}
}

// TestSelfChild is run by TestSelfChildCannotStartChild in its child only.
func TestSelfChild(t *testing.T) {
	if os.Getenv("TESTKIT_TEST_CHILD") != "1" {
		t.Skip("run as a child by TestSelfChildCannotStartChild")
	}
	Self(t, nil, "-test.run=^$").Run()
}
