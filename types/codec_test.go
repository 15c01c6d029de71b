package types_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unicode"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestNestingDepthCapped: a member that nests the object deeper than the
// scanner's cap is a type error naming the field, for known and unknown
// keys alike.
func TestNestingDepthCapped(t *testing.T) {
	// The object is the first level.
	deep := strings.Repeat("[", 64) + strings.Repeat("]", 64)
	ok := strings.Repeat("[", 63) + strings.Repeat("]", 63)
	for _, key := range []string{"unknown_key", "fees", "customer"} {
		var p types.PrefundedPayout
		err := json.Unmarshal([]byte(`{"id":null,"`+key+`":`+deep+`}`), &p)
		var ute *json.UnmarshalTypeError
		require.ErrorAs(t, err, &ute, key)
		require.Equal(t, key, ute.Field)
		require.Contains(t, err.Error(), "nested deeper than 64 levels")
	}
	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(`{"unknown_key":`+ok+`}`), &p))
	// 9,000 levels (encoding/json's own cap is 10,000): refused too.
	huge := strings.Repeat(`{"a":`, 9000) + "1" + strings.Repeat("}", 9000)
	err := json.Unmarshal([]byte(`{"x":`+huge+`}`), &p)
	require.ErrorContains(t, err, "nested deeper than 64 levels")
}

// responseTypes returns a fresh value of every result type, by its name:
// found by reflection, not kept by hand, from what the services' methods
// return (the Client's service fields) and what those results hold (list
// items, nested objects), each a struct of this package with a Raw field.
// TestResponseTypesAreEveryResultType checks that it misses none.
func responseTypes() map[string]any {
	out := make(map[string]any)
	seen := make(map[reflect.Type]bool)
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t.PkgPath() != rawType.PkgPath() || seen[t] {
			return
		}
		seen[t] = true
		if f, ok := t.FieldByName("Raw"); ok && f.Type == reflect.TypeFor[json.RawMessage]() {
			out[strings.TrimPrefix(t.String(), "types.")] = reflect.New(t).Interface()
		}
		for i := range t.NumField() {
			walk(t.Field(i).Type)
		}
	}
	client := reflect.TypeFor[fiatramp.Client]()
	for i := range client.NumField() {
		service := client.Field(i).Type
		if service.Kind() != reflect.Pointer || !strings.HasSuffix(service.Elem().Name(), "Service") {
			continue
		}
		for m := range service.NumMethod() {
			method := service.Method(m).Type
			for o := range method.NumOut() {
				walk(method.Out(o))
			}
		}
	}
	return out
}

// rawType is a result type, naming the package the walk looks in.
var rawType = reflect.TypeFor[types.Payout]()

// TestResponseTypesAreEveryResultType: every struct type of the package's
// source with a Raw field is one responseTypes finds, so that a result
// type no method returns yet, or one the walk cannot reach, is named here
// rather than left out of the tests that loop over them.
func TestResponseTypesAreEveryResultType(t *testing.T) {
	found := responseTypes()
	names := make(map[string]bool)
	for name := range found {
		base, _, _ := strings.Cut(name, "[")
		names[base] = true
	}
	require.Contains(t, found, "Payout")
	require.Contains(t, found, "Page[github.com/fiatramp/fiatramp-go/types.Customer]", "a page's type is found through its instantiation")
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	require.NoError(t, err)
	declared := 0
	for _, pkg := range pkgs {
		for _, file := range pkg.Files {
			for _, decl := range file.Decls {
				gen, ok := decl.(*ast.GenDecl)
				if !ok || gen.Tok != token.TYPE {
					continue
				}
				for _, spec := range gen.Specs {
					ts := spec.(*ast.TypeSpec)
					st, ok := ts.Type.(*ast.StructType)
					if !ok || !ast.IsExported(ts.Name.Name) {
						continue
					}
					for _, f := range st.Fields.List {
						if len(f.Names) == 1 && f.Names[0].Name == "Raw" {
							declared++
							assert.True(t, names[ts.Name.Name], "types.%s has a Raw but no service method returns it or a result holding it", ts.Name.Name)
						}
					}
				}
			}
		}
	}
	assert.Greater(t, declared, 20, "too few result types declared to have checked the walk")
}

func TestNonObjectDataIsATypeError(t *testing.T) {
	for name, v := range responseTypes() {
		for _, body := range []string{`"x"`, `1`, `true`, `[]`, `[{}]`} {
			err := json.Unmarshal([]byte(body), v)
			require.Error(t, err, "%s %s", name, body)
			var ute *json.UnmarshalTypeError
			require.ErrorAs(t, err, &ute, "%s %s", name, body)
			require.Equal(t, reflect.TypeOf(v).Elem(), ute.Type, "the error names the public type")
		}
	}
}

func TestNullDataLeavesValueUnchanged(t *testing.T) {
	for name, v := range responseTypes() {
		require.NoError(t, json.Unmarshal([]byte(`null`), v), name)
	}
	p := types.Payout{Asset: "USDT"}
	require.NoError(t, json.Unmarshal([]byte(`null`), &p))
	require.Equal(t, types.Payout{Asset: "USDT"}, p)
}

