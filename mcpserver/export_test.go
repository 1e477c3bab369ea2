package mcpserver

// SetHeldLimits lowers what a session of srv holds at once (the bytes of
// its large requests, the count of all), and has stopped called each time
// a session stops reading.
func SetHeldLimits(srv *Server, bytes, calls int, stopped func()) {
	srv.limits = limits{bytes: bytes, calls: calls, stopped: stopped}
}

// SmallCall is the size up to which a request is let in whatever the
// large ones hold.
const SmallCall = smallCall
