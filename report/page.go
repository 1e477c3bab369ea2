package report

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake/budget"
)

// PageTokens is the most a listing prints by default: a page of `wake
// log`, `wake decisions --all` or `wake cold` fits an agent's context
// beside its work however long the memory's history grows. --format json
// stays complete.
const PageTokens = 4000

// Pager says which page of a listing to print. The zero Pager prints the
// whole listing.
type Pager struct {
	Counter budget.Counter // counts each item once; nil: no paging
	Page    int            // 1-based; 0 is 1
	Limit   int            // tokens a page; 0 is PageTokens
}

// Paged is the part of a listing one page shows: items [From, To) of
// Total, page Page of Pages.
type Paged struct {
	Page, Pages, From, To, Total int
}

// Whole reports whether the page is the whole listing.
func (p Paged) Whole() bool { return p.From == 0 && p.To == p.Total }

// PageError is a page past the last.
type PageError struct{ Page, Pages int }

func (e *PageError) Error() string {
	return fmt.Sprintf("--page %d: the listing has %d page(s)", e.Page, e.Pages)
}

// Cut picks the page of items, each an item as printed, in the order
// printed: pages of at most Limit tokens, each item counted once, an item
// longer than a page alone on its page.
func (pg Pager) Cut(items []string) (Paged, error) {
	n := len(items)
	if pg.Counter == nil || n == 0 {
		return Paged{Page: 1, Pages: 1, To: n, Total: n}, nil
	}
	limit := pg.Limit
	if limit <= 0 {
		limit = PageTokens
	}
	page := max(pg.Page, 1)
	starts := []int{0}
	used := 0
	for i, it := range items {
		c := pg.Counter.Count(it)
		if used > 0 && used+c > limit {
			starts, used = append(starts, i), 0
		}
		used += c
	}
	if page > len(starts) {
		return Paged{}, &PageError{page, len(starts)}
	}
	to := n
	if page < len(starts) {
		to = starts[page]
	}
	return Paged{Page: page, Pages: len(starts), From: starts[page-1], To: to, Total: n}, nil
}

// Footer says which part of the listing the page shows and how to get
// the rest: the next page's command, and narrower queries. "" when the
// page is the whole listing.
func (p Paged) Footer(what, command string, narrower ...string) string {
	if p.Whole() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Page %d of %d: %s %d-%d of %d.", p.Page, p.Pages, what, p.From+1, p.To, p.Total)
	if p.Page < p.Pages {
		fmt.Fprintf(&b, " Next: %s --page %d", command, p.Page+1)
		if len(narrower) > 0 {
			fmt.Fprintf(&b, "; or narrow it with %s", strings.Join(narrower, " or "))
		}
		b.WriteString(".")
	}
	b.WriteString(" --format json lists every one.\n")
	return b.String()
}
