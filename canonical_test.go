package fiatramp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// canonCase is one input of CanonicalizeJSON and its expected output (want)
// or, when fails, the fact that it must be refused. Every case was checked
// against python3 when written, and TestCanonicalizeJSONMatchesPython checks
// them again on every run where python3 is present.
type canonCase struct {
	name  string
	in    string
	want  string
	fails bool
}

var canonCases = []canonCase{
	// structure, order and whitespace
	{name: "empty object", in: `{}`, want: `{}`},
	{name: "empty array with spaces", in: " [ ] ", want: `[]`},
	{name: "keys sorted", in: `{"b":1,"a":2}`, want: `{"a":2,"b":1}`},
	{name: "nested sorted", in: `{"z":{"y":1,"x":[3,{"d":0,"c":1}]},"a":null}`, want: `{"a":null,"z":{"x":[3,{"c":1,"d":0}],"y":1}}`},
	{name: "all whitespace kinds", in: " \t\n\r{ \"a\" : [ 1 , 2 ] ,\"b\"\t:\n{ } } \r\n", want: `{"a":[1,2],"b":{}}`},
	{name: "duplicate keeps last", in: `{"a":1,"b":2,"a":3}`, want: `{"a":3,"b":2}`},
	{name: "triplicate keeps last", in: `{"a":1,"a":[2],"a":{"x":3}}`, want: `{"a":{"x":3}}`},
	{name: "duplicate through escape", in: `{"a":1,"\u0061":2}`, want: `{"a":2}`},
	{name: "duplicate in nested object", in: `[{"k":1,"k":2},{"k":3}]`, want: `[{"k":2},{"k":3}]`},
	{name: "sort decoded keys not escaped text", in: `{"#":1,"\"":2,"!":3}`, want: `{"!":3,"\"":2,"#":1}`},
	{name: "sort escaped key", in: `{"\u0062":1,"a":2}`, want: `{"a":2,"b":1}`},
	{name: "non-ASCII sorts after ASCII", in: `{"\u00e9":1,"z":2}`, want: `{"z":2,"\u00e9":1}`},
	{name: "code point order not UTF-16 order", in: `{"\ud83d\ude00":1,"\uffff":2,"\ue000":3}`, want: `{"\ue000":3,"\uffff":2,"\ud83d\ude00":1}`},
	{name: "lone surrogate key order", in: `{"\ud800":1,"\ue000":2,"\u00ff":3}`, want: `{"\u00ff":3,"\ud800":1,"\ue000":2}`},
	{name: "lone high surrogate before pair", in: `{"\ud83d\ude00":1,"\ud83d":2}`, want: `{"\ud83d":2,"\ud83d\ude00":1}`},
	{name: "prefix key first", in: `{"ab":1,"a":2,"a\u0000":3}`, want: `{"a":2,"a\u0000":3,"ab":1}`},
	{name: "scalar top level string", in: `"x"`, want: `"x"`},
	{name: "scalar top level literals", in: `[true,false,null]`, want: `[true,false,null]`},
	{name: "scalar top level number with spaces", in: " 7 ", want: `7`},

	// strings
	{name: "short escapes", in: `"\"\\\/\b\f\n\r\t"`, want: `"\"\\/\b\f\n\r\t"`},
	{name: "control chars and DEL", in: `"\u0000\u001f\u0020\u007f\u0080"`, want: `"\u0000\u001f \u007f\u0080"`},
	{name: "escaped short forms", in: `"\u0008\u000c\u000a\u000d\u0009\u0022\u005c\u002f"`, want: `"\b\f\n\r\t\"\\/"`},
	{name: "uppercase hex lowered", in: `"\u00E9\uABCD"`, want: `"\u00e9\uabcd"`},
	{name: "raw non-ASCII escaped", in: "\"é€😀\"", want: `"\u00e9\u20ac\ud83d\ude00"`},
	{name: "raw DEL escaped", in: "\"a\x7fb\"", want: `"a\u007fb"`},
	{name: "html chars not escaped", in: `"</>&\u003c\u003e\u0026"`, want: `"</>&<>&"`},
	{name: "line separators stay escaped", in: "\"\u2028\\u2029\"", want: `"\u2028\u2029"`},
	{name: "escaped pair lowered", in: `"\uD83D\uDE00"`, want: `"\ud83d\ude00"`},
	{name: "lone high then pair", in: `"\ud800\ud800\udc00"`, want: `"\ud800\ud800\udc00"`},
	{name: "reversed pair stays two", in: `"\uDC00\uD800"`, want: `"\udc00\ud800"`},
	{name: "high surrogate then other escape", in: `"\ud800\u0041\ud800\n"`, want: `"\ud800A\ud800\n"`},
	// Python accepts surrogates encoded in the raw bytes (surrogatepass) and
	// prints {"\ud83d\ude00":1,"\ud83d\ude00":2} for the second one, which is
	// not canonical in its turn; they are refused on purpose.
	{name: "raw encoded surrogate", in: "\"\xed\xa0\x80\"", fails: true},
	{name: "raw CESU pair", in: "{\"\xed\xa0\xbd\xed\xb8\x80\":1,\"\\ud83d\\ude00\":2}", fails: true},
	{name: "escaped high then raw low surrogate", in: "\"\\ud83d\xed\xb8\x80\"", fails: true},
	{name: "BOM stripped", in: "\xef\xbb\xbf[1]", want: `[1]`},
	{name: "BOM inside string", in: "\"\xef\xbb\xbf\"", want: `"\ufeff"`},

	// integers
	{name: "big integer kept", in: `[12345678901234567890123456789,-98765432109876543210]`, want: `[12345678901234567890123456789,-98765432109876543210]`},
	{name: "minus zero integer", in: `[-0,0,-1]`, want: `[0,0,-1]`},

	// floats: Python repr
	{name: "float keeps .0", in: `1.0`, want: `1.0`},
	{name: "trailing zero dropped", in: `1.10`, want: `1.1`},
	{name: "exponent to whole", in: `1E2`, want: `100.0`},
	{name: "exponent with plus", in: `1E+2`, want: `100.0`},
	{name: "exponent zero", in: `1e-0`, want: `1.0`},
	{name: "fraction by exponent", in: `123e-2`, want: `1.23`},
	{name: "1e16 exponent form", in: `1e16`, want: `1e+16`},
	{name: "1e15 positional", in: `1e15`, want: `1000000000000000.0`},
	{name: "16 digits positional", in: `9999999999999998.0`, want: `9999999999999998.0`},
	{name: "rounds to 1e17", in: `99999999999999999.0`, want: `1e+17`},
	{name: "1.5e16", in: `1.5e16`, want: `1.5e+16`},
	{name: "1e22", in: `1e22`, want: `1e+22`},
	{name: "1e100", in: `1e100`, want: `1e+100`},
	{name: "0.0001 positional", in: `0.0001`, want: `0.0001`},
	{name: "0.00001 exponent", in: `0.00001`, want: `1e-05`},
	{name: "1e-7", in: `1e-7`, want: `1e-07`},
	{name: "0.1", in: `0.1`, want: `0.1`},
	{name: "0.30000000000000004", in: `0.30000000000000004`, want: `0.30000000000000004`},
	{name: "rounded to float64", in: `12345678901234567.5`, want: `1.2345678901234568e+16`},
	{name: "excess digits", in: `0.30000000000000000001`, want: `0.3`},
	{name: "18 digits", in: `123456789012345678.0`, want: `1.2345678901234568e+17`},
	{name: "ties to even", in: `9007199254740993.0`, want: `9007199254740992.0`},
	{name: "negative zero kept", in: `-0.0`, want: `-0.0`},
	{name: "zero with exponent", in: `[0e0,-0e5,0.000e-999]`, want: `[0.0,-0.0,0.0]`},
	{name: "overflow", in: `[1e400,-1e400,1.8e308]`, want: `[Infinity,-Infinity,Infinity]`},
	{name: "underflow", in: `[1e-400,-1e-400,2.4703282292062327e-324]`, want: `[0.0,-0.0,0.0]`},
	{name: "smallest subnormal", in: `[5e-324,2.4703282292062328e-324]`, want: `[5e-324,5e-324]`},
	{name: "largest float", in: `1.7976931348623157e308`, want: `1.7976931348623157e+308`},
	{name: "non-finite literals", in: `[NaN,Infinity,-Infinity]`, want: `[NaN,Infinity,-Infinity]`},
	{name: "non-finite as values", in: `{"b":NaN,"a":-Infinity}`, want: `{"a":-Infinity,"b":NaN}`},

	// refused
	{name: "empty", in: ``, fails: true},
	{name: "only whitespace", in: " \t\n", fails: true},
	{name: "only BOM", in: "\xef\xbb\xbf", fails: true},
	{name: "two BOMs", in: "\xef\xbb\xbf\xef\xbb\xbf1", fails: true},
	{name: "array trailing comma", in: `[1,]`, fails: true},
	{name: "array leading comma", in: `[,1]`, fails: true},
	{name: "object trailing comma", in: `{"a":1,}`, fails: true},
	{name: "object only comma", in: `{,}`, fails: true},
	{name: "single quotes", in: `{'a':1}`, fails: true},
	{name: "bare key", in: `{a:1}`, fails: true},
	{name: "missing colon", in: `{"a" 1}`, fails: true},
	{name: "non-string key", in: `{1:1}`, fails: true},
	{name: "missing comma", in: `[1 2]`, fails: true},
	{name: "unclosed array", in: `[1`, fails: true},
	{name: "unclosed object", in: `{"a":1`, fails: true},
	{name: "stray close", in: `]`, fails: true},
	{name: "extra data", in: `[1] [2]`, fails: true},
	{name: "extra garbage", in: `[1]x`, fails: true},
	{name: "trailing NUL", in: "[1]\x00", fails: true},
	{name: "leading zero", in: `01`, fails: true},
	{name: "negative leading zero", in: `-01`, fails: true},
	{name: "leading zero in array", in: `[00]`, fails: true},
	{name: "dot without digits", in: `1.`, fails: true},
	{name: "leading dot", in: `.5`, fails: true},
	{name: "dot then exponent", in: `1.e5`, fails: true},
	{name: "exponent without digits", in: `1e`, fails: true},
	{name: "exponent sign without digits", in: `[1e+]`, fails: true},
	{name: "plus sign", in: `+1`, fails: true},
	{name: "lone minus", in: `-`, fails: true},
	{name: "double minus", in: `--1`, fails: true},
	{name: "hex number", in: `0x10`, fails: true},
	{name: "underscore number", in: `1_0`, fails: true},
	{name: "lower nan", in: `nan`, fails: true},
	{name: "inf", in: `inf`, fails: true},
	{name: "minus NaN", in: `-NaN`, fails: true},
	{name: "truncated Infinity", in: `Infinit`, fails: true},
	{name: "truncated minus Infinity", in: `[-Inf]`, fails: true},
	{name: "literal with suffix", in: `truex`, fails: true},
	{name: "truncated literal", in: `nul`, fails: true},
	{name: "capitalised literal", in: `True`, fails: true},
	{name: "unterminated string", in: `"abc`, fails: true},
	{name: "unterminated after backslash", in: `"abc\`, fails: true},
	{name: "unknown escape", in: `"\x41"`, fails: true},
	{name: "short unicode escape", in: `"\u12"`, fails: true},
	{name: "bad hex", in: `"\u12G4"`, fails: true},
	{name: "bad second escape of pair", in: `"\ud800\u12"`, fails: true},
	{name: "raw tab in string", in: "\"a\tb\"", fails: true},
	{name: "raw newline in string", in: "\"a\nb\"", fails: true},
	{name: "raw NUL in string", in: "\"\x00\"", fails: true},
	{name: "raw 0x1f in string", in: "\"\x1f\"", fails: true},
	{name: "invalid UTF-8 byte", in: "\"\xff\"", fails: true},
	{name: "truncated UTF-8", in: "\"\xc3\"", fails: true},
	{name: "overlong UTF-8", in: "\"\xc0\x80\"", fails: true},
	{name: "above U+10FFFF", in: "\"\xf4\x90\x80\x80\"", fails: true},
	{name: "truncated encoded surrogate", in: "\"\xed\xa0\"", fails: true},
	{name: "form feed is not whitespace", in: "[\f1]", fails: true},
	{name: "NBSP is not whitespace", in: "\u00a01", fails: true},
	{name: "comment", in: `[1]//`, fails: true},
}

func TestCanonicalizeJSONTable(t *testing.T) {
	for _, tc := range canonCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CanonicalizeJSON([]byte(tc.in))
			if tc.fails {
				require.Error(t, err, "got %q", got)
				require.Nil(t, got)
				require.True(t, strings.HasPrefix(err.Error(), "fiatramp: canonical json: "), err.Error())
				require.Contains(t, err.Error(), " at offset ")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, string(got))
			again, err := CanonicalizeJSON(got)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(again), "canonical form must be a fixed point")
		})
	}
}

