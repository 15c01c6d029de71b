package types

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
)

// This file and codec_plan.go are the one decoder of the response types.
// Each type's decoding is compiled once, at package initialization, from
// its struct fields and their tags into an immutable plan (codec_plan.go);
// UnmarshalJSON hands the data to it (this file).
//
// A field's `json` tag names its member, matched exactly (case-sensitively).
// The field's type picks how its value is read: uuid.UUID, *uuid.UUID,
// decimal.Decimal, *decimal.Decimal (nil for null and ""), time.Time,
// string types, *string, int, bool, a struct of this package (decoded in
// place by its own plan), a map of such structs by string keys (each
// value by the struct's plan), []string, a slice of items (each
// decoded by its own UnmarshalJSON, or by encoding/json), a map of amounts
// (map[string]decimal.Decimal, every value a decimal) and, for any other
// type, encoding/json. A `fiatramp` tag adds, comma-separated:
//
//	raw            the field (json.RawMessage) receives a copy of the whole object
//	alias=NAME     NAME is a second spelling of the member: the member's own
//	               name wins unless its value is null or "" (or it is absent)
//	alias=OBJ.NAME the same, NAME being a member of the object member OBJ
//	brand=SUFFIX   an undocumented decimal member <word>_SUFFIX (or, as an
//	               older edition wrote it, <word>_SUFFIXs) fills this
//	               field unless the field's own member is present (Fees)
//	rest           a map receiving every member no other field takes, when its
//	               value fits the map's element type (Fees.Other), at most
//	               MaxOtherMembers entries: one more is a *json.UnmarshalTypeError
//	fromrest       a pointer set from the rest map's entry of the field's name
//
// Whatever the field, when a member repeats its last occurrence alone decides
// (each occurrence sets the whole field, null giving the zero value), and a
// value that does not fit is a *json.UnmarshalTypeError naming the type and
// the field path, never a panic.

// groupState is what an alias group has seen in one object: the last value
// of each spelling, and the value last decoded into the field.
type groupState struct {
	own, alias, last []byte
}

// brandSlot tracks the brand members of one rule in one object.
type brandSlot struct {
	explicit bool            // the field's own member was present
	key      []byte          // first brand member seen, nil if none
	value    decimal.Decimal // its value
	set      bool            // its value was not null or ""
}

// frame is the state of one object being decoded.
type frame struct {
	groups [maxGroups]groupState
	brands [maxBrands]brandSlot
	key    reflect.Value // a string, reused for rest map keys
	elem   reflect.Value // a rest map element, reused
	own    bool          // the object lies in an enclosing Raw's copy
}

// planned is a type of this package that decodes with a plan: its
// pointer's plan method returns the plan, which its UnmarshalJSON (decode)
// uses. A list of such items inside a result with a Raw (a page's results)
// is decoded with the same plan directly (decodeList), so that each item's
// Raw is a part of the result's copy: having the plan is what lets a type
// be decoded at all, so no type can be left out.
type planned interface{ plan() *plan }

// decode is every UnmarshalJSON of this package: it decodes the JSON object
// data into *dst with dst's own plan. JSON null leaves *dst unchanged; so
// does an error.
func decode[T any, P interface {
	*T
	planned
}](dst P, data []byte) error {
	return decodeWith(dst.plan(), (*T)(dst), data)
}

// decodeWith decodes the JSON object data into *dst with plan p, as decode
// does; a type with no UnmarshalJSON of its own (a wrapped form) uses it
// directly.
func decodeWith[T any](p *plan, dst *T, data []byte) error {
	if null, err := nullOrObject(data, reflect.TypeFor[T]()); err != nil || null {
		return err
	}
	own := false
	if p.raw >= 0 {
		// One copy of the object, owned by the result: Raw is all of it,
		// and every Raw nested inside is a part of it.
		data, own = cloneRaw(data), true
	}
	saved := *dst
	var zero T
	*dst = zero
	if err := p.object(reflect.ValueOf(dst).Elem(), data, nil, own); err != nil {
		*dst = saved
		return err
	}
	return nil
}

