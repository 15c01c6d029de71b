package types

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValidDecimalText(t *testing.T) {
	for _, s := range []string{"0", "+1", "-1", ".5", "5.", "01", "1e5", "1E-5", "-.5e+3"} {
		require.True(t, validDecimalText([]byte(s)), s)
	}
	for _, s := range []string{"", "+", ".", "e5", "1e", "1.2.3", "1,5", " 1", "1 ", "NaN", "Inf", "0x10", "1_000", "١"} {
		require.False(t, validDecimalText([]byte(s)), s)
	}
}

func TestBrandKind(t *testing.T) {
	for key, want := range map[string]byte{
		"acme_fee": 'f', "acme_gst": 'g', "a1_fee": 'f', "9_gst": 'g',
		"_fee": 0, "fee": 0, "acme_fees": 0, "acme_tax": 0, "a_b_fee": 0, "Acme_fee": 0, "acme_Fee": 0,
		"client_fee": 0, "clientx_gst": 0, "pg_fee": 0, "pgx_fee": 0, "acme.x_fee": 0,
	} {
		require.Equal(t, want, brandKind([]byte(key)), key)
	}
}

func TestParseTimestampKeepsPrecision(t *testing.T) {
	ts, ok := parseTimestamp("2025-03-08T07:31:24.123456789Z")
	require.True(t, ok)
	require.Equal(t, 123456789, ts.Nanosecond())
	_, ok = parseTimestamp("")
	require.False(t, ok)
	_, ok = parseTimestamp("2025-03-08")
	require.False(t, ok)
}
