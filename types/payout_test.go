package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// createPayoutJSON is the data of a create payout response (interface.md
// 4.2): amounts and fees are JSON numbers, no fetch-only fields.
const createPayoutJSON = `{
  "id": "6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b",
  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  "client_reference_id": "ref-001",
  "bank_id": "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
  "asset": "USDT",
  "fiat": "INR",
  "rate": 86.45,
  "sending_amount": 100.5,
  "receiving_amount": 8688.225,
  "fees": {
    "client_fee_fiat": 10.5,
    "client_fee_crypto": 0.12,
    "service_fee": 5,
    "pg_fee": 0,
    "client_gst_fiat": 1.89,
    "client_gst_crypto": 0.0216,
    "service_gst": 0.9,
    "pg_gst": 0,
    "tds": 86.88,
    "gross_effective_exchange_rate": 85.123456789
  },
  "exchange_order_id": "EX-12345",
  "created_at": "2025-03-08T07:31:24.770179Z",
  "status": "PROCESSING"
}`

// fetchPayoutJSON is the data of a fetch payout response (interface.md 4.4):
// decimal strings, receiveing_amount, fetch-only fields, and the service's
// brand-named fee keys.
const fetchPayoutJSON = `{
  "id": "6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b",
  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  "client_reference_id": null,
  "bank_id": "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
  "asset": "USDT",
  "fiat": "INR",
  "rate": "86.450000",
  "sending_amount": "100.500000",
  "receiveing_amount": "8688.225000",
  "fees": {
    "client_fee_fiat": "10.50",
    "client_fee_crypto": "0.12",
    "acme_fee": "5.00",
    "pg_fee": "0",
    "client_gst_fiat": "1.89",
    "client_gst_crypto": "0.0216",
    "acme_gst": "0.90",
    "pg_gst": "0",
    "tds": "86.88",
    "gross_effective_exchange_rate": "85.123456789"
  },
  "exchange_order_id": "EX-12345",
  "exchange_transfer_id": "",
  "status": "SUCCESS",
  "failure_reason": null,
  "utr": "UTR0987654321",
  "created_at": "2025-02-11T01:30:08.000Z",
  "updated_at": "2025-02-11T07:00:08.5+05:30"
}`

func TestPayoutCreateVariant(t *testing.T) {
	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(createPayoutJSON), &p))

	require.Equal(t, idPayout, p.ID)
	require.Equal(t, idQuotation, p.QuotationID)
	require.Equal(t, idCustomer, p.CustomerID)
	require.Equal(t, strPtr("ref-001"), p.ClientReferenceID)
	require.Equal(t, idBank, p.BankID)
	require.Equal(t, "USDT", p.Asset)
	require.Equal(t, "INR", p.Fiat)
	requireDec(t, "86.45", p.Rate)
	requireDec(t, "100.5", p.SendingAmount)
	requireDec(t, "8688.225", p.ReceivingAmount)
	f := p.Fees
	requireDec(t, "10.5", f.ClientFeeFiat)
	requireDec(t, "0.12", f.ClientFeeCrypto)
	requireDec(t, "5", f.ServiceFee)
	requireDec(t, "0", f.PGFee)
	requireDec(t, "1.89", f.ClientGSTFiat)
	requireDec(t, "0.0216", f.ClientGSTCrypto)
	requireDec(t, "0.9", f.ServiceGST)
	requireDec(t, "0", f.PGGST)
	requireDec(t, "86.88", f.TDS)
	requireDec(t, "85.123456789", f.GrossEffectiveExchangeRate)
	require.Nil(t, f.Other)
	require.Equal(t, "EX-12345", p.ExchangeOrderID)
	require.Equal(t, "", p.ExchangeTransferID)
	require.Equal(t, types.PayoutProcessing, p.Status)
	require.Nil(t, p.FailureReason)
	require.Nil(t, p.UTR)
	requireTime(t, "2025-03-08T07:31:24.770179Z", p.CreatedAt)
	require.True(t, p.UpdatedAt.IsZero(), "updated_at is absent in the create response")
	require.Equal(t, createPayoutJSON, string(p.Raw))
}

