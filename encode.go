package fiatramp

import (
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Each request body the library sends is written by one encoder, straight
// in its canonical form: members in code-point order of their keys, no
// white space, strings escaped as the service's Python json.dumps escapes
// them (non-ASCII as lowercase \uXXXX). The bytes written are the bytes
// signed and sent; TestRequestBytesGolden pins them.
//
// The encoder of a request type is compiled once, when the package is
// loaded, from the type's fields and tags: the json tag names the member
// (",omitempty" leaves out an empty string); the field's type says how the
// value is written: uuid.UUID as its string, string types escaped, bool,
// decimal.Decimal as a string of exactly its own digits (2600.50 stays
// "2600.50", no exponent, whatever decimal's package-level switches say),
// a []string as an array of strings ([] when nil), a struct as a nested
// object and a map[string]string as an object of strings in key order ({}
// for a nil map). ",omitempty" leaves out an empty string or a false bool.
// The tag option fiatramp:"lower" sends a
// string in lower case.
//
// An encoder is declared one way, right before the method that sends it,
// in that method's file: var xBody = compileBody[T]().

// bodyKind is how one member's value is written.
type bodyKind uint8

const (
	bodyUUID bodyKind = iota + 1
	bodyString
	bodyBool
	bodyDecimal
	bodyNested
	bodyStrings   // []string, written as an array ([] when nil)
	bodyStringMap // map[string]string: an object, keys in code-point order, {} for nil
)

// bodyMember is one member of a body, in the order it is written.
type bodyMember struct {
	key       string
	index     int // struct field index
	kind      bodyKind
	omitEmpty bool // leave out an empty string or a false bool
	lower     bool // write a string in lower case
	sub       *bodyObject
}

// bodyObject writes one struct as a JSON object. It never changes once
// compiled.
type bodyObject struct {
	members []bodyMember // sorted by key
	size    int          // bytes written, strings' contents aside
}

var (
	bodyUUIDType    = reflect.TypeFor[uuid.UUID]()
	bodyDecimalType = reflect.TypeFor[decimal.Decimal]()
)

// compileBody returns the encoder of request type T. It panics on a field
// it cannot write: a mistake of this package, found when it is loaded.
func compileBody[T any]() func(T) []byte {
	obj := compileBodyObject(reflect.TypeFor[T]())
	return func(v T) []byte {
		rv := reflect.ValueOf(&v).Elem()
		b := make([]byte, 0, obj.size+obj.textLen(rv))
		return obj.write(b, rv)
	}
}

func compileBodyObject(t reflect.Type) *bodyObject {
	obj := &bodyObject{size: 2}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !plainKey(name) {
			panic("fiatramp: request field " + t.Name() + "." + f.Name + " has no plain member name")
		}
		m := bodyMember{key: name, index: i, omitEmpty: opts == "omitempty", lower: f.Tag.Get("fiatramp") == "lower"}
		obj.size += len(name) + 4 // quotes, colon, comma
		switch {
		case f.Type == bodyUUIDType:
			m.kind = bodyUUID
			obj.size += 38
		case f.Type == bodyDecimalType:
			m.kind = bodyDecimal
			obj.size += 32
		case f.Type.Kind() == reflect.String:
			m.kind = bodyString
			obj.size += 2
		case f.Type.Kind() == reflect.Bool:
			m.kind = bodyBool
			obj.size += 5
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
			m.kind = bodyStrings
			obj.size += 2
		case f.Type == reflect.TypeFor[map[string]string]():
			m.kind = bodyStringMap
		case f.Type.Kind() == reflect.Struct:
			m.kind = bodyNested
			m.sub = compileBodyObject(f.Type)
			obj.size += m.sub.size
		default:
			panic("fiatramp: cannot write request field " + t.Name() + "." + f.Name)
		}
		if (m.omitEmpty && m.kind != bodyString && m.kind != bodyBool) || (m.lower && m.kind != bodyString) {
			panic("fiatramp: omitempty or lower on request field " + t.Name() + "." + f.Name + ", which is not a string (or, for omitempty, a bool)")
		}
		obj.members = append(obj.members, m)
	}
	sort.Slice(obj.members, func(i, j int) bool { return obj.members[i].key < obj.members[j].key })
	for i := 1; i < len(obj.members); i++ {
		if obj.members[i].key == obj.members[i-1].key {
			panic("fiatramp: request member " + obj.members[i].key + " named twice in " + t.Name())
		}
	}
	return obj
}

// plainKey reports whether key is written as it is in canonical JSON:
// printable ASCII without quote or backslash. Byte order is then code-point
// order.
func plainKey(key string) bool {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// textLen is the length of the strings v holds, for sizing the buffer.
func (o *bodyObject) textLen(v reflect.Value) int {
	n := 0
	for i := range o.members {
		m := &o.members[i]
		switch m.kind {
		case bodyString:
			n += v.Field(m.index).Len()
		case bodyNested:
			n += m.sub.textLen(v.Field(m.index))
		case bodyStrings:
			for i, l := 0, v.Field(m.index); i < l.Len(); i++ {
				n += l.Index(i).Len() + 3 // quotes and comma
			}
		case bodyStringMap:
			iter := v.Field(m.index).MapRange()
			for iter.Next() {
				n += iter.Key().Len() + iter.Value().Len() + 6
			}
		}
	}
	return n
}

// write appends the object v to b.
func (o *bodyObject) write(b []byte, v reflect.Value) []byte {
	b = append(b, '{')
	first := true
	for i := range o.members {
		m := &o.members[i]
		f := v.Field(m.index)
		if m.omitEmpty && (m.kind == bodyBool && !f.Bool() || m.kind == bodyString && f.Len() == 0) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, m.key...)
		b = append(b, '"', ':')
		switch m.kind {
		case bodyUUID:
			b = appendUUID(b, *f.Addr().Interface().(*uuid.UUID))
		case bodyString:
			s := f.String()
			if m.lower {
				s = strings.ToLower(s)
			}
			b = appendPyString(b, s)
		case bodyBool:
			if f.Bool() {
				b = append(b, "true"...)
			} else {
				b = append(b, "false"...)
			}
		case bodyDecimal:
			d := *f.Addr().Interface().(*decimal.Decimal)
			b = appendPyString(b, d.StringFixed(max(0, -d.Exponent())))
		case bodyNested:
			b = m.sub.write(b, f)
		case bodyStrings:
			b = append(b, '[')
			for i := 0; i < f.Len(); i++ {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendPyString(b, f.Index(i).String())
			}
			b = append(b, ']')
		case bodyStringMap:
			b = appendStringMap(b, f)
		}
	}
	return append(b, '}')
}

// appendStringMap appends a map[string]string as a JSON object, its keys
// in code-point order (UTF-8 byte order is code-point order), as canonical
// JSON wants; a nil map is {}.
func appendStringMap(b []byte, f reflect.Value) []byte {
	m := f.Interface().(map[string]string)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPyString(b, k)
		b = append(b, ':')
		b = appendPyString(b, m[k])
	}
	return append(b, '}')
}

// appendUUID appends id as a JSON string in its canonical lower-case form.
func appendUUID(b []byte, id uuid.UUID) []byte {
	b = append(b, '"')
	for i, x := range id {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hexDigits[x>>4], hexDigits[x&0xf])
	}
	return append(b, '"')
}

// appendPyString appends s as a JSON string the way Python's json.dumps
// (ensure_ascii) writes it. Each byte of invalid UTF-8 becomes U+FFFD, as
// encoding/json makes it.
func appendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			b = appendEscaped(b, rune(c))
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = appendEscaped(b, r)
		i += size
	}
	return append(b, '"')
}
