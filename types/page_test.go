package types_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPageResultsAsEncodingJSON pins the one-pass decoding of a page's
// results to what encoding/json makes of the same array: null, empty, an
// object, a bad item, a null item, and the field path of an item's error.
func TestPageResultsAsEncodingJSON(t *testing.T) {
	const item = `{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","type":"vpa","vpa":"a@b","status":"VERIFIED"}`
	for _, results := range []string{`null`, `[]`, `[` + item + `]`, `[` + item + `,null,` + item + `]`, `{}`, `"x"`, `[1]`, `[{"id":5}]`, `[` + item + `,{"status":[]}]`} {
		t.Run(results, func(t *testing.T) {
			var page types.BankAccountPage
			err := page.UnmarshalJSON([]byte(`{"count":1,"results":` + results + `}`))
			var want []types.BankAccountListItem
			wantErr := json.Unmarshal([]byte(results), &want)
			if wantErr != nil {
				require.Error(t, err)
				require.Contains(t, err.Error(), "cannot unmarshal "+wantErr.(*json.UnmarshalTypeError).Value+" ")
				var ute *json.UnmarshalTypeError
				require.ErrorAs(t, err, &ute)
				require.Equal(t, "Page[BankAccountListItem]", ute.Struct)
				wantField := "results"
				if f := wantErr.(*json.UnmarshalTypeError).Field; f != "" {
					wantField += "." + f
				}
				require.Equal(t, wantField, ute.Field)
				return
			}
			require.NoError(t, err)
			require.Equal(t, want == nil, page.Results == nil, "nil for null, empty for []")
			require.Len(t, page.Results, len(want))
			for i := range want {
				require.Equal(t, want[i].ID, page.Results[i].ID)
				require.Equal(t, string(want[i].Raw), string(page.Results[i].Raw))
			}
		})
	}
}

func FuzzBankAccountPage(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.BankAccountPage]{prior: bankPageJSON, hasRaw: true, check: checkBankAccountPage})
}

// checkBankAccountPage checks count and that each list item keeps its own
// object in Raw.
func checkBankAccountPage(t *testing.T, p *types.BankAccountPage, ms []member) {
	count := 0
	if vs := occurrences(ms, "count"); len(vs) > 0 {
		if err := json.Unmarshal(vs[len(vs)-1], &count); err != nil {
			t.Fatalf("count %s decoded: %v", vs[len(vs)-1], err)
		}
	}
	if p.Count != count {
		t.Fatalf("Count = %d, the input says %d", p.Count, count)
	}
	var items []json.RawMessage
	if vs := occurrences(ms, "results"); len(vs) > 0 {
		if err := json.Unmarshal(vs[len(vs)-1], &items); err != nil {
			t.Fatalf("results %s decoded: %v", vs[len(vs)-1], err)
		}
	}
	if (items == nil) != (p.Results == nil) || len(items) != len(p.Results) {
		t.Fatalf("Results has %d items (nil %t), the input %d (nil %t)", len(p.Results), p.Results == nil, len(items), items == nil)
	}
	for i, it := range items {
		if string(it) == "null" {
			continue
		}
		if string(p.Results[i].Raw) != string(it) {
			t.Fatalf("Results[%d].Raw = %q, the input has %q", i, p.Results[i].Raw, it)
		}
	}
}

// TestPageOfAnyItemType: a page of items without a decoder of their own
// reads them with encoding/json, under the same page rules.
func TestPageOfAnyItemType(t *testing.T) {
	var p types.Page[map[string]int]
	require.NoError(t, json.Unmarshal([]byte(`{"count":2,"next":"n","results":[{"a":1},null,{"b":2}],"results":[{"a":1},{"b":2}]}`), &p))
	require.Equal(t, 2, p.Count)
	require.Equal(t, "n", *p.Next)
	require.Nil(t, p.Previous)
	require.Equal(t, []map[string]int{{"a": 1}, {"b": 2}}, p.Results)
	require.JSONEq(t, `{"count":2,"next":"n","results":[{"a":1},null,{"b":2}],"results":[{"a":1},{"b":2}]}`, string(p.Raw))

	err := json.Unmarshal([]byte(`{"results":[{"a":"x"}]}`), &p)
	require.Error(t, err)
	require.Equal(t, 2, p.Count, "a failed decode leaves the page alone")
	var ute *json.UnmarshalTypeError
	require.ErrorAs(t, err, &ute)
	require.Equal(t, "Page[map[string]int]", ute.Struct)
}