func TestPayoutFetchVariant(t *testing.T) {
	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(fetchPayoutJSON), &p))

	require.Equal(t, idPayout, p.ID)
	require.Equal(t, idQuotation, p.QuotationID)
	require.Equal(t, idCustomer, p.CustomerID)
	require.Nil(t, p.ClientReferenceID)
	require.Equal(t, idBank, p.BankID)
	require.Equal(t, "USDT", p.Asset)
	require.Equal(t, "INR", p.Fiat)
	requireDec(t, "86.45", p.Rate)
	require.Equal(t, "86.450000", p.Rate.StringFixed(6))
	requireDec(t, "100.5", p.SendingAmount)
	requireDec(t, "8688.225", p.ReceivingAmount, "receiveing_amount lands in ReceivingAmount")
	f := p.Fees
	requireDec(t, "10.50", f.ClientFeeFiat)
	requireDec(t, "0.12", f.ClientFeeCrypto)
	requireDec(t, "5.00", f.ServiceFee, "acme_fee is the brand-named service_fee")
	requireDec(t, "0", f.PGFee)
	requireDec(t, "1.89", f.ClientGSTFiat)
	requireDec(t, "0.0216", f.ClientGSTCrypto)
	requireDec(t, "0.90", f.ServiceGST, "acme_gst is the brand-named service_gst")
	requireDec(t, "0", f.PGGST)
	requireDec(t, "86.88", f.TDS)
	requireDec(t, "85.123456789", f.GrossEffectiveExchangeRate)
	require.Nil(t, f.Other)
	require.Equal(t, "EX-12345", p.ExchangeOrderID)
	require.Equal(t, "", p.ExchangeTransferID)
	require.Equal(t, types.PayoutSuccess, p.Status)
	require.Nil(t, p.FailureReason)
	require.Equal(t, strPtr("UTR0987654321"), p.UTR)
	requireTime(t, "2025-02-11T01:30:08Z", p.CreatedAt)
	requireTime(t, "2025-02-11T01:30:08.5Z", p.UpdatedAt)
	_, offset := p.UpdatedAt.Zone()
	require.Equal(t, 5*3600+30*60, offset, "the offset is kept")
	require.Equal(t, fetchPayoutJSON, string(p.Raw))
}

func TestPayoutFetchedFailed(t *testing.T) {
	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(`{"status":"FAILED","failure_reason":"Beneficiary bank is down","utr":null,"exchange_transfer_id":"TR-9"}`), &p))
	require.Equal(t, types.PayoutFailed, p.Status)
	require.Equal(t, strPtr("Beneficiary bank is down"), p.FailureReason)
	require.Nil(t, p.UTR)
	require.Equal(t, "TR-9", p.ExchangeTransferID)
	require.Equal(t, uuid.Nil, p.ID, "an absent id is uuid.Nil")
}

func TestPayoutReceivingAmountSpellings(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"create spelling only", `{"receiving_amount": 12.5}`, "12.5"},
		{"fetch spelling only", `{"receiveing_amount": "12.5"}`, "12.5"},
		{"both, correct spelling first", `{"receiving_amount": "1.25", "receiveing_amount": "9.99"}`, "1.25"},
		{"both, correct spelling last", `{"receiveing_amount": "9.99", "receiving_amount": "1.25"}`, "1.25"},
		{"correct spelling null falls back", `{"receiving_amount": null, "receiveing_amount": "9.99"}`, "9.99"},
		{"correct spelling empty falls back", `{"receiveing_amount": "9.99", "receiving_amount": ""}`, "9.99"},
		{"neither", `{}`, "0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var p types.Payout
			require.NoError(t, json.Unmarshal([]byte(tc.body), &p))
			requireDec(t, tc.want, p.ReceivingAmount)

			var pp types.PrefundedPayout
			require.NoError(t, json.Unmarshal([]byte(tc.body), &pp))
			requireDec(t, tc.want, pp.ReceivingAmount)

			var rp types.RemittancePayout
			require.NoError(t, json.Unmarshal([]byte(tc.body), &rp))
			requireDec(t, tc.want, rp.ReceivingAmount)

			var q types.PayinQuotation
			require.NoError(t, json.Unmarshal([]byte(tc.body), &q))
			requireDec(t, tc.want, q.ReceivingAmount)
		})
	}
}

