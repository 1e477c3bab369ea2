// Package skeleton holds the first-wake templates: the files `wake init`
// lays out in a new memory root, embedded in the binary.
package skeleton

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"text/template"
)

//go:embed files
var files embed.FS

// Params fill the templates.
type Params struct {
	Agent   string // agent name; may be empty
	Project string // project name; required
}

// File is one rendered skeleton file.
type File struct {
	Path string // relative to the memory root, slash-separated
	Data []byte
}

// Dirs returns the directories a memory root has, parents first.
func Dirs() []string {
	return []string{"recent", "warm", "cold", "cold/sessions"}
}

// Files renders every template, sorted by path.
func Files(p Params) ([]File, error) {
	if strings.ContainsAny(p.Agent+p.Project, "\r\n") {
		return nil, fmt.Errorf("agent and project names must be one line")
	}
	funcs := template.FuncMap{"quote": func(s string) string {
		// A JSON string is a valid TOML basic string.
		b, _ := json.Marshal(s)
		return string(b)
	}}
	var out []File
	err := fs.WalkDir(files, "files", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		t, err := template.New(name).Funcs(funcs).Option("missingkey=error").Parse(string(src))
		if err != nil {
			return fmt.Errorf("skeleton %s: %w", name, err)
		}
		var b bytes.Buffer
		if err := t.Execute(&b, p); err != nil {
			return fmt.Errorf("skeleton %s: %w", name, err)
		}
		out = append(out, File{Path: strings.TrimPrefix(name, "files/"), Data: b.Bytes()})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}