// object decodes the JSON object (or null) data into v, which holds its
// zero value. outer is the frame of the enclosing object, for members
// captured into its alias groups. own says data lies in the copy that
// an enclosing Raw holds: a Raw of v (or of an object inside it) is then a
// part of that copy rather than a copy of its own.
func (p *plan) object(v reflect.Value, data []byte, outer *frame, own bool) error {
	if null, err := nullOrObject(data, v.Type()); err != nil || null {
		return err
	}
	fr := frame{own: own}
	it := jsonscan.NewObjectIter(data)
	for {
		key, raw, ok := it.Next()
		if !ok {
			if err := it.Err(); err != nil {
				return iterError(err, v.Type(), key)
			}
			break
		}
		if err := p.member(v, &fr, outer, key, raw); err != nil {
			if sf, ok := err.(scanFailure); ok {
				// An array or object inside the member could not be read.
				name := typeName(v.Type())
				if sf.named {
					name += "." + string(key)
				}
				return fmt.Errorf("types: decoding %s: %w", name, sf.err)
			}
			return withField(err, typeName(v.Type()), string(key))
		}
	}
	return p.finish(v, &fr, data)
}

// iterError is the error for an object or array that could not be read.
func iterError(err error, t reflect.Type, key []byte) error {
	if err == jsonscan.ErrTooDeep {
		// Valid JSON that no field of this package can hold: a type error
		// naming the member, as for any value that does not fit.
		return &json.UnmarshalTypeError{
			Value: "value nested deeper than " + strconv.Itoa(jsonscan.MaxDepth) + " levels",
			Type:  t, Struct: typeName(t), Field: string(key),
		}
	}
	return fmt.Errorf("types: decoding %s: %w", typeName(t), err)
}

// scanFailure is the error of a member whose array (named false) or object
// of amounts (named true) could not be read; object names it.
type scanFailure struct {
	err   error
	named bool
}

func (s scanFailure) Error() string { return s.err.Error() }

// member decodes one member of the object v.
func (p *plan) member(v reflect.Value, fr, outer *frame, key, raw []byte) error {
	i, known := p.byKey[string(key)]
	if !known {
		return p.other(v, fr, key, raw)
	}
	m := &p.members[i]
	if m.capture >= 0 {
		if err := decodeValue(m, reflect.New(m.typ).Elem(), raw, fr); err != nil {
			return err
		}
		outer.groups[m.capture].alias = raw
		return nil
	}
	if m.brand >= 0 {
		fr.brands[m.brand].explicit = true
	}
	for _, g := range m.lifts {
		fr.groups[g].alias = nil
	}
	fv := v.Field(m.index)
	if m.group >= 0 {
		g := &fr.groups[m.group]
		if !m.alias {
			g.own = raw
		} else if g.alias = raw; g.own != nil && !blank(g.own) {
			// The own spelling wins: the value is checked, not stored.
			return decodeValue(m, reflect.New(m.typ).Elem(), raw, fr)
		}
		g.last = raw
	}
	return decodeValue(m, fv, raw, fr)
}

// finish settles what depends on the whole object: alias groups, brand
// members, an empty rest map, and Raw.
func (p *plan) finish(v reflect.Value, fr *frame, data []byte) error {
	for i, g := range p.groups {
		st := &fr.groups[i]
		win := st.own
		if (win == nil || blank(win)) && st.alias != nil {
			win = st.alias
		}
		if win == nil || sameBytes(win, st.last) {
			continue
		}
		fv := v.Field(g.index)
		fv.SetZero()
		if err := decodeValue(&p.members[g.member], fv, win, fr); err != nil {
			return withField(err, typeName(v.Type()), p.members[g.member].key)
		}
	}
	for i, b := range p.brands {
		if err := p.resolve(v, &fr.brands[i], b.index); err != nil {
			return err
		}
	}
	if p.rest >= 0 {
		rest := v.Field(p.rest)
		if rest.Len() == 0 {
			rest.SetZero()
		}
	}
	if p.raw >= 0 {
		v.Field(p.raw).SetBytes(ownRaw(data, fr.own))
	}
	return nil
}

