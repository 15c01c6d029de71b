package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// configurationData is a configuration of the newest edition, keyed by
// fiat.
const configurationData = `{"inr":{"supported_assets":["usdt"],"coin_limits":{"usdt":{"imps":{"min":10,"max":5000},"upi":{"min":10,"max":"1000.50"}}}}}`

func TestPayoutsConfiguration(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodGet, "/pos/api/v1/payout/configuration", "", http.StatusOK, ok(configurationData))
	c, err := h.client.Payouts.GetConfiguration(context.Background())
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	inr, ok := c.Fiat("INR")
	require.True(t, ok)
	r, ok := inr.Limits("USDT", "UPI")
	require.True(t, ok)
	assert.Equal(t, "1000.5", r.Max.String())
	assert.Equal(t, configurationData, string(c.Raw))
}

func TestPayoutsConfigurationFlat(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodGet, "/pos/api/v1/payout/configuration", "", http.StatusOK,
		ok(`{"supported_fiats":["INR"],"supported_assets":["USDT"],"coin_limits":{"USDT":{"min":10,"max":5000}}}`))
	c, err := h.client.Payouts.GetConfiguration(context.Background())
	require.NoError(t, err)
	inr, ok := c.Fiat("inr")
	require.True(t, ok)
	r, ok := inr.Limits("usdt", "imps")
	require.True(t, ok)
	assert.Equal(t, "5000", r.Max.String())
}

// TestPayoutsConfigurationRefusals: an answer that names no assets, under
// a fiat or flat, says nothing and is refused; a value that does not fit
// is refused too.
func TestPayoutsConfigurationRefusals(t *testing.T) {
	for name, data := range map[string]string{
		"empty":               `{}`,
		"fiat without assets": `{"inr":{"coin_limits":{}}}`,
		"null assets":         `{"inr":{"supported_assets":null}}`,
		"limit not a decimal": `{"inr":{"supported_assets":[],"coin_limits":{"usdt":{"imps":{"min":"ten"}}}}}`,
		"assets not a list":   `{"supported_assets":"usdt"}`,
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.expect(http.MethodGet, "/pos/api/v1/payout/configuration", "", http.StatusOK, ok(data))
			c, err := h.client.Payouts.GetConfiguration(context.Background())
			assert.Nil(t, c)
			require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		})
	}
}

type floorRange struct {
	Min decimal.Decimal `json:"min"`
	Max decimal.Decimal `json:"max"`
}

type floorFiatConfiguration struct {
	SupportedAssets []string                         `json:"supported_assets"`
	CoinLimits      map[string]map[string]floorRange `json:"coin_limits"`
}

// BenchmarkPayoutsGetConfigurationVsFloor compares Payouts.GetConfiguration with the hand-written
// floor (floorSend), interleaved, through an in-memory transport:
//
//	go test -run '^$' -bench 'PayoutsConfigurationVsFloor' -benchtime 20000x .
func BenchmarkPayoutsGetConfigurationVsFloor(b *testing.B) {
	ctx := context.Background()
	cfgData := `{"inr":{"supported_assets":["usdt","usdc"],"coin_limits":{"usdt":{"imps":{"min":10,"max":5000},"upi":{"min":10,"max":1000}},` +
		`"usdc":{"imps":{"min":10,"max":5000},"upi":{"min":10,"max":1000}}}}}`
	compareInMemory(b, []byte(ok(cfgData)),
		func(c *fiatramp.Client) error { _, err := c.Payouts.GetConfiguration(ctx); return err },
		func(hc *http.Client) error {
			return floorSend(ctx, hc, http.MethodGet, memoryBase+"/pos/api/v1/payout/configuration", nil, new(map[string]floorFiatConfiguration))
		})
}
