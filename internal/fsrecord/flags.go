package fsrecord

import "strconv"

// WithChangeTime is a state file's flags field with a change time ns
// after "@", when ns is not 0. A change time rides in the flags field, of
// letters each reader looks for, so that a wake that knows nothing of it
// still reads the line (and one that does reads an older line: no "@").
func WithChangeTime(flags string, ns int64) string {
	if ns == 0 {
		return flags
	}
	return flags + "@" + strconv.FormatInt(ns, 10)
}

// SplitChangeTime splits a flags field [WithChangeTime] wrote: the
// flags, and the change time (0 when none); false when what follows "@"
// is not a positive decimal number.
func SplitChangeTime(field string) (string, int64, bool) {
	for i := 0; i < len(field); i++ {
		if field[i] != '@' {
			continue
		}
		digits := field[i+1:]
		if digits == "" || digits[0] == '0' || len(digits) > 19 {
			return "", 0, false
		}
		for j := 0; j < len(digits); j++ {
			if digits[j] < '0' || digits[j] > '9' {
				return "", 0, false
			}
		}
		ns, err := strconv.ParseInt(digits, 10, 64)
		return field[:i], ns, err == nil
	}
	return field, 0, true
}
