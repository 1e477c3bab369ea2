package transcript

import (
	"bytes"
	"errors"
	"io"
)

// HeadAndTail reads f, of size bytes, whole when it is at most head+tail
// bytes, else its first head bytes and its last tail bytes, each cut to
// whole lines so that the reader sees the lines of both as one run.
// Reading stops at size: a file that grows meanwhile is read as it was.
func HeadAndTail(f io.ReaderAt, size, head, tail int64) (io.Reader, bool, error) {
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