func TestCanonicalizeJSONIntegerDigitLimit(t *testing.T) {
	digits := strings.Repeat("7", 4300) // CPython 3.11: int_max_str_digits
	for _, in := range []string{digits, "-" + digits, "[" + digits + "]"} {
		got, err := CanonicalizeJSON([]byte(in))
		require.NoError(t, err)
		require.Equal(t, in, string(got))
	}
	for _, in := range []string{digits + "7", "-" + digits + "7", `{"a":` + digits + "7}"} {
		_, err := CanonicalizeJSON([]byte(in))
		require.ErrorContains(t, err, "4301 digits")
	}
	// The limit is on integers only: a long float literal is fine.
	got, err := CanonicalizeJSON([]byte(digits + "7.0"))
	require.NoError(t, err)
	require.Equal(t, "Infinity", string(got))
	got, err = CanonicalizeJSON([]byte("0." + digits + "7e4301"))
	require.NoError(t, err)
	require.Equal(t, "Infinity", string(got))
	got, err = CanonicalizeJSON([]byte("0." + digits + "7e3"))
	require.NoError(t, err)
	require.Equal(t, "777.7777777777778", string(got))
}

func TestCanonicalizeJSONNestingDepth(t *testing.T) {
	arrays := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	}
	objects := func(n int) []byte {
		return []byte(strings.Repeat(`{"a":`, n) + "0" + strings.Repeat("}", n))
	}
	got, err := CanonicalizeJSON(arrays(maxNestingDepth))
	require.NoError(t, err)
	require.Equal(t, string(arrays(maxNestingDepth)), string(got))
	got, err = CanonicalizeJSON(objects(maxNestingDepth))
	require.NoError(t, err)
	require.Equal(t, string(objects(maxNestingDepth)), string(got))

	_, err = CanonicalizeJSON(arrays(maxNestingDepth + 1))
	require.ErrorContains(t, err, "nesting deeper than 10000 levels")
	_, err = CanonicalizeJSON(objects(maxNestingDepth + 1))
	require.ErrorContains(t, err, "nesting deeper than 10000 levels")
	// Hostile input: a million open brackets, no stack exhaustion.
	_, err = CanonicalizeJSON([]byte(strings.Repeat("[", 1_000_000)))
	require.ErrorContains(t, err, "nesting deeper")
}

