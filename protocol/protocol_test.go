package protocol

import (
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// TestCard: each mode's card names the commands the protocol's rules
// need; off is empty.
func TestCard(t *testing.T) {
	for _, c := range []struct {
		mode string
		want []string
	}{
		{tiers.CardFull, []string{"wake handoff --summary", "wake decide", "wake contest ID", "wake reverse ID", "wake cold PATH", "wake remember", "recent wins", "Never claim to remember"}},
		{tiers.CardShort, []string{"wake handoff --summary", "wake decide", "wake contest", "Trust recent over cold", "never claim to remember"}},
	} {
		card := Card(c.mode)
		for _, w := range c.want {
			if !strings.Contains(card, w) {
				t.Errorf("%s card lacks %q:\n%s", c.mode, w, card)
			}
		}
		if !strings.HasSuffix(card, "\n") || strings.Contains(card, "\n\n") {
			t.Errorf("%s card is not one block of lines ending in a newline:\n%q", c.mode, card)
		}
	}
	if Card(tiers.CardOff) != "" || Card("bogus") != "" {
		t.Error("off or an unknown mode gives a card")
	}
	if len(Card(tiers.CardShort)) >= len(Card(tiers.CardFull)) {
		t.Error("the short card is not shorter")
	}
}
