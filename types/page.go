package types

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/fiatramp/fiatramp-go/internal/jsonscan"
)

// Page is one page of a list answered in the {count, next, previous,
// results} shape: the results of this page and the links to its
// neighbours. Every list of the service has this shape; BankAccountPage is
// the page of the bank account list.
type Page[T any] struct {
	// Count is the total number of items, over every page.
	Count int `json:"count"`
	// Next is the URL of the next page; nil when null or absent.
	Next *string `json:"next"`
	// Previous is the URL of the previous page; nil when null or absent.
	Previous *string `json:"previous"`
	// Results are the items of this page (nil when null or absent, empty
	// for []).
	Results []T `json:"results"`
	// Raw is a copy of the exact JSON object this page was decoded from.
	Raw json.RawMessage `json:"-"`
}

// BankAccountPage is one page of a customer's bank accounts, the data of
// GET /cms/api/v1/bank/list/{customer_id}.
type BankAccountPage = Page[BankAccountListItem]

// UnmarshalJSON decodes a page and keeps a copy of data in Raw. Each item
// of results is decoded by T's own UnmarshalJSON when it has one, by
// encoding/json otherwise. null leaves p unchanged; on error p is
// unchanged.
func (p *Page[T]) UnmarshalJSON(data []byte) error {
	var out Page[T]
	t := reflect.TypeFor[Page[T]]()
	m := objectMembers(typeName(t), t, data)
	for m.next() {
		switch string(m.key) {
		case "count":
			m.int(&out.Count)
		case "next":
			m.nullableString(&out.Next)
		case "previous":
			m.nullableString(&out.Previous)
		case "results":
			memberItems(&m, &out.Results)
		default:
			m.skip()
		}
	}
	return finishObject(&m, p, &out, &out.Raw)
}

// memberItems decodes an array of any item type, item by item in one pass,
// as encoding/json would: null gives nil, [] an empty slice, anything but
// an array a type error against []T.
func memberItems[T any](m *members, dst *[]T) {
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
		var zero T
		list = append(list, zero)
		var err error
		if u, own := any(&list[len(list)-1]).(json.Unmarshaler); own {
			err = u.UnmarshalJSON(item)
		} else {
			err = json.Unmarshal(item, &list[len(list)-1])
		}
		if err != nil {
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

// typeName is the name a decode error gives t: its Go name, with the
// package paths of its type arguments left out (Page[BankAccountListItem]).
func typeName(t reflect.Type) string {
	name := t.Name()
	out := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		out = append(out, c)
		if c == '[' || c == ',' {
			// Drop "path/to/pkg." up to the last '.' before the next ',' or ']'.
			j := i + 1
			for j < len(name) && name[j] != ',' && name[j] != ']' && name[j] != '[' {
				j++
			}
			seg := name[i+1 : j]
			if k := lastDot(seg); k >= 0 {
				i += k + 1
			}
		}
	}
	return string(out)
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}
