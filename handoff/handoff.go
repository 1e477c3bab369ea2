// Package handoff is the session hand-off as a front end makes it: its
// fields (flags one at a time, or a `wake handoff --file` document in
// Markdown or JSON), their checks, and the write of the session's record,
// from which the store rebuilds recent/ and main.md's HANDOFF block
// (DESIGN section 11). Every write goes through package store.
package handoff

import (
	"context"

	"github.com/wakeproto/wake/store"
)

// Handoff ends a session: it normalizes and checks in, then has the store
// write the session's record and rebuild the views of the newest records
// ([store.WriteSession]). A refused input changes nothing.
func Handoff(ctx context.Context, s *store.Store, in Input) (store.Result, error) {
	in.Normalize()
	if err := in.Validate(); err != nil {
		return store.Result{}, err
	}
	return store.WriteSession(ctx, s, in.write())
}