func TestWrongTypedFieldsAreErrors(t *testing.T) {
	cases := []struct {
		v     any
		body  string
		field string // expected path in the error, "Struct.field"
	}{
		{new(types.Payout), `{"id": 5}`, "Payout.id"},
		{new(types.Payout), `{"id": "not-a-uuid"}`, "Payout.id"},
		{new(types.Payout), `{"quotation_id": {}}`, "Payout.quotation_id"},
		{new(types.Payout), `{"asset": 1}`, "Payout.asset"},
		{new(types.Payout), `{"status": 1}`, "Payout.status"},
		{new(types.Payout), `{"client_reference_id": 7}`, "Payout.client_reference_id"},
		{new(types.Payout), `{"utr": false}`, "Payout.utr"},
		{new(types.Payout), `{"fees": "none"}`, "Payout.fees"},
		{new(types.Payout), `{"fees": {"pg_gst": "x"}}`, "Payout.fees.pg_gst"},
		{new(types.Payout), `{"fees": {"acme_fee": "x"}}`, "Payout.fees.acme_fee"},
		{new(types.PayinQuotation), `{"fees": {"acme_gst": {}}}`, "PayinQuotation.fees.acme_gst"},
		{new(types.PrefundedPayout), `{"fees": {"acme_fee": true}}`, "PrefundedPayout.fees.acme_fee"},
		{new(types.Payout), `{"receiveing_amount": [1]}`, "Payout.receiveing_amount"},
		{new(types.Payout), `{"updated_at": "soon"}`, "Payout.updated_at"},
		{new(types.PrefundedPayout), `{"customer": {"sender": {"id": 1}}}`, "PrefundedPayout.customer.sender.id"},
		{new(types.PrefundedPayout), `{"customer": {"receiver": "x"}}`, "PrefundedPayout.customer.receiver"},
		{new(types.PrefundedPayout), `{"customer": []}`, "PrefundedPayout.customer"},
		{new(types.PrefundedPayout), `{"fees": {"tds": {}}}`, "PrefundedPayout.fees.tds"},
		{new(types.PrefundedPayout), `{"network": 1}`, "PrefundedPayout.network"},
		{new(types.RemittancePayout), `{"remitter_id": "zzz"}`, "RemittancePayout.remitter_id"},
		{new(types.PayinQuotation), `{"deposit_instructions": "x"}`, "PayinQuotation.deposit_instructions"},
		{new(types.PayinQuotation), `{"deposit_instructions": {"ifsc": 1}}`, "PayinQuotation.deposit_instructions.ifsc"},
		{new(types.PayinQuotation), `{"deep_link": 1}`, "PayinQuotation.deep_link"},
		{new(types.PayinQuotation), `{"order_id": true}`, "PayinQuotation.order_id"},
		{new(types.Wallet), `{"wallet_status": []}`, "Wallet.wallet_status"},
		{new(types.BankAccount), `{"identifiers": {"ifsc": 1}}`, "BankAccount.identifiers.ifsc"},
		{new(types.BankAccountListItem), `{"vpa": 1}`, "BankAccountListItem.vpa"},
		{new(types.BankAccountPage), `{"count": "3"}`, "Page[BankAccountListItem].count"},
		{new(types.BankAccountPage), `{"count": 1.5}`, "Page[BankAccountListItem].count"},
		{new(types.BankAccountPage), `{"next": 1}`, "Page[BankAccountListItem].next"},
		{new(types.BankAccountPage), `{"results": {}}`, "Page[BankAccountListItem].results"},
		{new(types.BankAccountPage), `{"results": [{"id": 1}]}`, "Page[BankAccountListItem].results.id"},
		{new(types.KYCConfiguration), `{"supported_document_types": "AADHAAR"}`, "KYCConfiguration.supported_document_types"},
		{new(types.KYCConfiguration), `{"additional_info_required": {"options": "x"}}`, "KYCConfiguration.additional_info_required.options"},
		{new(types.KYCConfiguration), `{"additional_info_required": {"rules": {"min_required": "2"}}}`, "KYCConfiguration.additional_info_required.rules.min_required"},
		{new(types.KYCConfiguration), `{"additional_info_required": {"income_range": {"required": "yes"}}}`, "KYCConfiguration.additional_info_required.income_range.required"},
		{new(types.KYCConfiguration), `{"additional_info_required": []}`, "KYCConfiguration.additional_info_required"},
		{new(types.PayoutStatusSimulation), `{"payout_id": 1}`, "PayoutStatusSimulation.payout_id"},
		{new(types.KYCStatusSimulation), `{"status": 1}`, "KYCStatusSimulation.status"},
	}
	for _, tc := range cases {
		t.Run(tc.body, func(t *testing.T) {
			err := json.Unmarshal([]byte(tc.body), tc.v)
			require.Error(t, err)
			var ute *json.UnmarshalTypeError
			require.ErrorAs(t, err, &ute)
			// Go 1.23's encoding/json names a nested field decoded by a
			// TextUnmarshaler (uuid.UUID) by its parent's path; Go 1.24
			// and later by its own. Either names the field's object.
			msg := err.Error()
			if !strings.Contains(msg, "Go struct field "+tc.field+" ") {
				parent := tc.field[:strings.LastIndexByte(tc.field, '.')]
				require.True(t, strings.HasPrefix(runtime.Version(), "go1.23") && strings.Contains(parent, ".") &&
					strings.Contains(msg, "Go struct field "+parent+" of type uuid.UUID"),
					"%q does not name %s", msg, tc.field)
			}
		})
	}
}

func TestFailedDecodeLeavesValueUnchanged(t *testing.T) {
	p := types.Payout{Asset: "USDT"}
	require.Error(t, json.Unmarshal([]byte(`{"asset":"BTC","rate":"x"}`), &p))
	require.Equal(t, types.Payout{Asset: "USDT"}, p)
}

func TestDirectUnmarshalJSONOnMalformedInput(t *testing.T) {
	// UnmarshalJSON called directly gets no validation from encoding/json;
	// malformed bytes must give an error, never a panic.
	for _, body := range []string{``, `{`, `{"a"`, `{"a":`, `{"a":1`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `{"a":"1`, `{"a":[1}`, `{"tds":"\u00"}`, `{"\ud800":1,`} {
		require.Error(t, new(types.Fees).UnmarshalJSON([]byte(body)), body)
		require.Error(t, new(types.PrefundedFees).UnmarshalJSON([]byte(body)), body)
		require.Error(t, new(types.AdditionalInfoRequired).UnmarshalJSON([]byte(body)), body)
		for name, v := range responseTypes() {
			require.Error(t, v.(json.Unmarshaler).UnmarshalJSON([]byte(body)), "%s %q", name, body)
		}
	}
}

// rawOf returns the Raw field of *T v, the copy of the object it was
// decoded from: every result type of the package has one.
func rawOf(v any) json.RawMessage {
	f := reflect.ValueOf(v).Elem().FieldByName("Raw")
	if !f.IsValid() {
		panic(fmt.Sprintf("%T has no Raw field", v))
	}
	return f.Interface().(json.RawMessage)
}

