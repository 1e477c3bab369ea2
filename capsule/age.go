package capsule

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseAge reads an age such as "30d", "2w", "36h" or "90m": a whole
// number of days (d) or weeks (w), or a Go duration. It is at least a
// minute and at most ten years.
func ParseAge(s string) (time.Duration, error) {
	const rule = "an age is a number of days (30d), weeks (2w), hours (36h) or minutes (90m), from 1m to ten years"
	t := strings.TrimSpace(s)
	var d time.Duration
	unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}
	if n := len(t); n > 1 && unit[t[n-1]] != 0 {
		k, err := strconv.Atoi(t[:n-1])
		if err != nil || k < 0 || k > 10*366 {
			return 0, fmt.Errorf("%q: %s", s, rule)
		}
		d = time.Duration(k) * unit[t[n-1]]
	} else {
		var err error
		if d, err = time.ParseDuration(t); err != nil {
			return 0, fmt.Errorf("%q: %s", s, rule)
		}
	}
	if d < time.Minute || d > 10*365*24*time.Hour {
		return 0, fmt.Errorf("%q: %s", s, rule)
	}
	return d, nil
}
