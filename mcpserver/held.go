package mcpserver

import "context"

// Back-pressure: the requests a session holds are bounded, so that a
// client sending many large calls at once (each line up to maxLine) does
// not make the server hold them all (20 calls of 15 MB held 604 MB). The
// tools run one at a time, so holding more large calls than one buys
// nothing.
const (
	// maxHeldBytes bounds the bytes of the large requests being served.
	// One request is always let in, however large.
	maxHeldBytes = maxLine
	// maxHeldCalls bounds the requests being served, small ones included.
	maxHeldCalls = 64
	// smallCall is the size up to which a request is let in whatever the
	// large ones hold: a ping or a cancellation's neighbour is not kept
	// waiting behind a large call.
	smallCall = 64 << 10
	// maxWaiting is how many requests may wait to be let in before the
	// session stops reading: it reads on past one waiting request, so that
	// a cancellation or ping sent after it is still read and answered.
	maxWaiting = 2
)

// limits are a session's bounds; tests lower them, and hear through
// stopped each time the session stops reading.
type limits struct {
	bytes, calls int
	stopped      func()
}

var defaultLimits = limits{bytes: maxHeldBytes, calls: maxHeldCalls}

// waiter is a request read but not let in yet.
type waiter struct {
	size  int
	enter chan struct{} // closed when it is let in
}

// fits reports whether a request of size bytes may be served now. The
// caller holds ss.mu.
func (ss *session) fits(size int) bool {
	if ss.calls >= ss.limits.calls {
		return false
	}
	return size <= smallCall || ss.bytes == 0 || ss.bytes+size <= ss.limits.bytes
}

// take counts a request of size bytes as served. The caller holds ss.mu.
func (ss *session) take(size int) {
	ss.calls++
	if size > smallCall {
		ss.bytes += size
	}
}

// release counts a request of size bytes as answered and lets in the
// waiting requests that now fit, in the order they came (a small one may
// pass a large one that does not fit yet). The caller holds ss.mu.
func (ss *session) release(size int) {
	ss.calls--
	if size > smallCall {
		ss.bytes -= size
	}
	kept := ss.waiting[:0]
	blocked := false // a large request waits: the later large ones wait too
	for _, w := range ss.waiting {
		if (w.size > smallCall && blocked) || !ss.fits(w.size) {
			blocked = blocked || w.size > smallCall
			kept = append(kept, w)
			continue
		}
		ss.take(w.size)
		close(w.enter)
	}
	clear(ss.waiting[len(kept):])
	ss.waiting = kept
	select {
	case ss.room <- struct{}{}:
	default:
	}
}

// admit lets in a request of size bytes, or makes it wait, and runs
// serve once it is in; ctx is the request's. One cancelled while it waits is answered at once,
// unserved, and not held any longer. The caller holds ss.mu, which admit
// releases.
func (ss *session) admit(ctx context.Context, size int, serve, unserved func()) {
	bigWaiting := false
	for _, w := range ss.waiting {
		bigWaiting = bigWaiting || w.size > smallCall
	}
	if ss.fits(size) && (size <= smallCall || !bigWaiting) {
		ss.take(size)
		ss.mu.Unlock()
		go serve()
		return
	}
	w := &waiter{size: size, enter: make(chan struct{})}
	ss.waiting = append(ss.waiting, w)
	ss.mu.Unlock()
	go func() {
		select {
		case <-w.enter:
			serve()
			return
		case <-ctx.Done():
		}
		ss.mu.Lock()
		i := -1
		for j, o := range ss.waiting {
			if o == w {
				i = j
			}
		}
		if i < 0 { // let in as it was cancelled
			ss.mu.Unlock()
			<-w.enter
			serve()
			return
		}
		ss.waiting = append(ss.waiting[:i], ss.waiting[i+1:]...)
		ss.mu.Unlock()
		unserved()
	}()
}

// blocked reports whether the session has stopped reading until a
// request is answered; was is whether it had, to tell a test when it
// stops.
func (ss *session) blocked(was bool) bool {
	ss.mu.Lock()
	b := len(ss.waiting) >= maxWaiting
	ss.mu.Unlock()
	if b && !was && ss.limits.stopped != nil {
		ss.limits.stopped()
	}
	return b
}

// errCancelledWaiting answers a request cancelled while it waited to be
// let in.
var errCancelledWaiting = errorf(codeOther, "context canceled: the request was cancelled before it started")
