//go:build !linux

package testkit

import "os/exec"

// dieWithParent does nothing where there is no PR_SET_PDEATHSIG: the
// test's cleanup still kills the child, but a test process that is itself
// killed leaves it running.
func dieWithParent(*exec.Cmd) {}

// parentIsSelf is false: without /proc, only childEnv marks a child.
func parentIsSelf() bool { return false }
