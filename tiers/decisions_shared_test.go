package tiers

import (
	"reflect"
	"testing"
)

func TestSharedDecisions(t *testing.T) {
	a := []byte("[2026-01-02] DECISION: Use YAML BECAUSE: it reads well\nSTATUS: active\n")
	b := []byte("[2026-01-03] DECISION: Use TOML BECAUSE: it is typed\nSTATUS: reversed\nREVERSED_BY: x\n")
	if got := SharedDecisions(a); !reflect.DeepEqual(got, ParseDecisions(a)) {
		t.Fatalf("SharedDecisions(a) = %+v", got)
	}
	first := SharedDecisions(a)
	if again := SharedDecisions(append([]byte(nil), a...)); &again.Entries[0] != &first.Entries[0] {
		t.Error("the same bytes were parsed again")
	}
	if got := SharedDecisions(b); !reflect.DeepEqual(got, ParseDecisions(b)) {
		t.Fatalf("another log gave %+v", got)
	}
	// The caller's slice changing under it changes nothing kept.
	c := append([]byte(nil), a...)
	SharedDecisions(c)
	copy(c, b)
	if got := SharedDecisions(a); !reflect.DeepEqual(got, ParseDecisions(a)) || got.Entries[0].What != "Use YAML" {
		t.Fatalf("after the caller's bytes changed: %+v", got)
	}
}
