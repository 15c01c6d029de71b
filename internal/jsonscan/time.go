package jsonscan

import "time"

// noZoneLayout is RFC 3339 without the zone: such a timestamp is taken as UTC.
const noZoneLayout = "2006-01-02T15:04:05.999999999"

// ParseTime parses the text of a timestamp the way every reader of the
// module does: an RFC 3339 date-time with optional fractional seconds (any
// number of digits; digits beyond nanoseconds are dropped), zone `Z` or a
// numeric offset, or no zone at all, which is taken as UTC. A lower-case
// `t` or a space as the date/time separator and a lower-case `z` are
// accepted, as RFC 3339 allows.
func ParseTime(s string) (time.Time, bool) {
	if len(s) > 10 && (s[10] == 't' || s[10] == ' ' || s[len(s)-1] == 'z') {
		b := []byte(s)
		if b[10] == 't' || b[10] == ' ' {
			b[10] = 'T'
		}
		if b[len(b)-1] == 'z' {
			b[len(b)-1] = 'Z'
		}
		s = string(b)
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	if t, err := time.Parse(noZoneLayout, s); err == nil {
		return t, true
	}
	return time.Time{}, false
}
