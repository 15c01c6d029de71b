// Package jsonscan reads JSON text in place, for the response decoders of
// the module: object members with exact keys, array items, string contents
// and the strings of a whole value, in one pass and without copying the
// input. It never panics, whatever the input.
//
// Nothing here checks the full JSON grammar: callers check the values they
// use with their own parsers and the document (or the values they skip)
// with encoding/json's json.Valid. What is checked everywhere is the
// nesting depth, so that no reader of this module, recursive or not, works
// on a value nested deeper than MaxDepth.
package jsonscan

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects a value may have,
// the outermost one counting as 1: the cap of the client's readers of the
// service's responses (the envelope reader and the decoders of types),
// which use NewObjectIter and ScanValue. It is not there for the stack:
// the scanners here do not recurse, and the decoders recurse only as deep
// as their types. It bounds what an answer may be: the service's documents
// nest three or four levels, and a response, which comes from whatever
// answers at the base address (a proxy included) and is not signed, is
// refused as malformed when it nests deeper than any shape the service
// could plausibly add, rather than carried into a result's Raw. A reader
// whose input something it trusts has already bounded may take that
// bound instead: see NewObjectIterDepth.
const MaxDepth = 64

var (
	// ErrSyntax reports JSON text that is not what a reader expected.
	ErrSyntax = errors.New("malformed JSON")
	// ErrTooDeep reports a value nested deeper than MaxDepth (or than the
	// cap given to NewObjectIterDepth).
	ErrTooDeep = errors.New("JSON nested deeper than " + strconv.Itoa(MaxDepth) + " levels")
)

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// SkipSpace returns the index of the first byte at or after d[i] that is
// not JSON white space.
func SkipSpace(d []byte, i int) int {
	for i < len(d) && IsSpace(d[i]) {
		i++
	}
	return i
}

// SkipDigits returns the index of the first byte at or after s[i] that is
// not a digit.
func SkipDigits(s []byte, i int) int {
	for i < len(s) && IsDigit(s[i]) {
		i++
	}
	return i
}

// LongestDigitRun returns the most ASCII digits in one run in b, wherever
// it is: in a number, a string or a key. An underscore does not end a run
// (nor counts), since math/big reads "1_000" as one number.
func LongestDigitRun(b []byte) int {
	longest, run := 0, 0
	for _, c := range b {
		switch {
		case IsDigit(c):
			run++
			longest = max(longest, run)
		case c != '_':
			run = 0
		}
	}
	return longest
}

