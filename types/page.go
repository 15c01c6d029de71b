package types

import "encoding/json"

// Page is one page of a list answered in the {count, next, previous,
// results} shape: the items of this page and the links to its neighbours.
// Every list of the service has this shape; BankAccountPage is the page of
// the bank account list.
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
	// The Raw of each item of Results is the part of this copy holding the
	// item, not a copy of its own: read-only by convention (clone it to
	// change it).
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

// pagePlan decodes every Page[T]: the fields of a page do not depend on T
// but for the items of Results, which are decoded by T's own UnmarshalJSON
// (encoding/json for a T without one) whatever T is.
var pagePlan = compilePlan[Page[struct{}]]()

// UnmarshalJSON decodes a page and keeps a copy of data in Raw. null
// leaves p unchanged; on error p is unchanged.
func (p *Page[T]) UnmarshalJSON(data []byte) error { return decode(p, data) }

func (*Page[T]) plan() *plan { return pagePlan }
