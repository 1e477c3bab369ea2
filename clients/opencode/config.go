package opencode

import (
	"bytes"
	"fmt"

	"github.com/wakeproto/wake/internal/splice"
)

// ConfigSchema is the schema OpenCode names in its config files. OpenCode
// writes it into a project's opencode.json that lacks it, the first time
// it reads the file; the file wake creates names it from the start.
const ConfigSchema = "https://opencode.ai/config.json"

// configError is a config file wake cannot edit safely.
type configError struct{ msg string }

func (e configError) Error() string { return e.msg }

// configEdit is what [addInstruction] made around wake's entry. Install
// keeps it in its record so that [removeInstruction] takes away that and
// no more.
type configEdit struct {
	// Made is the outermost thing install added: "element" (to an
	// existing instructions array), "member" (the instructions member),
	// or "file" when there was no file or only whitespace.
	Made string `json:"made"`
	// Inside is what lay between the brackets of the container install
	// added to, when that held nothing but whitespace and comments; for
	// "file", the whole file before (empty when there was none).
	// Uninstall puts it back when nothing else has been added there.
	Inside *string `json:"inside,omitempty"`
}

// rank orders what install can make, outermost last; 0 is unknown.
func rank(made string) int {
	switch made {
	case "element":
		return 1
	case "member":
		return 2
	case "file":
		return 3
	}
	return 0
}

// known reports whether the record says what install made; a record
// with more than whitespace to put back for "file" was not written by
// install.
func (e *configEdit) known() bool {
	if e == nil || rank(e.Made) == 0 {
		return false
	}
	if e.Made == "file" {
		return e.Inside != nil && splice.Blank([]byte(*e.Inside))
	}
	return true
}

// newConfig is the opencode.json wake creates when there is none, with
// line endings eol.
func newConfig(entry, eol string) []byte {
	arr := splice.Marshal([]string{entry}, splice.Style{Unit: "  ", EOL: eol}, 1)
	return []byte("{" + eol + "  \"$schema\": \"" + ConfigSchema + "\"," + eol + "  \"instructions\": " + arr + eol + "}" + eol)
}

// emptyConfig is newConfig without the instructions.
func emptyConfig(eol string) []byte {
	return []byte("{" + eol + "  \"$schema\": \"" + ConfigSchema + "\"" + eol + "}" + eol)
}

// addInstruction returns the config with entry added to its instructions
// array, what it made, and whether the entry was missing. Every other
// byte stays as it was, comments included; what it inserts follows the
// file's indentation and line endings. An empty or whitespace-only file
// (or none, src nil) becomes the file wake creates.
func addInstruction(src []byte, entry string) ([]byte, configEdit, bool, error) {
	if splice.Blank(src) {
		was := string(src)
		return newConfig(entry, splice.LineEnding(src)), configEdit{Made: "file", Inside: &was}, true, nil
	}
	top, blank, arr, err := configNodes(src)
	if err != nil {
		return nil, configEdit{}, false, err
	}
	if arr != nil && findEntry(blank, arr, entry) >= 0 {
		return src, configEdit{}, false, nil
	}
	st := splice.StyleOf(blank, top)
	c, ed, item := top, configEdit{Made: "member"}, `"instructions": `+splice.Marshal([]string{entry}, st, 1)
	if arr != nil {
		c, ed.Made, item = arr, "element", splice.Marshal(entry, st, arr.Depth+1)
	}
	if c.Len() > 0 {
		return c.Insert(src, st, item), ed, true, nil
	}
	was := string(c.Inside(src))
	ed.Inside = &was
	if !bytes.Equal(c.Inside(src), c.Inside(blank)) {
		// A comment inside: a line break found there could be the
		// comment's own, so the entry goes after all of it.
		return c.SetInside(src, was+st.EOL+st.Indent(c.Depth+1)+item+st.EOL+st.Indent(c.Depth)), ed, true, nil
	}
	return c.Insert(src, st, item), ed, true, nil
}

// removeInstruction returns the config without wake's entry (the last,
// should there be two), and whether there was one. The instructions
// member goes with it when install created it (ed says; with no record,
// when nothing else is left in it). A container install added to gets
// back what was inside it when nothing else is left there. gone says
// nothing is left but what wake creates in place of no file; for ed's
// "file", out is then the file as it was before.
func removeInstruction(src []byte, entry string, ed *configEdit) (out []byte, removed, gone bool, err error) {
	top, blank, arr, err := configNodes(src)
	if err != nil || arr == nil {
		return src, false, false, err
	}
	i := findEntry(blank, arr, entry)
	if i < 0 {
		return src, false, false, nil
	}
	st := splice.StyleOf(blank, top)
	_, k, _ := top.Member("instructions")
	c, at, made := arr, i, "element"
	if arr.Len() == 1 && (!ed.known() || rank(ed.Made) >= rank("member")) {
		c, at, made = top, k, "member"
	}
	out = c.Remove(src, at, st)
	if ed.known() && ed.Made == made && ed.Inside != nil && c.Len() == 1 {
		out = c.SetInside(src, *ed.Inside)
	}
	if !bytes.Equal(out, emptyConfig(st.EOL)) {
		return out, true, false, nil
	}
	if ed.known() && ed.Made == "file" {
		out = []byte(*ed.Inside)
	}
	return out, true, true, nil
}

// configNodes parses the config as OpenCode does (JSON with comments and
// trailing commas) and locates its top-level object and the instructions
// array, nil when absent. A value of the wrong type is an error: wake
// does not guess how to edit it.
func configNodes(src []byte) (top *splice.Node, blank []byte, arr *splice.Node, err error) {
	top, blank, err = splice.ParseJSONC(src)
	if err != nil {
		return nil, nil, nil, err
	}
	if top.Kind != '{' {
		return nil, nil, nil, configError{"the file is not a JSON object"}
	}
	m, _, ok := top.Member("instructions")
	if !ok {
		return top, blank, nil, nil
	}
	if m.Val.Kind != '[' {
		line, col := splice.LineCol(src, m.Val.Start)
		return nil, nil, nil, configError{fmt.Sprintf("%d:%d: \"instructions\" is not an array", line, col)}
	}
	return top, blank, m.Val, nil
}

// findEntry returns the index of the last element of arr that is the
// string entry, or -1.
func findEntry(src []byte, arr *splice.Node, entry string) int {
	for i := len(arr.Elems) - 1; i >= 0; i-- {
		if e := arr.Elems[i]; e.Kind == '"' && e.String(src) == entry {
			return i
		}
	}
	return -1
}

// hasEntry reports whether the config lists entry in its instructions.
func hasEntry(src []byte, entry string) bool {
	_, blank, arr, err := configNodes(src)
	return err == nil && arr != nil && findEntry(blank, arr, entry) >= 0
}
