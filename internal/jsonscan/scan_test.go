package jsonscan

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValidJSONNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "10", "1.5", "-1.5e10", "1E+2", "0.000", "1e-30"} {
		require.True(t, ValidNumber([]byte(s)), s)
	}
	for _, s := range []string{"", "-", "+1", "01", ".5", "5.", "1e", "1e+", "1.e5", "--1", "1x", "0x1", "1 "} {
		require.False(t, ValidNumber([]byte(s)), s)
	}
}

func TestObjectIter(t *testing.T) {
	it := NewObjectIter([]byte(` { "a" : 1 , "b\u0062":{"x":[1,"]}"]}, "c":"d\"}" ,"e":[] } `))
	var keys, values []string
	for {
		k, v, ok := it.Next()
		if !ok {
			break
		}
		keys = append(keys, string(k))
		values = append(values, string(v))
	}
	require.NoError(t, it.Err())
	require.Equal(t, []string{"a", "bb", "c", "e"}, keys)
	require.Equal(t, []string{`1`, `{"x":[1,"]}"]}`, `"d\"}"`, `[]`}, values)

	empty := NewObjectIter([]byte(`{}`))
	_, _, ok := empty.Next()
	require.False(t, ok)
	require.NoError(t, empty.Err())

	for _, bad := range []string{``, `[]`, `{`, `{"a":1`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":}`, `{"a":1}x`, `{"a":"`, `{"a":{"b":1}`, `{,}`} {
		it := NewObjectIter([]byte(bad))
		for {
			if _, _, ok := it.Next(); !ok {
				break
			}
		}
		require.Error(t, it.Err(), bad)
	}
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
		got, ok := StringContent([]byte(raw))
		require.True(t, ok, raw)
		require.Equal(t, want, string(got), raw)
	}
	for _, raw := range []string{``, `"`, `abc`, `"a\"`, `"\x"`, "\"a\x01\"", `"a"b"`, `1`, `null`} {
		_, ok := StringContent([]byte(raw))
		require.False(t, ok, raw)
	}
}

func TestScanValueDepth(t *testing.T) {
	at := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	end, err := ScanValue([]byte(at(MaxDepth)), 0)
	require.NoError(t, err)
	require.Equal(t, 2*MaxDepth, end)
	_, err = ScanValue([]byte(at(MaxDepth+1)), 0)
	require.ErrorIs(t, err, ErrTooDeep)
	// Brackets inside strings do not count; objects count like arrays.
	end, err = ScanValue([]byte(`{"a":"`+strings.Repeat("[", 1000)+`"}`), 0)
	require.NoError(t, err)
	require.Equal(t, 1008, end)
	deepObj := strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)
	_, err = ScanValue([]byte(deepObj), 0)
	require.ErrorIs(t, err, ErrTooDeep)

	// An object member or array item that makes the object or array
	// deeper than MaxDepth stops the iterator with ErrTooDeep, and the
	// iterator returns the member's key.
	it := NewObjectIter([]byte(`{"a":` + at(MaxDepth-1) + `,"b":` + at(MaxDepth) + `}`))
	_, _, ok := it.Next()
	require.True(t, ok)
	k, _, ok := it.Next()
	require.False(t, ok)
	require.Equal(t, "b", string(k))
	require.ErrorIs(t, it.Err(), ErrTooDeep)
	ai := NewArrayIter([]byte(`[` + at(MaxDepth-1) + `,` + at(MaxDepth) + `]`))
	_, ok = ai.Next()
	require.True(t, ok)
	_, ok = ai.Next()
	require.False(t, ok)
	require.ErrorIs(t, ai.Err(), ErrTooDeep)

	it = NewObjectIter([]byte(`{"a":1,"b":` + at(MaxDepth+1) + `}`))
	_, _, ok = it.Next()
	require.True(t, ok)
	_, _, ok = it.Next()
	require.False(t, ok)
	require.ErrorIs(t, it.Err(), ErrTooDeep)
	ai = NewArrayIter([]byte(`[` + at(MaxDepth+1) + `]`))
	_, ok = ai.Next()
	require.False(t, ok)
	require.ErrorIs(t, ai.Err(), ErrTooDeep)
}

func TestObjectIterDepth(t *testing.T) {
	at := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	members := func(it ObjectIter) (keys []string, err error) {
		for {
			k, _, ok := it.Next()
			if !ok {
				return keys, it.Err()
			}
			keys = append(keys, string(k))
		}
	}
	// A cap above MaxDepth reads what NewObjectIter refuses, up to the cap
	// with the object counting as a level.
	doc := []byte(`{"a":` + at(MaxDepth) + `,"b":` + at(999) + `}`)
	_, err := members(NewObjectIter(doc))
	require.ErrorIs(t, err, ErrTooDeep)
	keys, err := members(NewObjectIterDepth(doc, 1000))
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, keys)
	keys, err = members(NewObjectIterDepth(doc, 999))
	require.ErrorIs(t, err, ErrTooDeep)
	require.EqualError(t, err, "JSON nested deeper than 999 levels", "the message names the cap in force")
	require.Equal(t, []string{"a"}, keys)

	// A cap below MaxDepth, down to the object alone.
	keys, err = members(NewObjectIterDepth([]byte(`{"a":1,"b":[]}`), 1))
	require.ErrorIs(t, err, ErrTooDeep)
	require.Equal(t, []string{"a"}, keys)
	keys, err = members(NewObjectIterDepth([]byte(`{"a":1,"b":[]}`), 2))
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, keys)
	_, err = members(NewObjectIterDepth([]byte(`{}`), 0))
	require.ErrorIs(t, err, ErrTooDeep)
	_, err = members(NewObjectIterDepth([]byte(`[]`), 10))
	require.ErrorIs(t, err, ErrSyntax)

	// NewObjectIter is the cap MaxDepth, with ErrTooDeep's own text.
	_, err = members(NewObjectIterDepth([]byte(`{"a":`+at(MaxDepth)+`}`), MaxDepth))
	require.Equal(t, ErrTooDeep, err)
}

