package codex

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// codexConfig is what wake reads of Codex's config.toml.
type codexConfig map[string]any

// parseConfig parses config.toml, named name in errors. A file that is
// not TOML is an error naming its line and column: Codex cannot start
// with it either.
func parseConfig(name string, data []byte) (codexConfig, error) {
	cfg := codexConfig{}
	err := toml.Unmarshal(data, &cfg)
	var de *toml.DecodeError
	switch {
	case errors.As(err, &de):
		row, col := de.Position()
		return nil, fmt.Errorf("%s:%d:%d: %s", name, row, col, strings.TrimPrefix(de.Error(), "toml: "))
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return cfg, nil
}

// table returns the table at path, nil when there is none.
func (c codexConfig) table(path ...string) map[string]any {
	t := map[string]any(c)
	for _, p := range path {
		next, ok := t[p].(map[string]any)
		if !ok {
			return nil
		}
		t = next
	}
	return t
}

// projectTrust is the project's trust_level: "trusted", "untrusted" or
// "" when the file says nothing.
func (c codexConfig) projectTrust(project string) string {
	s, _ := c.table("projects", project)["trust_level"].(string)
	return s
}

// docMax is how many bytes of AGENTS.md Codex reads.
func (c codexConfig) docMax() int {
	if n, ok := c["project_doc_max_bytes"].(int64); ok && n >= 0 {
		return int(n)
	}
	return DocMaxBytes
}

// tomlItem is a table header or a key = value of config.toml, whole lines
// from the start of its first to the end of its last.
type tomlItem struct {
	path       []string // the full path, table prefix included
	header     bool
	value      string // a string value
	start, end int
}

// scanTOML lists the headers and keys of src in file order; src must
// parse.
func scanTOML(src []byte) []tomlItem {
	var p unstable.Parser
	p.Reset(src)
	var items []tomlItem
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		path, from, to := keyPath(e.Key())
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = path
			items = append(items, tomlItem{path: path, header: true, start: lineStart(src, from), end: lineEnd(src, to)})
		case unstable.KeyValue:
			it := tomlItem{path: append(slices.Clone(table), path...), start: lineStart(src, int(e.Raw.Offset)), end: lineEnd(src, int(e.Raw.Offset+e.Raw.Length))}
			if v := e.Value(); v.Kind == unstable.String {
				it.value = string(v.Data)
			}
			items = append(items, it)
		}
	}
	return items
}

// keyPath gives the parts of a dotted key and where it starts and ends.
func keyPath(it unstable.Iterator) ([]string, int, int) {
	var path []string
	from, to := -1, 0
	for it.Next() {
		n := it.Node()
		path = append(path, string(n.Data))
		if from < 0 {
			from = int(n.Raw.Offset)
		}
		to = int(n.Raw.Offset + n.Raw.Length)
	}
	return path, max(from, 0), to
}

func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

func lineEnd(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	return min(off+1, len(src))
}

// headers lists the table headers of src.
func headers(src []byte) [][]string {
	var out [][]string
	for _, it := range scanTOML(src) {
		if it.header {
			out = append(out, it.path)
		}
	}
	return out
}

// addedHeaders lists the table headers of after that before lacks.
func addedHeaders(before, after []byte) [][]string {
	had := headers(before)
	var out [][]string
	for _, h := range headers(after) {
		if !slices.ContainsFunc(had, func(p []string) bool { return slices.Equal(p, h) }) {
			out = append(out, h)
		}
	}
	return out
}

// removeTrust returns config.toml without the entries t records install
// wrote (still as it wrote them), and without the table headers it added
// that are left empty; removed lists the keys it took out, left those it
// found changed and kept.
func removeTrust(src []byte, t *trustRecord, project string) (out []byte, removed, left []string) {
	items := scanTOML(src)
	drop := make([]bool, len(items))
	want := map[string]string{}
	if t.Project {
		want[tomlKey("projects", project, "trust_level")] = "trusted"
	}
	for k, h := range t.Hashes {
		want[tomlKey("hooks", "state", k, "trusted_hash")] = h
	}
	for i, it := range items {
		k := tomlKey(it.path...)
		if v, ok := want[k]; ok && !it.header {
			if it.value == v {
				drop[i] = true
				removed = append(removed, k)
			} else {
				left = append(left, k)
			}
		}
	}
	// A table the app server added goes with its header when nothing is
	// left in it but blank lines: up to the next header, or the end.
	type span struct{ from, to int }
	var cut []span
	for i, it := range items {
		if drop[i] {
			cut = append(cut, span{it.start, it.end})
		}
	}
	for i, it := range items {
		if !it.header || !slices.ContainsFunc(t.Tables, func(p []string) bool { return slices.Equal(p, it.path) }) {
			continue
		}
		to := len(src)
		if j := slices.IndexFunc(items[i+1:], func(n tomlItem) bool { return n.header }); j >= 0 {
			to = items[i+1+j].start
		}
		rest := string(src[it.start:to])
		for j := len(cut) - 1; j >= 0; j-- {
			if c := cut[j]; c.from >= it.start && c.to <= to {
				rest = rest[:c.from-it.start] + rest[c.to-it.start:]
			}
		}
		if strings.TrimSpace(rest[it.end-it.start:]) == "" {
			cut = append(cut, span{it.start, to})
		}
	}
	slices.SortFunc(cut, func(a, b span) int { return a.from - b.from })
	var b strings.Builder
	pos := 0
	for _, c := range cut {
		if c.from > pos {
			b.Write(src[pos:c.from])
		}
		pos = max(pos, c.to)
	}
	b.Write(src[pos:])
	res := b.String()
	if pos == len(src) && len(res) < len(src) {
		// What went reached the end: the blank lines Codex put before it
		// go too.
		for strings.HasSuffix(res, "\n\n") || strings.HasSuffix(res, "\n\r\n") {
			res = strings.TrimSuffix(strings.TrimSuffix(res, "\n"), "\r")
		}
	}
	return []byte(res), removed, left
}

// tomlKey writes a key path as TOML would, each part quoted.
func tomlKey(path ...string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = fmt.Sprintf("%q", p)
	}
	return strings.Join(parts, ".")
}
