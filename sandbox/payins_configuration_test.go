package sandbox_test

import (
	"net/http"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// The payin configuration shows the bounds the payin quotation applies:
// the quotation bounds its fiat amount (above INR 2,500; at most 500,000
// by IMPS, 100,000 by UPI), and the configuration's min and max are the
// crypto quotations of exactly those amounts deliver, so a quotation is
// accepted exactly when its crypto lies within them. (The configuration
// said at most 1,000 USDT by UPI, yet a 95,000 INR UPI quotation of 1,060
// USDT passed.)
func TestPayinConfigurationAgreesWithQuotation(t *testing.T) {
	e := newEnv(t)
	c, err := e.client.Payins.GetConfiguration(ctx(t))
	require.NoError(t, err)
	inr, ok := c.Fiat("INR")
	require.True(t, ok)
	quote := func(method types.PaymentMethod, amount string) (*types.PayinQuotation, error) {
		return e.client.Payins.CreateQuotation(ctx(t), payinReq(e, payinAmountOf(amount), func(r *types.CreatePayinQuotationRequest) {
			r.PaymentMethod = method
			if method == types.PaymentMethodUPI {
				r.BankID = e.vpa.ID
			}
		}))
	}
	for _, tc := range []struct {
		method types.PaymentMethod
		max    string
	}{{types.PaymentMethodIMPS, "500000"}, {types.PaymentMethodUPI, "100000"}} {
		for _, asset := range []string{"USDT", "USDC"} {
			r, ok := inr.Limits(asset, string(tc.method))
			require.True(t, ok, "%s %s", asset, tc.method)
			if asset == "USDC" {
				continue // the quotations below are of USDT, payinReq's asset
			}
			_, err := quote(tc.method, "2500")
			refused(t, err, http.StatusBadRequest, "Entered amount is less than minimum transaction amount", fiatramp.ErrAmountBelowMinimum)
			low, err := quote(tc.method, "2500.01")
			require.NoError(t, err)
			assert.True(t, low.ReceivingAmount.GreaterThan(r.Min), "%s: %s above the shown min %s", tc.method, low.ReceivingAmount, r.Min)
			high, err := quote(tc.method, tc.max)
			require.NoError(t, err)
			assert.Equal(t, r.Max.String(), high.ReceivingAmount.String(), "%s: the largest quotation delivers the shown max", tc.method)
			_, err = quote(tc.method, decimal.RequireFromString(tc.max).Add(decimal.RequireFromString("0.01")).String())
			refused(t, err, http.StatusBadRequest, "Entered amount exceeds maximum transaction amount", fiatramp.ErrAmountAboveMaximum)
		}
	}
	r, _ := inr.Limits("USDT", "UPI")
	q, err := quote(types.PaymentMethodUPI, "95000")
	require.NoError(t, err)
	assert.True(t, q.ReceivingAmount.LessThanOrEqual(r.Max), "the 95,000 INR UPI quotation (%s USDT) is within the shown max %s", q.ReceivingAmount, r.Max)
}
