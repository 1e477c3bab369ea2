package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// Merge names the finding that a memory file holds git conflict markers.
const Merge = "merge_conflict"

// maxMarkerLines bounds the line numbers a finding names.
const maxMarkerLines = 10

// MarkerFindings are the HALTs, one a document, that docs hold git
// conflict markers: a merge of the memory was left unresolved, so what the
// file says is both sides at once, and wake would write into the middle
// of the conflict (DESIGN section 12). Each names the file and the lines.
func MarkerFindings(docs ...tiers.Doc) []Finding {
	var out []Finding
	for _, d := range docs {
		lines := tiers.ConflictMarkers(d.Content)
		if lines == nil {
			continue
		}
		out = append(out, Finding{Check: Merge, Severity: Halt, Path: d.Path,
			Message: fmt.Sprintf("HALT. %s holds git conflict markers (%s): a merge was left unresolved. Resolve it with the user before relying on this file.", d.Path, lineList(lines)),
			Details: []string{
				"keep both sides' entries and remove the marker lines, then run wake check; until then wake writes nothing into " + d.Path,
				"'wake init' sets up wake's merge driver for this clone, which merges the memory's files without markers",
			}})
	}
	return out
}

// lineList is "line 3" or "lines 3, 5, 9" (at most maxMarkerLines named).
func lineList(lines []int) string {
	var s []string
	for i, n := range lines {
		if i == maxMarkerLines {
			s = append(s, fmt.Sprintf("and %d more", len(lines)-i))
			break
		}
		s = append(s, strconv.Itoa(n))
	}
	if len(lines) == 1 {
		return "line " + s[0]
	}
	return "lines " + strings.Join(s, ", ")
}
