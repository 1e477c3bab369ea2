//go:build !unix

package codex

import "os/exec"

// inGroup leaves cmd as it is where process groups are not unix's.
func inGroup(*exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
