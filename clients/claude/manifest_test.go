package claude

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/clients"
)

// testdata/claude-install.json and claude-install-after-uninstall.json
// were written by wake before package clients existed: the manifest of
// every install of a root, and the same after uninstalling /work/p. The
// record stays byte for byte what it was, so that existing installs
// still uninstall exactly.

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestManifestFormat: every record read and written again through
// Claude Code's record type gives back the file byte for byte.
func TestManifestFormat(t *testing.T) {
	t.Parallel()
	if ManifestFile != clients.ManifestFile(Client{}.About().Name) {
		t.Fatalf("ManifestFile %q is not the name package clients gives it", ManifestFile)
	}
	src := readTestdata(t, "claude-install.json")
	var m struct {
		Version  int              `json:"version"`
		Installs []clients.Record `json:"installs"`
	}
	if err := json.Unmarshal(src, &m); err != nil {
		t.Fatal(err)
	}
	for i := range m.Installs {
		var r record
		if err := m.Installs[i].Decode(&r); err != nil {
			t.Fatal(err)
		}
		if err := m.Installs[i].Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil || string(out)+"\n" != string(src) {
		t.Fatalf("written again (%v):\n%s", err, out)
	}
}

// TestManifestKeepsOtherRecords: uninstalling one project rewrites the
// manifest with the other records exactly as an older wake wrote them.
func TestManifestKeepsOtherRecords(t *testing.T) {
	t.Parallel()
	fsys, o, _ := memProjectAt(t, "/work/p")
	if err := afero.WriteFile(fsys, "/work/p/.wake/.state/"+ManifestFile, readTestdata(t, "claude-install.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := clients.Uninstall(context.Background(), Client{}, o); err != nil {
		t.Fatal(err)
	}
	got, err := afero.ReadFile(fsys, "/work/p/.wake/.state/"+ManifestFile)
	if want := readTestdata(t, "claude-install-after-uninstall.json"); err != nil || string(got) != string(want) {
		t.Fatalf("manifest after uninstall (%v):\n%s\nwant:\n%s", err, got, want)
	}
}
