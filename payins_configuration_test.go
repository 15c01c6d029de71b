package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPayinsConfiguration(t *testing.T) {
	h := newHarness(t)
	data := `{"inr":{"supported_assets":["usdt"],"coin_limits":{}},"aud":{"supported_assets":["usdc"],"supported_networks":["ERC20"]}}`
	calls := h.expect(http.MethodGet, "/pis/api/v1/payin/configuration", "", http.StatusOK, ok(data))
	c, err := h.client.Payins.GetConfiguration(context.Background())
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	aud, ok := c.Fiat("AUD")
	require.True(t, ok)
	assert.Equal(t, []string{"usdc"}, aud.SupportedAssets)
	assert.JSONEq(t, `["ERC20"]`, string(aud.SupportedNetworks))
	_, ok = aud.Limits("usdc", "imps")
	assert.False(t, ok, "no limits given")
}
