package types

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
)

// This file holds how one JSON value is read (decimals, timestamps, ids,
// strings, integers, lists and maps of amounts) and the error helpers of
// the decoder (codec.go).
// Every value that does not fit is reported as a *json.UnmarshalTypeError
// carrying the public type name and the path of the offending field;
// encoding/json extends that path when the value sits inside a larger
// document.

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
	raw = jsonscan.TrimSpace(raw)
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
	data = jsonscan.TrimSpace(data)
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

// ownRaw is the Raw of an object read from data: data itself when it lies
// in the copy an enclosing Raw holds (own), its capacity clipped so that an
// append to it cannot write over the rest of that copy; a copy of data
// otherwise.
func ownRaw(data []byte, own bool) json.RawMessage {
	if own {
		return json.RawMessage(data[:len(data):len(data)])
	}
	return cloneRaw(data)
}

// ---- decimals ----

var decimalType = reflect.TypeFor[decimal.Decimal]()

// MaxDecimalDigits is the most digits (mantissa and exponent together) a
// money, rate or fee value may have: far above any real amount, and low
// enough that no value takes noticeable time to convert (the conversion's
// cost grows with the square of the digits; 1.5 million of them take
// seconds). A longer value is a type error.
const MaxDecimalDigits = 1000

// parseDecimal decodes a money, rate or fee value: a JSON number or a string
// holding a decimal number ([+-]digits[.digits][e[+-]digits], a leading or
// trailing point allowed), converted exactly with decimal.NewFromString.
// null and "" give the zero value with set false. Anything else, including a
// number whose exponent exceeds decimal.MaxDecodeExponent or one of more
// than MaxDecimalDigits digits, is a type error.
func parseDecimal(raw []byte) (d decimal.Decimal, set bool, err error) {
	raw = jsonscan.TrimSpace(raw)
	if len(raw) == 0 {
		return decimal.Decimal{}, false, typeError(raw, decimalType)
	}
	text := raw
	switch c := raw[0]; {
	case c == 'n' && string(raw) == "null":
		return decimal.Decimal{}, false, nil
	case c == '"':
		s, ok := jsonscan.StringContent(raw)
		if !ok {
			return decimal.Decimal{}, false, typeError(raw, decimalType)
		}
		if len(s) == 0 {
			return decimal.Decimal{}, false, nil
		}
		text = s
	case c == '-' || jsonscan.IsDigit(c):
		if !jsonscan.ValidNumber(raw) {
			return decimal.Decimal{}, false, typeError(raw, decimalType)
		}
	default:
		return decimal.Decimal{}, false, typeError(raw, decimalType)
	}
	// At most four bytes of a valid text are not digits: sign, point, e
	// and the exponent's sign. Count only what could fit.
	if len(text) > MaxDecimalDigits+4 || countDigits(text) > MaxDecimalDigits {
		return decimal.Decimal{}, false, &json.UnmarshalTypeError{
			Value: "decimal of more than " + strconv.Itoa(MaxDecimalDigits) + " digits", Type: decimalType,
		}
	}
	if _, ok := jsonscan.ParseNumber(text, false); !ok {
		return decimal.Decimal{}, false, typeError(raw, decimalType)
	}
	d, err = decimal.NewFromString(string(text))
	if err != nil {
		return decimal.Decimal{}, false, typeError(raw, decimalType)
	}
	return d, true, nil
}

// countDigits returns how many ASCII digits s holds.
func countDigits(s []byte) int {
	n := 0
	for _, c := range s {
		if jsonscan.IsDigit(c) {
			n++
		}
	}
	return n
}

// ---- timestamps ----

var timeType = reflect.TypeFor[time.Time]()

// parseTime decodes a timestamp (see jsonscan.ParseTime). null and "" give the
// zero time; anything else that is not a timestamp string is a type error.
func parseTime(raw []byte) (time.Time, error) {
	raw = jsonscan.TrimSpace(raw)
	if string(raw) == "null" {
		return time.Time{}, nil
	}
	s, ok := jsonscan.StringContent(raw)
	if !ok {
		return time.Time{}, typeError(raw, timeType)
	}
	if len(s) == 0 {
		return time.Time{}, nil
	}
	t, ok := jsonscan.ParseTime(string(s))
	if !ok {
		return time.Time{}, typeError(raw, timeType)
	}
	return t, nil
}

