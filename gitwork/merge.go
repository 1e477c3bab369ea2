package gitwork

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// DriverName is the merge driver's name in .gitattributes ("merge=wake")
// and in git's configuration (merge.wake.*).
const DriverName = "wake"

// MergeFile is git's three-way merge of text (git merge-file): the merged
// text, with conflict markers labelled ours, base and theirs where both
// sides changed the same lines, and whether it has any.
func (g Git) MergeFile(ctx context.Context, base, ours, theirs []byte) ([]byte, bool, error) {
	dir, err := os.MkdirTemp("", "wake-merge-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(dir)
	names := []string{"ours", "base", "theirs"}
	for i, data := range [][]byte{ours, base, theirs} {
		if err := os.WriteFile(filepath.Join(dir, names[i]), data, 0o600); err != nil {
			return nil, false, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
	cmd.Dir = dir
	cmd.Env = append(g.environ(), "LC_ALL=C")
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out, false, nil
	case errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128:
		return out, true, nil // the exit status counts the conflicts
	}
	return nil, false, fmt.Errorf("git merge-file: %w", err)
}

func (g Git) environ() []string {
	var env []string
	for k, v := range g.Env {
		env = append(env, k+"="+v)
	}
	return env
}

// DriverCommand is the merge.wake.driver value that runs the wake at exe.
func DriverCommand(exe string) string {
	return shellQuote(exe) + " merge-driver %O %A %B %P"
}

// shellQuote quotes s for the shell git runs a driver with, when it
// holds anything but the characters of a plain path.
func shellQuote(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Driver returns the merge.wake.driver the repository holding dir has
// configured, "" when none (or when dir is in no repository).
func (g Git) Driver(ctx context.Context, dir string) string {
	out, err := g.Run(ctx, dir, "config", "--get", "merge."+DriverName+".driver")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// SetDriver configures the merge driver in the local configuration of the
// repository holding dir (never the user's global one): every clone must,
// as git runs no program a repository names by itself.
func (g Git) SetDriver(ctx context.Context, dir, exe string) error {
	for _, kv := range [][2]string{
		{"merge." + DriverName + ".name", "wake: merges the memory root by its records (ledger, decisions, inbox, views)"},
		{"merge." + DriverName + ".driver", DriverCommand(exe)},
	} {
		if _, err := g.Run(ctx, dir, "config", "--local", kv[0], kv[1]); err != nil {
			return fmt.Errorf("git config %s: %w", kv[0], err)
		}
	}
	return nil
}
