package fiatramp_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

const limitsData = `{"daily_limit":200000,"available_limit":"150000.25","payment_method_limits":{"per_transaction_limit":{"UPI":100000,"IMPS":200000},` +
	`"total_available_limit":{"UPI":100000,"IMPS":"150000.25"}},"full_limit_reset_timestamp":"2026-01-01T18:30:00Z","is_edd_required":false,"is_limit_increase_available":true}`

func TestPayoutsLimits(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodGet, "/ren/api/v1/payout/limits/"+customerID.String(), "", http.StatusOK, ok(limitsData))
	l, err := h.client.Payouts.GetLimits(context.Background(), customerID)
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, "150000.25", l.AvailableLimit.String())
	assert.Equal(t, "200000", l.DailyLimit.String())
	assert.Equal(t, "100000", l.PaymentMethodLimits.PerTransactionLimit["UPI"].String())
	assert.True(t, l.IsLimitIncreaseAvailable)
	assert.Equal(t, limitsData, string(l.Raw))
}

func TestPayoutsLimitsRefusals(t *testing.T) {
	h := newHarness(t)
	l, err := h.client.Payouts.GetLimits(context.Background(), uuid.Nil)
	assert.Nil(t, l)
	var v *fiatramp.ValidationError
	require.ErrorAs(t, err, &v)
	assert.Equal(t, "customer_id", v.Field)
	assert.Zero(t, h.mock.GetTotalCallCount())

	h.mock.RegisterResponder(http.MethodGet, testBase+"/ren/api/v1/payout/limits/"+customerID.String(),
		httpmock.NewStringResponder(http.StatusBadRequest, fail("Customer not found or access denied", "", `{}`)))
	_, err = h.client.Payouts.GetLimits(context.Background(), customerID)
	require.ErrorIs(t, err, fiatramp.ErrCustomerNotFound)
	require.NotErrorIs(t, err, fiatramp.ErrUnauthorized)

	for name, data := range map[string]string{
		"no available_limit":   `{"daily_limit":1}`,
		"null available_limit": `{"available_limit":null,"available_daily_limit":null}`,
		"text amount":          `{"available_limit":"plenty"}`,
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.expect(http.MethodGet, "/ren/api/v1/payout/limits/"+customerID.String(), "", http.StatusOK, ok(data))
			l, err := h.client.Payouts.GetLimits(context.Background(), customerID)
			assert.Nil(t, l)
			require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		})
	}
}

type floorLimits struct {
	DailyLimit          decimal.Decimal `json:"daily_limit"`
	AvailableLimit      decimal.Decimal `json:"available_limit"`
	PaymentMethodLimits struct {
		PerTransactionLimit map[string]decimal.Decimal `json:"per_transaction_limit"`
		TotalAvailableLimit map[string]decimal.Decimal `json:"total_available_limit"`
	} `json:"payment_method_limits"`
	FullLimitResetTimestamp  time.Time `json:"full_limit_reset_timestamp"`
	IsEDDRequired            bool      `json:"is_edd_required"`
	IsLimitIncreaseAvailable bool      `json:"is_limit_increase_available"`
}

// BenchmarkPayoutsGetLimitsVsFloor compares Payouts.GetLimits with the hand-written
// floor (floorSend), interleaved, through an in-memory transport:
//
//	go test -run '^$' -bench 'PayoutsLimitsVsFloor' -benchtime 20000x .
func BenchmarkPayoutsGetLimitsVsFloor(b *testing.B) {
	ctx := context.Background()
	compareInMemory(b, []byte(ok(limitsData)),
		func(c *fiatramp.Client) error { _, err := c.Payouts.GetLimits(ctx, customerID); return err },
		func(hc *http.Client) error {
			return floorSend(ctx, hc, http.MethodGet, memoryBase+"/ren/api/v1/payout/limits/"+customerID.String(), nil, new(floorLimits))
		})
}
