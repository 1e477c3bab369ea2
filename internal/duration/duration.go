// Package duration reads the durations wake takes on its command line,
// in its MCP tools and in wake.toml: one grammar everywhere.
package duration

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The range every duration falls in.
const (
	Min = time.Minute
	Max = 10 * 365 * 24 * time.Hour
)

// Rule says what Parse takes, for messages.
const Rule = "a duration is a number of weeks (2w), days (30d), hours (36h) or minutes (90m), from 1m to ten years"

// Errors of Parse, for callers that word their own message.
var (
	ErrSyntax   = errors.New("not a duration")
	ErrTooShort = errors.New("shorter than a minute")
	ErrTooLong  = errors.New("longer than ten years")
)

// Parse reads a duration such as "2w", "30d", "36h" or "90m": a whole
// number of weeks (w) or days (d), or a Go duration ("1h30m"). It is at
// least a minute and at most ten years. Its errors wrap ErrSyntax,
// ErrTooShort or ErrTooLong and quote s with the Rule.
func Parse(s string) (time.Duration, error) {
	d, err := parse(strings.TrimSpace(s))
	if err == nil && d < Min {
		err = ErrTooShort
	}
	if err == nil && d > Max {
		err = ErrTooLong
	}
	if err != nil {
		return 0, fmt.Errorf("%q: %w; %s", s, err, Rule)
	}
	return d, nil
}

func parse(t string) (time.Duration, error) {
	unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}
	n := len(t)
	if n < 2 || unit[t[n-1]] == 0 {
		d, err := time.ParseDuration(t)
		if err != nil {
			return 0, ErrSyntax
		}
		return d, nil
	}
	k, err := strconv.Atoi(t[:n-1])
	switch {
	case err != nil || k < 0 || strings.HasPrefix(t, "+"):
		return 0, ErrSyntax
	case time.Duration(k) > Max/unit[t[n-1]]:
		return 0, ErrTooLong
	}
	return time.Duration(k) * unit[t[n-1]], nil
}
