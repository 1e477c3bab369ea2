package tiers

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// tomlDoc is wake.toml parsed: its values, and every key set or table
// opened, in file order.
type tomlDoc struct {
	values map[string]any
	keys   []tomlKey
}

// tomlKey is one key set (key = value, or one inside an inline table) or
// one table header, with where it is.
type tomlKey struct {
	path       []string // the full path, table prefix included
	line       int      // 1-based line of the key's first character
	header     bool     // a [table] or [[array of tables]] header
	start, end int      // byte offsets of the whole expression
}

// readTOML parses data as TOML. go-toml decodes the values and rejects
// what TOML itself forbids (bad syntax, a key defined twice); its parser,
// run a second time, gives where each key is, which go-toml's decoder
// does not keep. The file is small, so parsing it twice costs nothing.
func readTOML(name string, data []byte) (*tomlDoc, error) {
	doc := &tomlDoc{keys: scanKeys(data)}
	if err := toml.Unmarshal(data, &doc.values); err != nil {
		return nil, tomlError(name, data, doc.keys, err)
	}
	return doc, nil
}

// scanKeys lists the keys and table headers of data in file order, up to
// the first syntax error.
func scanKeys(data []byte) []tomlKey {
	var p unstable.Parser
	p.Reset(data)
	lines := lineStarts(data)
	var keys []tomlKey
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			var start, end int
			table, start, end = keyParts(nil, e.Key())
			keys = append(keys, tomlKey{path: table, line: lineAt(lines, start), header: true, start: start, end: end})
		case unstable.KeyValue:
			keys = appendKeyValue(keys, lines, table, e)
		}
	}
	return keys
}

// appendKeyValue appends the key of e under prefix and, when its value is
// an inline table, the keys inside it.
func appendKeyValue(keys []tomlKey, lines []int, prefix []string, e *unstable.Node) []tomlKey {
	path, _, _ := keyParts(slices.Clone(prefix), e.Key())
	start := int(e.Raw.Offset)
	keys = append(keys, tomlKey{path: path, line: lineAt(lines, start), start: start, end: start + int(e.Raw.Length)})
	if v := e.Value(); v.Kind == unstable.InlineTable {
		for it := v.Children(); it.Next(); {
			if n := it.Node(); n.Kind == unstable.KeyValue {
				keys = appendKeyValue(keys, lines, path, n)
			}
		}
	}
	return keys
}

// keyParts appends the parts of a dotted key to path and returns the byte
// offsets where the key starts and ends.
func keyParts(path []string, it unstable.Iterator) ([]string, int, int) {
	start, end := -1, 0
	for it.Next() {
		n := it.Node()
		path = append(path, string(n.Data))
		if start < 0 {
			start = int(n.Raw.Offset)
		}
		end = int(n.Raw.Offset + n.Raw.Length)
	}
	return path, max(start, 0), end
}

// lineStarts gives the byte offset at which each line of data starts.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineAt gives the 1-based line holding byte offset off.
func lineAt(starts []int, off int) int {
	return sort.SearchInts(starts, off+1)
}

// tomlError turns go-toml's error into a *ConfigError with the line and
// column, and the key when the error lies inside a key = value that parsed
// (a number too large, a key defined twice).
func tomlError(name string, data []byte, keys []tomlKey, err error) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &ConfigError{Path: name, Msg: "not valid TOML: " + plainMessage(err.Error())}
	}
	row, col := de.Position()
	ce := &ConfigError{Path: name, Line: row, Col: col, Msg: plainMessage(de.Error())}
	starts := lineStarts(data)
	if row < 1 || row > len(starts) {
		return ce
	}
	i := keyHolding(keys, starts[row-1]+col-1)
	if i < 0 {
		return ce
	}
	k := keys[i]
	ce.Key = keyName(k.path)
	spec := lookupKey(ce.Key)
	switch first := firstSetLine(keys[:i], k.path); {
	case strings.Contains(ce.Msg, "already"):
		if first > 0 {
			ce.Msg = fmt.Sprintf("is already defined, on line %d", first)
		}
	case spec != nil && !spec.table:
		ce.Msg += "; allowed: " + spec.allowed
	}
	return ce
}

// keyHolding gives the index of the innermost key whose expression holds
// byte offset off, or -1.
func keyHolding(keys []tomlKey, off int) int {
	found := -1
	for i, k := range keys {
		if k.start <= off && off < max(k.end, k.start+1) {
			found = i
		}
	}
	return found
}

// firstSetLine gives the line where path was first set among keys, or 0.
func firstSetLine(keys []tomlKey, path []string) int {
	for _, k := range keys {
		if slices.Equal(k.path, path) {
			return k.line
		}
	}
	return 0
}

// plainMessage makes go-toml's message fit to show: without its "toml: "
// prefix, without the Go function names of strconv's errors, and with any
// character a terminal would act on written as U+XXXX.
func plainMessage(msg string) string {
	msg = strings.TrimPrefix(msg, "toml: ")
	if i := strings.Index(msg, "strconv."); i >= 0 {
		tail := msg[i:]
		msg = strings.TrimRight(msg[:i], ": ")
		if strings.Contains(tail, "out of range") {
			msg += ": out of range"
		}
	}
	return printable(msg)
}

// printable writes every non-printable character of s as U+XXXX.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "%U", r)
		}
	}
	return b.String()
}

// keyName writes a key path as wake.toml would: dotted, with any part
// that is not a bare key quoted.
func keyName(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = p
		if p == "" || strings.IndexFunc(p, func(r rune) bool { return !isBareKeyRune(r) }) >= 0 {
			parts[i] = strconv.Quote(p)
		}
	}
	return strings.Join(parts, ".")
}

func isBareKeyRune(r rune) bool {
	return r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// kindOf names the TOML type of a decoded value, in TOML's words.
func kindOf(v any) string {
	switch v := v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case time.Time, toml.LocalDateTime:
		return "a date-time"
	case toml.LocalDate:
		return "a date"
	case toml.LocalTime:
		return "a time"
	case map[string]any:
		return "a table"
	case []any:
		if len(v) > 0 && !slices.ContainsFunc(v, func(e any) bool { _, ok := e.(map[string]any); return !ok }) {
			return "an array of tables"
		}
		return "an array"
	}
	return "a value of another kind"
}

// valueAt finds the value at path in a decoded document, or nil.
func valueAt(values map[string]any, path []string) any {
	var v any = values
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// quoteShort quotes s for a message, cut to its first 40 characters so
// that a pasted page does not fill the terminal.
func quoteShort(s string) string {
	const most = 40
	if r := []rune(s); len(r) > most {
		return strconv.Quote(string(r[:most])) + "…"
	}
	return strconv.Quote(s)
}
