package wake

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// What wake reads of a long transcript: its head, where the session's
// start, id and first prompts are, and its tail, where its latest work
// and last message are. The hooks must answer within their client's
// timeout (Codex's SessionEnd gives 3 s) whatever the transcript's size,
// and a session's lines are read at tens of MB a second on a busy
// machine: 64 MiB keeps the read well under a second. What lies between
// is left out, and said so.
const (
	transcriptHead = 8 << 20
	transcriptTail = 56 << 20
)

// openTranscript opens a transcript, a regular file only and without
// waiting on it (a named pipe, a device, a directory is refused with an
// error naming it), and gives a reader of at most its head and tail (see
// [transcriptHead]); cut says whether its middle was left out.
func (m *Memory) openTranscript(name string) (r io.Reader, closer io.Closer, cut bool, err error) {
	f, fi, err := tiers.OpenInput(m.o.FS, name)
	var nr *tiers.NotRegularError
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil, false, hinted{fmt.Errorf("transcript %s: no such file", name), "give the path of the session's transcript file"}
	case errors.As(err, &nr):
		return nil, nil, false, hinted{fmt.Errorf("transcript %s", nr.Error()), "give the session's transcript, a regular file"}
	case err != nil:
		return nil, nil, false, fmt.Errorf("transcript %s: %w", name, err)
	}
	r, cut, err = headAndTail(f, fi.Size(), transcriptHead, transcriptTail)
	if err != nil {
		f.Close()
		return nil, nil, false, fmt.Errorf("transcript %s: %w", name, err)
	}
	return r, f, cut, nil
}

// cutNote says what of a transcript cut short was read.
func cutNote(name string) string {
	return fmt.Sprintf("transcript %s: over %d MiB; only its first %d MiB and last %d MiB were read",
		name, (transcriptHead+transcriptTail)>>20, transcriptHead>>20, transcriptTail>>20)
}

// headAndTail reads f, of size bytes, whole when it is at most head+tail
// bytes, else its first head bytes and its last tail bytes, each cut to
// whole lines so that the reader sees the lines of both as one run.
// Reading stops at size: a file that grows meanwhile is read as it was.
func headAndTail(f afero.File, size, head, tail int64) (io.Reader, bool, error) {
	if size <= head+tail {
		return io.NewSectionReader(f, 0, size), false, nil
	}
	h, err := lineBefore(f, head)
	if err != nil {
		return nil, false, err
	}
	t, err := lineAfter(f, size-tail, size)
	if err != nil {
		return nil, false, err
	}
	return io.MultiReader(io.NewSectionReader(f, 0, h), io.NewSectionReader(f, t, size-t)), true, nil
}

// lineScan is how far lineBefore and lineAfter look for a line's end: a
// line longer than the transcript reader's cap is skipped by it anyway.
const lineScan = 9 << 20

// lineBefore is the offset past the last line end at or before off (0
// when none is within [lineScan]).
func lineBefore(f io.ReaderAt, off int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := off; end > 0 && off-end < lineScan; {
		start := max(0, end-int64(len(buf)))
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// lineAfter is the offset past the first line end at or after off, and
// before size (size when none is within [lineScan]).
func lineAfter(f io.ReaderAt, off, size int64) (int64, error) {
	if off > 0 {
		off-- // a line that starts at off is whole
	}
	buf := make([]byte, 64<<10)
	for start := off; start < size && start-off < lineScan; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-start)], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		if n == 0 {
			break
		}
		start += int64(n)
	}
	return size, nil
}
