package codex

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// codexWrote is config.toml before and after the trust step of
// 'wake install codex' with the real Codex 0.169.0's app server, and
// install's record of it.
func codexWrote(t *testing.T) (before, after string, rec *trustRecord) {
	t.Helper()
	b, err1 := os.ReadFile("testdata/config-before.toml")
	a, err2 := os.ReadFile("testdata/config-after.toml")
	r, err3 := os.ReadFile("testdata/trust-record.json")
	rec = &trustRecord{}
	if err := firstErr(err1, err2, err3, json.Unmarshal(r, rec)); err != nil {
		t.Fatal(err)
	}
	return string(b), string(a), rec
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

const project = "/tmp/cxlab/run3/proj"

// TestRemoveTrustGivesBack: taking wake's entries out of what Codex wrote
// gives back the file as it was, and keeps what the user added since.
func TestRemoveTrustGivesBack(t *testing.T) {
	t.Parallel()
	before, after, rec := codexWrote(t)
	if u, ok := rec.Undo.apply([]byte(after)); !ok || string(u) != before {
		t.Fatalf("the recorded undo does not give back the file:\n%s", u)
	}
	out, removed, left := removeTrust([]byte(after), rec, project)
	if string(out) != before || len(removed) != 6 || len(left) != 0 {
		t.Fatalf("removed %q, left %q:\n%s", removed, left, out)
	}
	// The user (or Codex) changed the file since: the undo no longer
	// applies, and only wake's entries go.
	edited := strings.Replace(after, "notifications = true\n", "notifications = true\nanimations = false\n", 1)
	edited += "\n[projects.\"/elsewhere\"]\ntrust_level = \"trusted\"\n"
	if _, ok := rec.Undo.apply([]byte(edited)); ok {
		t.Fatal("the undo applied to a file it did not make")
	}
	out, _, _ = removeTrust([]byte(edited), rec, project)
	want := strings.Replace(before, "notifications = true\n", "notifications = true\nanimations = false\n", 1) + "\n[projects.\"/elsewhere\"]\ntrust_level = \"trusted\"\n"
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
	// A hash the user changed through /hooks stays, with its table.
	k := "/tmp/cxlab/run3/proj/.codex/hooks.json:stop:0:0"
	changed := strings.Replace(after, rec.Hashes[k], "sha256:0000", 1)
	out, _, left = removeTrust([]byte(changed), rec, project)
	if len(left) != 1 || !strings.Contains(string(out), "[hooks.state.\""+k+"\"]\ntrusted_hash = \"sha256:0000\"") {
		t.Fatalf("left %q:\n%s", left, out)
	}
}

// TestParseConfigError: a config.toml that is not TOML is an error naming
// the file, line and column.
func TestParseConfigError(t *testing.T) {
	t.Parallel()
	_, err := parseConfig("/h/.codex/config.toml", []byte("model = \"x\"\n[projects\ntrust_level = 1\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "/h/.codex/config.toml:2:") {
		t.Fatalf("got %v", err)
	}
	cfg, err := parseConfig("c", []byte("project_doc_max_bytes = 1000\n[projects.\"/p\"]\ntrust_level = \"untrusted\"\n"))
	if err != nil || cfg.docMax() != 1000 || cfg.projectTrust("/p") != "untrusted" || cfg.projectTrust("/q") != "" {
		t.Fatalf("%v %v", cfg, err)
	}
	if (codexConfig{}).docMax() != DocMaxBytes {
		t.Fatal("default doc max")
	}
}

// TestAddedHeaders names the tables the app server added.
func TestAddedHeaders(t *testing.T) {
	t.Parallel()
	before, after, rec := codexWrote(t)
	got := addedHeaders([]byte(before), []byte(after))
	if len(got) != len(rec.Tables) || len(got) != 8 {
		t.Fatalf("got %q", got)
	}
}

// TestFakeHashIsCodex: the fake app server hashes wake's hooks as the real
// Codex 0.169.0 did when install recorded its trust.
func TestFakeHashIsCodex(t *testing.T) {
	t.Parallel()
	_, _, rec := codexWrote(t)
	for _, h := range wakeHooks {
		key := project + "/.codex/hooks.json:" + eventKey(h.Event) + ":0:0"
		got := codexHash(h.Event, map[string]any{"type": "command", "command": h.Command, "timeout": float64(h.Timeout)})
		if got != rec.Hashes[key] {
			t.Errorf("%s: %s, Codex %s", h.Event, got, rec.Hashes[key])
		}
	}
}
