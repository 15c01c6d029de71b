package sandbox

// Field reading: the request body decoded as the service's REST framework
// reads it, and its DRF-like field rules (required, null, blank, string,
// uuid, decimal from a string or a number, boolean, nested object), with
// the framework's own messages. These rules are the sandbox's own, written
// from the service's behaviour and not shared with the client: a second
// opinion on what a body must hold (see doc.go).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Parse caps, so that no body under maxRequestBody costs more than a
// linear pass. maxBodyDepth bounds the nesting of arrays and objects in a
// request body (Python's json gives up at roughly 1000 levels); a deeper
// body is a JSON parse error. maxDecimalLength is the longest text a
// decimal field is parsed from (the REST framework's DecimalField refuses a
// longer one as "String value too large."), and maxDecimalDigits the most
// digits a decimal may have in total once its exponent is written out, so
// that no comparison or sum of amounts grows a number with millions of
// digits.
const (
	maxBodyDepth     = 1000
	maxDecimalLength = 1000
	maxDecimalDigits = 1000
)

// decodeBody decodes a request body that must be a JSON object, nested no
// deeper than maxBodyDepth.
func decodeBody(raw []byte) (map[string]any, *reply) {
	if jsonDepth(raw) > maxBodyDepth {
		rep := refusal(http.StatusBadRequest, "", "JSON parse error.", nil)
		return nil, &rep
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		rep := refusal(http.StatusBadRequest, "", "JSON parse error.", nil)
		return nil, &rep
	}
	m, ok := v.(map[string]any)
	if !ok {
		rep := fieldRefusal(map[string][]string{"non_field_errors": {
			fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", jsonKind(v))}})
		return nil, &rep
	}
	return m, nil
}

// jsonDepth returns the deepest nesting of arrays and objects in the JSON
// text raw (brackets inside strings do not count), in one pass.
func jsonDepth(raw []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > deepest {
				deepest = depth
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// jsonKind names the Python type of a decoded JSON value, as the service's
// messages do.
func jsonKind(v any) string {
	switch t := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case json.Number:
		if strings.ContainsAny(t.String(), ".eE") {
			return "float"
		}
		return "int"
	case []any:
		return "list"
	}
	return "dict"
}

// Field error messages, in the REST framework's words, as the service
// sends them.
const (
	msgRequired = "This field is required."
	msgNull     = "This field may not be null."
	msgBlank    = "This field may not be blank."
	msgString   = "Not a valid string."
	msgUUID     = "Must be a valid UUID."
	msgNumber   = "A valid number is required."
	msgBool     = "Must be a valid boolean."
	msgTooLong  = "Ensure this field has no more than 255 characters."
	// msgDecimalText and msgDecimalDigits are the REST framework's
	// DecimalField refusals of an over-long text and of too many digits.
	msgDecimalText   = "String value too large."
	msgDecimalDigits = "Ensure that there are no more than %d digits in total."
)

// fields reads a JSON object's members and collects field errors under
// their dotted names (customer.sender.id).
type fields struct {
	prefix string
	m      map[string]any
	errs   map[string][]string // shared with nested fields
}

func newFields(m map[string]any) *fields {
	return &fields{m: m, errs: map[string][]string{}}
}

// fail files msg under field name.
func (f *fields) fail(name, msg string) {
	f.errs[f.prefix+name] = append(f.errs[f.prefix+name], msg)
}

// value returns member name; a null member counts as present.
func (f *fields) value(name string) (any, bool) {
	v, ok := f.m[name]
	return v, ok
}

// str reads a string member. A required one must be present, not null and
// not blank; an optional one may be absent or null (ok false).
func (f *fields) str(name string, required bool) (s string, ok bool) {
	v, present := f.value(name)
	switch {
	case !present && required:
		f.fail(name, msgRequired)
		return "", false
	case !present:
		return "", false
	case v == nil && required:
		f.fail(name, msgNull)
		return "", false
	case v == nil:
		return "", false
	}
	switch t := v.(type) {
	case string:
		s = t
	case json.Number:
		s = t.String() // the REST framework's CharField takes numbers
	default:
		f.fail(name, msgString)
		return "", false
	}
	if strings.TrimSpace(s) == "" && required {
		f.fail(name, msgBlank)
		return "", false
	}
	if moreRunesThan(s, 255) {
		f.fail(name, msgTooLong)
		return "", false
	}
	return s, true
}

// uuid reads a required uuid member.
func (f *fields) uuid(name string) uuid.UUID {
	v, present := f.value(name)
	if !present {
		f.fail(name, msgRequired)
		return uuid.Nil
	}
	if v == nil {
		f.fail(name, msgNull)
		return uuid.Nil
	}
	s, ok := v.(string)
	if !ok {
		f.fail(name, msgUUID)
		return uuid.Nil
	}
	id, err := uuid.Parse(s)
	if err != nil || len(s) != 36 && len(s) != 32 {
		f.fail(name, msgUUID)
		return uuid.Nil
	}
	return id
}

// decimal reads a required decimal member, from a string or a number.
func (f *fields) decimal(name string) decimal.Decimal {
	v, present := f.value(name)
	if !present {
		f.fail(name, msgRequired)
		return decimal.Zero
	}
	var s string
	switch t := v.(type) {
	case nil:
		f.fail(name, msgNull)
		return decimal.Zero
	case string:
		s = strings.TrimSpace(t)
	case json.Number:
		s = t.String()
	default:
		f.fail(name, msgNumber)
		return decimal.Zero
	}
	if len(s) > maxDecimalLength {
		f.fail(name, msgDecimalText)
		return decimal.Zero
	}
	d, err := decimal.NewFromString(s)
	if err != nil || s == "" {
		f.fail(name, msgNumber)
		return decimal.Zero
	}
	if decimalDigits(d) > maxDecimalDigits {
		f.fail(name, fmt.Sprintf(msgDecimalDigits, maxDecimalDigits))
		return decimal.Zero
	}
	return d
}

// decimalDigits counts d's digits in total as the REST framework's
// DecimalField does: the digits of its coefficient, plus the zeros its
// exponent adds before the point or after it.
func decimalDigits(d decimal.Decimal) int64 {
	n := int64(len(d.Coefficient().Text(10)))
	if d.Sign() < 0 {
		n-- // the sign
	}
	exp := int64(d.Exponent())
	switch {
	case exp >= 0:
		return n + exp
	case -exp > n:
		return -exp
	}
	return n
}

// moreRunesThan reports whether s has more than n characters, reading no
// further than character n+1.
func moreRunesThan(s string, n int) bool {
	if len(s) <= n {
		return false
	}
	count := 0
	for range s {
		if count++; count > n {
			return true
		}
	}
	return false
}

// boolean reads an optional boolean member; absent and null are false.
func (f *fields) boolean(name string) bool {
	v, present := f.value(name)
	if !present || v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		f.fail(name, msgBool)
	}
	return b
}

// object reads an object member. A required one must be present and not
// null. It returns nil when there is no usable object.
func (f *fields) object(name string, required bool) *fields {
	v, present := f.value(name)
	if !present || v == nil {
		switch {
		case !present && required:
			f.fail(name, msgRequired)
		case required:
			f.fail(name, msgNull)
		}
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		f.fail(name, fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", jsonKind(v)))
		return nil
	}
	return &fields{prefix: f.prefix + name + ".", m: m, errs: f.errs}
}

// refused returns the field refusal of what was read so far, or nil.
func (f *fields) refused() *reply {
	if len(f.errs) == 0 {
		return nil
	}
	rep := fieldRefusal(f.errs)
	return &rep
}