func TestRawIsAnExactIndependentCopy(t *testing.T) {
	// Unknown fields, odd spacing, escapes and key order all survive in Raw.
	body := "{ \"id\" : \"6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b\",\n\t\"future_field\": {\"nested\": [1, 2.50, \"\\u00e9\"]}, \"status\":\"SUCCESS\" }"
	for name, v := range responseTypes() {
		data := []byte(body)
		require.NoError(t, json.Unmarshal(data, v), name)
		require.Equal(t, body, string(rawOf(v)), name)
		for i := range data {
			data[i] = 'x'
		}
		require.Equal(t, body, string(rawOf(v)), "%s: Raw must not alias the input", name)
	}
}

func TestRawOfEmbeddedData(t *testing.T) {
	// Decoded as part of an envelope, Raw holds exactly the data object.
	var env struct {
		Status bool         `json:"status"`
		Data   types.Wallet `json:"data"`
	}
	data := `{"id":"5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b","wallet_status":"ACTIVE"}`
	require.NoError(t, json.Unmarshal([]byte(`{"status": true, "message": "ok", "data": `+data+`}`), &env))
	require.Equal(t, data, string(env.Data.Raw))
	require.Equal(t, idWallet, env.Data.ID)
}

// Ids used by the hostile bodies below.
const (
	lwA = "11111111-1111-4111-8111-111111111111"
	lwB = "22222222-2222-4222-8222-222222222222"
	lwC = "33333333-3333-4333-8333-333333333333"
)

// The service reads JSON with Python's json.loads, where the last
// occurrence of a repeated key alone decides its value: a later null is
// None whatever came before, and a later object replaces an earlier one
// whole. Every decoder of types reads repeated keys the same way, at every
// level and for every kind of member.

// TestLastWinsNestedNullAndReplace pins the rule without python3: a later
// null nested object clears the field, and a later object replaces the
// earlier one rather than merging into it.
func TestLastWinsNestedNullAndReplace(t *testing.T) {
	t.Run("fees null", func(t *testing.T) {
		var p types.Payout
		require.NoError(t, json.Unmarshal([]byte(`{"fees":{"tds":1,"acme_fee":"2"},"fees":null}`), &p))
		assert.Equal(t, types.Fees{}, p.Fees)
	})
	t.Run("fees replaced", func(t *testing.T) {
		var p types.Payout
		require.NoError(t, json.Unmarshal([]byte(`{"fees":{"tds":1,"x":"3"},"fees":{"client_fee_fiat":2}}`), &p))
		assert.True(t, p.Fees.TDS.IsZero(), "tds of the earlier fees must not survive: %s", p.Fees.TDS)
		assert.Equal(t, "2", p.Fees.ClientFeeFiat.String())
		assert.Nil(t, p.Fees.Other, "Other of the earlier fees must not survive")
	})
	t.Run("prefunded fees null", func(t *testing.T) {
		var p types.PrefundedPayout
		require.NoError(t, json.Unmarshal([]byte(`{"fees":{"client_fee":"1"},"fees":null}`), &p))
		assert.Equal(t, types.PrefundedFees{}, p.Fees)
	})
	t.Run("identifiers null", func(t *testing.T) {
		var b types.BankAccount
		require.NoError(t, json.Unmarshal([]byte(`{"identifiers":{"ifsc":"HDFC0001234"},"identifiers":null}`), &b))
		assert.Equal(t, types.BankIdentifiers{}, b.Identifiers)
	})
	t.Run("identifiers replaced", func(t *testing.T) {
		var b types.BankAccount
		require.NoError(t, json.Unmarshal([]byte(`{"identifiers":{"ifsc":"HDFC0001234"},"identifiers":{"account_number":"1"}}`), &b))
		assert.Equal(t, types.BankIdentifiers{AccountNumber: "1"}, b.Identifiers)
	})
	t.Run("customer null", func(t *testing.T) {
		var p types.PrefundedPayout
		require.NoError(t, json.Unmarshal([]byte(`{"customer":{"sender":{"id":"`+lwA+`"}},"customer":null}`), &p))
		assert.Equal(t, types.PrefundedPayoutParties{}, p.Customer)
	})
	t.Run("additional info null", func(t *testing.T) {
		var c types.KYCConfiguration
		require.NoError(t, json.Unmarshal([]byte(`{"additional_info_required":{"options":["profession"],"rules":{"min_required":1}},"additional_info_required":null}`), &c))
		assert.Equal(t, types.AdditionalInfoRequired{}, c.AdditionalInfoRequired)
	})
	t.Run("requirement null", func(t *testing.T) {
		var a types.AdditionalInfoRequired
		require.NoError(t, json.Unmarshal([]byte(`{"income_range":{"required":true},"profession":{"required":true},"income_range":null,"profession":"x"}`), &a))
		assert.Nil(t, a.IncomeRange)
		assert.Nil(t, a.Profession)
		assert.Nil(t, a.Fields, "no requirement object is left")
	})
	t.Run("brand key null keeps its first position", func(t *testing.T) {
		var f types.Fees
		require.NoError(t, json.Unmarshal([]byte(`{"acme_fee":"1","zeta_fee":"5","acme_fee":null}`), &f))
		assert.True(t, f.ServiceFee.IsZero(), "acme_fee is first and its last value is null: %s", f.ServiceFee)
		assert.Equal(t, map[string]decimal.Decimal{"zeta_fee": decimal.RequireFromString("5")}, f.Other)
	})
	t.Run("explicit service_fee null still explicit", func(t *testing.T) {
		var f types.Fees
		require.NoError(t, json.Unmarshal([]byte(`{"acme_fee":"1","service_fee":"4","service_fee":null,"acme_fee":"7"}`), &f))
		assert.True(t, f.ServiceFee.IsZero(), "service_fee's last value is null: %s", f.ServiceFee)
		assert.Equal(t, map[string]decimal.Decimal{"acme_fee": decimal.RequireFromString("7")}, f.Other)
	})
	t.Run("receiving_amount later null falls back", func(t *testing.T) {
		var p types.Payout
		require.NoError(t, json.Unmarshal([]byte(`{"receiving_amount":"5","receiveing_amount":"7","receiving_amount":null}`), &p))
		assert.Equal(t, "7", p.ReceivingAmount.String())
		require.NoError(t, json.Unmarshal([]byte(`{"receiving_amount":null,"receiveing_amount":"7","receiving_amount":"5"}`), &p))
		assert.Equal(t, "5", p.ReceivingAmount.String())
	})
	t.Run("rules replaced", func(t *testing.T) {
		var a types.AdditionalInfoRequired
		require.NoError(t, json.Unmarshal([]byte(`{"rules":{"type":"allOf","min_required":2},"rules":{"min_required":1},"options":["x"],"options":null}`), &a))
		assert.Equal(t, types.AdditionalInfoRules{MinRequired: 1}, a.Rules)
		assert.Nil(t, a.Options)
	})
}

