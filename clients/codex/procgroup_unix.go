//go:build unix

package codex

import (
	"os/exec"
	"syscall"
)

// inGroup starts cmd in a process group of its own, and makes its
// cancelling kill the whole group: the npm codex is a node wrapper whose
// child, the native server, would otherwise outlive it, holding the pipes
// open.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
