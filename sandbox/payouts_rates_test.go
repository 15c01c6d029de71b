package sandbox_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestFetchRatePayouts(t *testing.T) {
	e := newEnv(t)
	r, err := e.client.Payouts.GetRate(context.Background(), types.RateRequest{Asset: "usdt", Fiat: "inr"})
	require.NoError(t, err)
	assert.Equal(t, "USDT", r.Asset)
	assert.Equal(t, "INR", r.Fiat)
	assert.Equal(t, "88.5", r.Rate.String(), "the settings' rate, the one payin quotations use")
	assert.JSONEq(t, `{"asset":"USDT","fiat":"INR","rate":88.5}`, string(r.Raw))

	r, err = e.client.Payouts.GetRate(context.Background(), types.RateRequest{Asset: "USDC", Fiat: "INR", Network: "ERC20"})
	require.NoError(t, err)
	assert.Equal(t, "88.4", r.Rate.String())
	assert.Equal(t, "ERC20", r.Network, "network echoed")
}

func TestFetchRateFromSettings(t *testing.T) {
	e := newEnv(t, func(s *sandbox.Settings) {
		s.Rates = map[string]decimal.Decimal{"USDT/AUD": decimal.RequireFromString("1.5234")}
	})
	r, err := e.client.Payouts.GetRate(context.Background(), types.RateRequest{Asset: "USDT", Fiat: "AUD"})
	require.NoError(t, err)
	assert.Equal(t, "1.5234", r.Rate.String())
	_, err = e.client.Payouts.GetRate(context.Background(), types.RateRequest{Asset: "USDT", Fiat: "INR"})
	require.ErrorIs(t, err, fiatramp.ErrFieldMissing, "a pair the settings do not price")
}

func TestFetchRateRefusals(t *testing.T) {
	e := newEnv(t)
	for query, field := range map[string]string{
		"":                    "asset",
		"?fiat=INR":           "asset",
		"?asset=USDT":         "fiat",
		"?asset=%20&fiat=INR": "asset",
		"?asset=BTC&fiat=INR": "asset",
	} {
		var raw json.RawMessage
		var resp fiatramp.Response
		err := e.client.Do(context.Background(), http.MethodGet, "/pos/api/v1/payout/fetch-rate"+query, nil, &raw, fiatramp.CaptureResponse(&resp))
		require.Error(t, err, query)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, query)
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr, query)
		assert.Contains(t, apiErr.FieldErrors, field, query)
	}
}

func TestFetchRatePayins(t *testing.T) {
	e := newEnv(t)
	r, err := e.client.Payins.GetRate(context.Background(), types.RateRequest{Asset: "USDC", Fiat: "INR"})
	require.NoError(t, err)
	assert.Equal(t, "88.4", r.Rate.String())
}