// TestLastWinsErrorsKeepFieldPath checks that a repeated member still
// fails with the path of the field, whichever occurrence is bad, and that
// a bad earlier occurrence is not forgiven by a good later one.
func TestLastWinsErrorsKeepFieldPath(t *testing.T) {
	for body, field := range map[string]string{
		`{"fees":{"tds":"x"},"fees":null}`:                  "fees.tds",
		`{"fees":null,"fees":{"tds":"x"}}`:                  "fees.tds",
		`{"fees":{"acme_fee":1,"acme_fee":[]},"fees":null}`: "fees.acme_fee",
	} {
		var p types.Payout
		err := json.Unmarshal([]byte(body), &p)
		var ute *json.UnmarshalTypeError
		require.ErrorAs(t, err, &ute, body)
		assert.Equal(t, field, ute.Field, body)
		assert.Equal(t, types.Payout{}, p, "on error the value is unchanged")
	}
}

// pythonView returns each body as Python's json.loads reads it, written
// back as JSON: every repeated key resolved as a Python dict resolves it
// (the last value, at the position of the first), numbers kept exactly as
// written. It skips the test without python3.
func pythonView(t *testing.T, bodies []string) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the Python reading of repeated keys cannot be checked")
	}
	const script = `
import json, re, sys
mark = "\x00NUM"
out = []
for body in json.load(sys.stdin):
    v = json.loads(body, parse_float=lambda s: mark + s, parse_int=lambda s: mark + s)
    out.append(re.sub(r'"\\u0000NUM([^"]*)"', r'\1', json.dumps(v)))
json.dump(out, sys.stdout)
`
	in, err := json.Marshal(bodies)
	require.NoError(t, err)
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "python3: %s", stderr.String())
	var views []string
	require.NoError(t, json.Unmarshal(out, &views))
	require.Len(t, views, len(bodies))
	return views
}

// lastWinsCase is a hostile body for one decoder.
type lastWinsCase struct {
	name   string
	body   string
	decode func([]byte) (any, error)
}

// decodeAs decodes b into a T and returns it with every Raw field
// cleared (Raw is the bytes as sent, which the Python view rewrites).
func decodeAs[T any](b []byte) (any, error) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	clearRaw(reflect.ValueOf(&v).Elem())
	return v, nil
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// clearRaw sets every json.RawMessage field named Raw in v (structs,
// slices and pointers followed) to nil.
func clearRaw(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			clearRaw(v.Elem())
		}
	case reflect.Slice:
		if v.Type() == rawMessageType {
			return
		}
		for i := range v.Len() {
			clearRaw(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.Name == "Raw" && f.Type == rawMessageType {
				v.Field(i).SetZero()
			} else if f.IsExported() {
				clearRaw(v.Field(i))
			}
		}
	}
}

