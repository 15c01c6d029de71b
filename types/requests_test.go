package types_test

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
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

	// No validation: a nil id is written as it is.
	require.Equal(t, `{"quotation_id":"00000000-0000-0000-0000-000000000000","customer_id":"00000000-0000-0000-0000-000000000000"}`,
		marshal(t, types.CreatePayoutRequest{}))
	// A pointer marshals the same.
	require.Equal(t, marshal(t, minimal), marshal(t, &minimal))
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

func TestRiskParametersJSON(t *testing.T) {
	require.Equal(t, `{"ip_address":"::1","suspicious_activity_report":false,"law_enforcement_agency_report":true}`,
		marshal(t, types.RiskParameters{IPAddress: "::1", LawEnforcementAgencyReport: true}))
	require.Equal(t, `{"device_id":"d","suspicious_activity_report":true,"law_enforcement_agency_report":false}`,
		marshal(t, types.RiskParameters{DeviceID: "d", SuspiciousActivityReport: true}))
}

func TestAddWalletRequestJSON(t *testing.T) {
	require.Equal(t, compact(t, `{
	  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	  "wallet_address": "0x52908400098527886E0F7030069857D2E4169EE7"
	}`), marshal(t, types.AddWalletRequest{CustomerID: idCustomer, WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7"}))
	// wallet_address is not optional: an empty one is still sent.
	require.Equal(t, `{"customer_id":"`+uuid.Nil.String()+`","wallet_address":""}`, marshal(t, types.AddWalletRequest{}))
}
