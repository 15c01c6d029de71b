package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

func TestPayinsLimits(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodGet, "/ren/api/v1/payin/limits/"+customerID.String(), "", http.StatusOK, ok(limitsData))
	l, err := h.client.Payins.GetLimits(context.Background(), customerID)
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, "150000.25", l.PaymentMethodLimits.TotalAvailableLimit["IMPS"].String())
}

// TestPayinsLimitsOlderEdition: an older deployment's path, reached
// through Do with a *types.Limits, answers the older spelling, which is
// read and checked like the newest.
func TestPayinsLimitsOlderEdition(t *testing.T) {
	h := newHarness(t)
	path := "/pis/api/v1/payin/limit/" + customerID.String()
	h.expect(http.MethodGet, path, "", http.StatusOK, ok(`{"maximum_daily_limit":"100000.00","available_daily_limit":"2500.50","is_edd_required":true}`))
	var l types.Limits
	require.NoError(t, h.client.Do(context.Background(), http.MethodGet, path, nil, &l))
	assert.Equal(t, "2500.5", l.AvailableLimit.String())
	assert.Equal(t, "100000", l.DailyLimit.String())
	assert.True(t, l.IsEDDRequired)
}
