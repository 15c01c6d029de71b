package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/stretchr/testify/require"
)

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