// TrimSpace returns b without surrounding JSON white space.
func TrimSpace(b []byte) []byte {
	for len(b) > 0 && IsSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && IsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// FirstByte returns the first byte of b that is not JSON white space, or 0.
func FirstByte(b []byte) byte {
	if i := SkipSpace(b, 0); i < len(b) {
		return b[i]
	}
	return 0
}

// ScanString returns the index just past the JSON string starting at d[i]
// (a '"').
func ScanString(d []byte, i int) (int, bool) {
	for j := i + 1; j < len(d); j++ {
		switch d[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// ScanValue returns the index just past the JSON value starting at d[i].
// It follows strings and bracket nesting, refusing a value nested deeper
// than MaxDepth (ErrTooDeep), but does not check the grammar inside.
func ScanValue(d []byte, i int) (int, error) { return scanValue(d, i, MaxDepth) }

// scanValue is ScanValue with a cap of maxDepth levels.
func scanValue(d []byte, i, maxDepth int) (int, error) {
	if i >= len(d) {
		return 0, ErrSyntax
	}
	switch d[i] {
	case '"':
		end, ok := ScanString(d, i)
		if !ok {
			return 0, ErrSyntax
		}
		return end, nil
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				end, ok := ScanString(d, j)
				if !ok {
					return 0, ErrSyntax
				}
				j = end - 1
			case '{', '[':
				depth++
				if depth > maxDepth {
					return 0, ErrTooDeep
				}
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, ErrSyntax
	}
	j := i
	for j < len(d) {
		c := d[j]
		if c == ',' || c == '}' || c == ']' || c == ':' || c == '"' || c == '{' || c == '[' || IsSpace(c) {
			break
		}
		j++
	}
	if j == i {
		return 0, ErrSyntax
	}
	return j, nil
}

// StringContent returns the bytes of the JSON string raw without its
// quotes, unescaped exactly as encoding/json would. ok is false when raw is
// not a JSON string. The result aliases raw when nothing needed unescaping.
func StringContent(raw []byte) (content []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	inner := raw[1 : len(raw)-1]
	// Escapes, stray quotes, control characters and invalid UTF-8 (which
	// encoding/json turns into U+FFFD) take the slow, exact path.
	if !plainString(inner) || !utf8.Valid(inner) {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, false
		}
		return []byte(s), true
	}
	return inner, true
}

// plainString reports whether s holds no backslash, quote or control
// character, so that it is its own JSON string content.
func plainString(s []byte) bool {
	for _, c := range s {
		if c == '\\' || c == '"' || c < 0x20 {
			return false
		}
	}
	return true
}

// Number is a decimal number text split into its parts,
// [sign] Int [. Frac] [(e|E) [sign] Exp]: the one number parser of the
// module, for JSON number tokens and the decimal strings of money fields.
type Number struct {
	Neg    bool   // a leading '-'
	Int    []byte // the digits before the point (aliases the text)
	Frac   []byte // the digits after the point
	ExpNeg bool   // the exponent's sign is '-'
	Exp    []byte // the exponent's digits
}

// ParseNumber splits s, which must be one number and nothing else. Strict
// is the JSON grammar (RFC 8259), -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?;
// otherwise a leading '+', leading zeros and an empty side of the point
// (".5", "5.") are accepted too, as long as the mantissa has a digit.
func ParseNumber(s []byte, strict bool) (n Number, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '-' || (s[i] == '+' && !strict)) {
		n.Neg = s[i] == '-'
		i++
	}
	start := i
	i = SkipDigits(s, i)
	n.Int = s[start:i]
	if strict && (len(n.Int) == 0 || (len(n.Int) > 1 && n.Int[0] == '0')) {
		return Number{}, false
	}
	if i < len(s) && s[i] == '.' {
		start = i + 1
		i = SkipDigits(s, start)
		n.Frac = s[start:i]
		if strict && len(n.Frac) == 0 {
			return Number{}, false
		}
	}
	if len(n.Int)+len(n.Frac) == 0 {
		return Number{}, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			n.ExpNeg = s[i] == '-'
			i++
		}
		start = i
		i = SkipDigits(s, i)
		n.Exp = s[start:i]
		if len(n.Exp) == 0 {
			return Number{}, false
		}
	}
	return n, i == len(s)
}

// ValidNumber reports whether s is a JSON number token (RFC 8259).
func ValidNumber(s []byte) bool {
	_, ok := ParseNumber(s, true)
	return ok
}

// Digits returns how many digits n has, exponent included.
func (n Number) Digits() int { return len(n.Int) + len(n.Frac) + len(n.Exp) }

// SameValue reports whether n and m denote the same decimal value (zero of
// either sign equal only to zero of the same sign), without allocating.
func (n Number) SameValue(m Number) bool {
	a, b := n.normal(), m.normal()
	if a.digits == 0 || b.digits == 0 {
		return a.digits == b.digits && n.Neg == m.Neg
	}
	if n.Neg != m.Neg || a.exp != b.exp || a.digits != b.digits {
		return false
	}
	for k := 0; k < a.digits; k++ {
		if n.digit(a.first+k) != m.digit(b.first+k) {
			return false
		}
	}
	return true
}

// normalNumber places a Number's significant digits: digits of them
// starting at mantissa index first, the value being 0.digits * 10^exp.
type normalNumber struct {
	first, digits int
	exp           int64
}

// digit returns the k-th digit of the mantissa Int+Frac.
func (n Number) digit(k int) byte {
	if k < len(n.Int) {
		return n.Int[k]
	}
	return n.Frac[k-len(n.Int)]
}

func (n Number) normal() normalNumber {
	total := len(n.Int) + len(n.Frac)
	lead := 0
	for lead < total && n.digit(lead) == '0' {
		lead++
	}
	trail := total
	for trail > lead && n.digit(trail-1) == '0' {
		trail--
	}
	var exp int64
	for _, c := range n.Exp {
		if exp < 1e15 { // saturate: such exponents overflow or underflow anyway
			exp = exp*10 + int64(c-'0')
		}
	}
	if n.ExpNeg {
		exp = -exp
	}
	return normalNumber{first: lead, digits: trail - lead, exp: int64(len(n.Int)) - int64(lead) + exp}
}

// ObjectIter walks the members of one JSON object without allocating
// (except for keys that contain escapes). The object, its members
// included, may nest at most MaxDepth levels. Keys are returned exactly as
// sent, unescaped; a key that repeats is returned each time, so a reader
// that stores members as they come keeps the last, as Python's json
// module does. On malformed input Next returns false and Err says why.
type ObjectIter struct {
	data     []byte
	pos      int
	n        int
	maxDepth int // the object's own level included
	done     bool
	err      error
}

// NewObjectIter starts an iterator over data, which must begin (after
// optional white space) with '{'.
func NewObjectIter(data []byte) ObjectIter { return NewObjectIterDepth(data, MaxDepth) }

// NewObjectIterDepth is NewObjectIter with a cap of maxDepth levels (at
// least 1, the object itself) instead of MaxDepth, for a reader whose
// input was already bounded by something it trusts more: the webhook
// reader takes the canonicalizer's cap, since every delivery it reads has
// been through CanonicalizeJSON and its signature checked. The scan does
// not recurse, so a deep cap costs no stack.
func NewObjectIterDepth(data []byte, maxDepth int) ObjectIter {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return ObjectIter{done: true, err: ErrSyntax}
	}
	if maxDepth < 1 {
		return ObjectIter{done: true, err: &depthError{maxDepth}}
	}
	return ObjectIter{data: data, pos: i + 1, maxDepth: maxDepth}
}

