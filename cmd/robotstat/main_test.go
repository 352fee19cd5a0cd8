package main

import (
	"os"
	"os/exec"
	"testing"

	"github.com/robotstat/robotstat/internal/testkit"
)

// asMainEnv, set to 1 in a child's environment, makes this test binary
// robotstat itself: TestMain runs main with the child's arguments instead
// of the tests. The tests that kill a real robotstat process, or read its
// exit status, run it so (robotstatCmd) rather than each building the
// binary: a go build cost seconds per test, ten and more on a busy
// machine. Only this test binary reads the variable.
const asMainEnv = "ROBOTSTAT_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// robotstatCmd is a robotstat process run with args: this test binary as
// robotstat (asMainEnv), killed at the end of the test if it still runs
// and with the test process if that dies (testkit.Command).
func robotstatCmd(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	if len(args) == 0 {
		t.Fatal("robotstatCmd: no command") // Self would run the tests instead
	}
	return testkit.Self(t, []string{asMainEnv + "=1"}, args...)
}
