package types_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// payinQuotationJSON is the data of a fetched UPI payin quotation
// (interface.md 2.5, 4.12): numbers, deposit instructions, deep links.
const payinQuotationJSON = `{
  "id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
  "order_id": "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  "bank_id": "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
  "status": "PROCESSING",
  "asset": "USDT",
  "fiat": "INR",
  "payment_method": "UPI",
  "sending_amount": 3000,
  "rate": 88.25,
  "receiving_amount": 33.72,
  "fees": {"client_fee_fiat": 15, "client_fee_crypto": 0, "service_fee": 9, "pg_fee": 6, "client_gst_fiat": 2.7, "client_gst_crypto": 0, "service_gst": 1.62, "pg_gst": 1.08, "tds": 0, "gross_effective_exchange_rate": 88.97},
  "deposit_instructions": {"account_number": "000123456789", "ifsc": "HDFC0000123", "account_name": "Fiatramp Collections"},
  "deep_link": "upi://pay?pa=collect@hdfc&pn=Fiatramp&am=3000.00&cu=INR",
  "ios_checkout_link": "https://checkout.example.com/ios/q/0b9f2c7e",
  "created_at": "2025-03-08T07:31:24.770179Z",
  "expiry_time": "2025-03-08T07:46:24.770179Z"
}`

func TestPayinQuotationFetched(t *testing.T) {
	var q types.PayinQuotation
	require.NoError(t, json.Unmarshal([]byte(payinQuotationJSON), &q))

	require.Equal(t, idQuotation, q.ID)
	require.Equal(t, idOrder, q.OrderID)
	require.Equal(t, idCustomer, q.CustomerID)
	require.Equal(t, idBank, q.BankID)
	require.Equal(t, types.QuotationProcessing, q.Status)
	require.Equal(t, "USDT", q.Asset)
	require.Equal(t, "INR", q.Fiat)
	require.Equal(t, types.PaymentMethodUPI, q.PaymentMethod)
	requireDec(t, "3000", q.SendingAmount)
	requireDec(t, "88.25", q.Rate)
	requireDec(t, "33.72", q.ReceivingAmount)
	requireDec(t, "15", q.Fees.ClientFeeFiat)
	requireDec(t, "0", q.Fees.ClientFeeCrypto)
	requireDec(t, "9", q.Fees.ServiceFee)
	requireDec(t, "6", q.Fees.PGFee)
	requireDec(t, "2.7", q.Fees.ClientGSTFiat)
	requireDec(t, "0", q.Fees.ClientGSTCrypto)
	requireDec(t, "1.62", q.Fees.ServiceGST)
	requireDec(t, "1.08", q.Fees.PGGST)
	requireDec(t, "0", q.Fees.TDS)
	requireDec(t, "88.97", q.Fees.GrossEffectiveExchangeRate)
	require.Nil(t, q.Fees.Other)
	require.Equal(t, types.DepositInstructions{
		AccountNumber: "000123456789",
		IFSC:          "HDFC0000123",
		AccountName:   "Fiatramp Collections",
	}, q.DepositInstructions)
	require.Equal(t, "upi://pay?pa=collect@hdfc&pn=Fiatramp&am=3000.00&cu=INR", q.DeepLink)
	require.Equal(t, "https://checkout.example.com/ios/q/0b9f2c7e", q.IOSCheckoutLink)
	requireTime(t, "2025-03-08T07:31:24.770179Z", q.CreatedAt)
	requireTime(t, "2025-03-08T07:46:24.770179Z", q.ExpiryTime)
	require.Equal(t, payinQuotationJSON, string(q.Raw))
}

func TestPayinQuotationCreatedIMPS(t *testing.T) {
	// The create response has no order_id and no status (interface.md 4.11).
	body := `{"id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d","customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	  "bank_id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b","asset":"USDT","fiat":"INR","payment_method":"IMPS",
	  "sending_amount":"2600.50","rate":"88.25","receiving_amount":"29.4674",
	  "deposit_instructions":{"account_number":"000123456789","ifsc":"HDFC0000123","account_name":"Fiatramp Collections"},
	  "created_at":"2025-03-08T07:31:24Z","expiry_time":"2025-03-08T07:46:24Z"}`
	var q types.PayinQuotation
	require.NoError(t, json.Unmarshal([]byte(body), &q))
	require.Equal(t, uuid.Nil, q.OrderID)
	require.Equal(t, types.QuotationStatus(""), q.Status)
	require.Equal(t, types.PaymentMethodIMPS, q.PaymentMethod)
	requireDec(t, "2600.50", q.SendingAmount)
	requireDec(t, "29.4674", q.ReceivingAmount)
	require.Equal(t, "", q.DeepLink)
	require.Equal(t, "", q.IOSCheckoutLink)
	require.Equal(t, "HDFC0000123", q.DepositInstructions.IFSC)
}