// lastWinsCases are bodies with keys repeated at every level a decoder
// reads: top-level scalars, nested objects, nested objects in nested
// objects, lists, the fees brand keys and both spellings of the fiat
// amount.
var lastWinsCases = []lastWinsCase{
	// Payout: scalars, nullable strings, times.
	{"payout scalars", `{"id":"` + lwA + `","id":"` + lwB + `","status":"FAILED","status":"SUCCESS",` +
		`"failure_reason":"x","failure_reason":null,"utr":null,"utr":"U1","client_reference_id":"r","client_reference_id":null,` +
		`"created_at":"2025-03-08T07:31:24Z","created_at":null,"updated_at":null,"updated_at":"2025-03-08T07:45:02.5Z",` +
		`"rate":"86.45","rate":null,"sending_amount":null,"sending_amount":"1.10","asset":"USDT","asset":null}`, decodeAs[types.Payout]},
	// Fees replaced, cleared, restored.
	{"payout fees replaced", `{"fees":{"tds":1,"acme_fee":"2"},"fees":{"client_fee_fiat":2}}`, decodeAs[types.Payout]},
	{"payout fees cleared", `{"fees":{"tds":1,"acme_fee":"2","x":"1"},"fees":null}`, decodeAs[types.Payout]},
	{"payout fees restored", `{"fees":null,"fees":{"tds":"0.50"},"fees":null,"fees":{"pg_fee":3}}`, decodeAs[types.Payout]},
	// Brand keys: a repeated acme_fee counts with its last value, at the
	// position of its first appearance; null clears it.
	{"fees brand repeated", `{"fees":{"acme_fee":"1","acme_fee":"2","acme_gst":"3","acme_gst":null}}`, decodeAs[types.Payout]},
	{"fees brand first position", `{"fees":{"acme_fee":"1","zeta_fee":"5","acme_fee":"2","zeta_fee":"6"}}`, decodeAs[types.Payout]},
	{"fees brand null still first", `{"fees":{"acme_fee":"1","zeta_fee":"5","acme_fee":null}}`, decodeAs[types.Payout]},
	{"fees explicit null beats brand", `{"fees":{"acme_fee":"1","service_fee":"4","service_fee":null,"acme_fee":"7"}}`, decodeAs[types.Payout]},
	{"fees other repeated", `{"fees":{"x_rate":"1","x_rate":null,"y":"2","y":"3","z":"4","z":"bad"}}`, decodeAs[types.Payout]},
	{"fees documented repeated", `{"fees":{"tds":"1","tds":null,"pg_gst":null,"pg_gst":"2","client_fee_fiat":"3","client_fee_fiat":""}}`, decodeAs[types.Fees]},
	// The fiat amount: each spelling's last occurrence, then
	// receiving_amount unless that is null or "".
	{"recv later null falls back", `{"receiving_amount":"5","receiveing_amount":"7","receiving_amount":null}`, decodeAs[types.Payout]},
	{"recv later empty falls back", `{"receiveing_amount":"7","receiving_amount":"5","receiving_amount":"","receiveing_amount":"8"}`, decodeAs[types.Payout]},
	{"recv later amount wins", `{"receiving_amount":null,"receiveing_amount":"7","receiving_amount":"5"}`, decodeAs[types.Payout]},
	{"recv misspelt cleared", `{"receiveing_amount":"7","receiveing_amount":null}`, decodeAs[types.PayinQuotation]},
	{"recv zero is an amount", `{"receiveing_amount":"7","receiving_amount":"0"}`, decodeAs[types.PrefundedPayout]},
	// Prefunded payout: customer and its parties, two levels down.
	{"prefunded customer cleared", `{"customer":{"sender":{"id":"` + lwA + `"},"receiver":{"id":"` + lwB + `"}},"customer":null}`, decodeAs[types.PrefundedPayout]},
	{"prefunded customer replaced", `{"customer":{"sender":{"id":"` + lwA + `"}},"customer":{"receiver":{"id":"` + lwB + `"}}}`, decodeAs[types.PrefundedPayout]},
	{"prefunded parties repeated", `{"customer":{"sender":{"id":"` + lwA + `"},"sender":null,"receiver":{"id":"` + lwB + `","id":"` + lwC + `"},` +
		`"receiver":{"id":""},"receiver":{"id":"` + lwA + `","id":null}}}`, decodeAs[types.PrefundedPayout]},
	{"prefunded fees", `{"fees":{"client_fee":"1","acme_fee":"2","acme_fee":"3"},"fees":{"tds":"4","acme_fee":null,"zeta_fee":"5"}}`, decodeAs[types.PrefundedPayout]},
	{"prefunded scalars", `{"network":"TRON","network":null,"wallet_address":"w","transaction_hash":"h","transaction_hash":null}`, decodeAs[types.PrefundedPayout]},
	// Remittance payout.
	{"remittance", `{"remitter_id":"` + lwA + `","remitter_id":null,"fees":{"service_gst":"1"},"fees":{"acme_gst":"2"}}`, decodeAs[types.RemittancePayout]},
	// Payin quotation: deposit instructions and the links inside them.
	{"payin deposit cleared", `{"deposit_instructions":{"ifsc":"HDFC0001234","deep_link":"a"},"deposit_instructions":null}`, decodeAs[types.PayinQuotation]},
	{"payin deposit replaced", `{"deposit_instructions":{"ifsc":"HDFC0001234","deep_link":"a","ios_checkout_link":"i"},` +
		`"deposit_instructions":{"account_name":"N","deep_link":"b"},"ios_checkout_link":"top","ios_checkout_link":null}`, decodeAs[types.PayinQuotation]},
	{"payin fees", `{"fees":{"tds":"1"},"fees":null,"expiry_time":"2025-03-08T07:31:24Z","expiry_time":""}`, decodeAs[types.PayinQuotation]},
	// Bank accounts, wallets, pages.
	{"bank account", `{"identifiers":{"account_number":"1","ifsc":"I"},"identifiers":{"ifsc":"J"},"identifiers":{"account_number":"2"},` +
		`"failure_reason":"f","failure_reason":null,"bank_name":"B","bank_name":null}`, decodeAs[types.BankAccount]},
	{"bank account identifiers cleared", `{"identifiers":{"account_number":"1"},"identifiers":null}`, decodeAs[types.BankAccount]},
	{"wallet", `{"wallet_address":"a","wallet_address":"b","wallet_status":"ACTIVE","wallet_status":null,"failure_reason":null,"failure_reason":"f"}`, decodeAs[types.Wallet]},
	{"bank page", `{"count":2,"count":null,"next":"n","next":null,"previous":null,"previous":"p",` +
		`"results":[{"id":"` + lwA + `"}],"results":[{"vpa":"a@b","vpa":null,"account_name":"x","account_name":"y"},null]}`, decodeAs[types.BankAccountPage]},
	{"bank page results cleared", `{"results":[{"id":"` + lwA + `"}],"results":null}`, decodeAs[types.BankAccountPage]},
	// KYC configuration: three levels of objects, lists.
	{"kyc cleared", `{"supported_document_types":["PASSPORT"],"supported_document_types":null,` +
		`"additional_info_required":{"options":["income_range"],"rules":{"min_required":1}},"additional_info_required":null}`, decodeAs[types.KYCConfiguration]},
	{"kyc replaced", `{"supported_document_types":["PASSPORT","AADHAAR"],"supported_document_types":["VOTER_ID"],` +
		`"additional_info_required":{"options":["a","b"],"income_range":{"type":"string","required":true}},` +
		`"additional_info_required":{"options":["c"],"options":null,"options":["d"],"rules":{"type":"allOf","min_required":2},"rules":{"min_required":1},` +
		`"income_range":{"type":"string","required":true},"income_range":{"required":false},` +
		`"profession":{"type":"t"},"profession":null,"other":{"required":true},"other":"x","extra":null,"extra":{"type":"e"}}}`, decodeAs[types.KYCConfiguration]},
	{"kyc rules cleared", `{"additional_info_required":{"rules":{"type":"allOf","min_required":2},"rules":null}}`, decodeAs[types.KYCConfiguration]},
	// Simulations and balance.
	{"payout simulation", `{"payout_id":"` + lwA + `","payout_id":"` + lwB + `","payout_status":"SUCCESS","payout_status":"FAILED"}`, decodeAs[types.PayoutStatusSimulation]},
	{"kyc simulation", `{"id":"` + lwA + `","id":null,"status":"APPROVED","status":"REJECTED"}`, decodeAs[types.KYCStatusSimulation]},
	{"balance", `{"available_balance":{"USDT":"1","USDC":"2","USDT":"3"},"available_balance":{"USDC":"4"}}`, decodeAs[types.Balance]},
	{"balance cleared", `{"available_balance":{"USDT":"1"},"available_balance":null}`, decodeAs[types.Balance]},
}

// TestLastWinsMatchesPython decodes each hostile body and the same body as
// Python's json.loads reads it (no key repeated any more): every field a
// type exposes must come out the same. A decoder that kept an earlier
// occurrence, merged a later object into an earlier one, or ignored a
// later null would differ.
func TestLastWinsMatchesPython(t *testing.T) {
	bodies := make([]string, len(lastWinsCases))
	for i, c := range lastWinsCases {
		bodies[i] = c.body
	}
	views := pythonView(t, bodies)
	for i, c := range lastWinsCases {
		t.Run(c.name, func(t *testing.T) {
			require.NotEqual(t, c.body, views[i], "the body repeats no key")
			got, err := c.decode([]byte(c.body))
			require.NoError(t, err, c.body)
			want, err := c.decode([]byte(views[i]))
			require.NoError(t, err, views[i])
			assert.Equal(t, want, got, "body %s\nPython reads %s", c.body, views[i])
		})
	}
}