func TestCanonicalize(t *testing.T) {
	type risk struct {
		IP  string `json:"ip_address"`
		SAR bool   `json:"suspicious_activity_report"`
	}
	type body struct {
		Name  string         `json:"name"`
		Risk  risk           `json:"risk_parameters"`
		Extra map[string]any `json:"extra"`
		Ratio float64        `json:"ratio"`
		Big   float64        `json:"big"`
	}
	got, err := Canonicalize(body{
		Name:  "<Zoë & \u2028 co>",
		Risk:  risk{IP: "203.0.113.7"},
		Extra: map[string]any{"z": 1, "y": []int{2, 1}, "é": nil},
		Ratio: 0.1,
		Big:   1e21,
	})
	require.NoError(t, err)
	require.Equal(t, `{"big":1e+21,"extra":{"y":[2,1],"z":1,"\u00e9":null},"name":"<Zo\u00eb & \u2028 co>","ratio":0.1,"risk_parameters":{"ip_address":"203.0.113.7","suspicious_activity_report":false}}`, string(got))

	got, err = Canonicalize(nil)
	require.NoError(t, err)
	require.Equal(t, "null", string(got))

	_, err = Canonicalize(make(chan int))
	require.ErrorContains(t, err, "fiatramp: canonical json: ")
	_, err = Canonicalize(math.Inf(1))
	require.Error(t, err)
}

