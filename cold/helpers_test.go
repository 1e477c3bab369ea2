package cold

import (
	"testing"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

func encoder(t *testing.T) *budget.Encoder {
	t.Helper()
	e, err := budget.NewEncoder(tiers.EncodingCL100K)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