// TestLastWinsPythonViewSpotChecks pins a few fields of the Python view, so
// that the differential test above cannot pass by both sides being wrong
// the same way (the view itself is checked here).
func TestLastWinsPythonViewSpotChecks(t *testing.T) {
	views := pythonView(t, []string{
		`{"fees":{"tds":1},"fees":{"client_fee_fiat":2.50}}`,
		`{"fees":{"tds":1},"fees":null}`,
		`{"a":1,"b":2,"a":3}`,
	})
	assert.Equal(t, `{"fees": {"client_fee_fiat": 2.50}}`, views[0])
	assert.Equal(t, `{"fees": null}`, views[1])
	assert.Equal(t, `{"a": 3, "b": 2}`, views[2], "the last value, at the first position")

	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(`{"fees":{"tds":1},"fees":{"client_fee_fiat":2.50}}`), &p))
	assert.Equal(t, types.Fees{ClientFeeFiat: decimal.RequireFromString("2.50")}, p.Fees)

	var pp types.PrefundedPayout
	require.NoError(t, json.Unmarshal([]byte(`{"customer":{"receiver":{"id":"`+lwA+`"}},"customer":{"sender":{"id":"`+lwB+`"}}}`), &pp))
	require.NotNil(t, pp.Customer.Sender.ID)
	assert.Equal(t, uuid.MustParse(lwB), *pp.Customer.Sender.ID)
	assert.Nil(t, pp.Customer.Receiver.ID, "the earlier customer's receiver does not survive")
}

// Valid bodies of the types without a JSON constant elsewhere in the tests.
const (
	fuzzWalletJSON           = `{"id":"5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b","customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","wallet_address":"0x52908400098527886E0F7030069857D2E4169EE7","wallet_status":"ACTIVE","failure_reason":null}`
	fuzzBankAccountJSON      = `{"id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b","customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","country":"IND","bank_account_type":"ACCOUNT_DETAILS","identifiers":{"account_number":"50100123456789","ifsc":"HDFC0001234"},"account_number":"50100123456789","ifsc":"HDFC0001234","bank_account_status":"VERIFIED","beneficiary_name":"ASHA RAO","bank_name":"HDFC BANK","failure_reason":null}`
	fuzzBankItemJSON         = `{"id":"2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b","customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","account_number":null,"ifsc":null,"account_name":"ASHA RAO","vpa":"asha@okhdfc","bank_account_type":"vpa","bank_account_status":"FAILED","failure_reason":"Name mismatch"}`
	fuzzPayoutSimulationJSON = `{"payout_id":"6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b","payout_status":"SUCCESS"}`
	fuzzKYCSimulationJSON    = `{"id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","status":"VERIFIED"}`
	fuzzFeesJSON             = `{"client_fee_fiat":"10.50","client_fee_crypto":"0.12","acme_fee":"5.00","pg_fee":"0","client_gst_fiat":"1.89","client_gst_crypto":"0.0216","acme_gst":"0.90","pg_gst":"0","tds":"86.88","gross_effective_exchange_rate":"85.123456789","partner_bonus":"1.5"}`
	fuzzPrefundedFeesJSON    = `{"service_fee":"12.50","client_fee":"3.00","client_gst":"0.54","tds":"217.81","acme_fee":"1"}`
	fuzzAdditionalInfoJSON   = `{"options":["income_range","profession"],"rules":{"type":"allOf","min_required":2},"income_range":{"type":"string","required":true},"profession":{"type":"string","required":false},"note":"x"}`
)

// One fuzz target per type with a decoder. Each is fuzzDecode with the
// type's own checks; the seeds live in testdata/fuzz/<target>/ (realistic
// bodies, truncations, wrong-typed fields, non-JSON, deep nesting, huge
// numbers, invalid UTF-8, lone surrogates, repeated keys). CI runs every
// target for a few seconds (.ci/fuzz); `go test` runs the seeds.

// decodeSpec describes one type T to fuzzDecode.
type decodeSpec[T any] struct {
	// prior is a valid body: a value decoded from it must be replaced
	// whole by a successful decode and left alone by a failed one.
	prior string
	// hasRaw is set when T has a Raw field (see rawOf).
	hasRaw bool
	// check, when set, checks a value successfully decoded from a JSON
	// object against that object's members (in document order).
	check func(t *testing.T, v *T, members []member)
}

