package mcpserver

import (
	"encoding/json"
	"reflect"
	"strings"
)

// unmarshalExact is json.Unmarshal of data into *v with the SDK's
// case-sensitive matching of object keys to struct fields: a key that is
// not exactly a field's JSON name is ignored, at every level, where
// encoding/json would fold its case and let "NAME" fill Name after
// "name". Otherwise a line would mean one thing to wake and another to
// the SDK, a gateway or a log reading it case-sensitively.
func unmarshalExact(data []byte, v any) error {
	return json.Unmarshal(exactKeys(data, reflect.TypeOf(v)), v)
}

// exactKeys is data without the keys its objects' struct types (t, and
// their fields' types within) do not name exactly; data as it is when it
// is not an object of a struct, or when no key needs dropping.
func exactKeys(data []byte, t reflect.Type) []byte {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return data
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil || m == nil {
		return data
	}
	fields := map[string]reflect.Type{}
	jsonFields(t, fields)
	changed := false
	for k, raw := range m {
		ft, ok := fields[k]
		if !ok {
			delete(m, k)
			changed = true
			continue
		}
		if sub := exactKeys(raw, ft); len(sub) != len(raw) || string(sub) != string(raw) {
			m[k] = sub
			changed = true
		}
	}
	if !changed {
		return data
	}
	out, err := json.Marshal(m)
	if err != nil {
		return data
	}
	return out
}

// jsonFields adds the JSON names of t's fields to fields, with their
// types: a struct embedded without a name gives its own, as encoding/json
// promotes them.
func jsonFields(t reflect.Type, fields map[string]reflect.Type) {
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if sf.Anonymous && name == "" {
			ft := sf.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				jsonFields(ft, fields)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fields[name] = sf.Type
	}
}