// ---- identifiers ----

var uuidType = reflect.TypeFor[uuid.UUID]()

// parseUUID decodes an id: a JSON string accepted by uuid.ParseBytes. null
// and "" give uuid.Nil with set false; anything else is a type error.
func parseUUID(raw []byte) (id uuid.UUID, set bool, err error) {
	raw = jsonscan.TrimSpace(raw)
	if string(raw) == "null" {
		return uuid.Nil, false, nil
	}
	s, ok := jsonscan.StringContent(raw)
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

// skipValid checks a member value that a decoder skips. encoding/json has
// already validated the whole document when it calls UnmarshalJSON, but a
// direct call has not, and a malformed value must not pass unnoticed.
func skipValid(raw []byte) error {
	if !json.Valid(raw) {
		return jsonscan.ErrSyntax
	}
	return nil
}

var (
	intType    = reflect.TypeFor[int]()
	boolType   = reflect.TypeFor[bool]()
	stringType = reflect.TypeFor[string]()
)

// parseString reads a JSON string (its content, unescaped) or null; any
// other value is a type error against t.
func parseString(raw []byte, t reflect.Type) (s []byte, null bool, err error) {
	raw = jsonscan.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, true, nil
	}
	s, ok := jsonscan.StringContent(raw)
	if !ok {
		return nil, false, typeError(raw, t)
	}
	return s, false, nil
}

// parseInt reads an integer as encoding/json does: a JSON number without
// fraction or exponent that fits an int; null gives 0.
func parseInt(raw []byte) (int, error) {
	raw = jsonscan.TrimSpace(raw)
	if string(raw) == "null" {
		return 0, nil
	}
	if !jsonscan.ValidNumber(raw) {
		return 0, typeError(raw, intType)
	}
	n, err := strconv.ParseInt(string(raw), 10, 0)
	if err != nil {
		return 0, typeError(raw, intType)
	}
	return int(n), nil
}

// blank reports whether raw is null or "".
func blank(raw []byte) bool {
	raw = jsonscan.TrimSpace(raw)
	return string(raw) == "null" || string(raw) == `""`
}

// sameBytes reports whether a and b are the same bytes of the document.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// typeName is the name a decode error gives t: its Go name, with the
// package paths of its type arguments left out (Page[BankAccountListItem]).
func typeName(t reflect.Type) string {
	name := t.Name()
	open := strings.IndexByte(name, '[')
	if open < 0 {
		return name
	}
	var b strings.Builder
	b.WriteString(name[:open+1])
	args := strings.FieldsFunc(name[open+1:len(name)-1], func(r rune) bool { return r == ',' })
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(a[strings.LastIndexByte(a, '.')+1:])
	}
	b.WriteByte(']')
	return b.String()
}

// decodeAmounts reads an object of decimals into the map fv: null gives
// nil; every value must be a decimal, null and "" included (an unknown
// amount is not zero).
func decodeAmounts(fv reflect.Value, raw []byte) error {
	if null, err := nullOrObject(raw, fv.Type()); err != nil || null {
		fv.SetZero()
		return err
	}
	out := map[string]decimal.Decimal{}
	it := jsonscan.NewObjectIter(raw)
	for {
		key, value, ok := it.Next()
		if !ok {
			if err := it.Err(); err == jsonscan.ErrTooDeep {
				return iterError(err, fv.Type(), key)
			} else if err != nil {
				return scanFailure{err: err, named: true}
			}
			break
		}
		d, set, err := parseDecimal(value)
		if err == nil && !set {
			err = typeError(value, decimalType)
		}
		if err != nil {
			return withField(err, "", string(key))
		}
		out[string(key)] = d
	}
	*amounts(fv) = out
	return nil
}

