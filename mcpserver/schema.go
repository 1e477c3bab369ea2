package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// A tool's input schema is inferred from its arguments' struct as the MCP
// Go SDK infers it (the SDK's tests compare them byte for byte): an object
// of the struct's fields under their json names, in their order, each
// with its type and the jsonschema tag as its description; a field
// without omitempty is required; no other property is allowed. A slice
// may also be null, as the SDK says of a Go slice.

// field is one argument of a tool.
type field struct {
	name        string
	description string
	required    bool
	typ         string // the JSON schema type: string, integer, number, boolean or array
	items       string // an array's items' type
	bounds      string // an integer's "minimum" and "maximum", as the SDK writes them for a sized or unsigned one
	itemBounds  string // an array's items' bounds
}

// fieldsOf is the arguments of a tool taking t, a struct of strings,
// numbers, booleans and slices of them; another type is a programming
// error, which panics when the tool is made.
func fieldsOf(t reflect.Type) []field {
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("mcpserver: tool arguments %v: not a struct", t))
	}
	var fs []field
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		f := field{name: name, description: sf.Tag.Get("jsonschema"), required: !slices.Contains(strings.Split(opts, ","), "omitempty")}
		f.typ = jsonType(sf.Type)
		f.bounds = bounds(sf.Type)
		if f.typ == "array" {
			f.items = jsonType(sf.Type.Elem())
			f.itemBounds = bounds(sf.Type.Elem())
			if f.items == "array" {
				panic(fmt.Sprintf("mcpserver: tool argument %s: nested arrays are not supported", name))
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// jsonType is the JSON schema type of a Go type.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		return "array"
	}
	panic(fmt.Sprintf("mcpserver: tool argument type %v is not supported", t))
}

// bounds is what the SDK says of the range of an integer type t: its
// minimum and maximum for a sized one, the minimum 0 for an unsigned one;
// "" for another type.
func bounds(t reflect.Type) string {
	switch k := t.Kind(); k {
	case reflect.Int8, reflect.Int16, reflect.Int32:
		n := int64(1) << (t.Bits() - 1)
		return fmt.Sprintf(`,"minimum":%d,"maximum":%d`, -n, n-1)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return fmt.Sprintf(`,"minimum":0,"maximum":%d`, uint64(1)<<t.Bits()-1)
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return `,"minimum":0`
	}
	return ""
}

// inputSchema is the JSON schema of arguments fs, as the SDK writes it.
func inputSchema(fs []field) json.RawMessage {
	var b bytes.Buffer
	str := func(s string) {
		data, _ := json.Marshal(s)
		b.Write(data)
	}
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		str(f.name)
		b.WriteString(`:{"type":`)
		if f.typ == "array" {
			b.WriteString(`["null","array"],"items":{"type":`)
			str(f.items)
			b.WriteString(f.itemBounds)
			b.WriteByte('}')
		} else {
			str(f.typ)
		}
		if f.description != "" {
			b.WriteString(`,"description":`)
			str(f.description)
		}
		b.WriteString(f.bounds)
		b.WriteByte('}')
		if f.required {
			required = append(required, f.name)
		}
	}
	b.WriteByte('}')
	if len(required) > 0 {
		data, _ := json.Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(data)
	}
	b.WriteString(`,"additionalProperties":false}`)
	return b.Bytes()
}

