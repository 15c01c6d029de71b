package types

// The plans of the response decoder (codec.go): what compileType builds,
// once per type, from its fields and tags.

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// op is how one member's value is read.
type op uint8

const (
	opUUID       op = iota + 1 // uuid.UUID
	opUUIDPtr                  // *uuid.UUID: nil for null and ""
	opString                   // any string type: "" for null
	opStringPtr                // *string: nil for null
	opDecimal                  // decimal.Decimal
	opAmounts                  // map[string]decimal.Decimal, every value a decimal
	opTime                     // time.Time
	opInt                      // int
	opBool                     // bool: false for null
	opObject                   // a struct of this package, by its own plan
	opList                     // a slice of items
	opJSON                     // anything else, through encoding/json
	opDecimalPtr               // *decimal.Decimal: nil for null and ""
	opObjectMap                // map[string]T, T a struct of this package, by T's plan
	opStrings                  // []string: nil for null
)

// member is one member name a plan knows.
type member struct {
	key   string
	index int   // struct field index; unused for a capture
	op    op    // how the value is read
	sub   *plan // opObject: the plan of the nested struct
	group int   // the alias group this spelling belongs to, or -1
	alias bool  // this is the group's second spelling
	brand int   // the brand rule whose own member this is, or -1
	lifts []int // alias groups whose second spelling sits inside this object
	typ   reflect.Type
	// capture, when >= 0, makes this a member of a nested object that is the
	// second spelling of the parent's alias group capture: its value is
	// checked and kept in the parent's frame, not stored here.
	capture int
}

// brandRule is a brand=SUFFIX field.
type brandRule struct {
	suffix string
	index  int
}

// group is an alias group: a field with two spellings.
type group struct {
	member int // the member of the field's own name
	index  int // the field
}

// view is a fromrest field.
type view struct {
	key   string // the field's name
	index int
}

// plan is how one struct type decodes. It is built once and never changes.
type plan struct {
	members []member
	byKey   map[string]int
	raw     int // the raw field, or -1
	rest    int // the rest map field, or -1
	restSub *plan
	brands  []brandRule
	groups  []group
	views   []view
}

// Limits of one frame; compilePlan refuses a type that needs more.
const (
	maxGroups = 4
	maxBrands = 2
)

var (
	rawType     = reflect.TypeFor[json.RawMessage]()
	amountsType = reflect.TypeFor[map[string]decimal.Decimal]()
	uuidPtrType = reflect.TypeFor[*uuid.UUID]()
	strPtrType  = reflect.TypeFor[*string]()
	decPtrType  = reflect.TypeFor[*decimal.Decimal]()
	stringsType = reflect.TypeFor[[]string]()
)

// compilePlan builds the plan of struct type T. It panics on a field it
// cannot decode or a tag it does not understand: a mistake in this
// package, found when it is loaded.
func compilePlan[T any]() *plan {
	return compileType(reflect.TypeFor[T]())
}

func compileType(t reflect.Type) *plan {
	if t.Kind() != reflect.Struct {
		panic("types: cannot compile a decoder for " + t.String())
	}
	p := &plan{byKey: map[string]int{}, raw: -1, rest: -1}
	type pendingAlias struct{ name, target string }
	var aliases []pendingAlias
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		opts := tagOptions(f.Tag.Get("fiatramp"))
		switch {
		case opts["raw"] != "":
			if f.Type != rawType {
				panic("types: raw field " + t.Name() + "." + f.Name + " is not a json.RawMessage")
			}
			p.raw = i
			continue
		case opts["rest"] != "":
			p.rest = i
			if e := f.Type.Elem(); e.Kind() == reflect.Struct && e != decimalType {
				p.restSub = compileType(e)
			} else if f.Type != amountsType {
				panic("types: rest field " + t.Name() + "." + f.Name + " holds neither decimals nor objects")
			}
			continue
		case opts["fromrest"] != "":
			p.views = append(p.views, view{key: name, index: i})
			continue
		case name == "" || name == "-":
			panic("types: field " + t.Name() + "." + f.Name + " has no member name")
		}
		m := member{key: name, index: i, op: opFor(f.Type), group: -1, brand: -1, capture: -1, typ: f.Type}
		switch m.op {
		case opObject:
			m.sub = compileType(f.Type)
		case opObjectMap:
			m.sub = compileType(f.Type.Elem())
		}
		if s := opts["brand"]; s != "" {
			if m.op != opDecimal || len(p.brands) == maxBrands {
				panic("types: brand field " + t.Name() + "." + f.Name + " is not a decimal, or one too many")
			}
			m.brand = len(p.brands)
			p.brands = append(p.brands, brandRule{suffix: s, index: i})
		}
		if a := opts["alias"]; a != "" {
			aliases = append(aliases, pendingAlias{name: a, target: name})
		}
		p.add(m)
	}
	if len(p.brands) > 0 && (p.rest < 0 || p.restSub != nil) {
		panic("types: brand fields of " + t.Name() + " need a rest map of decimals")
	}
	if len(p.views) > 0 && (p.rest < 0 || p.restSub == nil) {
		panic("types: fromrest fields of " + t.Name() + " need a rest map of objects")
	}
	for _, a := range aliases {
		p.addAlias(t, a.name, a.target)
	}
	return p
}

