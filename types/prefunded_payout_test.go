package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// prefundedPayoutJSON is the data of a prefunded create response
// (interface.md 2.3): decimal strings, nested customer, null sender id.
const prefundedPayoutJSON = `{
  "id": "6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b",
  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
  "bank_id": "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
  "asset": "USDT",
  "network": "TRON",
  "fiat": "INR",
  "rate": "87.1234",
  "sending_amount": "250.000000",
  "receiving_amount": "21780.85",
  "client_reference_id": "pref-42",
  "fees": {"service_fee": "12.50", "client_fee": "3.00", "client_gst": "0.54", "tds": "217.81"},
  "status": "PROCESSING",
  "wallet_address": "TXyz1234567890abcdefABCDEF12345678",
  "transaction_hash": null,
  "utr": null,
  "failure_reason": null,
  "updated_at": "2025-03-08T07:31:24.770179Z",
  "created_at": "2025-03-08T07:31:24.123Z",
  "customer": {"sender": {"id": null}, "receiver": {"id": "2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b"}}
}`

func TestPrefundedPayout(t *testing.T) {
	var p types.PrefundedPayout
	require.NoError(t, json.Unmarshal([]byte(prefundedPayoutJSON), &p))

	require.Equal(t, idPayout, p.ID)
	require.Equal(t, idQuotation, p.QuotationID)
	require.Equal(t, idBank, p.BankID)
	require.Equal(t, "USDT", p.Asset)
	require.Equal(t, "TRON", p.Network)
	require.Equal(t, "INR", p.Fiat)
	requireDec(t, "87.1234", p.Rate)
	requireDec(t, "250", p.SendingAmount)
	requireDec(t, "21780.85", p.ReceivingAmount)
	require.Equal(t, strPtr("pref-42"), p.ClientReferenceID)
	requireDec(t, "12.50", p.Fees.ServiceFee)
	requireDec(t, "3.00", p.Fees.ClientFee)
	requireDec(t, "0.54", p.Fees.ClientGST)
	requireDec(t, "217.81", p.Fees.TDS)
	require.Nil(t, p.Fees.Other)
	require.Equal(t, types.PayoutProcessing, p.Status)
	require.Equal(t, "TXyz1234567890abcdefABCDEF12345678", p.WalletAddress)
	require.Nil(t, p.TransactionHash)
	require.Nil(t, p.UTR)
	require.Nil(t, p.FailureReason)
	requireTime(t, "2025-03-08T07:31:24.770179Z", p.UpdatedAt)
	requireTime(t, "2025-03-08T07:31:24.123Z", p.CreatedAt)
	require.Nil(t, p.Customer.Sender.ID, "null sender id decodes as nil")
	require.NotNil(t, p.Customer.Receiver.ID)
	require.Equal(t, idReceiver, *p.Customer.Receiver.ID)
	require.Equal(t, prefundedPayoutJSON, string(p.Raw))
}

func TestPrefundedPayoutSettledAndNumbers(t *testing.T) {
	body := `{"rate": 87.5, "sending_amount": 1, "receiving_amount": 87.5,
		"fees": {"service_fee": 0.5, "client_fee": 1, "client_gst": 0.18, "tds": 0.87},
		"status": "SUCCESS", "transaction_hash": "0xabc", "utr": "UTR1",
		"customer": {"sender": {"id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"}, "receiver": {"id": ""}}}`
	var p types.PrefundedPayout
	require.NoError(t, json.Unmarshal([]byte(body), &p))
	requireDec(t, "87.5", p.Rate)
	requireDec(t, "1", p.SendingAmount)
	requireDec(t, "0.5", p.Fees.ServiceFee)
	requireDec(t, "1", p.Fees.ClientFee)
	requireDec(t, "0.18", p.Fees.ClientGST)
	requireDec(t, "0.87", p.Fees.TDS)
	require.Equal(t, strPtr("0xabc"), p.TransactionHash)
	require.Equal(t, strPtr("UTR1"), p.UTR)
	require.Equal(t, idCustomer, *p.Customer.Sender.ID)
	require.Nil(t, p.Customer.Receiver.ID, `"" id decodes as nil`)

	var q types.PrefundedPayout
	require.NoError(t, json.Unmarshal([]byte(`{"customer": null}`), &q))
	require.Nil(t, q.Customer.Sender.ID)
	require.NoError(t, json.Unmarshal([]byte(`{"customer": {"sender": {}}}`), &q))
	require.Nil(t, q.Customer.Sender.ID, "absent id decodes as nil")
}

