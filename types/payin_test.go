package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// payinFetchedJSON is a fetched payin: decimal strings, the
// receiveing_amount spelling, a refund in progress.
const payinFetchedJSON = `{
  "id": "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
  "quotation_id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  "client_reference_id": "ref-1",
  "bank_id": "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
  "asset": "USDT",
  "fiat": "INR",
  "sending_amount": "3000.00",
  "rate": "88.25",
  "receiveing_amount": "33.720000",
  "fees": {"service_fee": "30.00", "service_gst": "5.40"},
  "utr": "123456789012",
  "exchange_transfer_id": "778899",
  "status": "REFUND_INITIATED",
  "failure_reason": "INCORRECT_UTR",
  "refund_reason": "THIRD_PARTY_PAYMENT",
  "created_at": "2025-03-08T07:31:24.770179Z",
  "updated_at": "2025-03-08T08:00:00Z"
}`

func TestPayinFetched(t *testing.T) {
	var p types.Payin
	require.NoError(t, json.Unmarshal([]byte(payinFetchedJSON), &p))
	require.Equal(t, idOrder, p.ID, "the payin's own id")
	require.Equal(t, idQuotation, p.QuotationID)
	require.Equal(t, idCustomer, p.CustomerID)
	require.Equal(t, idBank, p.BankID)
	require.NotNil(t, p.ClientReferenceID)
	require.Equal(t, "ref-1", *p.ClientReferenceID)
	requireDec(t, "3000.00", p.SendingAmount)
	requireDec(t, "88.25", p.Rate)
	requireDec(t, "33.720000", p.ReceivingAmount)
	requireDec(t, "30.00", p.Fees.ServiceFee)
	requireDec(t, "5.40", p.Fees.ServiceGST)
	require.Equal(t, "123456789012", p.UTR)
	require.Equal(t, "778899", p.ExchangeTransferID)
	require.Equal(t, types.PayinRefundInitiated, p.Status)
	require.True(t, p.Status.IsKnown())
	require.False(t, p.Status.IsFinal())
	require.Equal(t, types.PayinFailureIncorrectUTR, p.FailureReason)
	require.Equal(t, types.PayinRefundThirdPartyPayment, p.RefundReason)
	requireTime(t, "2025-03-08T07:31:24.770179Z", p.CreatedAt)
	requireTime(t, "2025-03-08T08:00:00Z", p.UpdatedAt)
	require.True(t, p.ExpiryTime.IsZero())
	require.Equal(t, payinFetchedJSON, string(p.Raw))
}

func TestPayinInitiated(t *testing.T) {
	// The initiate answer: the quotation's fields as numbers, plus id, utr
	// and status; null reasons and an unknown status kept as text.
	body := `{"id":"4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a","quotation_id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
	  "customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","client_reference_id":null,"payment_method":"IMPS",
	  "sending_amount":3000,"rate":88.25,"receiving_amount":33.72,"receiveing_amount":"1",
	  "utr":"123456789012","status":"SETTLING","failure_reason":null,"refund_reason":null,
	  "created_at":"2025-03-08T07:31:24Z","expiry_time":"2025-03-08T07:36:24Z"}`
	var p types.Payin
	require.NoError(t, json.Unmarshal([]byte(body), &p))
	require.Nil(t, p.ClientReferenceID)
	require.Equal(t, types.PaymentMethodIMPS, p.PaymentMethod)
	requireDec(t, "3000", p.SendingAmount)
	requireDec(t, "33.72", p.ReceivingAmount, "receiving_amount wins over receiveing_amount")
	require.Equal(t, types.PayinStatus("SETTLING"), p.Status)
	require.False(t, p.Status.IsKnown())
	require.Equal(t, types.PayinFailureReason(""), p.FailureReason)
	require.Equal(t, types.PayinRefundReason(""), p.RefundReason)
	requireTime(t, "2025-03-08T07:36:24Z", p.ExpiryTime)

	require.Error(t, json.Unmarshal([]byte(`{"id":"not-a-uuid"}`), &p))
	require.Equal(t, types.PayinStatus("SETTLING"), p.Status, "unchanged on error")
}

