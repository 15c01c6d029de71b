package types

import (
	"encoding/json"
	"errors"
	"reflect"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// This file holds the decoding helpers shared by the response types: value
// parsers (decimals, timestamps, ids), a small allocation-free iterator over
// the members of a JSON object, and the error helpers. Every value that does
// not fit is reported as a *json.UnmarshalTypeError carrying the public type
// name and the path of the offending field; encoding/json extends that path
// when the value sits inside a larger document.

// maxErrorValue bounds how much of an offending value an error quotes.
const maxErrorValue = 64

// typeError returns the error for the JSON value raw that does not fit t.
func typeError(raw []byte, t reflect.Type) *json.UnmarshalTypeError {
	return &json.UnmarshalTypeError{Value: describe(raw), Type: t}
}

// describe names a JSON value for an error message, in encoding/json's words
// ("string \"abc\"", "number 1e99999", "object", ...), quoting at most
// maxErrorValue bytes of it.
func describe(raw []byte) string {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return "empty value"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	case '"':
		return "string " + clip(raw)
	}
	return "number " + clip(raw)
}

func clip(raw []byte) string {
	if len(raw) > maxErrorValue {
		return string(raw[:maxErrorValue]) + "..."
	}
	return string(raw)
}

// withField returns err with field prepended to the field path of a
// *json.UnmarshalTypeError and its struct set to structName; other errors are
// returned unchanged.
func withField(err error, structName, field string) error {
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		ute.Struct = structName
		if ute.Field == "" {
			ute.Field = field
		} else {
			ute.Field = field + "." + ute.Field
		}
	}
	return err
}

// nullOrObject inspects the first byte of the JSON value data: it reports
// true for null, false for an object, and a type error against t for
// anything else.
func nullOrObject(data []byte, t reflect.Type) (bool, error) {
	data = trimSpace(data)
	if len(data) > 0 {
		switch data[0] {
		case '{':
			return false, nil
		case 'n':
			if string(data) == "null" {
				return true, nil
			}
		}
	}
	return false, typeError(data, t)
}

// cloneRaw returns a copy of data, as the Raw field of a response keeps it.
func cloneRaw(data []byte) json.RawMessage {
	return append(json.RawMessage(nil), data...)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// stringContent returns the bytes of the JSON string raw without its quotes,
// unescaped exactly as encoding/json would. ok is false when raw is not a
// JSON string. The result aliases raw when nothing needed unescaping.
func stringContent(raw []byte) (content []byte, ok bool) {
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

// ---- decimals ----

var decimalType = reflect.TypeFor[decimal.Decimal]()

// parseDecimal decodes a money, rate or fee value: a JSON number or a string
// holding a decimal number ([+-]digits[.digits][e[+-]digits], a leading or
// trailing point allowed), converted exactly with decimal.NewFromString.
// null and "" give the zero value with set false. Anything else, including a
// number whose exponent exceeds decimal.MaxDecodeExponent, is a type error.
func parseDecimal(raw []byte) (d decimal.Decimal, set bool, err error) {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return decimal.Decimal{}, false, typeError(raw, decimalType)
	}
	text := raw
	switch c := raw[0]; {
	case c == 'n' && string(raw) == "null":
		return decimal.Decimal{}, false, nil
	case c == '"':
		s, ok := stringContent(raw)
		if !ok {
			return decimal.Decimal{}, false, typeError(raw, decimalType)
		}
		if len(s) == 0 {
			return decimal.Decimal{}, false, nil
		}
		text = s
	case c == '-' || (c >= '0' && c <= '9'):
		if !validJSONNumber(raw) {
			return decimal.Decimal{}, false, typeError(raw, decimalType)
		}
	default:
		return decimal.Decimal{}, false, typeError(raw, decimalType)
	}
	if !validDecimalText(text) {
		return decimal.Decimal{}, false, typeError(raw, decimalType)
	}
	d, err = decimal.NewFromString(string(text))
	if err != nil {
		return decimal.Decimal{}, false, typeError(raw, decimalType)
	}
	return d, true, nil
}

// validDecimalText reports whether s is [+-]digits[.digits][(e|E)[+-]digits]
// with at least one mantissa digit (".5" and "5." are accepted). Every JSON
// number matches.
func validDecimalText(s []byte) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	start := i
	i = skipDigits(s, i)
	digits := i - start
	if i < len(s) && s[i] == '.' {
		start = i + 1
		i = skipDigits(s, start)
		digits += i - start
	}
	if digits == 0 {
		return false
	}
	return exponentEnds(s, i)
}

// validJSONNumber reports whether s is a JSON number token (RFC 8259):
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. encoding/json has already
// checked this when it calls UnmarshalJSON; a direct call has not.
func validJSONNumber(s []byte) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		start := i + 1
		i = skipDigits(s, start)
		if i == start {
			return false
		}
	}
	return exponentEnds(s, i)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipDigits returns the index of the first byte at or after s[i] that is
