package types

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
)

// members decodes the members of one JSON object in a single pass: the
// response types switch on key and call one typed method per field. Keys
// match exactly (case-sensitively), and when a key repeats, its last
// occurrence alone decides the field, as in a Python dict (the service's
// reader): every typed method sets the whole field from the current value,
// so a later null gives the field's zero value (nil for a pointer, slice
// or map), a later object replaces an earlier one rather than merging into
// it, and a later scalar replaces an earlier one.
// The first failure stops the loop and is kept, as a
// *json.UnmarshalTypeError naming the type and the field where a value does
// not fit. Values that no field takes are checked to be valid JSON and
// skipped.
//
// Every response decoder has the same frame:
//
//	var out T
//	m := objectMembers("T", tType, data)
//	for m.next() {
//		switch string(m.key) {
//		case "field":
//			m.uuid(&out.Field)
//		...
//		default:
//			m.skip()
//		}
//	}
//	return finishObject(&m, dst, &out, &out.Raw)
//
// The loop stays in each decoder (rather than behind a callback) so that
// neither m nor out has to move to the heap.
type members struct {
	it   jsonscan.ObjectIter
	typ  string       // public type name, for errors
	t    reflect.Type // its type, for errors
	data []byte       // the whole object, for Raw
	null bool         // data was JSON null: no members, and nothing to store
	key  []byte
	raw  []byte
	err  error
}

// objectMembers starts decoding data as the public type typ (reflect type
// t). JSON null gives no members and sets null; anything but an object
// gives no members and a type error against t.
func objectMembers(typ string, t reflect.Type, data []byte) members {
	null, err := nullOrObject(data, t)
	if err != nil || null {
		return members{it: jsonscan.NoMembers(), typ: typ, t: t, null: null, err: err}
	}
	return members{it: jsonscan.NewObjectIter(data), typ: typ, t: t, data: data}
}

// finishObject ends a response decoder: it returns the failure of m, if
// any, and leaves *dst unchanged for JSON null; otherwise it copies the
// object into *raw (the Raw field of out; nil for a type without one) and
// stores out in *dst. So on error, and for null, *dst is unchanged.
func finishObject[T any](m *members, dst, out *T, raw *json.RawMessage) error {
	if m.err != nil || m.null {
		return m.err
	}
	if raw != nil {
		*raw = cloneRaw(m.data)
	}
	*dst = *out
	return nil
}

// next advances to the next member; false at the end or after a failure.
func (m *members) next() bool {
	if m.err != nil {
		return false
	}
	k, v, ok := m.it.Next()
	if !ok {
		switch err := m.it.Err(); {
		case errors.Is(err, jsonscan.ErrTooDeep):
			// Valid JSON that no field of this package can hold: a type
			// error naming the field, as for any value that does not fit.
			m.err = &json.UnmarshalTypeError{
				Value: "value nested deeper than " + strconv.Itoa(jsonscan.MaxDepth) + " levels",
				Type:  m.t, Struct: m.typ, Field: string(k),
			}
		case err != nil:
			m.err = fmt.Errorf("types: decoding %s: %w", m.typ, err)
		}
		return false
	}
	m.key, m.raw = k, v
	return true
}

// keyIs reports whether the current key is k.
func (m *members) keyIs(k string) bool { return string(m.key) == k }

// fail records err for the current member.
func (m *members) fail(err error) {
	if m.err == nil {
		m.err = withField(err, m.typ, string(m.key))
	}
}

// skip checks the current value is valid JSON and ignores it.
func (m *members) skip() {
	if err := skipValid(m.raw); err != nil && m.err == nil {
		m.err = fmt.Errorf("types: decoding %s: %w", m.typ, err)
	}
}

func (m *members) uuid(dst *uuid.UUID) {
	id, _, err := parseUUID(m.raw)
	if err != nil {
		m.fail(err)
		return
	}
	*dst = id
}

// uuidPtr decodes a nullable id: nil for null and "".
func (m *members) uuidPtr(dst **uuid.UUID) {
	id, set, err := parseUUID(m.raw)
	if err != nil {
		m.fail(err)
		return
	}
	*dst = nil
	if set {
		*dst = &id
	}
}

