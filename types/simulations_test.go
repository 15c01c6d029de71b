package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPayoutStatusSimulation(t *testing.T) {
	body := `{"payout_id":"6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b","payout_status":"SUCCESS"}`
	var s types.PayoutStatusSimulation
	require.NoError(t, json.Unmarshal([]byte(body), &s))
	require.Equal(t, idPayout, s.PayoutID)
	require.Equal(t, types.PayoutSuccess, s.PayoutStatus)
	require.Equal(t, body, string(s.Raw))
}

func TestKYCStatusSimulation(t *testing.T) {
	body := `{"id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","status":"TAX_VERIFICATION_FAILED"}`
	var s types.KYCStatusSimulation
	require.NoError(t, json.Unmarshal([]byte(body), &s))
	require.Equal(t, types.KYCStatusSimulation{ID: idCustomer, Status: types.KYCTaxVerificationFailed, Raw: json.RawMessage(body)}, s)
}

func TestBankVerificationSimulation(t *testing.T) {
	body := `{"customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","bank_id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b","bank_account_status":"VERIFIED","extra":1}`
	var s types.BankVerificationSimulation
	require.NoError(t, json.Unmarshal([]byte(body), &s))
	require.Equal(t, types.BankVerificationSimulation{CustomerID: idCustomer, BankID: idBank, BankAccountStatus: types.BankAccountVerified, Raw: json.RawMessage(body)}, s)
	require.Error(t, json.Unmarshal([]byte(`{"bank_id":"nope"}`), &s))
	require.Equal(t, types.BankAccountVerified, s.BankAccountStatus, "unchanged on error")
}

func TestPayinStatusSimulation(t *testing.T) {
	body := `{"payin_id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d","payin_status":"SETTLED_LATER"}`
	var s types.PayinStatusSimulation
	require.NoError(t, json.Unmarshal([]byte(body), &s))
	require.Equal(t, idQuotation, s.PayinID)
	require.Equal(t, types.PayinStatus("SETTLED_LATER"), s.PayinStatus, "unknown value kept as text")
	require.False(t, s.PayinStatus.IsKnown())
}

func TestPayinStatusValues(t *testing.T) {
	for _, v := range types.PayinStatus("").Values() {
		assert.True(t, v.IsKnown(), v)
	}
	assert.Len(t, types.PayinStatus("").Values(), 6)
	assert.True(t, types.PayinRefundInitiated.IsKnown())
	assert.True(t, types.PayinOnHold.IsKnown())
	assert.False(t, types.PayinStatus("success").IsKnown(), "case-sensitive")
}

func FuzzPayoutStatusSimulation(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.PayoutStatusSimulation]{prior: fuzzPayoutSimulationJSON, hasRaw: true})
}

func FuzzKYCStatusSimulation(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.KYCStatusSimulation]{prior: fuzzKYCSimulationJSON, hasRaw: true})
}
