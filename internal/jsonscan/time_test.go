package jsonscan

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseTime(t *testing.T) {
	utc := func(ns int) time.Time { return time.Date(2025, 3, 8, 7, 31, 24, ns, time.UTC) }
	for in, want := range map[string]time.Time{
		"2025-03-08T07:31:24.123456789Z":  utc(123456789),
		"2025-03-08T07:31:24.1234567891Z": utc(123456789), // digits beyond nanoseconds dropped
		"2025-03-08T07:31:24.770179Z":     utc(770179000),
		"2025-03-08T07:31:24.000Z":        utc(0),
		"2025-03-08T07:31:24Z":            utc(0),
		"2025-03-08t07:31:24z":            utc(0),
		"2025-03-08 07:31:24Z":            utc(0),
		"2025-03-08T07:31:24":             utc(0), // no zone: UTC
		"2025-03-08T13:01:24.5+05:30":     utc(500000000),
		"2025-03-08T07:31:24.123456789":   utc(123456789),
	} {
		got, ok := ParseTime(in)
		require.True(t, ok, in)
		require.True(t, want.Equal(got), "%s: got %v, want %v", in, got, want)
	}
	for _, in := range []string{"", "2025-03-08", "2025-03-08T07:31", "yesterday", "2025-13-08T07:31:24Z", "1741419084"} {
		_, ok := ParseTime(in)
		require.False(t, ok, in)
	}
}
