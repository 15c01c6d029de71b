package sandbox

// The control plane's strict decoder: a request body is one JSON object
// whose members are the fields of the operation's input spelled exactly
// (the service's JSON readers are case-sensitive), and the checks of path
// ids, required members and durations in seconds shared by every group.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/google/uuid"
)

// decodeStrict decodes body, one JSON object, into v (a pointer to a
// struct): every member must be a field of v spelled exactly (the JSON
// readers of the service are case-sensitive); the last of duplicate
// members wins. It returns the names of the members present. An empty
// body is the empty object.
func decodeStrict(body []byte, v any) (map[string]bool, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil || members == nil {
		return nil, badField("", "the body must be one JSON object: %v", jsonProblem(err))
	}
	if err := checkKeys(body, reflect.TypeOf(v).Elem(), ""); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) && typ.Field != "" {
			field := fieldPath(typ.Field)
			return nil, badField(field, "%s: cannot read a JSON %s as %s", field, typ.Value, typ.Type)
		}
		// A value's own decoder refused it (a decimal, a time): find
		// which member holds it.
		fields := jsonFields(reflect.TypeOf(v).Elem())
		for name, raw := range members {
			if ft, ok := fields[name]; ok {
				if ferr := json.Unmarshal(raw, reflect.New(ft).Interface()); ferr != nil {
					return nil, badField(name, "%s: %v", name, ferr)
				}
			}
		}
		return nil, badField("", "the body is not valid: %v", err)
	}
	present := make(map[string]bool, len(members))
	for k := range members {
		present[k] = true
	}
	return present, nil
}

func jsonProblem(err error) string {
	if err == nil {
		return "got null"
	}
	return err.Error()
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// checkKeys refuses a member of the JSON value raw that type t does not
// name exactly, naming it by its path (path is the prefix, e.g.
// "organizations[0]."). Values of the wrong JSON kind are left to the
// decoder, which names them.
func checkKeys(raw []byte, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil
		}
		names := jsonFields(t)
		for k, v := range m {
			ft, ok := names[k]
			if !ok {
				msg := fmt.Sprintf("unknown field %q", k)
				if path != "" {
					msg = strings.TrimSuffix(path, ".") + ": " + msg
				}
				for name := range names {
					if strings.EqualFold(name, k) {
						msg += fmt.Sprintf(" (names are case-sensitive: %q)", name)
					}
				}
				return badField(path+k, "%s", msg)
			}
			if err := checkKeys(v, ft, path+k+"."); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		base := strings.TrimSuffix(path, ".")
		for i, item := range items {
			if err := checkKeys(item, t.Elem(), fmt.Sprintf("%s[%d].", base, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil
		}
		for k, v := range m {
			if err := checkKeys(v, t.Elem(), path+k+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonFields maps the JSON names of struct type t's fields (those of
// embedded structs included) to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				if _, shadowed := out[k]; !shadowed {
					out[k] = v
				}
			}
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		out[tag] = f.Type
	}
	return out
}

// require refuses the first of names missing from present.
func require(present map[string]bool, names ...string) error {
	for _, n := range names {
		if !present[n] {
			return badField(n, "%s is required", n)
		}
	}
	return nil
}

// pathID parses the id parameter of a path.
func pathID(what, s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil || len(s) != 36 {
		return uuid.Nil, &controlError{http.StatusBadRequest, "", fmt.Sprintf("%s id %q in the path is not a uuid", what, s)}
	}
	return id, nil
}

// seconds converts a duration given in seconds, refusing what no
// time.Duration holds.
func seconds(field string, v float64, allowNegative bool) (time.Duration, error) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > maxControlSeconds:
		return 0, badField(field, "%s: want a number of seconds within ±%d", field, maxControlSeconds)
	case v < 0 && !allowNegative:
		return 0, badField(field, "%s: %v is negative", field, v)
	}
	return time.Duration(math.Round(v * float64(time.Second))), nil
}
