package duration

import (
	"errors"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	const day = 24 * time.Hour
	for in, want := range map[string]time.Duration{
		"30d": 30 * day, "2w": 14 * day, "36h": 36 * time.Hour, "90m": 90 * time.Minute,
		" 1h30m ": 90 * time.Minute, "1m": time.Minute, "3650d": 3650 * day,
	} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, want := range map[string]error{
		"": ErrSyntax, "soon": ErrSyntax, "-1d": ErrSyntax, "d": ErrSyntax, "1.5d": ErrSyntax, "+3d": ErrSyntax,
		"30s": ErrTooShort, "0d": ErrTooShort, "-1h": ErrTooShort,
		"99999d": ErrTooLong, "9999999999999w": ErrTooLong, "87601h": ErrTooLong,
	} {
		if _, err := Parse(in); !errors.Is(err, want) {
			t.Errorf("Parse(%q): %v; want %v", in, err, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"30d", "2w", "36h", "90m", "1h30m", "", "-1d", "99999d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err == nil && (d < Min || d > Max) {
			t.Errorf("Parse(%q) = %v, outside the range", s, d)
		}
	})
}