// NoMembers returns an iterator that has no members and no error.
func NoMembers() ObjectIter { return ObjectIter{done: true} }

// Err returns why the iteration stopped early, or nil.
func (it *ObjectIter) Err() error { return it.err }

// Next returns the next member's unescaped key and its raw value bytes.
// The object must end the data (white space aside). When a member's value
// cannot be scanned (ErrTooDeep, or ErrSyntax), Next returns that member's
// key with ok false, so that the error can name it.
func (it *ObjectIter) Next() (key, value []byte, ok bool) {
	if it.done {
		return nil, nil, false
	}
	d := it.data
	i := SkipSpace(d, it.pos)
	if i < len(d) && d[i] == '}' {
		it.done = true
		if SkipSpace(d, i+1) != len(d) {
			it.err = ErrSyntax
		}
		return nil, nil, false
	}
	if it.n > 0 {
		if i >= len(d) || d[i] != ',' {
			return it.fail(ErrSyntax)
		}
		i = SkipSpace(d, i+1)
	}
	if i >= len(d) || d[i] != '"' {
		return it.fail(ErrSyntax)
	}
	end, ok := ScanString(d, i)
	if !ok {
		return it.fail(ErrSyntax)
	}
	key, ok = StringContent(d[i:end])
	if !ok {
		return it.fail(ErrSyntax)
	}
	i = SkipSpace(d, end)
	if i >= len(d) || d[i] != ':' {
		return it.fail(ErrSyntax)
	}
	i = SkipSpace(d, i+1)
	end, err := scanValue(d, i, it.maxDepth-1) // the object is a level
	if err == ErrTooDeep && it.maxDepth != MaxDepth {
		err = &depthError{it.maxDepth}
	}
	if err != nil {
		_, _, _ = it.fail(err)
		return key, nil, false
	}
	value = d[i:end]
	it.pos = end
	it.n++
	return key, value, true
}

// depthError is ErrTooDeep for a cap other than MaxDepth, which its text
// names.
type depthError struct{ max int }

func (e *depthError) Error() string {
	return "JSON nested deeper than " + strconv.Itoa(e.max) + " levels"
}

// Is makes errors.Is(err, ErrTooDeep) true.
func (e *depthError) Is(target error) bool { return target == ErrTooDeep }

func (it *ObjectIter) fail(err error) ([]byte, []byte, bool) {
	it.done = true
	it.err = err
	return nil, nil, false
}

// ArrayIter walks the items of one JSON array, as ObjectIter walks the
// members of an object.
type ArrayIter struct {
	data []byte
	pos  int
	n    int
	done bool
	err  error
}

// NewArrayIter starts an iterator over data, which must begin (after
// optional white space) with '['.
func NewArrayIter(data []byte) ArrayIter {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return ArrayIter{done: true, err: ErrSyntax}
	}
	return ArrayIter{data: data, pos: i + 1}
}

// Err returns why the iteration stopped early, or nil.
func (it *ArrayIter) Err() error { return it.err }

// Next returns the raw bytes of the next item.
func (it *ArrayIter) Next() (item []byte, ok bool) {
	if it.done {
		return nil, false
	}
	d := it.data
	i := SkipSpace(d, it.pos)
	if i < len(d) && d[i] == ']' {
		it.done = true
		if SkipSpace(d, i+1) != len(d) {
			it.err = ErrSyntax
		}
		return nil, false
	}
	if it.n > 0 {
		if i >= len(d) || d[i] != ',' {
			return it.fail(ErrSyntax)
		}
		i = SkipSpace(d, i+1)
	}
	end, err := scanValue(d, i, MaxDepth-1) // the array is a level
	if err != nil {
		return it.fail(err)
	}
	it.pos = end
	it.n++
	return d[i:end], true
}

func (it *ArrayIter) fail(err error) ([]byte, bool) {
	it.done = true
	it.err = err
	return nil, false
}

// Strings calls fn with the raw token (quotes included) of every string
// value inside the JSON value v, object keys excluded, in document order,
// until fn returns false. It reads v once and copies nothing, however
// deeply v nests; v must be valid JSON (json.Valid), else some strings may
// be missed or misread as keys.
func Strings(v []byte, fn func(raw []byte) bool) {
	for i := 0; i < len(v); i++ {
		if v[i] != '"' {
			continue
		}
		end, ok := ScanString(v, i)
		if !ok {
			return
		}
		if j := SkipSpace(v, end); j < len(v) && v[j] == ':' {
			i = j // a key
			continue
		}
		if !fn(v[i:end]) {
			return
		}
		i = end - 1
	}
}