// fuzzDecode fuzzes T's decoder. For any input:
//   - json.Unmarshal of invalid JSON fails, and so does a direct
//     UnmarshalJSON call, which gets no validation from encoding/json and
//     must never panic;
//   - on valid JSON, a direct call on the trimmed input gives the same
//     result as json.Unmarshal, and a failure is a *json.UnmarshalTypeError
//     (naming the field when the input is an object);
//   - decoding is deterministic (the same bytes twice give reflect.DeepEqual
//     values and the same error), does not modify the input, and keeps no
//     reference to it;
//   - only an object or null decodes; null leaves the value unchanged, and so
//     does a failure, while a success replaces it whole;
//   - after decoding an object, Raw is the trimmed input and decoding Raw
//     again gives the same value (so the money fields survive a round trip
//     through Raw), and the type's check holds.
func fuzzDecode[T any, P interface {
	*T
	json.Unmarshaler
}](f *testing.F, s decodeSpec[T]) {
	decodePrior := func(tb testing.TB) T {
		var v T
		if err := json.Unmarshal([]byte(s.prior), P(&v)); err != nil {
			tb.Fatalf("prior %s does not decode: %v", s.prior, err)
		}
		return v
	}
	prior := decodePrior(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		input := bytes.Clone(data)
		valid := json.Valid(data)
		trimmed := trimJSONSpace(data)

		var v T
		err := json.Unmarshal(data, P(&v))

		// Determinism, and no reference kept to the input: decode a copy,
		// then overwrite the copy.
		buf := bytes.Clone(data)
		var again T
		errAgain := json.Unmarshal(buf, P(&again))
		for i := range buf {
			buf[i] = '#'
		}
		if (err == nil) != (errAgain == nil) || (err != nil && err.Error() != errAgain.Error()) {
			t.Fatalf("two decodes of %q disagree: %v / %v", data, err, errAgain)
		}
		if !reflect.DeepEqual(v, again) {
			t.Fatalf("two decodes of %q differ (or the value aliases the input):\n%#v\n%#v", data, v, again)
		}

		// A direct call gets the bytes as they are.
		var direct T
		if derr := P(&direct).UnmarshalJSON(data); derr == nil && !valid {
			t.Fatalf("UnmarshalJSON accepted invalid JSON %q", data)
		}
		if valid {
			var dt T
			derr := P(&dt).UnmarshalJSON(trimmed)
			if (derr == nil) != (err == nil) || !reflect.DeepEqual(dt, v) {
				t.Fatalf("UnmarshalJSON(%q) = %v, json.Unmarshal = %v", trimmed, derr, err)
			}
		}

		// Replace whole on success; leave alone on null and on failure.
		p := decodePrior(t)
		perr := json.Unmarshal(data, P(&p))
		if (perr == nil) != (err == nil) {
			t.Fatalf("decoding %q over a value: %v, into a zero value: %v", data, perr, err)
		}
		if err != nil || string(trimmed) == "null" {
			if !reflect.DeepEqual(p, prior) {
				t.Fatalf("decoding %q (error %v) changed the value:\n%#v", data, err, p)
			}
		} else if !reflect.DeepEqual(p, v) {
			t.Fatalf("decoding %q over a value did not replace it whole:\n%#v\n%#v", data, p, v)
		}

		if !bytes.Equal(data, input) {
			t.Fatalf("the input was modified: %q -> %q", input, data)
		}

		if !valid {
			if err == nil {
				t.Fatalf("json.Unmarshal accepted invalid JSON %q", data)
			}
			return
		}
		if err != nil {
			_ = err.Error()
			var ute *json.UnmarshalTypeError
			if !errors.As(err, &ute) {
				t.Fatalf("valid JSON %q gives %T %v, not a *json.UnmarshalTypeError", data, err, err)
			}
			if trimmed[0] == '{' && ute.Field == "" {
				t.Fatalf("error for object %q names no field: %v", data, err)
			}
			return
		}
		switch trimmed[0] {
		case 'n':
			if !reflect.ValueOf(v).IsZero() {
				t.Fatalf("null decoded as %#v", v)
			}
			return
		case '{':
		default:
			t.Fatalf("decoded a non-object %q", data)
		}
		if s.hasRaw {
			raw := rawOf(&v)
			if string(raw) != string(trimmed) {
				t.Fatalf("Raw %q differs from input %q", raw, trimmed)
			}
			var re T
			if err := json.Unmarshal(raw, P(&re)); err != nil || !reflect.DeepEqual(re, v) {
				t.Fatalf("decoding Raw %q again: %v\n%#v\n%#v", raw, err, re, v)
			}
		}
		if s.check != nil {
			s.check(t, &v, objectMembers(t, trimmed))
		}
	})
}

func trimJSONSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// The checks below are the fuzz targets' oracle for the money fields and
// the lists: they read the input again with encoding/json and work out,
// from the documented rules alone, what the decoder must have produced.
// A repeated key counts with its last value alone, as in a Python dict
// (the service's reader): a later null clears the field (zero value, nil
// pointer) and a later object replaces the earlier one whole, never
// merging into it (encoding/json, decoding into an existing struct, would
// keep the earlier object for null and merge a later one into it).

// member is one member of a JSON object.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers returns the members of the JSON object (or null) raw, in
// document order, repeated keys included.
func objectMembers(t *testing.T, raw []byte) []member {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		t.Fatalf("reading %q: %v", raw, err)
	}
	if tok == nil {
		return nil
	}
	if tok != json.Delim('{') {
		t.Fatalf("%q is not an object", raw)
	}
	var ms []member
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatalf("reading %q: %v", raw, err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("reading %q: %v", raw, err)
		}
		ms = append(ms, member{key: k.(string), value: v})
	}
	return ms
}

// occurrences returns the values of key in ms, in document order.
func occurrences(ms []member, key string) []json.RawMessage {
	var vs []json.RawMessage
	for _, m := range ms {
		if m.key == key {
			vs = append(vs, m.value)
		}
	}
	return vs
}

// lastObject returns the members of the last value of key in ms: nil when
// key is absent or its last value is null, whatever came before.
func lastObject(t *testing.T, ms []member, key string) []member {
	vs := occurrences(ms, key)
	if len(vs) == 0 {
		return nil
	}
	return objectMembers(t, vs[len(vs)-1])
}

// decimalText is the documented grammar of a money value held in a string:
// [+-]digits[.digits][e[+-]digits], a leading or trailing point allowed.
var decimalText = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// oracleDecimal reads a money value: a JSON number or a decimal string of
// at most types.MaxDecimalDigits digits, exact; null and "" give zero with
// set false. ok is false for anything else, which a decoder must refuse in
// a money field.
func oracleDecimal(raw json.RawMessage) (d decimal.Decimal, set, ok bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return decimal.Decimal{}, false, true
	}
	var text string
	switch c := raw[0]; {
	case c == '"':
		if json.Unmarshal(raw, &text) != nil {
			return decimal.Decimal{}, false, false
		}
		if text == "" {
			return decimal.Decimal{}, false, true
		}
	case c == '-' || c >= '0' && c <= '9':
		text = string(raw)
	default:
		return decimal.Decimal{}, false, false
	}
	if !decimalText.MatchString(text) {
		return decimal.Decimal{}, false, false
	}
	digits := 0
	for _, c := range text {
		if unicode.IsDigit(c) {
			digits++
		}
	}
	if digits > types.MaxDecimalDigits {
		return decimal.Decimal{}, false, false
	}
	d, err := decimal.NewFromString(text)
	return d, err == nil, err == nil
}