// TestPageItemRawSharesThePageCopy pins that an item's Raw is its exact
// object, a part of the page's own copy (no second copy per item), clipped
// so that an append to it cannot write over the page, and that the page's
// copy is independent of the input.
func TestPageItemRawSharesThePageCopy(t *testing.T) {
	const a = `{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","email":"a@b.c"}`
	const b = `{ "id" : "2c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12" }`
	body := `{"count":2,"results":[` + a + `, ` + b + `]}`
	input := []byte(body)
	var page types.CustomerPage
	require.NoError(t, json.Unmarshal(input, &page))
	for i := range input {
		input[i] = 'x'
	}
	require.Equal(t, body, string(page.Raw), "the page's Raw must not alias the input")
	require.Len(t, page.Results, 2)
	for i, want := range []string{a, b} {
		raw := page.Results[i].Raw
		require.Equal(t, want, string(raw))
		require.Equal(t, len(raw), cap(raw), "item %d: capacity must be clipped", i)
		require.True(t, within(raw, page.Raw), "item %d: Raw must be a part of the page's copy", i)
	}
	// An append to an item's Raw leaves the page's copy as it was.
	_ = append(page.Results[0].Raw, "zzzz"...)
	require.Equal(t, body, string(page.Raw))

	// A customer decoded alone owns its copy.
	var c types.Customer
	require.NoError(t, json.Unmarshal([]byte(a), &c))
	require.Equal(t, a, string(c.Raw))
}

// TestEveryPageItemSharesThePageCopy: the items of every page type the
// services return (found by responseTypes) decode by their own plan, their
// Raw a part of the page's copy, with no list of item types kept by hand.
// An item type of another package, which has no plan here, owns a copy of
// its own: what a page of a type left out would cost.
func TestEveryPageItemSharesThePageCopy(t *testing.T) {
	const body = `{"count":1,"results":[{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12"}]}`
	pages := 0
	for name, v := range responseTypes() {
		if !strings.HasPrefix(name, "Page[") {
			continue
		}
		pages++
		require.NoError(t, json.Unmarshal([]byte(body), v), name)
		page := reflect.ValueOf(v).Elem()
		item := page.FieldByName("Results").Index(0).FieldByName("Raw").Bytes()
		assert.True(t, within(item, page.FieldByName("Raw").Bytes()), "%s: an item's Raw is a copy of its own", name)
	}
	require.GreaterOrEqual(t, pages, 4, "too few page types found")

	var foreign types.Page[foreignItem]
	require.NoError(t, json.Unmarshal([]byte(body), &foreign))
	assert.False(t, within(foreign.Results[0].Raw, foreign.Raw), "an item without a plan of the package owns its copy")
}

// foreignItem is a page item decoded by a plan of its own, outside the
// package's types.
type foreignItem struct {
	ID  string          `json:"id"`
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

func (f *foreignItem) UnmarshalJSON(data []byte) error { return types.DecodeAs(f, data) }

// within reports whether part lies in the memory of whole.
func within(part, whole []byte) bool {
	if len(part) == 0 || len(whole) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(&part[0]))
	w := uintptr(unsafe.Pointer(&whole[0]))
	return p >= w && p+uintptr(len(part)) <= w+uintptr(len(whole))
}

// TestPageItemsDecodeAsAlone pins that an item of a page decodes as the
// same object decoded alone (its UnmarshalJSON), though a page decodes it
// through its plan directly.
func TestPageItemsDecodeAsAlone(t *testing.T) {
	// Every type decoded by a plan is; these are the page items.
	pageItemsAsAlone[types.Customer](t, fuzzCustomerJSON)
	pageItemsAsAlone[types.Payout](t, fetchPayoutJSON)
	pageItemsAsAlone[types.Payin](t, payinFetchedJSON)
	pageItemsAsAlone[types.BankAccountListItem](t, fuzzBankItemJSON)
}

func pageItemsAsAlone[T any](t *testing.T, item string) {
	t.Helper()
	var alone T
	require.NoError(t, json.Unmarshal([]byte(item), &alone))
	var page types.Page[T]
	require.NoError(t, json.Unmarshal([]byte(`{"count":2,"results":[`+item+`,null]}`), &page))
	require.Len(t, page.Results, 2)
	require.Equal(t, alone, page.Results[0])
	var zero T
	require.Equal(t, zero, page.Results[1])

	// A bad item fails as it does alone.
	bad := `{"id":5}`
	errAlone := json.Unmarshal([]byte(bad), new(T))
	require.Error(t, errAlone)
	err := json.Unmarshal([]byte(`{"results":[`+bad+`]}`), &page)
	require.Error(t, err)
	require.Contains(t, err.Error(), "cannot unmarshal number 5 into Go struct field Page[")
	require.Contains(t, err.Error(), "].results.id of type uuid.UUID")
}
