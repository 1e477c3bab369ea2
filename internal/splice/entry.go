package splice

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// Entry is one named value a client's config holds in an object member
// of its top-level object: top[Outer][Name] = Value, as an MCP server is
// registered in Claude Code's .mcp.json ("mcpServers") or OpenCode's
// opencode.json ("mcp").
type Entry struct {
	Outer, Name string
	// Value is the entry, one of the caller's own fixed structures; an
	// entry is the caller's when it decodes to the same JSON value.
	Value any
	// JSONC reads the file as JSON with comments and trailing commas.
	JSONC bool
	// Fresh is the file created where there is none, or only
	// whitespace, holding the entry, with line endings eol.
	Fresh func(e Entry, eol string) []byte
}

// EntryEdit is what [Entry.Add] made around the entry: the record that
// lets [Entry.Remove] take away that and no more.
type EntryEdit struct {
	// Made is the outermost thing added: "entry" (to an existing Outer
	// object), "member" (the Outer member), or "file" when there was no
	// file or only whitespace.
	Made string `json:"made"`
	// Inside is what lay between the braces of the object the entry or
	// member went into, when that held nothing but whitespace (and
	// comments); for "file", the whole file before. Remove puts it back
	// when nothing else is left there.
	Inside *string `json:"inside,omitempty"`
}

// EntryError is a config that holds something wake cannot edit safely,
// at a line and column when it has one.
type EntryError struct{ Msg string }

func (e EntryError) Error() string { return e.Msg }

func entryRank(made string) int {
	switch made {
	case "entry":
		return 1
	case "member":
		return 2
	case "file":
		return 3
	}
	return 0
}

// known reports whether the record says what Add made; "file" with more
// than whitespace to put back was not written by Add.
func (ed *EntryEdit) known() bool {
	if ed == nil || entryRank(ed.Made) == 0 {
		return false
	}
	if ed.Made == "file" {
		return ed.Inside != nil && Blank([]byte(*ed.Inside))
	}
	return true
}