// decodeArgs checks the arguments raw of tool against its fields fs and
// unmarshals them into in: a property it does not take, a value of the
// wrong type (null included, but for an array) and a required argument
// missing are refused with a message naming the argument. No arguments
// at all, or null, are an empty object.
func decodeArgs(tool string, fs []field, raw json.RawMessage, in any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var args map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &args) != nil {
		return fmt.Errorf("arguments: want an object of named arguments, got %s", describe(raw))
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		i := slices.IndexFunc(fs, func(f field) bool { return f.name == name })
		if i < 0 {
			return fmt.Errorf("argument %q: %s takes no such argument (it takes %s)", name, tool, takes(fs))
		}
		if err := check(fs[i], args[name]); err != nil {
			return err
		}
	}
	var missing []string
	for _, f := range fs {
		if _, ok := args[f.name]; f.required && !ok {
			missing = append(missing, strconv.Quote(f.name))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing required argument(s): %s", strings.Join(missing, ", "))
	}
	// An integer may be written as a number with a fraction of nought.
	for _, f := range fs {
		v, ok := args[f.name]
		switch {
		case !ok:
		case f.typ == "integer":
			args[f.name] = wholeNumber(v)
		case f.items == "integer" && string(v) != "null":
			var items []json.RawMessage
			json.Unmarshal(v, &items)
			for i := range items {
				items[i] = wholeNumber(items[i])
			}
			args[f.name], _ = json.Marshal(items)
		}
	}
	raw, _ = json.Marshal(args)
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(raw, in); errors.As(err, &te) {
		name, _, _ := strings.Cut(te.Field, ".")
		if i := slices.IndexFunc(fs, func(f field) bool { return f.name == name }); i >= 0 && fs[i].typ == "array" {
			return fmt.Errorf("argument %q: an item of %s is out of range", name, describe(args[name]))
		}
		return fmt.Errorf("argument %q: %s is out of range", name, describe(args[name]))
	} else if err != nil {
		return fmt.Errorf("arguments: %v", err)
	}
	return nil
}

// wholeNumber is the integer v, written with a fraction of nought or an
// exponent (2.0, 2e0), written as Go's json reads an integer (2).
func wholeNumber(v json.RawMessage) json.RawMessage {
	if !bytes.ContainsAny(v, ".eE") {
		return v
	}
	if n, err := strconv.ParseFloat(string(v), 64); err == nil && math.Abs(n) < 1<<53 {
		return json.RawMessage(strconv.FormatInt(int64(n), 10))
	}
	return v
}

// takes lists the names of fs.
func takes(fs []field) string {
	if len(fs) == 0 {
		return "none"
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// check refuses a value of argument f of the wrong type.
func check(f field, v json.RawMessage) error {
	v = bytes.TrimSpace(v)
	if f.typ != "array" {
		if !isType(f.typ, v) {
			return fmt.Errorf("argument %q: got %s, want %q", f.name, describe(v), f.typ)
		}
		return nil
	}
	if string(v) == "null" {
		return nil
	}
	var items []json.RawMessage
	if v[0] != '[' || json.Unmarshal(v, &items) != nil {
		return fmt.Errorf("argument %q: got %s, want an array of %q (or null)", f.name, describe(v), f.items)
	}
	for i, item := range items {
		if !isType(f.items, item) {
			return fmt.Errorf("argument %q: item %d: got %s, want %q", f.name, i+1, describe(item), f.items)
		}
	}
	return nil
}

// isType is whether the JSON value v is of the schema type typ.
func isType(typ string, v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return false
	}
	switch typ {
	case "string":
		return v[0] == '"'
	case "boolean":
		return string(v) == "true" || string(v) == "false"
	case "number", "integer":
		if v[0] != '-' && (v[0] < '0' || v[0] > '9') {
			return false
		}
		if typ == "number" {
			return true
		}
		n, err := strconv.ParseFloat(string(v), 64)
		return err == nil && n == math.Trunc(n) || err != nil && !bytes.ContainsAny(v, ".eE")
	}
	return false
}

// describe names a JSON value in an error, cut short when long.
func describe(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	kind := "the value"
	switch {
	case len(v) == 0:
		return "nothing"
	case string(v) == "null":
		return "null"
	case v[0] == '"':
		kind = "the string"
	case v[0] == '[':
		kind = "the array"
	case v[0] == '{':
		kind = "the object"
	case string(v) == "true" || string(v) == "false":
		kind = "the boolean"
	default:
		kind = "the number"
	}
	const most = 80
	s := string(v)
	if len(s) > most {
		s = tiers.CutBytes(s, most) + "…"
	}
	return kind + " " + s
}
