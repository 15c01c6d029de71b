package fiatramp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

var (
	bodyQuotation = uuid.MustParse("0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d")
	bodyCustomer  = uuid.MustParse("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d")
	bodyBank      = uuid.MustParse("1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b")
	bodyOther     = uuid.MustParse("3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f")
)

func TestCreatePayinQuotationBody(t *testing.T) {
	r := types.CreatePayinQuotationRequest{
		Asset: "USDT", Fiat: "InR", SendingAmount: decimal.RequireFromString("2600.50"),
		CustomerID: bodyCustomer, BankID: bodyBank, PaymentMethod: types.PaymentMethodIMPS,
		RiskParameters: types.RiskParameters{IPAddress: "203.0.113.7", DeviceID: "device-1", SuspiciousActivityReport: true},
	}
	require.Equal(t, `{"asset":"usdt","bank_id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",`+
		`"customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","fiat":"inr","payment_method":"IMPS",`+
		`"risk_parameters":{"device_id":"device-1","ip_address":"203.0.113.7","law_enforcement_agency_report":false,`+
		`"suspicious_activity_report":true},"sending_amount":"2600.50"}`, string(createPayinQuotationBody(r)))

	// Empty optional risk strings are left out; the booleans and the object
	// itself are always sent; the amount keeps every digit.
	r.RiskParameters = types.RiskParameters{LawEnforcementAgencyReport: true}
	r.PaymentMethod = types.PaymentMethodUPI
	r.SendingAmount = decimal.RequireFromString("123456789012345678901234567890.123456789")
	require.Equal(t, `{"asset":"usdt","bank_id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",`+
		`"customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","fiat":"inr","payment_method":"UPI",`+
		`"risk_parameters":{"law_enforcement_agency_report":true,"suspicious_activity_report":false},`+
		`"sending_amount":"123456789012345678901234567890.123456789"}`, string(createPayinQuotationBody(r)))
}

// TestSendingAmountIgnoresDecimalSwitches flips decimal's global switches:
// sending_amount must stay a JSON string with the exact digits. Not
// parallel: it changes package-level state of the decimal package.
func TestSendingAmountIgnoresDecimalSwitches(t *testing.T) {
	oldQuotes, oldTrim, oldSci := decimal.MarshalJSONWithoutQuotes, decimal.TrimTrailingZeros, decimal.UseScientificNotation
	decimal.MarshalJSONWithoutQuotes, decimal.TrimTrailingZeros, decimal.UseScientificNotation = true, false, true
	t.Cleanup(func() {
		decimal.MarshalJSONWithoutQuotes, decimal.TrimTrailingZeros, decimal.UseScientificNotation = oldQuotes, oldTrim, oldSci
	})
	for amount, want := range map[string]string{"1500": "1500", "1.5E3": "1500", "2600.50": "2600.50", "0.000001": "0.000001", "-0.10": "-0.10"} {
		body := createPayinQuotationBody(types.CreatePayinQuotationRequest{SendingAmount: decimal.RequireFromString(amount)})
		require.Contains(t, string(body), `"sending_amount":"`+want+`"`, amount)
	}
	require.Equal(t, "1.5E3", decimal.New(15, 2).String(), "the switch really is on")
	require.Contains(t, string(createPayinQuotationBody(types.CreatePayinQuotationRequest{SendingAmount: decimal.New(15, 2)})),
		`"sending_amount":"1500"`)
}

// bodyTexts are strings that exercise the escaping: HTML characters,
// control characters, DEL, non-ASCII, astral characters, line separators,
// a byte order mark and invalid UTF-8.
var bodyTexts = []string{
	"", "ref-1", "é€😀", `<a href="x">&amp;</a>`, "tab\tnl\ncr\rbs\\q\"/", "\x00\x01\x1f\x7f",
	"\u2028\u2029\ufeff", "bad\xffutf8\xc3", "\U0010ffff\ud7ff\ue000", "\xed\xa0\x80", "ÀÉÎ",
}

// canonicalOf is what the request path did before the bodies were written
// directly: encoding/json, then the canonicalizer.
func canonicalOf(t testing.TB, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	c, err := canonicalizeExact(raw)
	require.NoError(t, err)
	return string(c)
}

