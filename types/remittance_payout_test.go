package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func TestRemittancePayoutLenient(t *testing.T) {
	body := `{
	  "id": "6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b",
	  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
	  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	  "remitter_id": "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
	  "client_reference_id": "rem-7",
	  "transaction_hash": "0xdeadbeef",
	  "status": "IN_REVIEW",
	  "asset": "USDC",
	  "fiat": "INR",
	  "rate": "86.1",
	  "sending_amount": 50,
	  "receiving_amount": "4305",
	  "fees": {"acme_fee": 1.5, "tds": "43.05"},
	  "utr": null,
	  "failure_reason": null,
	  "created_at": "2025-03-08T07:31:24Z",
	  "updated_at": "2025-03-08T07:31:25Z",
	  "beneficiary": {"name": "not typed by the library"}
	}`
	var p types.RemittancePayout
	require.NoError(t, json.Unmarshal([]byte(body), &p))
	require.Equal(t, idPayout, p.ID)
	require.Equal(t, idQuotation, p.QuotationID)
	require.Equal(t, idCustomer, p.CustomerID)
	require.Equal(t, idRemitter, p.RemitterID)
	require.Equal(t, strPtr("rem-7"), p.ClientReferenceID)
	require.Equal(t, strPtr("0xdeadbeef"), p.TransactionHash)
	require.Equal(t, types.PayoutInReview, p.Status)
	require.Equal(t, "USDC", p.Asset)
	require.Equal(t, "INR", p.Fiat)
	requireDec(t, "86.1", p.Rate)
	requireDec(t, "50", p.SendingAmount)
	requireDec(t, "4305", p.ReceivingAmount)
	requireDec(t, "1.5", p.Fees.ServiceFee)
	requireDec(t, "43.05", p.Fees.TDS)
	require.Nil(t, p.UTR)
	require.Nil(t, p.FailureReason)
	requireTime(t, "2025-03-08T07:31:24Z", p.CreatedAt)
	requireTime(t, "2025-03-08T07:31:25Z", p.UpdatedAt)
	require.Equal(t, body, string(p.Raw))

	// Every field is optional.
	var empty types.RemittancePayout
	require.NoError(t, json.Unmarshal([]byte(`{}`), &empty))
	require.Equal(t, uuid.Nil, empty.ID)
	require.Equal(t, "{}", string(empty.Raw))
}

func TestCreateRemittancePayoutRequestJSON(t *testing.T) {
	r := types.CreateRemittancePayoutRequest{
		QuotationID: idQuotation, CustomerID: idCustomer, RemitterID: idRemitter,
		ClientReferenceID: "rem-7", TransactionHash: "0xdeadbeef",
	}
	require.Equal(t, compact(t, `{
	  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
	  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	  "remitter_id": "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
	  "client_reference_id": "rem-7",
	  "transaction_hash": "0xdeadbeef"
	}`), marshal(t, r))

	// The prefunding flow sends no transaction_hash.
	r.ClientReferenceID, r.TransactionHash = "", ""
	require.Equal(t, compact(t, `{
	  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
	  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	  "remitter_id": "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
	}`), marshal(t, r))
}

func FuzzRemittancePayout(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.RemittancePayout]{prior: createPayoutJSON, hasRaw: true, check: checkRemittancePayout})
}

func checkRemittancePayout(t *testing.T, p *types.RemittancePayout, ms []member) {
	checkMoney(t, ms, "rate", p.Rate)
	checkMoney(t, ms, "sending_amount", p.SendingAmount)
	checkReceiving(t, ms, p.ReceivingAmount)
	checkFees(t, lastObject(t, ms, "fees"), p.Fees)
}
