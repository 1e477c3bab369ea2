package report

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/wakeproto/wake/store"
)

// FootprintFile is one item of `wake footprint --format json`.
type FootprintFile struct {
	Path         string `json:"path"`
	What         string `json:"what"`
	FirstWritten string `json:"first_written"`
	LastWritten  string `json:"last_written"`
	// State is "unchanged" (as wake last wrote it), "changed" (since:
	// someone else's now, never removed) or "gone".
	State   string `json:"state"`
	Removed bool   `json:"removed"`
}

// FootprintJSON renders the files wake wrote outside its memory roots as
// a JSON object: the record's path and the files.
func FootprintJSON(dir string, files []store.FootprintState) ([]byte, error) {
	out := struct {
		Record string          `json:"record"`
		Files  []FootprintFile `json:"files"`
	}{Record: filepath.Join(dir, store.FootprintName), Files: []FootprintFile{}}
	for _, f := range files {
		out.Files = append(out.Files, FootprintFile{Path: f.Path, What: f.What, FirstWritten: stamp(f.First), LastWritten: stamp(f.Last), State: f.State, Removed: f.Removed})
	}
	return marshal(out)
}

// FootprintText says, a file a line, what wake wrote outside its memory
// roots and what became of it; removed says whether --remove was given.
func FootprintText(w io.Writer, dir string, files []store.FootprintState, removed bool) {
	record := filepath.Join(dir, store.FootprintName)
	if len(files) == 0 {
		fmt.Fprintf(w, "wake has written no file outside its memory roots (none recorded in %s).\n", record)
		return
	}
	if !removed {
		fmt.Fprintf(w, "Files wake wrote outside its memory roots (recorded in %s):\n", record)
	}
	kept := 0
	for _, f := range files {
		var state string
		switch {
		case f.Removed:
			state = "removed"
		case f.State == store.FootprintChanged:
			state = "changed since wake last wrote it: someone else's now, left as it is"
			kept++
		case f.State == store.FootprintGone && removed:
			state = "already gone; forgotten"
		case f.State == store.FootprintGone:
			state = "gone"
		default:
			state = "as wake last wrote it"
		}
		fmt.Fprintf(w, "  %s\n    %s; first written %s; %s\n", f.Path, f.What, stamp(f.First), state)
	}
	switch {
	case removed && kept == 0:
		fmt.Fprintf(w, "Nothing wake wrote outside its memory roots is left; %s is removed too.\n", record)
	case !removed:
		fmt.Fprintln(w, "'wake footprint --remove' deletes those still as wake last wrote them.")
	}
}