// checkBodies compares every body writer, for text s, with canonicalOf.
func checkBodies(t testing.TB, s string) {
	t.Helper()
	type idRef struct {
		ID uuid.UUID `json:"id"`
	}
	require.Equal(t, canonicalOf(t, struct {
		Q uuid.UUID `json:"quotation_id"`
		C uuid.UUID `json:"customer_id"`
		E string    `json:"exchange_order_id,omitempty"`
		R string    `json:"client_reference_id,omitempty"`
	}{bodyQuotation, bodyCustomer, s, s}), string(createPayoutBody(types.CreatePayoutRequest{
		QuotationID: bodyQuotation, CustomerID: bodyCustomer, ExchangeOrderID: s, ClientReferenceID: s})))
	require.Equal(t, canonicalOf(t, struct {
		Q  uuid.UUID `json:"quotation_id"`
		Cu struct {
			S idRef `json:"sender"`
			R idRef `json:"receiver"`
		} `json:"customer"`
		R string `json:"client_reference_id,omitempty"`
	}{Q: bodyQuotation, Cu: struct {
		S idRef `json:"sender"`
		R idRef `json:"receiver"`
	}{idRef{bodyOther}, idRef{bodyCustomer}}, R: s}), string(createPrefundedPayoutBody(types.CreatePrefundedPayoutRequest{
		QuotationID: bodyQuotation, ClientReferenceID: s,
		Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: bodyOther}, Receiver: types.CustomerRef{ID: bodyCustomer}}})))
	require.Equal(t, canonicalOf(t, struct {
		Q  uuid.UUID `json:"quotation_id"`
		C  uuid.UUID `json:"customer_id"`
		Re uuid.UUID `json:"remitter_id"`
		R  string    `json:"client_reference_id,omitempty"`
		T  string    `json:"transaction_hash,omitempty"`
	}{bodyQuotation, bodyCustomer, bodyOther, s, s}), string(createRemittancePayoutBody(types.CreateRemittancePayoutRequest{
		QuotationID: bodyQuotation, CustomerID: bodyCustomer, RemitterID: bodyOther, ClientReferenceID: s, TransactionHash: s})))
	require.Equal(t, canonicalOf(t, struct {
		C uuid.UUID `json:"customer_id"`
		W string    `json:"wallet_address"`
	}{bodyCustomer, s}), string(addWalletBody(types.AddWalletRequest{CustomerID: bodyCustomer, WalletAddress: s})))
	rp := types.RiskParameters{IPAddress: s, DeviceID: s + "d", SuspiciousActivityReport: len(s)%2 == 0}
	require.Equal(t, canonicalOf(t, struct {
		A  string               `json:"asset"`
		F  string               `json:"fiat"`
		S  string               `json:"sending_amount"`
		C  uuid.UUID            `json:"customer_id"`
		B  uuid.UUID            `json:"bank_id"`
		P  types.PaymentMethod  `json:"payment_method"`
		RP types.RiskParameters `json:"risk_parameters"`
	}{strings.ToLower("USDT" + s), strings.ToLower(s), "12.50", bodyCustomer, bodyBank, types.PaymentMethod(s), rp}),
		string(createPayinQuotationBody(types.CreatePayinQuotationRequest{
			Asset: "USDT" + s, Fiat: s, SendingAmount: decimal.RequireFromString("12.50"),
			CustomerID: bodyCustomer, BankID: bodyBank, PaymentMethod: types.PaymentMethod(s), RiskParameters: rp})))
	require.Equal(t, canonicalOf(t, map[string]any{"payout_id": bodyOther, "payout_status": s}),
		string(idStatusBody("payout_id", bodyOther, "payout_status", s)))
	require.Equal(t, canonicalOf(t, map[string]any{"payin_id": bodyQuotation, "payin_status": s}),
		string(idStatusBody("payin_id", bodyQuotation, "payin_status", s)))
	require.Equal(t, canonicalOf(t, map[string]any{"customer_id": bodyCustomer, "kyc_status": s}),
		string(idStatusBody("customer_id", bodyCustomer, "kyc_status", s)))
	require.Equal(t, canonicalOf(t, map[string]any{"customer_id": bodyCustomer, "bank_id": bodyBank, "bank_account_status": s}),
		string(bankVerificationBody(bodyCustomer, bodyBank, types.BankAccountStatus(s))))
}

// TestBodiesAreCanonical checks that every body written directly is byte
// for byte what encoding/json and the canonicalizer made of the same
// request; FuzzBodies tries further strings.
func TestBodiesAreCanonical(t *testing.T) {
	for _, s := range bodyTexts {
		checkBodies(t, s)
	}
}