func TestCanonicalizeExact(t *testing.T) {
	accepted := []struct{ in, want string }{
		{`1.10`, `1.1`},
		{`1E2`, `100.0`},
		{`1e-5`, `1e-05`},
		{`0.1`, `0.1`},
		{`-0.0`, `-0.0`},
		{`0e999999999999999999999`, `0.0`},
		{`123.456`, `123.456`},
		{`100000000000000000000.0`, `1e+20`},
		{`0.30000000000000004`, `0.30000000000000004`},
		{`1.7976931348623157e308`, `1.7976931348623157e+308`},
		{`5e-324`, `5e-324`},
		{`0.000000000000000000000000000000000000000000000000000001e54`, `1.0`},
		{`12345678901234567890123456789`, `12345678901234567890123456789`},
		{`{"b":[1.5,{"a":2.25}],"a":"0.30000000000000000001"}`, `{"a":"0.30000000000000000001","b":[1.5,{"a":2.25}]}`},
	}
	for _, tc := range accepted {
		got, err := canonicalizeExact([]byte(tc.in))
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, string(got), tc.in)
	}
	refused := []struct{ in, lit string }{
		{`12345678901234567.5`, `12345678901234567.5`},
		{`{"amount":0.30000000000000000001}`, `0.30000000000000000001`},
		{`9007199254740993.0`, `9007199254740993.0`},
		{`0.1000000000000000055511151231257827`, `0.1000000000000000055511151231257827`},
		{`[1,1e400]`, `1e400`},
		{`-1e400`, `-1e400`},
		{`1e-400`, `1e-400`},
		{`2.4703282292062328e-324`, `2.4703282292062328e-324`},
		{`NaN`, `NaN`},
		{`Infinity`, `Infinity`},
		{`[1,-Infinity]`, `-Infinity`},
	}
	for _, tc := range refused {
		got, err := canonicalizeExact([]byte(tc.in))
		require.Error(t, err, tc.in)
		require.Nil(t, got)
		require.Contains(t, err.Error(), tc.lit)
		require.Contains(t, err.Error(), "send the amount as a string")
		// The lenient form accepts all of them.
		_, err = CanonicalizeJSON([]byte(tc.in))
		require.NoError(t, err, tc.in)
	}
	_, err := canonicalizeExact([]byte(`[1,`))
	require.Error(t, err)

	long := "0.1" + strings.Repeat("0", 100) + "1"
	_, err = canonicalizeExact([]byte(long))
	require.EqualError(t, err, "fiatramp: canonical json: number 0.1000000000000000000000000000...00000000000000000001 (104 characters) "+
		"would change its value through a float64 (the service would read 0.1); send the amount as a string at offset 0")
}

// docGen writes random JSON documents that stress the corners of Python's
// json module.
type docGen struct {
	r *rand.Rand
	b []byte
	// surrogates allows surrogates encoded in the raw bytes, which Python
	// accepts and CanonicalizeJSON refuses.
	surrogates bool
}

func (g *docGen) ws() {
	if g.r.IntN(5) == 0 {
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			g.b = append(g.b, " \t\n\r"[g.r.IntN(4)])
		}
	}
}

var trickyKeys = []string{
	`a`, `\u0061`, `b`, `A`, ``, `aa`, `a\u0000`, `a\u0000b`, `ab`, `é`, `\u00e9`, `\u00E9`,
	`😀`, `\ud83d\ude00`, `\ud83d`, `\ude00`, `\ud800`, `\udbff\udfff`, "\U0010ffff", `\uffff`, "\uffff",
	`\ue000`, "\ue000", `\"`, `#`, `!`, `\\`, `\/`, `/`, `key`, `Key`, `\u007f`, "\x7f",
	`\n`, `\u000a`, `~`, `\u0080`,
}

