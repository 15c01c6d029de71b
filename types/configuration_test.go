package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

const configurationByFiat = `{"inr":{"supported_assets":["usdt","usdc"],"coin_limits":{"usdt":{"imps":{"min":10,"max":"5000.5"},"upi":{"min":10,"max":1000}}}},` +
	`"aud":{"supported_assets":["usdt"],"supported_networks":["TRC20"],"coin_limits":{"usdt":{"min":5,"max":900}}}}`

func TestConfigurationByFiat(t *testing.T) {
	var c types.Configuration
	require.NoError(t, json.Unmarshal([]byte(configurationByFiat), &c))
	require.Len(t, c.Fiats, 2)
	require.Equal(t, configurationByFiat, string(c.Raw))
	inr, ok := c.Fiat("INR")
	require.True(t, ok)
	require.Equal(t, []string{"usdt", "usdc"}, inr.SupportedAssets)
	r, ok := inr.Limits("USDT", "IMPS")
	require.True(t, ok)
	requireDec(t, "10", r.Min)
	requireDec(t, "5000.5", r.Max)
	r, ok = inr.Limits("usdt", "upi")
	require.True(t, ok)
	requireDec(t, "1000", r.Max)
	_, ok = inr.Limits("usdt", "neft")
	require.False(t, ok, "no range for a method the asset does not list")
	_, ok = inr.Limits("usdc", "imps")
	require.False(t, ok, "no limits for usdc")

	aud, ok := c.Fiat("aud")
	require.True(t, ok)
	require.JSONEq(t, `["TRC20"]`, string(aud.SupportedNetworks))
	r, ok = aud.Limits("usdt", "anything")
	require.True(t, ok, "a flat range within a fiat serves every method")
	requireDec(t, "900", r.Max)
	_, ok = c.Fiat("eur")
	require.False(t, ok)
}

func TestConfigurationFlat(t *testing.T) {
	body := `{"supported_fiats":["INR"],"supported_assets":["USDT"],"coin_limits":{"USDT":{"min":"10","max":5000}},` +
		`"supported_networks":{"USDT":["TRC20"]},"required_risk_parameters":["ip_address"]}`
	var c types.Configuration
	require.NoError(t, json.Unmarshal([]byte(body), &c))
	require.Empty(t, c.Fiats, "coin_limits is the flat edition's member, not a fiat")
	require.Equal(t, []string{"INR"}, c.SupportedFiats)
	inr, ok := c.Fiat("inr")
	require.True(t, ok)
	r, ok := inr.Limits("usdt", "imps")
	require.True(t, ok)
	requireDec(t, "10", r.Min)
	requireDec(t, "5000", r.Max)
	_, ok = c.Fiat("AUD")
	require.False(t, ok, "supported_fiats does not name AUD")
	require.JSONEq(t, `["ip_address"]`, string(c.RequiredRiskParameters))
}

func TestConfigurationRepeats(t *testing.T) {
	var c types.Configuration
	require.NoError(t, json.Unmarshal([]byte(`{"inr":{"supported_assets":["a"]},"inr":{"supported_assets":["b"]},"usd":{},"usd":null}`), &c))
	require.Equal(t, []string{"b"}, c.Fiats["inr"].SupportedAssets, "last duplicate wins")
	_, ok := c.Fiats["usd"]
	require.False(t, ok, "a later null removes an earlier fiat")
	require.NoError(t, json.Unmarshal([]byte(`{"inr":{"coin_limits":{"usdt":{"imps":{"max":1},"imps":{"max":2}}}}}`), &c))
	r, _ := c.Fiats["inr"].Limits("usdt", "imps")
	requireDec(t, "2", r.Max)
}

func TestConfigurationRefusals(t *testing.T) {
	for _, body := range []string{
		`{"inr":{"coin_limits":{"usdt":{"imps":{"min":"low"}}}}}`,
		`{"inr":{"supported_assets":"usdt"}}`,
		`{"coin_limits":{"usdt":{"max":true}}}`,
		`{"coin_limits":[]}`,
		`[]`,
	} {
		c := types.Configuration{SupportedFiats: []string{"before"}}
		require.Error(t, json.Unmarshal([]byte(body), &c), body)
		require.Equal(t, []string{"before"}, c.SupportedFiats, "unchanged on error: %s", body)
	}
}

func FuzzConfiguration(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Configuration]{prior: configurationByFiat, hasRaw: true})
}

// TestConfigurationFlatNestedPerFiat: a flat configuration whose
// coin_limits nests limits per fiat, asset and method keeps every limit:
// each fiat reads as its entry of Fiats, with the flat assets and
// networks, and CoinLimits is nil (its keys are fiats, not assets).
func TestConfigurationFlatNestedPerFiat(t *testing.T) {
	body := `{"supported_fiats":["INR"],"supported_assets":["USDT"],"supported_networks":["TRC20"],` +
		`"coin_limits":{"inr":{"usdt":{"imps":{"min":10,"max":"5000.5"},"upi":{"min":"10","max":1000}}}}}`
	var c types.Configuration
	require.NoError(t, json.Unmarshal([]byte(body), &c))
	assert.Nil(t, c.CoinLimits)
	assert.Equal(t, body, string(c.Raw))
	inr, ok := c.Fiat("INR")
	require.True(t, ok)
	assert.Equal(t, []string{"USDT"}, inr.SupportedAssets)
	assert.JSONEq(t, `["TRC20"]`, string(inr.SupportedNetworks))
	r, ok := inr.Limits("USDT", "IMPS")
	require.True(t, ok)
	assert.Equal(t, "10", r.Min.String())
	assert.Equal(t, "5000.5", r.Max.String())
	r, ok = inr.Limits("usdt", "upi")
	require.True(t, ok)
	assert.Equal(t, "1000", r.Max.String())

	// Nested per fiat without methods: told apart by supported_fiats.
	c = types.Configuration{}
	require.NoError(t, json.Unmarshal([]byte(`{"supported_fiats":["inr"],"supported_assets":["usdt"],"coin_limits":{"INR":{"USDT":{"min":1,"max":2}}}}`), &c))
	assert.Nil(t, c.CoinLimits)
	r, ok = c.Fiats["INR"].Limits("usdt", "imps")
	require.True(t, ok)
	assert.Equal(t, "2", r.Max.String())

	// Per asset with methods stays per asset: its keys are assets.
	c = types.Configuration{}
	require.NoError(t, json.Unmarshal([]byte(`{"supported_fiats":["INR"],"supported_assets":["USDT"],"coin_limits":{"usdt":{"imps":{"min":1,"max":2}}}}`), &c))
	assert.Empty(t, c.Fiats)
	inr, ok = c.Fiat("inr")
	require.True(t, ok)
	r, ok = inr.Limits("USDT", "imps")
	require.True(t, ok)
	assert.Equal(t, "2", r.Max.String())

	// null leaves a decoded configuration as it was.
	require.NoError(t, json.Unmarshal([]byte(`null`), &c))
	assert.NotNil(t, c.CoinLimits)
}