func TestPayinPage(t *testing.T) {
	body := `{"count":2,"next":"https://api.example/pis/api/v1/payin/history?page=2","previous":null,
	  "results":[` + payinFetchedJSON + `]}`
	var page types.PayinPage
	require.NoError(t, json.Unmarshal([]byte(body), &page))
	require.Equal(t, 2, page.Count)
	require.Equal(t, "https://api.example/pis/api/v1/payin/history?page=2", *page.Next)
	require.Nil(t, page.Previous)
	require.Len(t, page.Results, 1)
	require.Equal(t, idOrder, page.Results[0].ID)
	require.Equal(t, payinFetchedJSON, string(page.Results[0].Raw))
}

func TestPayinTransferLink(t *testing.T) {
	body := `{"payin_id":"4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a","exchange_transfer_id":"778899"}`
	var l types.PayinTransferLink
	require.NoError(t, json.Unmarshal([]byte(body), &l))
	require.Equal(t, types.PayinTransferLink{PayinID: idOrder, ExchangeTransferID: "778899", Raw: json.RawMessage(body)}, l)
	require.Error(t, json.Unmarshal([]byte(`{"payin_id":7}`), &l))
	require.Equal(t, idOrder, l.PayinID, "unchanged on error")
}

func TestPayinReasonValues(t *testing.T) {
	require.Equal(t, []types.PayinFailureReason{"INCORRECT_UTR", "PAYMENT_NOT_RECEIVED"}, types.PayinFailureReason("").Values())
	require.Equal(t, []types.PayinRefundReason{"INCORRECT_AMOUNT", "PAYMENT_FROM_NON_WHITELISTED_ACCOUNT", "THIRD_PARTY_PAYMENT"},
		types.PayinRefundReason("").Values())
	require.False(t, types.PayinRefundReason("incorrect_amount").IsKnown(), "case-sensitive")
	require.True(t, types.PayinFailurePaymentNotReceived.IsKnown())
	for _, s := range []types.PayinStatus{types.PayinSuccess, types.PayinRefunded} {
		require.True(t, s.IsFinal(), s)
	}
	for _, s := range []types.PayinStatus{types.PayinProcessing, types.PayinFailed, types.PayinOnHold, types.PayinRefundInitiated, "X"} {
		require.False(t, s.IsFinal(), s)
	}
}

func FuzzPayin(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Payin]{prior: payinFetchedJSON, hasRaw: true, check: checkPayin})
}

func FuzzPayinPage(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PayinPage]{prior: `{"count":1,"next":null,"previous":null,"results":[` + payinFetchedJSON + `]}`, hasRaw: true})
}

func FuzzPayinTransferLink(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PayinTransferLink]{prior: `{"payin_id":"4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a","exchange_transfer_id":"1"}`, hasRaw: true})
}

func checkPayin(t *testing.T, p *types.Payin, ms []member) {
	checkMoney(t, ms, "rate", p.Rate)
	checkMoney(t, ms, "sending_amount", p.SendingAmount)
	checkReceiving(t, ms, p.ReceivingAmount)
	checkFees(t, lastObject(t, ms, "fees"), p.Fees)
}

// TestPayinInitiatedDepositInstructions: initiate answers the quotation's
// fields, deposit instructions and UPI links included; each lands in its
// field.
func TestPayinInitiatedDepositInstructions(t *testing.T) {
	var p types.Payin
	require.NoError(t, json.Unmarshal([]byte(`{"id":"4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a","status":"PROCESSING",`+
		`"deposit_instructions":{"account_number":"001122334455","ifsc":"ABCD0001234","account_name":"Escrow","deep_link":"upi://pay?pa=x"},`+
		`"ios_checkout_link":"https://checkout.example/x"}`), &p))
	require.Equal(t, types.DepositInstructions{AccountNumber: "001122334455", IFSC: "ABCD0001234", AccountName: "Escrow"}, p.DepositInstructions)
	require.Equal(t, "upi://pay?pa=x", p.DeepLink)
	require.Equal(t, "https://checkout.example/x", p.IOSCheckoutLink)
}