// decimal decodes a money value and reports whether it carried one (not
// null or "").
func (m *members) decimal(dst *decimal.Decimal) (set bool) {
	d, set, err := parseDecimal(m.raw)
	if err != nil {
		m.fail(err)
		return false
	}
	*dst = d
	return set
}

func (m *members) time(dst *time.Time) {
	t, err := parseTime(m.raw)
	if err != nil {
		m.fail(err)
		return
	}
	*dst = t
}

var intType = reflect.TypeFor[int]()

// int decodes an integer as encoding/json does: a JSON number without
// fraction or exponent that fits an int; null gives 0.
func (m *members) int(dst *int) {
	raw := jsonscan.TrimSpace(m.raw)
	if string(raw) == "null" {
		*dst = 0
		return
	}
	if !jsonscan.ValidNumber(raw) {
		m.fail(typeError(raw, intType))
		return
	}
	n, err := strconv.ParseInt(string(raw), 10, 0)
	if err != nil {
		m.fail(typeError(raw, intType))
		return
	}
	*dst = int(n)
}

// nullableString decodes a string that may be null: nil for null.
func (m *members) nullableString(dst **string) {
	raw := jsonscan.TrimSpace(m.raw)
	if string(raw) == "null" {
		*dst = nil
		return
	}
	s, ok := jsonscan.StringContent(raw)
	if !ok {
		m.fail(typeError(raw, stringType))
		return
	}
	v := string(s)
	*dst = &v
}

// memberValue decodes the current value into *dst with T's own
// UnmarshalJSON (a type of this package that checks its input itself).
// *dst is first reset to T's zero value, so that the last occurrence of a
// repeated key decides the field alone: a later null leaves the zero value
// (T's UnmarshalJSON alone would leave the earlier object, as
// encoding/json does for null), and a later object replaces the earlier
// one whole.
func memberValue[T any, P interface {
	*T
	json.Unmarshaler
}](m *members, dst *T) {
	var zero T
	*dst = zero
	if err := P(dst).UnmarshalJSON(m.raw); err != nil {
		m.fail(err)
	}
}

// memberJSON decodes the current value into *dst with encoding/json, for
// values without keys of their own (such as []string). *dst is first
// reset to its zero value, as in memberValue, so that the last occurrence
// of a repeated key decides the field alone: null gives the zero value and
// nothing of an earlier value is kept or merged into.
func memberJSON[T any](m *members, dst *T) {
	var zero T
	*dst = zero
	if err := json.Unmarshal(m.raw, dst); err != nil {
		m.fail(err)
	}
}

var stringType = reflect.TypeFor[string]()

// memberString decodes a string (or a string enum); null gives "".
func memberString[T ~string](m *members, dst *T) {
	raw := jsonscan.TrimSpace(m.raw)
	if string(raw) == "null" {
		*dst = ""
		return
	}
	s, ok := jsonscan.StringContent(raw)
	if !ok {
		m.fail(typeError(raw, reflect.TypeFor[T]()))
		return
	}
	*dst = T(s)
}

// memberList decodes an array of a type of this package that decodes
// itself, item by item in one pass, as encoding/json would: null gives
// nil, [] an empty slice, anything but an array a type error against []T,
// and an item's error is the member's. An item that is not valid JSON
// fails the member.
func memberList[T any, P interface {
	*T
	json.Unmarshaler
}](m *members, dst *[]T) {
	raw := jsonscan.TrimSpace(m.raw)
	switch {
	case string(raw) == "null":
		*dst = nil
		return
	case len(raw) == 0 || raw[0] != '[':
		m.fail(typeError(raw, reflect.TypeFor[[]T]()))
		return
	}
	list := make([]T, 0, 4)
	it := jsonscan.NewArrayIter(raw)
	for {
		item, ok := it.Next()
		if !ok {
			break
		}
		// Decoded in place: a local passed through P would move to the
		// heap, one allocation per item.
		var zero T
		list = append(list, zero)
		if err := P(&list[len(list)-1]).UnmarshalJSON(item); err != nil {
			m.fail(err)
			return
		}
	}
	if err := it.Err(); err != nil {
		if m.err == nil {
			m.err = fmt.Errorf("types: decoding %s: %w", m.typ, err)
		}
		return
	}
	*dst = list
}
