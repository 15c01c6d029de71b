package types_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// payoutQuotationJSON is the data of a fetched on-chain payout quotation.
const payoutQuotationJSON = `{
  "id": "0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d",
  "order_id": "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  "bank_id": "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
  "status": "LINKED",
  "asset": "USDT",
  "fiat": "INR",
  "network": "TRON",
  "wallet_address": "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
  "sending_amount": 10.5,
  "rate": 88.5,
  "receiving_amount": 918.29,
  "fees": {"client_fee_fiat": 0, "client_fee_crypto": 0, "service_fee": 9.29, "pg_fee": 0, "client_gst_fiat": 0, "client_gst_crypto": 0, "service_gst": 1.67, "pg_gst": 0, "tds": 0, "gross_effective_exchange_rate": 87.4562},
  "created_at": "2026-01-01T00:00:00Z",
  "expiry_time": "2026-01-01T00:05:00Z"
}`

func TestPayoutQuotationFetched(t *testing.T) {
	var q types.PayoutQuotation
	require.NoError(t, json.Unmarshal([]byte(payoutQuotationJSON), &q))
	require.Equal(t, idQuotation, q.ID)
	require.Equal(t, idOrder, q.OrderID)
	require.Equal(t, idCustomer, q.CustomerID)
	require.Equal(t, idBank, q.BankID)
	require.Equal(t, types.QuotationLinked, q.Status)
	require.Equal(t, "TRON", q.Network)
	require.Equal(t, "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE", q.WalletAddress)
	requireDec(t, "10.5", q.SendingAmount)
	requireDec(t, "88.5", q.Rate)
	requireDec(t, "918.29", q.ReceivingAmount)
	requireDec(t, "9.29", q.Fees.ServiceFee)
	requireDec(t, "1.67", q.Fees.ServiceGST)
	require.True(t, q.CreatedAt.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	require.True(t, q.ExpiryTime.Equal(time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC)))
	require.JSONEq(t, payoutQuotationJSON, string(q.Raw))
}

// The fetch variant's decimal strings and receiveing_amount decode too; an
// unknown status keeps its text; create answers no order id or status.
func TestPayoutQuotationVariants(t *testing.T) {
	var q types.PayoutQuotation
	require.NoError(t, json.Unmarshal([]byte(`{"id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d","status":"PROCESSING",`+
		`"sending_amount":"10.50","rate":"88.50","receiveing_amount":"918.29"}`), &q))
	require.Equal(t, types.QuotationStatus("PROCESSING"), q.Status)
	requireDec(t, "918.29", q.ReceivingAmount)
	require.Equal(t, int32(-2), q.SendingAmount.Exponent(), "digits kept")

	var created types.PayoutQuotation
	require.NoError(t, json.Unmarshal([]byte(`{"id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d","sending_amount":1}`), &created))
	require.Equal(t, uuid.Nil, created.OrderID)
	require.Empty(t, created.Status)
	require.Empty(t, created.WalletAddress)

	err := json.Unmarshal([]byte(`{"rate":"abc"}`), &q)
	require.Error(t, err)
	require.Equal(t, types.QuotationStatus("PROCESSING"), q.Status, "a failed decode leaves the value alone")
}

func TestPayoutQuotationExpired(t *testing.T) {
	expiry := time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC)
	q := types.PayoutQuotation{ExpiryTime: expiry, Status: types.QuotationUnlinked}
	require.False(t, q.Expired(expiry.Add(-time.Nanosecond)))
	require.True(t, q.Expired(expiry))
	q.Status = types.QuotationExpired
	require.True(t, q.Expired(expiry.Add(-time.Hour)), "the service's word wins over the clock")
	require.True(t, (&types.PayoutQuotation{}).Expired(expiry), "no expiry time: unknown validity")
}

func TestTransferLinkDecode(t *testing.T) {
	var l types.TransferLink
	require.NoError(t, json.Unmarshal([]byte(`{"exchange_order_id":"EXO-1","exchange_transfer_id":"0042","exchange_order_id":"EXO-2"}`), &l))
	require.Equal(t, "EXO-2", l.ExchangeOrderID, "the last duplicate wins")
	require.Equal(t, "0042", l.ExchangeTransferID)
	require.Error(t, json.Unmarshal([]byte(`{"exchange_transfer_id":42}`), &l), "a number is not a transfer id")
}

func FuzzPayoutQuotation(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PayoutQuotation]{prior: payoutQuotationJSON, hasRaw: true, check: checkPayoutQuotation})
}

func checkPayoutQuotation(t *testing.T, q *types.PayoutQuotation, ms []member) {
	checkMoney(t, ms, "rate", q.Rate)
	checkMoney(t, ms, "sending_amount", q.SendingAmount)
	checkReceiving(t, ms, q.ReceivingAmount)
	checkFees(t, lastObject(t, ms, "fees"), q.Fees)
}

func FuzzTransferLink(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.TransferLink]{prior: `{"exchange_order_id":"EXO-1","exchange_transfer_id":"1"}`, hasRaw: true})
}