func (g *docGen) str(key bool) {
	g.b = append(g.b, '"')
	if key && g.r.IntN(3) > 0 {
		g.b = append(g.b, trickyKeys[g.r.IntN(len(trickyKeys))]...)
		g.b = append(g.b, '"')
		return
	}
	for n := g.r.IntN(8); n > 0; n-- {
		switch g.r.IntN(12) {
		case 0, 1:
			for m := 1 + g.r.IntN(6); m > 0; m-- {
				c := byte(0x20 + g.r.IntN(0x5f))
				if c == '"' || c == '\\' {
					c = 'q'
				}
				g.b = append(g.b, c)
			}
		case 2:
			g.b = append(g.b, []string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`}[g.r.IntN(8)]...)
		case 3: // escaped BMP char, random case
			g.b = fmt.Appendf(g.b, []string{`\u%04x`, `\u%04X`}[g.r.IntN(2)], g.r.IntN(0x10000))
		case 4: // escaped control char, DEL, or ASCII
			g.b = fmt.Appendf(g.b, `\u%04x`, []int{g.r.IntN(0x20), 0x7f, 0x20 + g.r.IntN(0x60)}[g.r.IntN(3)])
		case 5: // escaped surrogate pair
			c := 0x10000 + g.r.IntN(0x100000)
			g.b = fmt.Appendf(g.b, `\u%04x\u%04X`, 0xd800+(c-0x10000)>>10, 0xdc00+(c-0x10000)&0x3ff)
		case 6: // lone or misordered escaped surrogates
			g.b = fmt.Appendf(g.b, `\u%04x`, 0xd800+g.r.IntN(0x800))
		case 7: // raw BMP
			c := 0x80 + g.r.IntN(0xffff-0x80)
			if c >= 0xd800 && c <= 0xdfff {
				c = 0xfeff
			}
			g.b = append(g.b, string(rune(c))...)
		case 8: // raw astral
			g.b = append(g.b, string(rune(0x10000+g.r.IntN(0x100000)))...)
		case 9: // raw DEL and friends
			g.b = append(g.b, []string{"\x7f", "\u2028", "\u00a0", "\ufeff", "<>&"}[g.r.IntN(5)]...)
		case 10: // raw encoded surrogate (Python decodes with surrogatepass)
			if !g.surrogates {
				g.b = append(g.b, "\U0001f600"...)
				continue
			}
			c := 0xd800 + g.r.IntN(0x800)
			g.b = append(g.b, 0xed, 0x80|byte(c>>6)&0x3f, 0x80|byte(c)&0x3f)
		case 11:
			g.b = append(g.b, "é€😀"...)
		}
	}
	g.b = append(g.b, '"')
}

func (g *docGen) digits(n int, leadingZeroOK bool) {
	for i := 0; i < n; i++ {
		d := byte('0' + g.r.IntN(10))
		if i == 0 && !leadingZeroOK && d == '0' {
			d = '1'
		}
		g.b = append(g.b, d)
	}
}

func (g *docGen) number() {
	r := g.r
	switch r.IntN(11) {
	case 0: // small or signed-zero integer
		g.b = append(g.b, []string{"0", "-0", "1", "-1", "42", "-7"}[r.IntN(6)]...)
	case 1: // big integer
		if r.IntN(2) == 0 {
			g.b = append(g.b, '-')
		}
		g.digits(1+r.IntN(60), false)
	case 2, 3: // random float64 bit pattern, formatted in several ways
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 1.5
		}
		var s string
		switch r.IntN(5) {
		case 0:
			s = strconv.FormatFloat(f, 'g', -1, 64)
		case 1:
			s = strconv.FormatFloat(f, 'e', -1, 64)
		case 2:
			s = strconv.FormatFloat(f, 'e', r.IntN(25), 64) // not the shortest: rounding
		case 3:
			s = strings.ToUpper(strconv.FormatFloat(f, 'E', r.IntN(20), 64))
		case 4:
			s = strconv.FormatFloat(f, 'f', -1, 64)
		}
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		g.b = append(g.b, s...)
	case 4, 5: // random decimal literal
		if r.IntN(2) == 0 {
			g.b = append(g.b, '-')
		}
		if r.IntN(3) == 0 {
			g.b = append(g.b, '0')
		} else {
			g.digits(1+r.IntN(25), false)
		}
		hasFrac := r.IntN(3) > 0
		if hasFrac {
			g.b = append(g.b, '.')
			g.digits(1+r.IntN(25), true)
		}
		if !hasFrac || r.IntN(2) == 0 {
			g.b = append(g.b, "eE"[r.IntN(2)])
			if s := r.IntN(3); s < 2 {
				g.b = append(g.b, "+-"[s])
			}
			if r.IntN(4) == 0 {
				g.b = append(g.b, '0')
			}
			g.b = strconv.AppendInt(g.b, int64(r.IntN(420)), 10)
		}
	case 6: // powers of ten around the repr thresholds and the limits
		e := []int{-5, -4, -3, 15, 16, 17, 22, 23, 308, 309, -307, -308, -323, -324, -325}[r.IntN(15)]
		g.b = fmt.Appendf(g.b, "%d%se%d", 1+r.IntN(9), []string{"", ".0", ".5", ".25"}[r.IntN(4)], e)
	case 7: // subnormals and boundaries
		f := math.Float64frombits(r.Uint64() & (1<<52 - 1))
		g.b = strconv.AppendFloat(g.b, f, 'e', -1, 64)
	case 8: // whole numbers near 2^53 and 1e16 as floats
		n := int64(1)<<53 + int64(r.IntN(2000)) - 1000
		if r.IntN(2) == 0 {
			n = 1e16 + int64(r.IntN(2000)) - 1000
		}
		g.b = fmt.Appendf(g.b, "%d.%d", n, r.IntN(10))
	case 9:
		g.b = append(g.b, []string{"NaN", "Infinity", "-Infinity", "1e400", "-1e-400", "-0.0"}[r.IntN(6)]...)
	case 10: // exactly halfway between two float64s, or just above or below
		f := math.Abs(math.Float64frombits(r.Uint64()))
		next := math.Nextafter(f, math.Inf(1))
		if math.IsNaN(f) || math.IsInf(next, 0) {
			f, next = 1, math.Nextafter(1, 2)
		}
		mid := new(big.Float).SetPrec(64).Add(big.NewFloat(f), big.NewFloat(next))
		mid.SetMantExp(mid, -1)
		mant, exp, _ := strings.Cut(mid.Text('e', 800), "e")
		mant = strings.TrimRight(mant, "0")
		switch r.IntN(3) {
		case 1: // above: a nonzero digit far beyond the 800th
			mant += strings.Repeat("0", 100) + "1"
		case 2: // below: drop the last digit
			mant = mant[:len(mant)-1]
		}
		g.b = append(g.b, mant+"e"+exp...)
	}
}

func (g *docGen) value(depth int) {
	k := g.r.IntN(10)
	if depth >= 6 && k < 4 {
		k += 4
	}
	switch k {
	case 0, 1: // object
		g.b = append(g.b, '{')
		g.ws()
		for i, n := 0, g.r.IntN(7); i < n; i++ {
			if i > 0 {
				g.b = append(g.b, ',')
				g.ws()
			}
			g.str(true)
			g.ws()
			g.b = append(g.b, ':')
			g.ws()
			g.value(depth + 1)
			g.ws()
		}
		g.b = append(g.b, '}')
	case 2, 3: // array
		g.b = append(g.b, '[')
		g.ws()
		for i, n := 0, g.r.IntN(6); i < n; i++ {
			if i > 0 {
				g.b = append(g.b, ',')
				g.ws()
			}
			g.value(depth + 1)
			g.ws()
		}
		g.b = append(g.b, ']')
	case 4, 5:
		g.str(false)
	case 6, 7, 8:
		g.number()
	case 9:
		g.b = append(g.b, []string{"true", "false", "null"}[g.r.IntN(3)]...)
	}
}

func (g *docGen) document() []byte {
	g.b = nil
	g.surrogates = g.r.IntN(40) == 0
	if g.r.IntN(30) == 0 {
		g.b = append(g.b, 0xef, 0xbb, 0xbf)
	}
	g.ws()
	g.value(0)
	g.ws()
	return g.b
}

// mutate damages a document so that both parsers have to agree on refusing
// (or, sometimes, still accepting) it.
func mutate(r *rand.Rand, doc []byte) []byte {
	d := append([]byte(nil), doc...)
	for n := 1 + r.IntN(2); n > 0 && len(d) > 0; n-- {
		i := r.IntN(len(d))
		switch r.IntN(4) {
		case 0:
			d = append(d[:i], d[i+1:]...)
		case 1:
			ins := []byte("{}[],:\"\\ 0-.eE+1aNI\x01\x80\xff\xed\x7f\t")
			d = append(d[:i], append([]byte{ins[r.IntN(len(ins))]}, d[i:]...)...)
		case 2:
			d = d[:i]
		case 3:
			d = append(d[:i], append([]byte{d[i]}, d[i:]...)...)
		}
	}
	return d
}

// pythonCanonical runs docs through testdata/canonical/oracle.py in one
// python3 process. An empty result with ok=false means Python refused the
// document; it skips the test when python3 is not installed.
func pythonCanonical(t *testing.T, docs [][]byte) (outs [][]byte, oks []bool) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the differential test against the Python oracle cannot run")
	}
	var in bytes.Buffer
	for _, d := range docs {
		in.WriteString(base64.StdEncoding.EncodeToString(d))
		in.WriteByte('\n')
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "testdata/canonical/oracle.py")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "python3 oracle failed: %s", stderr.String())
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "OK "); ok {
			b, err := base64.StdEncoding.DecodeString(rest)
			require.NoError(t, err)
			outs, oks = append(outs, b), append(oks, true)
		} else {
			require.True(t, strings.HasPrefix(line, "ERR "), line)
			outs, oks = append(outs, nil), append(oks, false)
		}
	}
	require.NoError(t, sc.Err())
	require.Len(t, outs, len(docs), "oracle answered a different number of lines")
	return outs, oks
}

// hasEncodedSurrogate reports whether d holds a surrogate in UTF-8 form
// (ED A0..BF), which is not UTF-8 but which Python's json.loads accepts.
func hasEncodedSurrogate(d []byte) bool {
	for i := 0; i+1 < len(d); i++ {
		if d[i] == 0xed && d[i+1] >= 0xa0 && d[i+1] <= 0xbf {
			return true
		}
	}
	return false
}

// pythonReadsAsUTF8 reports whether json.loads(bytes) decodes d as UTF-8:
// it guesses UTF-16 or UTF-32 from NUL bytes at the start or from their
// byte-order marks, which no valid UTF-8 document has.
func pythonReadsAsUTF8(d []byte) bool {
	if len(d) >= 2 && (d[0] == 0xfe || d[0] == 0xff) {
		return false
	}
	if len(d) >= 4 && (d[0] == 0 || d[1] == 0) {
		return false
	}
	return !(len(d) == 2 && (d[0] == 0 || d[1] == 0))
}

func TestCanonicalizeJSONMatchesPython(t *testing.T) {
	const nValid, nMutated = 4000, 2000
	r := rand.New(rand.NewPCG(20250308, 73141))
	g := &docGen{r: r}
	var docs [][]byte
	for _, tc := range canonCases {
		docs = append(docs, []byte(tc.in))
	}
	nTable := len(docs)
	for range nValid {
		docs = append(docs, g.document())
	}
	for len(docs) < nTable+nValid+nMutated {
		if m := mutate(r, docs[nTable+r.IntN(nValid)]); pythonReadsAsUTF8(m) {
			docs = append(docs, m)
		}
	}

	want, ok := pythonCanonical(t, docs)
	accepted, refusedOnPurpose, failures := 0, 0, 0
	for i, d := range docs {
		got, err := CanonicalizeJSON(d)
		kind := "random"
		switch {
		case i < nTable:
			kind = "table case " + canonCases[i].name
		case i >= nTable+nValid:
			kind = "mutated"
		}
		if i >= nTable && i < nTable+nValid {
			require.True(t, ok[i], "generated document refused by Python: %q", d)
		}
		if ok[i] {
			accepted++
		}
		switch {
		case ok[i] && err != nil && hasEncodedSurrogate(d):
			require.ErrorContains(t, err, "invalid UTF-8", "%q", d)
			refusedOnPurpose++
			continue
		case ok[i] && err != nil:
			t.Errorf("%s: Python accepts %q -> %q, we refuse: %v", kind, d, want[i], err)
		case !ok[i] && err == nil:
			t.Errorf("%s: Python refuses %q, we print %q", kind, d, got)
		case ok[i] && !bytes.Equal(got, want[i]):
			t.Errorf("%s: %q\n  python %q\n  go     %q", kind, d, want[i], got)
		default:
			continue
		}
		if failures++; failures > 20 {
			t.Fatal("too many differences")
		}
	}
	t.Logf("%d documents compared with python3: %d accepted by Python, %d of them refused on purpose (raw surrogates)",
		len(docs), accepted, refusedOnPurpose)
	require.Positive(t, refusedOnPurpose)
}

// FuzzCanonicalizeJSON checks CanonicalizeJSON on any input (seeds:
// canonCases and testdata/fuzz/FuzzCanonicalizeJSON): a refusal is an
// error naming the offset, with no output, in exact mode too; an accepted
// document gives printable ASCII JSON that is its own canonical form, the
// same as exact mode's when that accepts it, and that means what the input
// means (both read by encoding/json, where it can read them); the input is
// not modified.
func FuzzCanonicalizeJSON(f *testing.F) {
	for _, tc := range canonCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		orig := bytes.Clone(raw)
		out, err := CanonicalizeJSON(raw)
		exact, exactErr := canonicalizeExact(raw)
		if !bytes.Equal(orig, raw) {
			t.Fatalf("input modified: %q -> %q", orig, raw)
		}
		if err != nil {
			if exactErr == nil {
				t.Fatalf("exact mode accepts what the lenient one refuses: %q", raw)
			}
			if out != nil || !strings.HasPrefix(err.Error(), "fiatramp: canonical json: ") || !strings.Contains(err.Error(), " at offset ") {
				t.Fatalf("refusal of %q: output %q, error %q", raw, out, err)
			}
			return
		}
		if exactErr == nil && !bytes.Equal(exact, out) {
			t.Fatalf("exact mode prints %q, lenient %q", exact, out)
		}
		again, err := CanonicalizeJSON(out)
		if err != nil {
			t.Fatalf("output %q of %q does not parse: %v", out, raw, err)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q -> %q -> %q", raw, out, again)
		}
		for _, c := range out {
			if c < 0x20 || c > 0x7e {
				t.Fatalf("output %q is not printable ASCII", out)
			}
		}
		if !json.Valid(out) && !bytes.Contains(out, []byte("NaN")) && !bytes.Contains(out, []byte("Infinity")) {
			t.Fatalf("output %q of %q is not valid JSON", out, raw)
		}
		// Same meaning: encoding/json (numbers as float64, which Python's
		// float repr round-trips; -0 and 0 alike, as Python has no integer
		// -0) reads the same value from both. Skipped where encoding/json
		// cannot read the input (NaN, Infinity, a byte order mark, a number
		// beyond float64), and where it turns a lone surrogate into U+FFFD,
		// which can merge keys that Python keeps apart.
		var same func(a, b any) bool
		same = func(a, b any) bool {
			switch a := a.(type) {
			case map[string]any:
				m, ok := b.(map[string]any)
				if !ok || len(m) != len(a) {
					return false
				}
				for k, v := range a {
					if w, ok := m[k]; !ok || !same(v, w) {
						return false
					}
				}
				return true
			case []any:
				l, ok := b.([]any)
				if !ok || len(l) != len(a) {
					return false
				}
				for i := range a {
					if !same(a[i], l[i]) {
						return false
					}
				}
				return true
			}
			return a == b
		}
		var in, canon any
		if json.Unmarshal(raw, &in) == nil {
			if err := json.Unmarshal(out, &canon); err != nil {
				t.Fatalf("encoding/json reads %q but not its canonical form %q: %v", raw, out, err)
			}
			if !same(in, canon) {
				if a, _ := json.Marshal(in); !bytes.Contains(a, []byte("\uFFFD")) {
					t.Fatalf("canonical form %q of %q means %v, not %v", out, raw, canon, in)
				}
			}
		}
	})
}

// TestCanonicalizeJSONSafeRun checks the eight-bytes-at-a-time scan of
// string contents against the byte table, for every byte value at every
// position of a word.
func TestCanonicalizeJSONSafeRun(t *testing.T) {
	slow := func(b []byte, i int) int {
		for i < len(b) && safeASCII[b[i]] {
			i++
		}
		return i
	}
	r := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 24)
	for c := 0; c < 256; c++ {
		for pos := 0; pos < len(buf); pos++ {
			for i := range buf {
				buf[i] = byte(0x20 + r.IntN(0x5f))
				if !safeASCII[buf[i]] {
					buf[i] = 'x'
				}
			}
			buf[pos] = byte(c)
			if pos+1 < len(buf) && r.IntN(2) == 0 {
				buf[pos+1] = byte(r.IntN(256))
			}
			for start := 0; start < 3; start++ {
				require.Equal(t, slow(buf, start), safeRun(buf, start), "byte %#x at %d", c, pos)
			}
		}
	}
}

func BenchmarkCanonicalizeJSON(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBody)))
	for i := 0; i < b.N; i++ {
		if _, err := CanonicalizeJSON(benchBody); err != nil {
			b.Fatal(err)
		}
	}
}

// review11Texts are strings a careless caller may put in a request field
// (encode_internal_test.go uses them too, under this name).
var review11Texts = []string{
	"", "\u2028", "\u2029", "\x7f", "\x00", "\x1f", "\x1b[0m", "\ud7ff", "\ue000\uffff\ufffe",
	"\xed\xa0\x80\xed\xb0\x80", // a surrogate pair in UTF-8 form: not UTF-8
	"\xf4\x90\x80\x80",         // above U+10FFFF
	"\xc0\xaf",                 // overlong '/'
	`\ud800`, `\u0000`, `"\"`, "</script>", "\U0001F600\U0001F600", strings.Repeat("é", 5000),
	"a\u0300", "\ufeff", "\u00a0", "𝟘", "\U000E0001",
}

// writtenBodies returns every directly written body for text s, with ids
// zero and non-zero and amounts of the awkward kinds.
func writtenBodies(s string, amount decimal.Decimal) [][]byte {
	ids := []uuid.UUID{uuid.Nil, bodyCustomer, uuid.Max}
	var out [][]byte
	for _, id := range ids {
		out = append(out,
			createPayoutBody(types.CreatePayoutRequest{QuotationID: id, CustomerID: id, ExchangeOrderID: s, ClientReferenceID: s}),
			createPrefundedPayoutBody(types.CreatePrefundedPayoutRequest{QuotationID: id, ClientReferenceID: s,
				Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: id}, Receiver: types.CustomerRef{ID: id}}}),
			createRemittancePayoutBody(types.CreateRemittancePayoutRequest{QuotationID: id, CustomerID: id, RemitterID: id,
				ClientReferenceID: s, TransactionHash: s}),
			createPayinQuotationBody(types.CreatePayinQuotationRequest{Asset: s, Fiat: "İ" + s, SendingAmount: amount,
				CustomerID: id, BankID: id, PaymentMethod: types.PaymentMethod(s),
				RiskParameters: types.RiskParameters{IPAddress: s, DeviceID: s}}),
			addWalletBody(types.AddWalletRequest{CustomerID: id, WalletAddress: s}),
			idStatusBody("payout_id", id, "payout_status", s),
			idStatusBody("payin_id", id, "payin_status", s),
			initiatePayinBody(types.InitiatePayinRequest{QuotationID: id, CustomerID: id, UTR: s, ClientReferenceID: s}),
			linkPayinTransferBody(types.LinkPayinTransferRequest{PayinID: id, ExchangeTransferID: s}),
			bankVerificationBody(id, id, types.BankAccountStatus(s)),
		)
	}
	return out
}

// TestWrittenBodiesAreFixedPointsOfPython: every body the library writes
// itself must be exactly what the service computes from it
// (json.dumps(json.loads(body), sort_keys=True, separators=(",",":"))),
// else the signature over the bytes sent does not verify. The oracle is
// Python itself, not the Go canonicalizer the other body tests compare
// with.
func TestWrittenBodiesAreFixedPointsOfPython(t *testing.T) {
	amounts := []string{"0", "-0", "-0.00", "1e-30", "1.5E+3", "123456789012345678901234567890.000000000000000000001", "-7.10"}
	var docs [][]byte
	for i, s := range review11Texts {
		docs = append(docs, writtenBodies(s, decimal.RequireFromString(amounts[i%len(amounts)]))...)
	}
	outs, oks := pythonCanonical(t, docs)
	for i, d := range docs {
		require.True(t, oks[i], "python refused %q", d)
		require.Equal(t, string(outs[i]), string(d), "body %d is not canonical for the service", i)
		c, err := canonicalizeExact(d)
		require.NoError(t, err)
		require.Equal(t, string(d), string(c))
	}
}

// TestCanonicalizeConcurrent canonicalizes different documents of
// every size, small (copied out of the pooled buffer) and large (written
// into a buffer of their own), in parallel, and checks each result against
// the one computed alone, after every goroutine has finished: a result that
// aliased pooled memory reused by another call would have changed.
func TestCanonicalizeConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	var docs [][]byte
	for _, size := range []int{10, 100, 1000, directOutput - 1, directOutput, directOutput + 1, 70 << 10, 300 << 10} {
		for k := 0; k < 4; k++ {
			var b strings.Builder
			b.WriteString(`{"z":[`)
			for b.Len() < size {
				fmt.Fprintf(&b, `{"k%d":"v\u00e9%d","a":%d.5,"b":"<%d>"},`, r.IntN(1000), r.IntN(1e6), r.IntN(1e6), k)
			}
			b.WriteString(`0],"a":"` + strings.Repeat(string(rune('a'+k)), size%97) + `"}`)
			docs = append(docs, []byte(b.String()))
		}
	}
	want := make([][]byte, len(docs))
	for i, d := range docs {
		c, err := canonicalizeExact(d)
		require.NoError(t, err)
		want[i] = bytes.Clone(c)
	}
	const workers, rounds = 8, 6
	got := make([][][]byte, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range rounds * len(docs) {
				i := (n*7 + w*3) % len(docs)
				c, err := canonicalize(docs[i], n%2 == 0)
				if err != nil {
					panic(err)
				}
				got[w] = append(got[w], c)
				_ = Sign("k", "s", int64(n), c)
			}
		}()
	}
	wg.Wait()
	for w := range workers {
		for n, c := range got[w] {
			i := (n*7 + w*3) % len(docs)
			if !bytes.Equal(c, want[i]) {
				t.Fatalf("worker %d call %d: document %d (%d bytes) changed after its call returned", w, n, i, len(docs[i]))
			}
		}
	}
}
