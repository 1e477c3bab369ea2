package transcript

import (
	"encoding/json"
	"testing"
)

func TestTopLevel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line, want string
		ok         bool
	}{
		{`{"timestamp":"2026-11-22T10:00:00Z"}`, "2026-11-22T10:00:00Z", true},
		{` { "a" : 1 , "timestamp" : "t" } `, "t", true},
		{`{"message":{"timestamp":"nested"},"x":[{"timestamp":"in array"}],"timestamp":"top"}`, "top", true},
		{`{"message":{"timestamp":"nested"}}`, "", false},
		{`{"content":"\"timestamp\":\"escaped\"","b":"x\\"}`, "", false},
		{`{"content":"a \\\" b","timestamp":"t2"}`, "t2", true},
		{`{"timestamp":"first","timestamp":"last"}`, "last", true},
		{`{"timestamp":"first","timestamp":3}`, "", false},
		{`{"timestamp":"a\u0062"}`, "", false},
		{`{"timestamp":"cut`, "", false},
		{`{"a":[1,2,{"b":"]"}],"n":null,"t":true,"timestamp":"x"}`, "x", true},
		{`{"timestamp":"x"`, "", false},
		{`["timestamp","x"]`, "", false},
		{`{}`, "", false},
		{`{"timestamp":"a","TimeStamp":"b"}`, "b", true},
		{`{"timestamp":"a","time\u0073tamp":"b"}`, "", false},
		{`{"a":}`, "", false},
		{"{\"timestAmp\":\"\x84\"}", "\uFFFD", true},
		{"{\"timestamp\":\"a\xed\xa0\x80b\"}", "a\uFFFD\uFFFD\uFFFDb", true},
	} {
		got, ok := topLevel([]byte(c.line), "timestamp")
		if got != c.want || ok != c.ok {
			t.Errorf("topLevel(%s) = %q %v, want %q %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// FuzzTopLevel: what topLevel finds in a JSON object is what
// encoding/json decodes.
func FuzzTopLevel(f *testing.F) {
	f.Add(`{"message":{"timestamp":"n"},"timestamp":"top"}`)
	f.Add(`{"timestamp":"a","x":"\"timestamp\":\"b\""}`)
	f.Fuzz(func(t *testing.T, line string) {
		got, ok := topLevel([]byte(line), "timestamp")
		if !ok {
			return
		}
		var v struct {
			Timestamp *string `json:"timestamp"`
		}
		if json.Unmarshal([]byte(line), &v) != nil {
			return // not JSON: the line is parsed, and skipped, anyway
		}
		if v.Timestamp == nil || *v.Timestamp != got {
			t.Fatalf("topLevel(%s) = %q, encoding/json %v", line, got, v.Timestamp)
		}
	})
}