// other decodes a member no field is named for: a brand member, a member
// of the rest map, or one that is skipped.
func (p *plan) other(v reflect.Value, fr *frame, key, raw []byte) error {
	for i, b := range p.brands {
		if isBrandKey(key, b.suffix) {
			return p.brand(v, &fr.brands[i], key, raw)
		}
	}
	if p.rest < 0 {
		return skip(v.Type(), raw)
	}
	rest := v.Field(p.rest)
	if p.restSub == nil {
		// A map of decimals keeps the members that are decimals.
		d, set, err := parseDecimal(raw)
		if err != nil {
			delete(*amounts(rest), string(key))
			return skip(v.Type(), raw)
		}
		if set && restFull(rest, key) {
			return tooManyOthers(v.Type(), rest.Type())
		}
		setAmount(rest, key, d, set)
		return nil
	}
	// A map of objects keeps the members that are objects, and a fromrest
	// field follows the entry of its name.
	view := -1
	for _, w := range p.views {
		if w.key == string(key) {
			view = w.index
		}
	}
	if raw[0] != '{' {
		if !rest.IsNil() {
			rest.SetMapIndex(fr.mapKey(key), reflect.Value{})
		}
		if view >= 0 {
			v.Field(view).SetZero()
		}
		return skip(v.Type(), raw)
	}
	if restFull(rest, key) {
		return tooManyOthers(v.Type(), rest.Type())
	}
	var ptr, e reflect.Value
	if view >= 0 {
		ptr = reflect.New(rest.Type().Elem())
		e = ptr.Elem()
	} else {
		e = fr.mapElem(rest.Type().Elem())
	}
	if err := p.restSub.object(e, raw, fr, fr.own); err != nil {
		return err
	}
	if rest.IsNil() {
		rest.Set(reflect.MakeMap(rest.Type()))
	}
	rest.SetMapIndex(fr.mapKey(key), e)
	if view >= 0 {
		v.Field(view).Set(ptr)
	}
	return nil
}

// mapKey returns key as a value for a rest map, reusing one string value
// per object.
func (fr *frame) mapKey(key []byte) reflect.Value {
	if !fr.key.IsValid() {
		fr.key = reflect.New(stringType).Elem()
	}
	fr.key.SetString(string(key))
	return fr.key
}

// mapElem returns a zero value of t for a rest map's element, reusing one
// per object (the map keeps a copy).
func (fr *frame) mapElem(t reflect.Type) reflect.Value {
	if !fr.elem.IsValid() {
		fr.elem = reflect.New(t).Elem()
	} else {
		fr.elem.SetZero()
	}
	return fr.elem
}

// brand records a brand member in slot. The first brand member of the
// object holds the slot; a repeat of it updates the slot, and any other
// lands in the rest map.
func (p *plan) brand(v reflect.Value, slot *brandSlot, key, raw []byte) error {
	d, set, err := parseDecimal(raw)
	if err != nil {
		return err
	}
	switch {
	case slot.key == nil:
		slot.key, slot.value, slot.set = key, d, set
	case string(slot.key) == string(key):
		slot.value, slot.set = d, set
	default:
		if set && restFull(v.Field(p.rest), key) {
			return tooManyOthers(v.Type(), v.Field(p.rest).Type())
		}
		setAmount(v.Field(p.rest), key, d, set)
	}
	return nil
}

// resolve settles a brand slot: its value fills the field unless the
// field's own member was present, in which case it moves to the rest map
// (within MaxOtherMembers, as every member of that map).
func (p *plan) resolve(v reflect.Value, slot *brandSlot, index int) error {
	switch {
	case slot.key == nil:
	case !slot.explicit:
		*v.Field(index).Addr().Interface().(*decimal.Decimal) = slot.value
	case slot.set:
		if restFull(v.Field(p.rest), slot.key) {
			return withField(tooManyOthers(v.Type(), v.Field(p.rest).Type()), typeName(v.Type()), string(slot.key))
		}
		setAmount(v.Field(p.rest), slot.key, slot.value, true)
	}
	return nil
}

// amounts returns the map of decimals that rest holds.
func amounts(rest reflect.Value) *map[string]decimal.Decimal {
	return rest.Addr().Interface().(*map[string]decimal.Decimal)
}

// MaxOtherMembers is how many entries a map of undocumented members
// (Fees.Other, PrefundedFees.Other, AdditionalInfoRequired.Fields,
// Configuration.Fiats, AssetLimits.ByMethod) holds at most. The service
// documents ten fee keys, a handful of KYC options, fiats and payment
// methods; an
// object with more undocumented members than this is not an answer of the
// service, and reading it into a map would let whoever answers make every
// decode cost as much as its body allows. Decoding such an object fails
// with a *json.UnmarshalTypeError naming the first member over the cap (a
// client call reports it as a malformed response). A member that repeats
// counts once; a later null or non-matching value removes its entry.
const MaxOtherMembers = 64

