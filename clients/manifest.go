package clients

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// ManifestFile is the name of a client's manifest in the memory root's
// state directory: the record of what `wake install <client>` added, so
// that `wake uninstall <client>` removes that and nothing else.
func ManifestFile(client string) string { return client + "-install.json" }

func manifestPath(root, client string) string {
	return filepath.Join(root, tiers.StateDir, ManifestFile(client))
}

// manifest is the record of every install of one client made from one
// memory root.
type manifest struct {
	Version  int      `json:"version"`
	Installs []Record `json:"installs"`
}

// Record is what install added for one project. In the manifest it is one
// JSON object: "project", the members of Data, then "created".
type Record struct {
	Project string // absolute
	// Data is the client's part of the record, a JSON object whose
	// members the client names ("hook" and "imports" for Claude Code).
	Data json.RawMessage
	// Created lists the files and directories install created, in the
	// order it created them, absolute.
	Created []string
	// bad makes the error of a Data that cannot be decoded, naming the
	// manifest it came from.
	bad func(error) error
}

// Decode decodes the client's part of the record into v, a pointer to
// the client's record type; none leaves v as it is. A record that cannot
// be decoded is an error naming the manifest, as a manifest that cannot
// be read is.
func (r *Record) Decode(v any) error {
	if len(r.Data) == 0 {
		return nil
	}
	err := json.Unmarshal(r.Data, v)
	if err != nil && r.bad != nil {
		err = r.bad(err)
	}
	return err
}

// Encode sets the client's part of the record to v, which must encode as
// a JSON object.
func (r *Record) Encode(v any) error {
	data, err := json.Marshal(v)
	if err == nil && (len(data) == 0 || data[0] != '{') {
		err = fmt.Errorf("a client's record is not a JSON object: %s", data)
	}
	if err != nil {
		return err
	}
	r.Data = data
	return nil
}

// MarshalJSON writes the record as one object.
func (r Record) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	p, err := json.Marshal(r.Project)
	if err != nil {
		return nil, err
	}
	b.WriteString(`{"project":`)
	b.Write(p)
	if data := bytes.TrimSpace(r.Data); len(data) > 2 && data[0] == '{' {
		b.WriteByte(',')
		b.Write(data[1 : len(data)-1])
	}
	if len(r.Created) > 0 {
		c, err := json.Marshal(r.Created)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"created":`)
		b.Write(c)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the record from one object: its project and created
// as encoding/json decodes them into a struct, the other members into
// Data in their order.
func (r *Record) UnmarshalJSON(data []byte) error {
	var common struct {
		Project string   `json:"project"`
		Created []string `json:"created"`
	}
	if err := json.Unmarshal(data, &common); err != nil {
		return err
	}
	r.Project, r.Created = common.Project, common.Created
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return err // null: nothing
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if strings.EqualFold(key, "project") || strings.EqualFold(key, "created") {
			continue
		}
		k, _ := json.Marshal(key)
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	r.Data = b.Bytes()
	return nil
}

// KeepCreated keeps in r.Created only the paths in own (what install may
// create in the project, which uninstall deletes again once nothing else
// is in it), and returns the others but those in shared: what install
// may have created in the user's own directories, which every project
// shares, so that a record from the root never deletes them.
func (r *Record) KeepCreated(own, shared []string) (dropped []string) {
	kept := r.Created[:0:0]
	for _, c := range r.Created {
		switch {
		case slices.Contains(own, c):
			kept = append(kept, c)
		case slices.Contains(shared, c):
		default:
			dropped = append(dropped, c)
		}
	}
	r.Created = kept
	return dropped
}

// readManifest reads the client's manifest; a missing one is empty.
func readManifest(fsys afero.Fs, root string, about About) (manifest, error) {
	m := manifest{Version: 1}
	name := manifestPath(root, about.Name)
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+ManifestFile(about.Name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m, nil
	case err != nil:
		return m, fmt.Errorf("reading %s: %w", name, err)
	}
	bad := func(err error) error {
		return Hinted(fmt.Errorf("%s: %w", name, err), fmt.Sprintf("it records what 'wake install %s' added: restore it, or delete it, and uninstall then %s", about.Name, about.Unrecorded))
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Version != 1 {
		if err == nil {
			err = fmt.Errorf("version %d, want 1", m.Version)
		}
		return m, bad(err)
	}
	for i := range m.Installs {
		m.Installs[i].bad = bad
	}
	return m, nil
}

// write saves the manifest atomically, or removes it when it records
// nothing.
func (m manifest) write(fsys afero.Fs, root, client string) error {
	name := manifestPath(root, client)
	if len(m.Installs) == 0 {
		if err := fsys.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", name, err)
		}
		return nil
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return store.WriteState(fsys, root, ManifestFile(client), append(data, '\n'))
}

// find returns the index of the project's record, or -1.
func (m *manifest) find(project string) int {
	return slices.IndexFunc(m.Installs, func(r Record) bool { return r.Project == project })
}

// record adds what one install run did to the project's record: the
// client's part as plan.Record makes it, and the files it created.
func (m *manifest) record(project string, plan InstallPlan, created []string) error {
	i := m.find(project)
	if i < 0 {
		m.Installs = append(m.Installs, Record{Project: project})
		i = len(m.Installs) - 1
	}
	r := &m.Installs[i]
	if err := plan.Record(r); err != nil {
		return err
	}
	for _, c := range created {
		if !slices.Contains(r.Created, c) {
			r.Created = append(r.Created, c)
		}
	}
	return nil
}

// Installed is the record of the client's earlier installs into the
// project, as the manifest holds it now, for a wiring that must undo
// what an older install added (a reinstall moving an import); nil when
// there is none, or when the Env was not made by [Install].
func (e Env) Installed() (*Record, error) {
	if e.client.Name == "" {
		return nil, nil
	}
	m, err := readManifest(e.FS, e.Root, e.client)
	if err != nil {
		return nil, err
	}
	if i := m.find(e.Project); i >= 0 {
		return &m.Installs[i], nil
	}
	return nil, nil
}
