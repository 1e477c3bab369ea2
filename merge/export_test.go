package merge

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// testMergeFile runs git merge-file on temporary copies, with no user or
// system git configuration read.
func testMergeFile(t *testing.T, base, ours, theirs []byte) ([]byte, bool, error) {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string][]byte{"base": base, "ours": ours, "theirs": theirs} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "merge-file", "-p", "ours", "base", "theirs")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "GIT_CONFIG_GLOBAL=" + filepath.Join(dir, "none"), "GIT_CONFIG_NOSYSTEM=1", "PATH=" + os.Getenv("PATH")}
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() > 0 && ee.ExitCode() < 128 {
		return out, true, nil
	}
	return out, false, err
}
