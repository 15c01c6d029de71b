package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// expectQuery answers GET path with respBody and checks that the request
// carries exactly the raw query wantQuery, no body, and a signature over
// "{}" (the query is not signed).
func (h *harness) expectQuery(path, wantQuery string, status int, respBody string) {
	h.t.Helper()
	t := h.t
	h.mock.RegisterResponder(http.MethodGet, testBase+path, func(req *http.Request) (*http.Response, error) {
		assert.Equal(t, wantQuery, req.URL.RawQuery, "query")
		assertSigned(t, req, testNow.Unix(), "")
		return httpmock.NewStringResponse(status, respBody), nil
	})
}

func TestPayoutsRate(t *testing.T) {
	h := newHarness(t)
	data := `{"asset":"USDT","fiat":"INR","rate":88.50}`
	h.expectQuery("/pos/api/v1/payout/fetch-rate", "asset=USDT&fiat=INR", http.StatusOK, ok(data))
	r, err := h.client.Payouts.GetRate(context.Background(), types.RateRequest{Asset: "usdt", Fiat: "inr"})
	require.NoError(t, err)
	assert.Equal(t, "88.5", r.Rate.String())
	assert.Equal(t, "USDT", r.Asset)
	assert.Equal(t, data, string(r.Raw))
	assert.Equal(t, 1, h.mock.GetTotalCallCount())
}

func TestPayoutsRateNetwork(t *testing.T) {
	h := newHarness(t)
	h.expectQuery("/pos/api/v1/payout/fetch-rate", "asset=USDT&fiat=AUD&network=TRC20", http.StatusOK,
		ok(`{"asset":"USDT","fiat":"AUD","rate":"1.52"}`))
	r, err := h.client.Payouts.GetRate(context.Background(), types.RateRequest{Asset: "USDT", Fiat: "AUD", Network: "TRC20"})
	require.NoError(t, err)
	assert.Equal(t, "1.52", r.Rate.String())
}

func TestPayoutsRateRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		req   types.RateRequest
		field string
	}{
		"no asset":    {types.RateRequest{Fiat: "INR"}, "asset"},
		"blank asset": {types.RateRequest{Asset: "  ", Fiat: "INR"}, "asset"},
		"no fiat":     {types.RateRequest{Asset: "USDT"}, "fiat"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			r, err := h.client.Payouts.GetRate(context.Background(), tc.req)
			assert.Nil(t, r)
			require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
			var v *fiatramp.ValidationError
			require.ErrorAs(t, err, &v)
			assert.Equal(t, tc.field, v.Field)
			assert.Zero(t, h.mock.GetTotalCallCount(), "nothing sent")
		})
	}
	for name, data := range map[string]string{
		"no rate":       `{"asset":"USDT","fiat":"INR"}`,
		"null rate":     `{"asset":"USDT","fiat":"INR","rate":null}`,
		"zero rate":     `{"asset":"USDT","fiat":"INR","rate":0}`,
		"negative rate": `{"asset":"USDT","fiat":"INR","rate":"-1"}`,
		"text rate":     `{"asset":"USDT","fiat":"INR","rate":"high"}`,
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.expectQuery("/pos/api/v1/payout/fetch-rate", "asset=USDT&fiat=INR", http.StatusOK, ok(data))
			r, err := h.client.Payouts.GetRate(context.Background(), types.RateRequest{Asset: "USDT", Fiat: "INR"})
			assert.Nil(t, r)
			require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		})
	}
}

func TestPayoutsRateObserverRoute(t *testing.T) {
	rec := new(recorder)
	h := newHarness(t, fiatramp.WithObserver(rec))
	h.expectQuery("/pos/api/v1/payout/fetch-rate", "asset=USDT&fiat=INR", http.StatusOK, ok(`{"rate":1}`))
	_, err := h.client.Payouts.GetRate(context.Background(), types.RateRequest{Asset: "USDT", Fiat: "INR"})
	require.NoError(t, err)
	require.Len(t, rec.calls, 1)
	assert.Equal(t, "Payouts.GetRate", rec.calls[0].Operation)
	assert.Equal(t, "/pos/api/v1/payout/fetch-rate", rec.calls[0].Route, "the template, without the query")
}

type floorRate struct {
	Asset string          `json:"asset"`
	Fiat  string          `json:"fiat"`
	Rate  decimal.Decimal `json:"rate"`
}

// BenchmarkPayoutsGetRateVsFloor compares Payouts.GetRate with the hand-written
// floor (floorSend), interleaved, through an in-memory transport:
//
//	go test -run '^$' -bench 'PayoutsRateVsFloor' -benchtime 20000x .
func BenchmarkPayoutsGetRateVsFloor(b *testing.B) {
	ctx := context.Background()
	compareInMemory(b, []byte(ok(`{"asset":"USDT","fiat":"INR","rate":88.5}`)),
		func(c *fiatramp.Client) error {
			_, err := c.Payouts.GetRate(ctx, types.RateRequest{Asset: "USDT", Fiat: "INR"})
			return err
		},
		func(hc *http.Client) error {
			return floorSend(ctx, hc, http.MethodGet, memoryBase+"/pos/api/v1/payout/fetch-rate?asset=USDT&fiat=INR", nil, new(floorRate))
		})
}
