package sandbox_test

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// TestConfigurationDefaults: both configurations name the assets
// Settings.Rates prices; the payout one shows Settings.CoinLimits (the
// payin one shows the payin quotation's bounds: payins_configuration_test.go).
func TestConfigurationDefaults(t *testing.T) {
	e := newEnv(t)
	for name, get := range map[string]func() (*types.Configuration, error){
		"payouts": func() (*types.Configuration, error) { return e.client.Payouts.GetConfiguration(ctx(t)) },
		"payins":  func() (*types.Configuration, error) { return e.client.Payins.GetConfiguration(ctx(t)) },
	} {
		c, err := get()
		require.NoError(t, err, name)
		require.Len(t, c.Fiats, 1, name)
		inr, ok := c.Fiat("INR")
		require.True(t, ok, name)
		assert.Equal(t, []string{"usdc", "usdt"}, inr.SupportedAssets, name)
	}
	c, err := e.client.Payouts.GetConfiguration(ctx(t))
	require.NoError(t, err)
	inr, _ := c.Fiat("INR")
	r, ok := inr.Limits("USDT", "IMPS")
	require.True(t, ok)
	assert.Equal(t, "10", r.Min.String())
	assert.Equal(t, "5000", r.Max.String())
	r, ok = inr.Limits("usdc", "upi")
	require.True(t, ok)
	assert.Equal(t, "1000", r.Max.String())
}

// TestConfigurationFromSettings: the assets are those Settings.Rates
// prices, the limits Settings.CoinLimits; an asset without limits is
// supported with none.
func TestConfigurationFromSettings(t *testing.T) {
	e := newEnv(t, func(st *sandbox.Settings) {
		st.Rates = map[string]decimal.Decimal{"USDT/AUD": decimal.RequireFromString("1.52"), "BTC/AUD": decimal.NewFromInt(90000)}
		st.CoinLimits = map[string]map[types.PaymentMethod]sandbox.CoinLimit{
			"USDT/AUD": {"PAYID": {Min: decimal.NewFromInt(5), Max: decimal.RequireFromString("2500.5")}},
		}
	})
	c, err := e.client.Payouts.GetConfiguration(ctx(t))
	require.NoError(t, err)
	aud, ok := c.Fiat("aud")
	require.True(t, ok)
	assert.Equal(t, []string{"btc", "usdt"}, aud.SupportedAssets)
	r, ok := aud.Limits("usdt", "payid")
	require.True(t, ok)
	assert.Equal(t, "2500.5", r.Max.String())
	_, ok = aud.Limits("btc", "payid")
	assert.False(t, ok)
	_, ok = c.Fiat("inr")
	assert.False(t, ok)
}
