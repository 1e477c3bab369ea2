package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// readBuffer is the size of the buffered reader under the line reader: a
// line longer than it is gathered into the line buffer, up to the cap.
const readBuffer = 64 << 10

// lineReader reads lines of at most max bytes. A longer line is read
// through to its end and dropped, counted in tooLong: memory stays within
// max plus the read buffer whatever the input.
type lineReader struct {
	br      *bufio.Reader
	buf     []byte
	max     int
	tooLong int
	err     error // sticky once the input ends or fails
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultLimits().MaxLine
	}
	return &lineReader{br: bufio.NewReaderSize(r, readBuffer), max: max}
}

// next returns the next line without its line ending, and the error that
// ended the input (io.EOF at its end), possibly with a last line. A line
// is valid until the next call. Blank lines are skipped.
func (l *lineReader) next() ([]byte, error) {
	for l.err == nil {
		line, err := l.one()
		if err != nil {
			l.err = err
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, l.err
		}
	}
	return nil, l.err
}

// one reads one line, or drops it when it is too long (returning nil).
func (l *lineReader) one() ([]byte, error) {
	l.buf = l.buf[:0]
	over := false
	for {
		frag, err := l.br.ReadSlice('\n')
		// Room for the line ending, which is not the line's.
		if !over && len(l.buf)+len(frag) > l.max+2 {
			over, l.buf = true, l.buf[:0]
		}
		if !over {
			l.buf = append(l.buf, frag...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if over || len(bytes.TrimRight(l.buf, "\r\n")) > l.max {
			l.tooLong++
			l.shrink()
			return nil, err
		}
		return l.buf, err
	}
}

// shrink lets a buffer grown for a long line go, so that one long line
// does not keep its size for the rest of the read.
func (l *lineReader) shrink() {
	if cap(l.buf) > 4*readBuffer {
		l.buf = nil
	}
}

// sniff tells a line's format from its type: ok is false when the line
// says nothing of it, valid false when it is not a JSON object.
func sniff(line []byte) (f Format, ok, valid bool) {
	var v struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	if json.Unmarshal(line, &v) != nil {
		return Auto, false, false
	}
	switch v.Type {
	case "session_meta", "response_item", "event_msg", "turn_context", "compacted":
		return Codex, true, true
	case "session", "prompt", "edit", "command", "message", "decision":
		if v.Payload == nil {
			return Wake, true, true
		}
	case "user", "assistant", "summary", "system", "attachment", "queue-operation", "file-history-snapshot":
		return Claude, true, true
	}
	return Auto, false, true
}

// validJSON reports whether a line skipped unparsed is JSON at all.
func validJSON(line []byte) bool { return json.Valid(line) }