// requireDecimal fails unless got is want exactly (same value, same
// printed form) and survives a round trip through its string form.
func requireDecimal(t *testing.T, name string, want, got decimal.Decimal) {
	t.Helper()
	if !want.Equal(got) || want.String() != got.String() {
		t.Fatalf("%s: decoded %s, the input says %s", name, got, want)
	}
	back, err := decimal.NewFromString(got.String())
	if err != nil || !back.Equal(got) {
		t.Fatalf("%s: %s does not read back (%v)", name, got, err)
	}
}

// mustDecimal returns the value of a money member that decoded: every
// occurrence must be a decimal, null or "", and the last one counts.
func mustDecimal(t *testing.T, name string, vs []json.RawMessage) (d decimal.Decimal, set bool) {
	t.Helper()
	for _, v := range vs {
		var ok bool
		if d, set, ok = oracleDecimal(v); !ok {
			t.Fatalf("%s: %s is not a decimal, yet the object decoded", name, v)
		}
	}
	return d, set
}

// checkMoney checks the money field key of ms decoded as got.
func checkMoney(t *testing.T, ms []member, key string, got decimal.Decimal) {
	t.Helper()
	want, _ := mustDecimal(t, key, occurrences(ms, key))
	requireDecimal(t, key, want, got)
}

// checkReceiving checks the fiat amount: receiving_amount unless it is
// null or "", else receiveing_amount (the fetch responses' spelling).
func checkReceiving(t *testing.T, ms []member, got decimal.Decimal) {
	t.Helper()
	want, set := mustDecimal(t, "receiving_amount", occurrences(ms, "receiving_amount"))
	misspelt, _ := mustDecimal(t, "receiveing_amount", occurrences(ms, "receiveing_amount"))
	if !set {
		want = misspelt
	}
	requireDecimal(t, "receiving_amount", want, got)
}

func benchDecode[T any](b *testing.B, body []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for i := 0; i < b.N; i++ {
		var v T
		if err := json.Unmarshal(body, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// aliasAccount spells IFSC two ways, as editions of the bank account fetch
// do (ifsc, and ifsc_code in older ones).
type aliasAccount struct {
	IFSC string          `json:"ifsc" fiatramp:"alias=ifsc_code"`
	Name *string         `json:"name"`
	Raw  json.RawMessage `json:"-" fiatramp:"raw"`
}

// TestAliasOwnNameWinsUnlessBlank: a field's own member wins over its
// second spelling unless its last value is null or "" (or it is absent),
// whatever the order of the two; each spelling counts with its last value;
// a wrongly typed second spelling is an error even when the own one wins.
func TestAliasOwnNameWinsUnlessBlank(t *testing.T) {
	for body, want := range map[string]string{
		`{"ifsc":"A","ifsc_code":"B"}`:                "A",
		`{"ifsc_code":"B","ifsc":"A"}`:                "A",
		`{"ifsc":null,"ifsc_code":"B"}`:               "B",
		`{"ifsc_code":"B","ifsc":""}`:                 "B",
		`{"ifsc_code":"B"}`:                           "B",
		`{"ifsc":"A"}`:                                "A",
		`{"ifsc_code":"B","ifsc_code":null}`:          "",
		`{"ifsc":"A","ifsc":null,"ifsc_code":"B"}`:    "B",
		`{"ifsc_code":"B","ifsc":"A","ifsc":""}`:      "B",
		`{"ifsc":"A","ifsc_code":"B","ifsc_code":""}`: "A",
		`{"ifsc":null}`:                               "",
		`{}`:                                          "",
	} {
		var a aliasAccount
		require.NoError(t, types.DecodeAs(&a, []byte(body)), body)
		require.Equal(t, want, a.IFSC, body)
		require.JSONEq(t, body, string(a.Raw), body)
	}
	for body, field := range map[string]string{
		`{"ifsc":"A","ifsc_code":5}`: "ifsc_code",
		`{"ifsc_code":5,"ifsc":"A"}`: "ifsc_code",
		`{"ifsc_code":"B","ifsc":1}`: "ifsc",
	} {
		a := aliasAccount{IFSC: "prior"}
		err := types.DecodeAs(&a, []byte(body))
		var ute *json.UnmarshalTypeError
		require.ErrorAs(t, err, &ute, body)
		require.Equal(t, field, ute.Field, body)
		require.Equal(t, "aliasAccount", ute.Struct, body)
		require.Equal(t, "prior", a.IFSC, "a failed decode leaves the value alone")
	}
}

type linkBox struct {
	X string `json:"x"`
}

// nestedAlias takes link from the top level or, when blank there, from
// inside box, as PayinQuotation takes its deep links.
type nestedAlias struct {
	Box  linkBox `json:"box"`
	Link string  `json:"link" fiatramp:"alias=box.link"`
}

// TestAliasInsideAnObjectMember: the second spelling inside an object
// member comes from the last occurrence of that member alone (a later one
// without it, or null, clears it), is checked wherever it appears, and is
// not a member of the nested type.
func TestAliasInsideAnObjectMember(t *testing.T) {
	for body, want := range map[string]nestedAlias{
		`{"box":{"link":"in","x":"1"}}`:                 {Box: linkBox{X: "1"}, Link: "in"},
		`{"link":"top","box":{"link":"in"}}`:            {Link: "top"},
		`{"box":{"link":"in"},"link":"top"}`:            {Link: "top"},
		`{"link":null,"box":{"link":"in"}}`:             {Link: "in"},
		`{"box":{"link":"in"},"link":""}`:               {Link: "in"},
		`{"box":{"link":"in"},"box":{"x":"y"}}`:         {Box: linkBox{X: "y"}},
		`{"box":{"link":"in"},"box":null}`:              {},
		`{"box":{"link":"in","link":"in2"}}`:            {Link: "in2"},
		`{"box":{"link":"in","link":null},"link":null}`: {},
	} {
		var v nestedAlias
		require.NoError(t, types.DecodeAs(&v, []byte(body)), body)
		require.Equal(t, want, v, body)
	}
	var v nestedAlias
	err := types.DecodeAs(&v, []byte(`{"link":"top","box":{"link":5}}`))
	var ute *json.UnmarshalTypeError
	require.ErrorAs(t, err, &ute)
	require.Equal(t, "box.link", ute.Field)
	// The nested type alone does not know the member.
	var b linkBox
	require.NoError(t, types.DecodeAs(&b, []byte(`{"link":5,"x":"1"}`)))
	require.Equal(t, linkBox{X: "1"}, b)
}
