package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

func TestBankVerificationSimulation(t *testing.T) {
	body := `{"customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","bank_id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b","bank_account_status":"VERIFIED","extra":1}`
	var s types.BankVerificationSimulation
	require.NoError(t, json.Unmarshal([]byte(body), &s))
	require.Equal(t, types.BankVerificationSimulation{CustomerID: idCustomer, BankID: idBank, BankAccountStatus: types.BankAccountVerified, Raw: json.RawMessage(body)}, s)
	require.Error(t, json.Unmarshal([]byte(`{"bank_id":"nope"}`), &s))
	require.Equal(t, types.BankAccountVerified, s.BankAccountStatus, "unchanged on error")
}

func TestPayinStatusSimulation(t *testing.T) {
	body := `{"quotation_id":"0b9f2c7e-3d4a-4e8b-9c1d-2e3f4a5b6c7d","payin_status":"SETTLED_LATER"}`
	var s types.PayinStatusSimulation
	require.NoError(t, json.Unmarshal([]byte(body), &s))
	require.Equal(t, idQuotation, s.QuotationID)
	require.Equal(t, types.PayinStatus("SETTLED_LATER"), s.PayinStatus, "unknown value kept as text")
	require.False(t, s.PayinStatus.IsKnown())
}

func TestPayinStatusValues(t *testing.T) {
	for _, v := range types.PayinStatus("").Values() {
		assert.True(t, v.IsKnown(), v)
	}
	assert.Len(t, types.PayinStatus("").Values(), 5)
	assert.False(t, types.PayinStatus("success").IsKnown(), "case-sensitive")
}

func TestBalance(t *testing.T) {
	body := `{"available_balance":{"USDT":"100.000000000000000001","USDC":2.50,"USDT":"7"},"as_of":"x"}`
	var b types.Balance
	require.NoError(t, json.Unmarshal([]byte(body), &b))
	require.Len(t, b.AvailableBalance, 2)
	requireDec(t, "7", b.AvailableBalance["USDT"], "last duplicate wins")
	requireDec(t, "2.50", b.AvailableBalance["USDC"])
	require.Equal(t, body, string(b.Raw))

	require.NoError(t, json.Unmarshal([]byte(`{"available_balance":null}`), &b))
	require.Nil(t, b.AvailableBalance)
	require.NoError(t, json.Unmarshal([]byte(`{"available_balance":{}}`), &b))
	require.NotNil(t, b.AvailableBalance, "an empty object is an empty map, not nil")
	require.Empty(t, b.AvailableBalance)
	require.NoError(t, json.Unmarshal([]byte(`{"available_balance":{"U\u0053DT":"1"}}`), &b))
	requireDec(t, "1", b.AvailableBalance["USDT"], "escaped key decoded")
}

func TestBalanceRefusals(t *testing.T) {
	for _, body := range []string{
		`{"available_balance":{"USDT":null}}`,
		`{"available_balance":{"USDT":""}}`,
		`{"available_balance":{"USDT":"1e"}}`,
		`{"available_balance":{"USDT":true}}`,
		`{"available_balance":[]}`,
		`{"available_balance":"100"}`,
		`[]`,
	} {
		b := types.Balance{Raw: json.RawMessage(`"before"`)}
		err := json.Unmarshal([]byte(body), &b)
		require.Error(t, err, body)
		require.Equal(t, `"before"`, string(b.Raw), "unchanged on error: %s", body)
	}
}