// not a digit.
func skipDigits(s []byte, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// exponentEnds reports whether s[i:] is an optional exponent,
// (e|E)[+-]digits, and nothing after it: the tail that validDecimalText and
// validJSONNumber share.
func exponentEnds(s []byte, i int) bool {
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		i = skipDigits(s, i)
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// ---- timestamps ----

var timeType = reflect.TypeFor[time.Time]()

// parseTime decodes a timestamp (see parseTimestamp). null and "" give the
// zero time; anything else that is not a timestamp string is a type error.
func parseTime(raw []byte) (time.Time, error) {
	raw = trimSpace(raw)
	if string(raw) == "null" {
		return time.Time{}, nil
	}
	s, ok := stringContent(raw)
	if !ok {
		return time.Time{}, typeError(raw, timeType)
	}
	if len(s) == 0 {
		return time.Time{}, nil
	}
	t, ok := parseTimestamp(string(s))
	if !ok {
		return time.Time{}, typeError(raw, timeType)
	}
	return t, nil
}

// noZoneLayout is RFC 3339 without the zone: such a timestamp is taken as UTC.
const noZoneLayout = "2006-01-02T15:04:05.999999999"

// parseTimestamp parses an RFC 3339 date-time: fractional seconds optional
// (any number of digits; digits beyond nanoseconds are dropped), zone `Z` or
// a numeric offset, or no zone at all, which is taken as UTC. A lower-case
// `t` or a space as the date/time separator and a lower-case `z` are
// accepted, as RFC 3339 allows.
func parseTimestamp(s string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	if t, err := time.Parse(noZoneLayout, s); err == nil {
		return t, true
	}
	// RFC 3339 allows "t", "z" and a space separator; normalise and retry.
	if len(s) > 10 && (s[10] == 't' || s[10] == ' ' || s[len(s)-1] == 'z') {
		b := []byte(s)
		if b[10] == 't' || b[10] == ' ' {
			b[10] = 'T'
		}
		if b[len(b)-1] == 'z' {
			b[len(b)-1] = 'Z'
		}
		n := string(b)
		if t, err := time.Parse(time.RFC3339Nano, n); err == nil {
			return t, true
		}
		if t, err := time.Parse(noZoneLayout, n); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ---- identifiers ----

var uuidType = reflect.TypeFor[uuid.UUID]()

// parseUUID decodes an id: a JSON string accepted by uuid.ParseBytes. null
// and "" give uuid.Nil with set false; anything else is a type error.
func parseUUID(raw []byte) (id uuid.UUID, set bool, err error) {
	raw = trimSpace(raw)
	if string(raw) == "null" {
		return uuid.Nil, false, nil
	}
	s, ok := stringContent(raw)
	if !ok {
		return uuid.Nil, false, typeError(raw, uuidType)
	}
	if len(s) == 0 {
		return uuid.Nil, false, nil
	}
	id, err = uuid.ParseBytes(s)
	if err != nil {
		return uuid.Nil, false, typeError(raw, uuidType)
	}
	return id, true, nil
}

// ---- object members ----

var errObjectSyntax = errors.New("malformed JSON object")

// objectIter walks the members of one JSON object without allocating (except
// for keys that contain escapes). It never panics, whatever the input; on
// malformed input next returns false and err is set.
type objectIter struct {
	data []byte
	pos  int
	n    int
	done bool
	err  error
}

// newObjectIter starts an iterator over data, which must begin (after
// optional white space) with '{'.
func newObjectIter(data []byte) objectIter {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return objectIter{done: true, err: errObjectSyntax}
	}
	return objectIter{data: data, pos: i + 1}
}

// next returns the next member's unescaped key and its raw value bytes.
func (it *objectIter) next() (key, value []byte, ok bool) {
	if it.done {
		return nil, nil, false
	}
	d := it.data
	i := skipSpace(d, it.pos)
	if i < len(d) && d[i] == '}' {
		it.done = true
		if skipSpace(d, i+1) != len(d) {
			it.err = errObjectSyntax
		}
		return nil, nil, false
	}
	if it.n > 0 {
		if i >= len(d) || d[i] != ',' {
			return it.fail()
		}
		i = skipSpace(d, i+1)
	}
	if i >= len(d) || d[i] != '"' {
		return it.fail()
	}
	end, ok := scanString(d, i)
	if !ok {
		return it.fail()
	}
	key, ok = stringContent(d[i:end])
	if !ok {
		return it.fail()
	}
	i = skipSpace(d, end)
	if i >= len(d) || d[i] != ':' {
		return it.fail()
	}
	i = skipSpace(d, i+1)
	end, ok = scanValue(d, i)
	if !ok {
		return it.fail()
	}
	value = d[i:end]
	it.pos = end
	it.n++
	return key, value, true
}

func (it *objectIter) fail() ([]byte, []byte, bool) {
	it.done = true
	it.err = errObjectSyntax
	return nil, nil, false
}

func skipSpace(d []byte, i int) int {
	for i < len(d) && isSpace(d[i]) {
		i++
	}
	return i
}

// scanString returns the index just past the JSON string starting at d[i].
func scanString(d []byte, i int) (int, bool) {
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

// scanValue returns the index just past the JSON value starting at d[i]. It
// checks bracket nesting depth but not the grammar of the value; callers
// parse the values they use and check the ones they skip with skipValid.
func scanValue(d []byte, i int) (int, bool) {
	if i >= len(d) {
		return 0, false
	}
	switch d[i] {
	case '"':
		return scanString(d, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				end, ok := scanString(d, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(d) {
		c := d[j]
		if c == ',' || c == '}' || c == ']' || c == ':' || c == '"' || c == '{' || c == '[' || isSpace(c) {
			break
		}
		j++
	}
	if j == i {
		return 0, false
	}
	return j, true
}

// skipValid checks a member value that a decoder skips. encoding/json has
// already validated the whole document when it calls UnmarshalJSON, but a
// direct call has not, and a malformed value must not pass unnoticed.
func skipValid(raw []byte) error {
	if !json.Valid(raw) {
		return errObjectSyntax
	}
	return nil
}
