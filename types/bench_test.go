package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
)

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

// BenchmarkDecodePrefundedPayout decodes a prefunded payout: nested fees
// and the customer object with its two parties.
func BenchmarkDecodePrefundedPayout(b *testing.B) {
	benchDecode[types.PrefundedPayout](b, []byte(prefundedPayoutJSON))
}

// BenchmarkDecodeKYCConfiguration decodes a KYC configuration: a list of
// strings and three levels of nested objects.
func BenchmarkDecodeKYCConfiguration(b *testing.B) {
	benchDecode[types.KYCConfiguration](b, []byte(kycConfigurationJSON))
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
