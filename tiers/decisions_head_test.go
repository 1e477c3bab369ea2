package tiers

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/internal/memgen"
)

// inlineKeyRE is how the fields written on the DECISION line were found
// before [inlineKeyAt].
var inlineKeyRE = regexp.MustCompile(`[ \t](STATUS|TOPIC|REVERSED_BY|OBJECTION|PROPOSED|UPHELD):`)

func inlineKeyOracle(s string, first bool) [][4]int {
	n := -1
	if first {
		n = 1
	}
	var out [][4]int
	for _, m := range inlineKeyRE.FindAllStringSubmatchIndex(s, n) {
		out = append(out, [4]int{m[0], m[1], m[2], m[3]})
	}
	return out
}

// parseAsBefore parses with the regexps.
func parseAsBefore(data []byte) DecisionLog {
	return parseDecisions(data, entryHeadOracle, inlineKeyOracle)
}

// entryHeadRE is how an entry's first line was recognized before the
// hand-written scanner: the oracle [entryHead] must agree with.
var entryHeadRE = regexp.MustCompile(`^\[([^\]\n]*)\][ \t]*DECISION:(.*)$`)

func entryHeadOracle(line string) (int, int, int, bool) {
	m := entryHeadRE.FindStringSubmatchIndex(line)
	if m == nil {
		return 0, 0, 0, false
	}
	if m[5] != len(line) {
		panic("the regexp's value does not run to the end of the line")
	}
	return m[2], m[3], m[4], true
}

// headSeeds are lines at the edges of the grammar: every way a line can
// almost be an entry head, and heads with odd dates and values.
var headSeeds = []string{
	"", "[", "]", "[]", "[] DECISION:", "[]DECISION:", "[2026-01-02] DECISION: Use YAML BECAUSE: why",
	"[2026-01-02]\tDECISION:x", "[2026-01-02] \t DECISION:", "[2026-01-02] DECISION", "[2026-01-02] decision: x",
	" [2026-01-02] DECISION: x", "[2026-01-02 DECISION: x", "[a]b] DECISION: x", "[a[b] DECISION: x",
	"[a\nb] DECISION: x", "[a] DECISION: x\ny", "[a] DECISION: x\r", "[a]\r DECISION: x", "[\xff] DECISION: \xfe",
	"[a] DECISION:: x", "[a]  DECISION:DECISION: x", "[a] DECISION: ] [b] DECISION:", "[[[[[[[[ DECISION:",
	"[" + strings.Repeat("]", 40) + " DECISION:", "[" + strings.Repeat(" ", 1000) + "] DECISION:" + strings.Repeat("x", 1000),
	"[a]" + strings.Repeat(" \t", 500) + "DECISION: x", "[a]" + strings.Repeat(" ", 500) + "DECISIO",
	"[é] DECISION: ü", "[2026-01-02] DECISION: x\x00y", "[\n] DECISION:", "[]\n DECISION:",
}

func FuzzEntryHead(f *testing.F) {
	for _, s := range headSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		ds, de, vs, ok := entryHead(line)
		wds, wde, wvs, wok := entryHeadOracle(line)
		if ok != wok || ds != wds || de != wde || vs != wvs {
			t.Fatalf("entryHead(%q) = %d, %d, %d, %v; the regexp gives %d, %d, %d, %v", line, ds, de, vs, ok, wds, wde, wvs, wok)
		}
	})
}

var keySeeds = []string{
	"", " ", "STATUS:", " STATUS:", " STATUS: x TOPIC: y", "\tTOPIC:", " STATUS", " STATUS :", " status:",
	"  STATUS:", " STATUS: STATUS:", " STATUS:STATUS:", " STATUS: TOPIC:", "x STATUS:", "x  REVERSED_BY: a OBJECTION: b PROPOSED: c UPHELD: d",
	" REVERSED_BY", " UPHELD:\n STATUS:", "\xff STATUS:\xfe", " STATUSES: x", " TOPICS:", " S", " STATU",
}

func FuzzInlineKeys(f *testing.F) {
	for _, s := range keySeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, first := range []bool{false, true} {
			got, want := inlineKeyAt(s, first), inlineKeyOracle(s, first)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("inlineKeyAt(%q, %v) = %v; the regexp finds %v", s, first, got, want)
			}
		}
		if got, want := InlineKey(s), inlineKeyOracle(" "+s, true); (got == "") != (len(want) == 0) || (got != "" && got != (" " + s)[want[0][2]:want[0][3]]+":") {
			t.Fatalf("InlineKey(%q) = %q; the regexp finds %v", s, got, want)
		}
	})
}

func FuzzParseDecisionsAsBefore(f *testing.F) {
	for _, s := range headSeeds {
		f.Add(s + "\nBECAUSE: y\nSTATUS: active\n")
	}
	for _, s := range keySeeds {
		f.Add("[2026-01-02] DECISION: x BECAUSE: y" + s + "\nSTATUS: active\n")
	}
	for _, data := range repoDecisionLogs(f) {
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, data string) {
		got, want := ParseDecisions([]byte(data)), parseAsBefore([]byte(data))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseDecisions(%q) differs from the regexp's parse:\n got %+v\nwant %+v", data, got, want)
		}
	})
}

// TestParseDecisionsAsBefore parses every decision log of the repository
// and a generated one of some 200,000 tokens both ways.
func TestParseDecisionsAsBefore(t *testing.T) {
	t.Parallel()
	logs := repoDecisionLogs(t)
	if len(logs) < 2 { // the skeleton's and the demo's
		t.Fatalf("found %d decision logs in the repository", len(logs))
	}
	logs = append(logs, generatedLog(t, memgen.Options{TierScale: 1, Decisions: 4000}), generatedLog(t, memgen.Options{TierScale: 1, Decisions: 300, VariedDecisions: true}))
	entries := 0
	for i, data := range logs {
		got, want := ParseDecisions(data), parseAsBefore(data)
		entries += len(want.Entries)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("log %d parses differently from the regexp's parse", i)
		}
	}
	if entries < 4300 {
		t.Errorf("%d entries in all: the logs do not test the head", entries)
	}
}

// repoDecisionLogs reads every decisions.md of the repository (the
// skeleton's, the demo's, every testdata one).
func repoDecisionLogs(tb testing.TB) [][]byte {
	var out [][]byte
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "decisions.md" {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out = append(out, data)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func generatedLog(tb testing.TB, o memgen.Options) []byte {
	fsys := afero.NewMemMapFs()
	if err := memgen.Generate(fsys, "/r", o); err != nil {
		tb.Fatal(err)
	}
	data, err := afero.ReadFile(fsys, "/r/warm/decisions.md")
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkParseDecisions parses a generated log of some 200,000 tokens
// (4,000 entries); "regexp" is the parse as it was, "scanner" as it is.
func BenchmarkParseDecisions(b *testing.B) {
	data := generatedLog(b, memgen.Options{TierScale: 1, Decisions: 4000})
	for _, c := range []struct {
		name string
		head headFunc
		keys keysFunc
	}{{"regexp", entryHeadOracle, inlineKeyOracle}, {"scanner", entryHead, inlineKeyAt}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				parseDecisions(data, c.head, c.keys)
			}
		})
	}
}
