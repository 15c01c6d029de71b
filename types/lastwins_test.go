package types_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"reflect"
	"testing"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// The service reads JSON with Python's json.loads, where the last
// occurrence of a repeated key alone decides its value: a later null is
// None whatever came before, and a later object replaces an earlier one
// whole. Every decoder of types reads repeated keys the same way, at every
// level and for every kind of member.

// Ids used by the hostile bodies below.
const (
	lwA = "11111111-1111-4111-8111-111111111111"
	lwB = "22222222-2222-4222-8222-222222222222"
	lwC = "33333333-3333-4333-8333-333333333333"
)

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
