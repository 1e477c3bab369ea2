// Package wakeupschema validates wake-up packets against the published
// wakeup.v1 JSON Schema, for tests.
package wakeupschema

import (
	"bytes"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wakeproto/wake/wakeup"
)

var (
	once   sync.Once
	schema *jsonschema.Schema
	err    error
)

func compiled() (*jsonschema.Schema, error) {
	once.Do(func() {
		doc, e := jsonschema.UnmarshalJSON(bytes.NewReader(wakeup.Schema))
		if e != nil {
			err = e
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		const url = "https://github.com/wakeproto/wake/wakeup/wakeup.v1.schema.json"
		if err = c.AddResource(url, doc); err != nil {
			return
		}
		schema, err = c.Compile(url)
	})
	return schema, err
}

// Check validates one packet's JSON and returns the schema's complaint.
func Check(data []byte) error {
	s, err := compiled()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// Validate fails t when data is not a valid wakeup.v1 packet.
func Validate(t testing.TB, data []byte) {
	t.Helper()
	if err := Check(data); err != nil {
		t.Fatalf("packet does not match wakeup.v1.schema.json: %v\n%s", err, data)
	}
}
