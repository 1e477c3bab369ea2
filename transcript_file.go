package wake

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
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
// [transcriptHead] and [transcript.HeadAndTail]); cut says whether its middle was left out.
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
	r, cut, err = transcript.HeadAndTail(f, fi.Size(), transcriptHead, transcriptTail)
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
