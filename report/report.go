// Package report holds the answers wake gives a program and a person: one
// JSON type a command (load, status, check, decisions, log, trust), each
// versioned, and the text a terminal shows for the commands whose text is
// not the boot context itself.
//
// The JSON types are apart from the domain structs on purpose: boot, cold,
// checks and tiers can rename and reshape their fields freely, and only a
// change here, caught by the golden files, changes a schema a script
// relies on. Every front end (the command line, the MCP server) answers
// through this package, so they answer alike.
package report

import "encoding/json"

// Version is the version every JSON answer carries. It changes only when a
// field is removed or changes meaning; new fields keep it.
const Version = 1

// marshal renders v as indented JSON with a final newline.
func marshal(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// strs is ss, never nil: a JSON array is [] when empty, never null.
func strs(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}
