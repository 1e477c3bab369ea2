package skill

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// TestSkillRecordIsComplete: every item compression left out is in the
// cut record, where it was and with its count; so is every older session
// History left out before fitting, with its line's count, or with none
// when it has no summary and so was not read.
func TestSkillRecordIsComplete(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 13))
	counter := budget.NewCache("", wordCounter{}, nil)
	var items, unread, unreadCounted int
	for _, size := range []memorySize{{3, 4}, {60, 25}, {400, 40}} {
		fsys := afero.NewMemMapFs()
		writeMemory(t, r, fsys, size.sessions, size.items)
		for i := range 3 {
			afero.WriteFile(fsys, fmt.Sprintf("/r/cold/sessions/1999-01-0%dT00-00-00Z.md", i+1),
				[]byte("# Session\n\n## What happened\n- an undated talk\n"), 0o644)
		}
		for _, b := range []int{100000, 4000, 1500, 600, 120, 0} {
			cfg := tiers.DefaultConfig()
			cfg.Agent, cfg.Skill.Budget = "Ava", b
			s := buildSkill(t, fsys, "/r", cfg, counter)
			left := map[string]int{}
			for _, c := range s.Cuts {
				left[fmt.Sprint(c)]++
			}
			dropped := 0
			for _, sec := range s.Sections {
				dropped += sec.Dropped
				for _, it := range sec.Items {
					if !it.Dropped {
						continue
					}
					c := budget.Cut{What: tiers.ShortLine(strings.SplitN(it.Text, "\n", 2)[0]), Where: "skill.md § " + sec.Title, Tokens: counter.Count(it.Text + "\n")}
					if left[fmt.Sprint(c)] == 0 {
						t.Fatalf("size %+v budget %d: %+v is not in the record:\n%+v", size, b, c, s.Cuts)
					}
					left[fmt.Sprint(c)]--
					items++
				}
			}
			if len(s.Cuts) != dropped {
				t.Fatalf("size %+v budget %d: %d left out, %d recorded", size, b, dropped, len(s.Cuts))
			}
			// What is left of the record is History's unread sessions.
			for _, c := range s.Cuts {
				if left[fmt.Sprint(c)] == 0 {
					continue
				}
				left[fmt.Sprint(c)]--
				unread++
				switch {
				case c.Where != "skill.md § History":
					t.Fatalf("size %+v budget %d: %+v is left out of no section", size, b, c)
				case strings.HasSuffix(c.What, " (no summary; not read)"):
					if c.Tokens != 0 {
						t.Fatalf("an unread session counted: %+v", c)
					}
				case c.Tokens != counter.Count(c.What+"\n"):
					t.Fatalf("size %+v budget %d: %+v, want %d tokens", size, b, c, counter.Count(c.What+"\n"))
				default:
					unreadCounted++
				}
			}
		}
	}
	if items == 0 || unread == 0 || unreadCounted == 0 || unreadCounted == unread {
		t.Fatalf("%d items, %d unread sessions (%d counted): not every kind of cut was seen", items, unread, unreadCounted)
	}
}
