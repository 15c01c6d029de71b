package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// rawOf returns the Raw field of a decoded response.
func rawOf(v any) json.RawMessage {
	switch v := v.(type) {
	case *types.Payout:
		return v.Raw
	case *types.PrefundedPayout:
		return v.Raw
	case *types.RemittancePayout:
		return v.Raw
	case *types.PayinQuotation:
		return v.Raw
	case *types.Wallet:
		return v.Raw
	case *types.BankAccount:
		return v.Raw
	case *types.BankAccountListItem:
		return v.Raw
	case *types.BankAccountPage:
		return v.Raw
	case *types.KYCConfiguration:
		return v.Raw
	case *types.PayoutStatusSimulation:
		return v.Raw
	case *types.KYCStatusSimulation:
		return v.Raw
	}
	panic("no Raw field")
}

func TestRawIsAnExactIndependentCopy(t *testing.T) {
	// Unknown fields, odd spacing, escapes and key order all survive in Raw.
	body := "{ \"id\" : \"6c1d3f1e-8a8b-4a57-9a57-0d1c2f3e4a5b\",\n\t\"future_field\": {\"nested\": [1, 2.50, \"\\u00e9\"]}, \"status\":\"SUCCESS\" }"
	for name, v := range responseTypes() {
		data := []byte(body)
		require.NoError(t, json.Unmarshal(data, v), name)
		require.Equal(t, body, string(rawOf(v)), name)
		for i := range data {
			data[i] = 'x'
		}
		require.Equal(t, body, string(rawOf(v)), "%s: Raw must not alias the input", name)
	}
}

func TestRawOfEmbeddedData(t *testing.T) {
	// Decoded as part of an envelope, Raw holds exactly the data object.
	var env struct {
		Status bool         `json:"status"`
		Data   types.Wallet `json:"data"`
	}
	data := `{"id":"5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b","wallet_status":"ACTIVE"}`
	require.NoError(t, json.Unmarshal([]byte(`{"status": true, "message": "ok", "data": `+data+`}`), &env))
	require.Equal(t, data, string(env.Data.Raw))
	require.Equal(t, idWallet, env.Data.ID)
}