func TestPayoutJSONTagsRoundTrip(t *testing.T) {
	// The json tags of the response types name the wire fields, so a
	// marshalled Payout decodes back to the same value (Raw aside).
	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(fetchPayoutJSON), &p))
	b, err := json.Marshal(p)
	require.NoError(t, err)
	var back types.Payout
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, b, []byte(back.Raw))
	back.Raw, p.Raw = nil, nil
	require.Equal(t, p.ID, back.ID)
	require.Equal(t, p.UTR, back.UTR)
	require.True(t, p.CreatedAt.Equal(back.CreatedAt))
	require.True(t, p.UpdatedAt.Equal(back.UpdatedAt))
	require.True(t, p.ReceivingAmount.Equal(back.ReceivingAmount))
	require.True(t, p.Fees.ServiceFee.Equal(back.Fees.ServiceFee))
	require.True(t, p.Fees.GrossEffectiveExchangeRate.Equal(back.Fees.GrossEffectiveExchangeRate))
	require.Equal(t, p.Status, back.Status)
}

func TestCreatePayoutRequestJSON(t *testing.T) {
	full := types.CreatePayoutRequest{QuotationID: idQuotation, CustomerID: idCustomer, ExchangeOrderID: "EX-12345", ClientReferenceID: "ref-001"}
	require.Equal(t, compact(t, `{
	  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
	  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	  "exchange_order_id": "EX-12345",
	  "client_reference_id": "ref-001"
	}`), marshal(t, full))

	minimal := types.CreatePayoutRequest{QuotationID: idQuotation, CustomerID: idCustomer}
	require.Equal(t, compact(t, `{
	  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
	  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	}`), marshal(t, minimal))

	onChain := types.CreatePayoutRequest{QuotationID: idQuotation, CustomerID: idCustomer, TransactionHash: "0xfeed"}
	require.Equal(t, compact(t, `{
	  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
	  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	  "transaction_hash": "0xfeed"
	}`), marshal(t, onChain))

	// No validation: a nil id is written as it is.
	require.Equal(t, `{"quotation_id":"00000000-0000-0000-0000-000000000000","customer_id":"00000000-0000-0000-0000-000000000000"}`,
		marshal(t, types.CreatePayoutRequest{}))
	// A pointer marshals the same.
	require.Equal(t, marshal(t, minimal), marshal(t, &minimal))
}

func FuzzPayout(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Payout]{prior: fetchPayoutJSON, hasRaw: true, check: checkPayout})
}

func checkPayout(t *testing.T, p *types.Payout, ms []member) {
	checkMoney(t, ms, "rate", p.Rate)
	checkMoney(t, ms, "sending_amount", p.SendingAmount)
	checkReceiving(t, ms, p.ReceivingAmount)
	checkFees(t, lastObject(t, ms, "fees"), p.Fees)
}

// benchFetchedPayout is a realistic fetched payout (interface.md 2.2, 4.4):
// decimal strings, receiveing_amount, a full fees object with the brand
// keys, timestamps with fractions.
var benchFetchedPayout = []byte(`{"id":"6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b","quotation_id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",` +
	`"customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","client_reference_id":"ref-2025-03-08-000123",` +
	`"bank_id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b","asset":"USDT","fiat":"INR","rate":"86.450000",` +
	`"sending_amount":"1250.000000","receiveing_amount":"108062.500000",` +
	`"fees":{"client_fee_fiat":"120.50","client_fee_crypto":"1.393868","acme_fee":"54.03","pg_fee":"0.00",` +
	`"client_gst_fiat":"21.69","client_gst_crypto":"0.250896","acme_gst":"9.73","pg_gst":"0.00","tds":"1080.63",` +
	`"gross_effective_exchange_rate":"85.291234"},` +
	`"exchange_order_id":"EX-88231994","exchange_transfer_id":"TR-55120931","status":"SUCCESS",` +
	`"failure_reason":null,"utr":"UTR0987654321","created_at":"2025-03-08T07:31:24.770179Z",` +
	`"updated_at":"2025-03-08T07:45:02.000Z"}`)

// BenchmarkDecodeFetchedPayout decodes benchFetchedPayout into types.Payout.
func BenchmarkDecodeFetchedPayout(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchFetchedPayout)))
	for i := 0; i < b.N; i++ {
		var p types.Payout
		if err := json.Unmarshal(benchFetchedPayout, &p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeFetchedPayoutNaive decodes the same bytes with
// encoding/json into map[string]any: the baseline (which loses decimal
// precision and types nothing).
func BenchmarkDecodeFetchedPayoutNaive(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchFetchedPayout)))
	for i := 0; i < b.N; i++ {
		var m map[string]any
		if err := json.Unmarshal(benchFetchedPayout, &m); err != nil {
			b.Fatal(err)
		}
	}
}