// nodes parses src and locates the top-level object, the Outer object
// and the entry's value, each nil when absent.
func (e Entry) nodes(src []byte) (top *Node, blank []byte, outer, val *Node, err error) {
	if e.JSONC {
		top, blank, err = ParseJSONC(src)
	} else {
		top, err = ParseJSON(src)
		blank = src
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if top.Kind != '{' {
		return nil, nil, nil, nil, EntryError{"the file is not a JSON object"}
	}
	m, _, ok := top.Member(e.Outer)
	if !ok {
		return top, blank, nil, nil, nil
	}
	if m.Val.Kind != '{' {
		line, col := LineCol(src, m.Val.Start)
		return nil, nil, nil, nil, EntryError{fmt.Sprintf("%d:%d: %q is not an object", line, col, e.Outer)}
	}
	if v, _, ok := m.Val.Member(e.Name); ok {
		val = v.Val
	}
	return top, blank, m.Val, val, nil
}

// decode returns the value at n and the entry's, as encoding/json
// decodes them.
func (e Entry) decode(blank []byte, n *Node) (have, want any, ok bool) {
	data, err := json.Marshal(e.Value)
	if err != nil || json.Unmarshal(data, &want) != nil || json.Unmarshal(blank[n.Start:n.End], &have) != nil {
		return nil, nil, false
	}
	return have, want, true
}

// same reports whether the value at n is the entry's exactly.
func (e Entry) same(blank []byte, n *Node) bool {
	have, want, ok := e.decode(blank, n)
	return ok && reflect.DeepEqual(have, want)
}

// covers reports whether the value at n holds every member of the
// entry's, as the user may have added others (an environment) to it.
func (e Entry) covers(blank []byte, n *Node) bool {
	have, want, ok := e.decode(blank, n)
	h, hok := have.(map[string]any)
	w, wok := want.(map[string]any)
	if !ok || !hok || !wok {
		return ok && reflect.DeepEqual(have, want)
	}
	for k, v := range w {
		if !reflect.DeepEqual(h[k], v) {
			return false
		}
	}
	return true
}

// Add returns the config with the entry added, what it made, and whether
// it was missing. Every other byte stays as it was; what it inserts
// follows the file's indentation and line endings. An empty or
// whitespace-only file (or none, src nil) becomes Fresh. Another value
// under the entry's name is an error: wake does not replace what it did
// not write; the entry with members the user added is the entry.
func (e Entry) Add(src []byte) ([]byte, EntryEdit, bool, error) {
	if Blank(src) {
		was := string(src)
		return e.Fresh(e, LineEnding(src)), EntryEdit{Made: "file", Inside: &was}, true, nil
	}
	top, blank, outer, val, err := e.nodes(src)
	if err != nil {
		return nil, EntryEdit{}, false, err
	}
	if val != nil {
		if e.covers(blank, val) {
			return src, EntryEdit{}, false, nil
		}
		line, col := LineCol(src, val.Start)
		return nil, EntryEdit{}, false, EntryError{fmt.Sprintf("%d:%d: %q already names another server", line, col, e.Outer+"."+e.Name)}
	}
	st := StyleOf(blank, top)
	c, ed := top, EntryEdit{Made: "member"}
	item := fmt.Sprintf("%q: ", e.Outer) + Marshal(map[string]any{e.Name: e.Value}, st, 1)
	if outer != nil {
		c, ed.Made = outer, "entry"
		item = fmt.Sprintf("%q: ", e.Name) + Marshal(e.Value, st, outer.Depth+1)
	}
	if c.Len() > 0 {
		return c.Insert(src, st, item), ed, true, nil
	}
	was := string(c.Inside(src))
	ed.Inside = &was
	if !bytes.Equal(c.Inside(src), c.Inside(blank)) {
		// A comment inside: the entry goes after all of it.
		return c.SetInside(src, was+st.EOL+st.Indent(c.Depth+1)+item+st.EOL+st.Indent(c.Depth)), ed, true, nil
	}
	return c.Insert(src, st, item), ed, true, nil
}

// Has reports whether the config holds the entry, perhaps with members
// the user added.
func (e Entry) Has(src []byte) bool {
	_, blank, _, val, err := e.nodes(src)
	return err == nil && val != nil && e.covers(blank, val)
}

// Remove returns the config without the entry, and whether it was there
// as Add writes it (a value changed since stays). The Outer member goes
// with it when Add created it (ed says; with no record, never). An
// object Add added to gets back what was inside it when nothing else is
// left there. gone says nothing is left but what Fresh holds besides the
// Outer member, and for ed's "file" out is then the file as it was.
func (e Entry) Remove(src []byte, ed *EntryEdit) (out []byte, removed, gone bool, err error) {
	top, blank, outer, val, err := e.nodes(src)
	if err != nil || val == nil || !e.same(blank, val) {
		return src, false, false, err
	}
	st := StyleOf(blank, top)
	_, i, _ := outer.Member(e.Name)
	_, k, _ := top.Member(e.Outer)
	c, at, made := outer, i, "entry"
	if outer.Len() == 1 && ed.known() && entryRank(ed.Made) >= entryRank("member") {
		c, at, made = top, k, "member"
	}
	out = c.Remove(src, at, st)
	if ed.known() && ed.Made == made && ed.Inside != nil && c.Len() == 1 {
		out = c.SetInside(src, *ed.Inside)
	}
	if ed.known() && ed.Made == "file" && bytes.Equal(out, e.empty(st.EOL)) {
		return []byte(*ed.Inside), true, true, nil
	}
	return out, true, false, nil
}

// empty is Fresh without the Outer member: what Remove leaves of the
// file it created.
func (e Entry) empty(eol string) []byte {
	fresh := e.Fresh(e, eol)
	top, blank, _, _, err := e.nodes(fresh)
	if err != nil {
		return nil
	}
	_, k, _ := top.Member(e.Outer)
	return top.Remove(fresh, k, StyleOf(blank, top))
}