func TestObjectIterKeysExact(t *testing.T) {
	// Keys come back exactly as sent (unescaped), every repeat included,
	// so that a reader storing them keeps the last one.
	it := NewObjectIter([]byte(`{"status":false,"Status":true,"ſtatus":true,"st\u0061tus":1,"STATUS":2}`))
	var keys []string
	for {
		k, _, ok := it.Next()
		if !ok {
			break
		}
		keys = append(keys, string(k))
	}
	require.NoError(t, it.Err())
	require.Equal(t, []string{"status", "Status", "ſtatus", "status", "STATUS"}, keys)
}

func TestArrayIter(t *testing.T) {
	it := NewArrayIter([]byte(` [ 1 , "a]" ,{"b":[2]}, [] ,null] `))
	var items []string
	for {
		v, ok := it.Next()
		if !ok {
			break
		}
		items = append(items, string(v))
	}
	require.NoError(t, it.Err())
	require.Equal(t, []string{"1", `"a]"`, `{"b":[2]}`, "[]", "null"}, items)

	empty := NewArrayIter([]byte(`[]`))
	_, ok := empty.Next()
	require.False(t, ok)
	require.NoError(t, empty.Err())

	for _, bad := range []string{``, `{}`, `[`, `[1`, `[1,]`, `[1 2]`, `[1]x`, `["`, `[,]`} {
		it := NewArrayIter([]byte(bad))
		for {
			if _, ok := it.Next(); !ok {
				break
			}
		}
		require.Error(t, it.Err(), bad)
	}
}

func TestStrings(t *testing.T) {
	var got []string
	Strings([]byte(`{"k":["a", {"k2" : "b\"", "n":[1,true,null,"c"]}], "e" :"d:"}`), func(raw []byte) bool {
		got = append(got, string(raw))
		return true
	})
	require.Equal(t, []string{`"a"`, `"b\""`, `"c"`, `"d:"`}, got)

	// fn returning false stops the walk.
	got = nil
	Strings([]byte(`["a","b","c"]`), func(raw []byte) bool {
		got = append(got, string(raw))
		return len(got) < 2
	})
	require.Equal(t, []string{`"a"`, `"b"`}, got)

	// One pass, whatever the depth: no recursion to overflow.
	deep := []byte(strings.Repeat("[", 100000) + `"x"` + strings.Repeat("]", 100000))
	got = nil
	Strings(deep, func(raw []byte) bool { got = append(got, string(raw)); return true })
	require.Equal(t, []string{`"x"`}, got)
	require.Zero(t, testing.AllocsPerRun(10, func() { Strings(deep, func([]byte) bool { return true }) }))
}

func TestLongestDigitRun(t *testing.T) {
	for s, want := range map[string]int{
		``: 0, `{}`: 0, `1`: 1, `{"a":12,"b":"12345"}`: 5, `"x1234y"`: 4,
		`1.5e10`: 2, `"` + strings.Repeat("9", 5000) + `"`: 5000, `{"k1234567":1}`: 7,
		`"1_000_000"`: 7, `"12_ab_34"`: 2,
	} {
		require.Equal(t, want, LongestDigitRun([]byte(s)), s)
	}
}

func TestParseNumberLoose(t *testing.T) {
	for _, s := range []string{"0", "+1", "-1", ".5", "5.", "01", "1e5", "1E-5", "-.5e+3"} {
		_, ok := ParseNumber([]byte(s), false)
		require.True(t, ok, s)
	}
	for _, s := range []string{"", "+", ".", "e5", "1e", "1.2.3", "1,5", " 1", "1 ", "NaN", "Inf", "0x10", "1_000", "١", "-", "+-1"} {
		_, ok := ParseNumber([]byte(s), false)
		require.False(t, ok, s)
	}
	n, ok := ParseNumber([]byte("-12.340e-7"), true)
	require.True(t, ok)
	require.Equal(t, Number{Neg: true, Int: []byte("12"), Frac: []byte("340"), ExpNeg: true, Exp: []byte("7")}, n)
	require.Equal(t, 6, n.Digits())
}

func TestNumberSameValue(t *testing.T) {
	same := func(a, b string) bool {
		x, okA := ParseNumber([]byte(a), false)
		y, okB := ParseNumber([]byte(b), false)
		require.True(t, okA && okB, a+" "+b)
		return x.SameValue(y)
	}
	for _, p := range [][2]string{{"1.10", "1.1"}, {"1E2", "100.0"}, {"0.0001", "1e-04"}, {"12345678901234567", "1.2345678901234567e+16"},
		{"0", "0.0"}, {"-0", "-0.0"}, {"000.5", ".5"}, {"5.", "5"}, {"1e400", "10e399"}} {
		require.True(t, same(p[0], p[1]), p)
	}
	for _, p := range [][2]string{{"12345678901234567.5", "1.2345678901234568e+16"}, {"1", "-1"}, {"0", "-0.0"}, {"0", "1e-400"},
		{"1.5", "1.50001"}, {"10", "1"}, {"2", "3"}} {
		require.False(t, same(p[0], p[1]), p)
	}
}
