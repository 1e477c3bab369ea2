package wakeup

import (
	"reflect"

	"github.com/wakeproto/wake/policy"
)

// scrubPacket replaces, in place, every secret-looking string in every
// string field of p, wherever its text came from (a tier file, cold/, a
// note elsewhere in the root, a developer root, the query), and returns
// how many it replaced. It walks the packet's fields by reflection, so
// that a field added later is scrubbed without a change here: the packet
// is what every target renders, and this is its one exit.
func scrubPacket(p *Packet) int {
	n := 0
	scrubValue(reflect.ValueOf(p).Elem(), &n)
	return n
}

func scrubValue(v reflect.Value, n *int) {
	switch v.Kind() {
	case reflect.String:
		if s, red := policy.Scrub(v.String()); red.Total() > 0 {
			v.SetString(s)
			*n += red.Total()
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scrubValue(v.Field(i), n)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			scrubValue(v.Index(i), n)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			scrubValue(v.Elem(), n)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			scrubValue(e, n)
			v.SetMapIndex(k, e)
		}
	}
}