func FuzzBodies(f *testing.F) {
	for _, s := range append(bodyTexts, review11Texts...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkBodies(t, s) })
}

// TestCompileBodyRefusesWhatItCannotWrite: a request type the encoder
// cannot write in canonical form fails when the package loads, not when a
// body is sent.
func TestCompileBodyRefusesWhatItCannotWrite(t *testing.T) {
	require.Panics(t, func() {
		compileBody[struct {
			A map[string]int `json:"a"`
		}]()
	}, "a map")
	require.Panics(t, func() {
		compileBody[struct {
			A float64 `json:"a"`
		}]()
	}, "a float")
	require.Panics(t, func() { compileBody[struct{ A string }]() }, "no member name")
	require.Panics(t, func() {
		compileBody[struct {
			A string `json:"-"`
		}]()
	}, "no member name")
	require.Panics(t, func() {
		compileBody[struct {
			A string `json:"é"`
		}]()
	}, "a key that needs escaping")
	require.Panics(t, func() {
		compileBody[struct {
			A uuid.UUID `json:"a,omitempty"`
		}]()
	}, "omitempty on a uuid")
	require.Panics(t, func() {
		compileBody[struct {
			A uuid.UUID `json:"a" fiatramp:"lower"`
		}]()
	}, "lower on an id")
	twice := reflect.StructOf([]reflect.StructField{
		{Name: "A", Type: reflect.TypeFor[string](), Tag: `json:"a"`},
		{Name: "B", Type: reflect.TypeFor[string](), Tag: `json:"a"`},
	})
	require.Panics(t, func() { compileBodyObject(twice) }, "a member named twice")
	require.NotPanics(t, func() {
		compileBody[struct {
			A string `json:"a,omitempty" fiatramp:"lower"`
		}]()
	})
}

// TestBodyMembersSortedAndNested: members are written in code-point order
// of their keys whatever the field order, nested objects too, and an empty
// nested object is still written.
func TestBodyMembersSortedAndNested(t *testing.T) {
	type inner struct {
		Z string `json:"z,omitempty"`
		Y bool   `json:"y"`
	}
	type req struct {
		B  string          `json:"b" fiatramp:"lower"`
		A  uuid.UUID       `json:"a"`
		In inner           `json:"_in"`
		D  decimal.Decimal `json:"D"`
		E  string          `json:"e,omitempty"`
	}
	body := compileBody[req]()
	require.Equal(t, `{"D":"1.50","_in":{"y":false},"a":"00000000-0000-0000-0000-000000000000","b":"abc\u00e9"}`,
		string(body(req{B: "ABcÉ", D: decimal.RequireFromString("1.50")})))
	require.Equal(t, `{"D":"0","_in":{"y":true,"z":"q"},"a":"`+bodyBank.String()+`","b":"","e":"x"}`,
		string(body(req{A: bodyBank, In: inner{Z: "q", Y: true}, E: "x"})))
}

func BenchmarkCreatePayoutBody(b *testing.B) {
	r := types.CreatePayoutRequest{QuotationID: bodyQuotation, CustomerID: bodyCustomer, ExchangeOrderID: "EX-88231994", ClientReferenceID: "ref-2025-03-08-000123"}
	b.ReportAllocs()
	for range b.N {
		_ = createPayoutBody(r)
	}
}

// idStatusBody writes the body of a status simulation by its member names,
// as the tests of the simulations name it.
func idStatusBody(idKey string, id uuid.UUID, statusKey, status string) []byte {
	switch idKey + " " + statusKey {
	case "payout_id payout_status":
		return payoutStatusBody(payoutStatusRequest{PayoutID: id, PayoutStatus: types.PayoutStatus(status)})
	case "payin_id payin_status":
		return payinStatusBody(payinStatusRequest{PayinID: id, PayinStatus: types.PayinStatus(status)})
	case "customer_id kyc_status":
		return kycStatusBody(kycStatusRequest{CustomerID: id, KYCStatus: types.KYCStatus(status)})
	}
	panic("no simulation body with members " + idKey + " and " + statusKey)
}

// bankVerificationBody writes the body of the bank verification simulation.
func bankVerificationBody(customerID, bankID uuid.UUID, status types.BankAccountStatus) []byte {
	return bankStatusBody(bankVerificationRequest{CustomerID: customerID, BankID: bankID, BankAccountStatus: status})
}