// The sender and receiver of a prefunded payout are read with exact names,
// the last duplicate winning: encoding/json took "SENDER" (or "Receiver")
// for the service's own member.
func TestPrefundedPartiesKeysMatchExactly(t *testing.T) {
	const a, b, c = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"
	var p types.PrefundedPayoutParties
	require.NoError(t, json.Unmarshal([]byte(`{"sender":{"id":"`+a+`"},"SENDER":{"id":"`+b+`"},`+
		`"receiver":{"id":"`+b+`"},"receiver":{"id":"`+c+`"},"Receiver":{"id":"`+a+`"}}`), &p))
	require.NotNil(t, p.Sender.ID)
	require.NotNil(t, p.Receiver.ID)
	assert.Equal(t, a, p.Sender.ID.String())
	assert.Equal(t, c, p.Receiver.ID.String(), "the last duplicate wins")

	var out types.PrefundedPayout
	require.NoError(t, json.Unmarshal([]byte(`{"customer":{"sender":{"id":"`+a+`"},"Sender":{"id":"`+b+`"}}}`), &out))
	require.NotNil(t, out.Customer.Sender.ID)
	assert.Equal(t, a, out.Customer.Sender.ID.String())

	// A later null or a later object replaces the earlier one whole, as a
	// Python dict does.
	out = types.PrefundedPayout{}
	require.NoError(t, json.Unmarshal([]byte(`{"customer":{"sender":{"id":"`+a+`"},"sender":null,`+
		`"receiver":{"id":"`+b+`"}},"customer":{"receiver":{"id":"`+c+`"}}}`), &out))
	assert.Nil(t, out.Customer.Sender.ID, "the second customer has no sender")
	require.NotNil(t, out.Customer.Receiver.ID)
	assert.Equal(t, c, out.Customer.Receiver.ID.String())
}

func TestCreatePrefundedPayoutRequestJSON(t *testing.T) {
	r := types.CreatePrefundedPayoutRequest{
		QuotationID: idQuotation,
		Customer: types.PrefundedCustomer{
			Sender:   types.CustomerRef{ID: idCustomer},
			Receiver: types.CustomerRef{ID: idReceiver},
		},
		ClientReferenceID: "pref-42",
	}
	require.Equal(t, compact(t, `{
	  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
	  "customer": {
	    "sender": {"id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"},
	    "receiver": {"id": "2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b"}
	  },
	  "client_reference_id": "pref-42"
	}`), marshal(t, r))

	r.ClientReferenceID = ""
	require.Equal(t, compact(t, `{
	  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
	  "customer": {
	    "sender": {"id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"},
	    "receiver": {"id": "2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b"}
	  }
	}`), marshal(t, r))
}

func FuzzPrefundedPayout(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PrefundedPayout]{prior: prefundedPayoutJSON, hasRaw: true, check: checkPrefundedPayout})
}

func FuzzPartyRef(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PartyRef]{prior: `{"id":"2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b"}`, check: checkPartyRef})
}

func checkPrefundedPayout(t *testing.T, p *types.PrefundedPayout, ms []member) {
	checkMoney(t, ms, "rate", p.Rate)
	checkMoney(t, ms, "sending_amount", p.SendingAmount)
	checkReceiving(t, ms, p.ReceivingAmount)
	checkPrefundedFees(t, lastObject(t, ms, "fees"), p.Fees)
}

// checkPartyRef checks that ID is nil exactly when id is null, "" or absent.
func checkPartyRef(t *testing.T, r *types.PartyRef, ms []member) {
	vs := occurrences(ms, "id")
	empty := len(vs) == 0 || string(vs[len(vs)-1]) == "null" || string(vs[len(vs)-1]) == `""`
	if empty != (r.ID == nil) {
		t.Fatalf("ID = %v for id %s", r.ID, vs)
	}
}

// BenchmarkDecodePrefundedPayout decodes a prefunded payout: nested fees
// and the customer object with its two parties.
func BenchmarkDecodePrefundedPayout(b *testing.B) {
	benchDecode[types.PrefundedPayout](b, []byte(prefundedPayoutJSON))
}
