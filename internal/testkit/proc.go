package testkit

import (
	"errors"
	"os"
	"os/exec"
	"testing"
)

// Command is exec.Command(name, args...) for a child process that a test
// may kill and that never outlives the test: the end of the test kills it
// with SIGKILL if it still runs, and on Linux so does the death of the test
// process itself (PR_SET_PDEATHSIG), so that a test binary stopped by
// -timeout, or killed, leaves no child burning CPU behind it. An earlier
// kill test left orphans running for an hour and a half.
//
// Set the command's Env, Stdin, Stdout and Stderr as usual; its
// SysProcAttr, when set, keeps its other fields.
func Command(t testing.TB, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	dieWithParent(cmd)
	t.Cleanup(func() {
		if cmd.Process != nil && cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd
}

// childEnv marks a process that Self started. Such a process may not
// start another: a child that ran the tests by mistake would otherwise
// start children of its own, each of them more, without end. On Linux a
// child is also known by its parent's executable (parentIsSelf), for a
// caller that replaced cmd.Env and lost the mark with the variables that
// told the child what to do: that is how a fork bomb once started.
const childEnv = "ROBOTSTAT_TESTKIT_CHILD"

// Self is Command for this test binary itself, run again as a child with
// env added to the test's environment: the kill tests' way to run a writer
// in a process they can SIGKILL. The child runs no test unless args ask
// for one (-test.run=^TestHelper$); a TestMain or a helper test reads env
// to know what to do. Add to cmd.Env, never replace it: the child must
// keep env, and the mark that stops a child from calling Self in turn.
func Self(t testing.TB, env []string, args ...string) *exec.Cmd {
	t.Helper()
	if os.Getenv(childEnv) != "" || parentIsSelf() {
		t.Fatalf("testkit: a child test process may not start another (did the parent replace cmd.Env?)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("testkit: the test binary: %v", err)
	}
	if len(args) == 0 {
		args = []string{"-test.run=^$"}
	}
	cmd := Command(t, exe, args...)
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	return cmd
}

// Kill sends SIGKILL to a started cmd (no deferred cleanup runs in it, as
// after an OOM kill or a pulled plug) and waits for it. It returns Wait's
// error: "signal: killed", or nil or the exit status when the process had
// ended by itself first.
func Kill(cmd *exec.Cmd) error {
	if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		cmd.Wait()
		return err
	}
	return cmd.Wait()
}