func TestPayinQuotationDeepLinkPlacement(t *testing.T) {
	cases := []struct {
		name, body, deep, ios string
	}{
		{"top level", `{"deep_link":"upi://a","ios_checkout_link":"https://i/a"}`, "upi://a", "https://i/a"},
		{"inside deposit_instructions", `{"deposit_instructions":{"account_number":"1","deep_link":"upi://b","ios_checkout_link":"https://i/b"}}`, "upi://b", "https://i/b"},
		{"top level wins", `{"deep_link":"upi://top","deposit_instructions":{"deep_link":"upi://nested","ios_checkout_link":"https://i/nested"},"ios_checkout_link":"https://i/top"}`, "upi://top", "https://i/top"},
		{"top level null falls back", `{"deep_link":null,"ios_checkout_link":"","deposit_instructions":{"deep_link":"upi://n","ios_checkout_link":"https://i/n"}}`, "upi://n", "https://i/n"},
		{"mixed", `{"deep_link":"upi://top","deposit_instructions":{"ios_checkout_link":"https://i/n"}}`, "upi://top", "https://i/n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var q types.PayinQuotation
			require.NoError(t, json.Unmarshal([]byte(tc.body), &q))
			require.Equal(t, tc.deep, q.DeepLink)
			require.Equal(t, tc.ios, q.IOSCheckoutLink)
		})
	}
}

func TestPayinQuotationExpired(t *testing.T) {
	expiry := time.Date(2025, 3, 8, 7, 46, 24, 770179000, time.UTC)
	q := types.PayinQuotation{ExpiryTime: expiry}
	require.False(t, q.Expired(expiry.Add(-time.Nanosecond)), "before expiry")
	require.True(t, q.Expired(expiry), "at expiry")
	require.True(t, q.Expired(expiry.Add(time.Second)), "after expiry")
	// The same instant in another zone compares as an instant.
	require.True(t, q.Expired(expiry.In(time.FixedZone("IST", 5*3600+1800))))

	var unknown types.PayinQuotation
	require.True(t, unknown.Expired(time.Now()), "no expiry time reports expired")
}

func TestRiskParametersJSON(t *testing.T) {
	require.Equal(t, `{"ip_address":"::1","suspicious_activity_report":false,"law_enforcement_agency_report":true}`,
		marshal(t, types.RiskParameters{IPAddress: "::1", LawEnforcementAgencyReport: true}))
	require.Equal(t, `{"device_id":"d","suspicious_activity_report":true,"law_enforcement_agency_report":false}`,
		marshal(t, types.RiskParameters{DeviceID: "d", SuspiciousActivityReport: true}))
}

func FuzzPayinQuotation(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PayinQuotation]{prior: payinQuotationJSON, hasRaw: true, check: checkPayinQuotation})
}

func checkPayinQuotation(t *testing.T, q *types.PayinQuotation, ms []member) {
	checkMoney(t, ms, "rate", q.Rate)
	checkMoney(t, ms, "sending_amount", q.SendingAmount)
	checkReceiving(t, ms, q.ReceivingAmount)
	checkFees(t, lastObject(t, ms, "fees"), q.Fees)
}

// TestDepositInstructionsAlone: decoded by itself, deposit_instructions
// reads its own members exactly, the last of a repeated one deciding, and
// ignores the deep links it may carry (they belong to the quotation).
func TestDepositInstructionsAlone(t *testing.T) {
	var d types.DepositInstructions
	require.NoError(t, json.Unmarshal([]byte(`{"IFSC":"x","ifsc":"HDFC0001234","account_number":"1","account_number":"2","deep_link":"upi://x","account_name":null}`), &d))
	require.Equal(t, types.DepositInstructions{AccountNumber: "2", IFSC: "HDFC0001234"}, d)
	err := json.Unmarshal([]byte(`{"ifsc":5}`), &d)
	var ute *json.UnmarshalTypeError
	require.ErrorAs(t, err, &ute)
	require.Equal(t, "DepositInstructions", ute.Struct)
	require.Equal(t, "ifsc", ute.Field)
	require.Equal(t, "2", d.AccountNumber, "a failed decode leaves the value alone")
}
