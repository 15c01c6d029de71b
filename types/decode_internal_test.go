package types

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValidJSONNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "10", "1.5", "-1.5e10", "1E+2", "0.000", "1e-30"} {
		require.True(t, validJSONNumber([]byte(s)), s)
	}
	for _, s := range []string{"", "-", "+1", "01", ".5", "5.", "1e", "1e+", "1.e5", "--1", "1x", "0x1", "1 "} {
		require.False(t, validJSONNumber([]byte(s)), s)
	}
}

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

func TestObjectIter(t *testing.T) {
	it := newObjectIter([]byte(` { "a" : 1 , "b\u0062":{"x":[1,"]}"]}, "c":"d\"}" ,"e":[] } `))
	var keys, values []string
	for {
		k, v, ok := it.next()
		if !ok {
			break
		}
		keys = append(keys, string(k))
		values = append(values, string(v))
	}
	require.NoError(t, it.err)
	require.Equal(t, []string{"a", "bb", "c", "e"}, keys)
	require.Equal(t, []string{`1`, `{"x":[1,"]}"]}`, `"d\"}"`, `[]`}, values)

	empty := newObjectIter([]byte(`{}`))
	_, _, ok := empty.next()
	require.False(t, ok)
	require.NoError(t, empty.err)

	for _, bad := range []string{``, `[]`, `{`, `{"a":1`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":}`, `{"a":1}x`, `{"a":"`, `{"a":{"b":1}`, `{,}`} {
		it := newObjectIter([]byte(bad))
		for {
			if _, _, ok := it.next(); !ok {
				break
			}
		}
		require.Error(t, it.err, bad)
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

func TestStringContent(t *testing.T) {
	for raw, want := range map[string]string{
		`""`:              "",
		`"abc"`:           "abc",
		`"a\"b"`:          `a"b`,
		`"\u00e9\n"`:      "é\n",
		"\"caf\xc3\xa9\"": "café",
		"\"bad\xffutf8\"": "bad\ufffdutf8",
		`"\ud83d\ude00"`:  "😀",
		`"a\/b"`:          "a/b",
	} {
		got, ok := stringContent([]byte(raw))
		require.True(t, ok, raw)
		require.Equal(t, want, string(got), raw)
	}
	for _, raw := range []string{``, `"`, `abc`, `"a\"`, `"\x"`, "\"a\x01\"", `"a"b"`, `1`, `null`} {
		_, ok := stringContent([]byte(raw))
		require.False(t, ok, raw)
	}
}
