package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
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
	// go test always passes -test.* flags first; a first argument that is
	// not a flag is a robotstat command whose child lost asMainEnv (its Env
	// replaced by os.Environ()). Running the tests there would have each
	// child start the same children again: refuse instead of forking
	// without end (a lost marker once started ~1,000 processes).
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		fmt.Fprintf(os.Stderr, "robotstat.test run as %q without %s=1: refusing to run the tests in a child\n", os.Args[1], asMainEnv)
		os.Exit(3)
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