// add records m under its key.
func (p *plan) add(m member) {
	if _, dup := p.byKey[m.key]; dup {
		panic("types: member " + m.key + " named twice")
	}
	p.byKey[m.key] = len(p.members)
	p.members = append(p.members, m)
}

// addAlias makes name a second spelling of the member target.
func (p *plan) addAlias(t reflect.Type, name, target string) {
	if len(p.groups) == maxGroups {
		panic("types: too many aliases in " + t.Name())
	}
	g := len(p.groups)
	own := &p.members[p.byKey[target]]
	own.group = g
	p.groups = append(p.groups, group{member: p.byKey[target], index: own.index})
	alias := *own
	alias.alias = true
	alias.brand = -1
	obj, inner, nested := strings.Cut(name, ".")
	if !nested {
		alias.key = name
		p.add(alias)
		return
	}
	// The second spelling is a member of the object member obj: that
	// member decodes with a copy of its plan that also captures inner.
	i, ok := p.byKey[obj]
	if !ok || p.members[i].op != opObject {
		panic("types: alias " + name + " of " + t.Name() + " names no object member")
	}
	parent := &p.members[i]
	sub := *parent.sub
	sub.members = append([]member(nil), sub.members...)
	sub.byKey = make(map[string]int, len(parent.sub.byKey)+1)
	for k, v := range parent.sub.byKey {
		sub.byKey[k] = v
	}
	alias.key, alias.group, alias.capture = inner, -1, g
	sub.add(alias)
	parent.sub = &sub
	parent.lifts = append(parent.lifts, g)
}

// tagOptions parses a fiatramp tag: "raw,alias=x" gives raw:"raw", alias:"x".
func tagOptions(tag string) map[string]string {
	opts := map[string]string{}
	for _, o := range strings.Split(tag, ",") {
		if o == "" {
			continue
		}
		k, v, ok := strings.Cut(o, "=")
		if !ok {
			v = k
		}
		switch k {
		case "raw", "alias", "brand", "rest", "fromrest":
		default:
			panic("types: unknown fiatramp tag option " + strconv.Quote(o))
		}
		opts[k] = v
	}
	return opts
}

// opFor picks how a field of type t is read.
func opFor(t reflect.Type) op {
	switch t {
	case uuidType:
		return opUUID
	case uuidPtrType:
		return opUUIDPtr
	case decimalType:
		return opDecimal
	case timeType:
		return opTime
	case strPtrType:
		return opStringPtr
	case amountsType:
		return opAmounts
	case intType:
		return opInt
	case boolType:
		return opBool
	case decPtrType:
		return opDecimalPtr
	case stringsType:
		return opStrings
	}
	switch t.Kind() {
	case reflect.Map:
		if e := t.Elem(); t.Key().Kind() == reflect.String && e.Kind() == reflect.Struct && e != decimalType && e != timeType {
			return opObjectMap
		}
	case reflect.String:
		return opString
	case reflect.Struct:
		return opObject
	case reflect.Slice:
		if k := t.Elem().Kind(); k == reflect.Struct || k == reflect.Pointer {
			return opList
		}
	}
	return opJSON
}
