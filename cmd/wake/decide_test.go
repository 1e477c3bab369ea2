package main

import (
	"strings"
	"testing"
)

// Texts that span lines cannot be written as one field of the log: each is
// a usage error naming its flag. (testscript cannot pass a newline in an
// argument, so these run here.)
func TestDecisionCommandsRejectMultiLineTexts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init"}); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	a, _, errOut = newTestApp(t, dir)
	if code := a.run([]string{"decide", "Use TOML", "--because", "fewer errors"}); code != 0 {
		t.Fatalf("decide: exit %d: %s", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"decide", "Use\nTOML", "--because", "x"}, "wake: error: the decision (WHAT) must be one line"},
		{[]string{"decide", "Use TOML", "--because", "x\ny"}, "wake: error: --because must be one line"},
		{[]string{"decide", "Use TOML", "--because", "x", "--topic", "a\nb"}, "wake: error: --topic must be one line"},
		{[]string{"reverse", "1", "--by", "a\r\nb", "--because", "x"}, "wake: error: --by must be one line"},
		{[]string{"reverse", "1", "--by", "a", "--because", "x", "--topic", "t\n"}, "wake: error: --topic must be one line"},
		{[]string{"contest", "1", "--objection", "a\nb", "--proposal", "p"}, "wake: error: --objection must be one line"},
		{[]string{"contest", "1", "--objection", "o", "--proposal", "p\n"}, "wake: error: --proposal must be one line"},
		{[]string{"uphold", "1", "--because", "\nx"}, "wake: error: --because must be one line"},
	} {
		a, out, errOut := newTestApp(t, dir)
		code := a.run(tc.args)
		if code != exitUsage || !strings.HasPrefix(errOut.String(), tc.want+"\n") || out.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit 2 and %q", tc.args, code, errOut, out, tc.want)
		}
	}
}