// decodeObjectMap reads an object into the map fv, each member's value (a
// struct) by plan p: null gives nil, {} an empty map, anything but an
// object a type error; a repeated key's last value decides.
func decodeObjectMap(p *plan, fv reflect.Value, raw []byte, own bool) error {
	if null, err := nullOrObject(raw, fv.Type()); err != nil || null {
		fv.SetZero()
		return err
	}
	out := reflect.MakeMap(fv.Type())
	it := jsonscan.NewObjectIter(raw)
	for {
		key, value, ok := it.Next()
		if !ok {
			if err := it.Err(); err == jsonscan.ErrTooDeep {
				return iterError(err, fv.Type(), key)
			} else if err != nil {
				return scanFailure{err: err, named: true}
			}
			break
		}
		elem := reflect.New(fv.Type().Elem()).Elem()
		if err := p.object(elem, value, nil, own); err != nil {
			return withField(err, "", string(key))
		}
		out.SetMapIndex(reflect.ValueOf(string(key)), elem)
	}
	fv.Set(out)
	return nil
}

// decodeStrings reads an array of strings into fv, a []string: null gives
// nil, [] an empty slice, anything but an array of strings a type error.
func decodeStrings(fv reflect.Value, raw []byte) error {
	raw = jsonscan.TrimSpace(raw)
	switch {
	case string(raw) == "null":
		fv.SetZero()
		return nil
	case len(raw) == 0 || raw[0] != '[':
		return typeError(raw, fv.Type())
	}
	list := []string{}
	it := jsonscan.NewArrayIter(raw)
	for {
		item, ok := it.Next()
		if !ok {
			break
		}
		s, null, err := parseString(item, stringType)
		if err != nil {
			return err
		}
		if null {
			list = append(list, "")
			continue
		}
		list = append(list, string(s))
	}
	if err := it.Err(); err != nil {
		return scanFailure{err: err}
	}
	*fv.Addr().Interface().(*[]string) = list
	return nil
}

// maxListPresize bounds how many items decodeList makes room for before
// decoding any: a hostile array of a million tiny items that are not what
// the slice holds must fail on its first item without a large allocation.
const maxListPresize = 1024

// listCap is the capacity decodeList starts with: the number of items of
// the array raw (a scan, no decoding), up to maxListPresize, so that a page
// is decoded into one allocation rather than a chain of doublings.
func listCap(raw []byte) int {
	n := 0
	for it := jsonscan.NewArrayIter(raw); n < maxListPresize; n++ {
		if _, ok := it.Next(); !ok {
			break
		}
	}
	return n
}

// decodeList reads an array into the slice fv, item by item in one pass,
// as encoding/json would: null gives nil, [] an empty slice, anything but
// an array a type error. An item is decoded by its own UnmarshalJSON when
// it has one (every type of this package), by encoding/json otherwise; an
// item of a type with a plan (planned), inside an object whose Raw holds
// the copy own says raw lies in, is decoded by its plan directly, as its
// UnmarshalJSON would, so that its Raw shares that copy.
func decodeList(fv reflect.Value, raw []byte, own bool) error {
	raw = jsonscan.TrimSpace(raw)
	switch {
	case string(raw) == "null":
		fv.SetZero()
		return nil
	case len(raw) == 0 || raw[0] != '[':
		return typeError(raw, fv.Type())
	}
	var items *plan
	if own {
		if p, ok := reflect.Zero(reflect.PointerTo(fv.Type().Elem())).Interface().(planned); ok {
			items = p.plan()
		}
	}
	zero := reflect.Zero(fv.Type().Elem())
	list := reflect.MakeSlice(fv.Type(), 0, listCap(raw))
	it := jsonscan.NewArrayIter(raw)
	for {
		item, ok := it.Next()
		if !ok {
			break
		}
		list = reflect.Append(list, zero)
		if items != nil {
			// Decoded as its UnmarshalJSON would, its Raw sharing the
			// enclosing copy.
			if err := items.object(list.Index(list.Len()-1), item, nil, true); err != nil {
				return err
			}
			continue
		}
		dst := list.Index(list.Len() - 1).Addr().Interface()
		var err error
		if u, ok := dst.(json.Unmarshaler); ok {
			err = u.UnmarshalJSON(item)
		} else {
			err = json.Unmarshal(item, dst)
		}
		if err != nil {
			return err
		}
	}
	if err := it.Err(); err != nil {
		return scanFailure{err: err}
	}
	fv.Set(list)
	return nil
}
