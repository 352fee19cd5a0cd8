package testkit

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// dieWithParent asks the kernel to SIGKILL the child when the thread that
// started it ends. Go never ends a thread of the test process under a
// running test unless a goroutine locked to it returns, which the tests do
// not do, so this is the test process's death.
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// parentIsSelf reports whether this process's parent runs the same
// executable: this test binary started by itself.
func parentIsSelf() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	parent, err := os.Readlink("/proc/" + strconv.Itoa(os.Getppid()) + "/exe")
	return err == nil && parent == exe
}