// restFull reports whether the rest map holds MaxOtherMembers entries and
// none of them is key's.
func restFull(rest reflect.Value, key []byte) bool {
	if rest.Len() < MaxOtherMembers {
		return false
	}
	return !rest.MapIndex(reflect.ValueOf(string(key))).IsValid()
}

// tooManyOthers is the error of an object with more undocumented members
// than MaxOtherMembers; the decoder's path adds the member's name.
func tooManyOthers(t, restType reflect.Type) error {
	return &json.UnmarshalTypeError{
		Value:  "object with more than " + strconv.Itoa(MaxOtherMembers) + " undocumented members",
		Type:   restType,
		Struct: t.Name(),
	}
}

// setAmount stores a member bound for a rest map of decimals. The last
// value of a repeated member counts, so null or "" removes an earlier one.
func setAmount(rest reflect.Value, key []byte, d decimal.Decimal, set bool) {
	m := amounts(rest)
	if !set {
		delete(*m, string(key))
		return
	}
	if *m == nil {
		*m = make(map[string]decimal.Decimal)
	}
	(*m)[string(key)] = d
}

// isBrandKey reports whether key is <word>_suffix or, as an older edition
// wrote it, <word>_suffixs (acme_fees), word being one run of
// [a-z0-9] that does not start with "client" or "pg" (those name the
// client's and the payment gateway's own fees).
func isBrandKey(key []byte, suffix string) bool {
	word, ok := strings.CutSuffix(string(key), "_"+suffix)
	if !ok {
		// An older edition wrote the plural: <brand>_fees.
		word, ok = strings.CutSuffix(string(key), "_"+suffix+"s")
	}
	if !ok || word == "" {
		return false
	}
	for _, c := range []byte(word) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return !strings.HasPrefix(word, "client") && !strings.HasPrefix(word, "pg")
}

// skip checks a member value that no field takes.
func skip(t reflect.Type, raw []byte) error {
	if err := skipValid(raw); err != nil {
		return fmt.Errorf("types: decoding %s: %w", typeName(t), err)
	}
	return nil
}

// decodeValue decodes raw into fv, which it sets whole, as member m says.
func decodeValue(m *member, fv reflect.Value, raw []byte, fr *frame) error {
	switch m.op {
	case opUUID:
		id, _, err := parseUUID(raw)
		if err != nil {
			return err
		}
		*fv.Addr().Interface().(*uuid.UUID) = id
	case opUUIDPtr:
		id, set, err := parseUUID(raw)
		if err != nil {
			return err
		}
		dst := fv.Addr().Interface().(**uuid.UUID)
		*dst = nil
		if set {
			*dst = &id
		}
	case opString:
		s, null, err := parseString(raw, fv.Type())
		if err != nil {
			return err
		}
		if null {
			fv.SetString("")
		} else {
			fv.SetString(string(s))
		}
	case opStringPtr:
		s, null, err := parseString(raw, stringType)
		if err != nil {
			return err
		}
		dst := fv.Addr().Interface().(**string)
		*dst = nil
		if !null {
			v := string(s)
			*dst = &v
		}
	case opDecimal:
		d, _, err := parseDecimal(raw)
		if err != nil {
			return err
		}
		*fv.Addr().Interface().(*decimal.Decimal) = d
	case opAmounts:
		return decodeAmounts(fv, raw)
	case opTime:
		t, err := parseTime(raw)
		if err != nil {
			return err
		}
		*fv.Addr().Interface().(*time.Time) = t
	case opInt:
		n, err := parseInt(raw)
		if err != nil {
			return err
		}
		fv.SetInt(int64(n))
	case opBool:
		switch s := string(jsonscan.TrimSpace(raw)); s {
		case "true", "false", "null":
			fv.SetBool(s == "true")
		default:
			return typeError(raw, boolType)
		}
	case opObject:
		fv.SetZero()
		return m.sub.object(fv, raw, fr, fr.own)
	case opList:
		return decodeList(fv, raw, fr.own)
	case opDecimalPtr:
		d, set, err := parseDecimal(raw)
		if err != nil {
			return err
		}
		dst := fv.Addr().Interface().(**decimal.Decimal)
		*dst = nil
		if set {
			*dst = &d
		}
	case opObjectMap:
		return decodeObjectMap(m.sub, fv, raw, fr.own)
	case opStrings:
		return decodeStrings(fv, raw)
	default:
		fv.SetZero()
		return json.Unmarshal(raw, fv.Addr().Interface())
	}
	return nil
}
