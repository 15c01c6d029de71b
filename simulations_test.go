package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestPayoutsBalance(t *testing.T) {
	h := newHarness(t)
	data := `{"available_balance":{"USDT":"1000.123456789012345678","USDC":12.5,"BTC":"0"}}`
	calls := h.expect(http.MethodGet, "/pos/api/v1/payout/balance", "", http.StatusOK, ok(data))
	b, err := h.client.Payouts.Balance(context.Background())
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	require.Len(t, b.AvailableBalance, 3)
	assert.Equal(t, "1000.123456789012345678", b.AvailableBalance["USDT"].String(), "no float rounding")
	assert.Equal(t, "12.5", b.AvailableBalance["USDC"].String())
	assert.True(t, b.AvailableBalance["BTC"].IsZero())
	assert.Equal(t, data, string(b.Raw))
}

func TestPayoutsBalanceRefusals(t *testing.T) {
	t.Run("not entitled", func(t *testing.T) {
		h := newHarness(t)
		h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/balance",
			httpmock.NewStringResponder(http.StatusBadRequest, fail("This endpoint is not available for your organization.", "", `{}`)))
		b, err := h.client.Payouts.Balance(context.Background())
		assert.Nil(t, b)
		require.ErrorIs(t, err, fiatramp.ErrNotEntitled)
	})
	for name, data := range map[string]string{
		"amount not a number": `{"available_balance":{"USDT":"lots"}}`,
		"null amount":         `{"available_balance":{"USDT":null}}`,
		"empty amount":        `{"available_balance":{"USDT":""}}`,
		"not an object":       `{"available_balance":["USDT"]}`,
		"float amount":        `{"available_balance":{"USDT":true}}`,
		// An unknown balance is not zero: without available_balance a
		// caller reading AvailableBalance["USDT"] would see 0.
		"no available_balance":   `{"balance":{"USDT":"1000"}}`,
		"null available_balance": `{"available_balance":null}`,
		"empty data":             `{}`,
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.expect(http.MethodGet, "/pos/api/v1/payout/balance", "", http.StatusOK, ok(data))
			b, err := h.client.Payouts.Balance(context.Background())
			assert.Nil(t, b)
			require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusOK, apiErr.StatusCode)
		})
	}
	// No asset at all is a known balance: an empty map.
	h := newHarness(t)
	h.expect(http.MethodGet, "/pos/api/v1/payout/balance", "", http.StatusOK, ok(`{"available_balance":{}}`))
	b, err := h.client.Payouts.Balance(context.Background())
	require.NoError(t, err)
	assert.NotNil(t, b.AvailableBalance)
	assert.Empty(t, b.AvailableBalance)
}

func TestPayinsSimulateStatus(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPatch, "/pis/api/v1/payin/mock-payin-status",
		`{"payin_status":"REFUNDED","quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278"}`,
		http.StatusOK, ok(`{"quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278","payin_status":"REFUNDED"}`))
	s, err := h.client.Payins.SimulateStatus(context.Background(), payinQuotation, types.PayinRefunded)
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, payinQuotation, s.QuotationID)
	assert.Equal(t, types.PayinRefunded, s.PayinStatus)
	assert.JSONEq(t, `{"quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278","payin_status":"REFUNDED"}`, string(s.Raw))
}

func TestCustomersSimulateBankVerification(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPost, "/cms/api/v1/bank/mock-bank-verification",
		`{"bank_account_status":"FAILED","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"}`,
		http.StatusOK, ok(`{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","bank_account_status":"FAILED"}`))
	s, err := h.client.Customers.SimulateBankVerification(context.Background(), customerID, bankID, types.BankAccountFailed)
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, customerID, s.CustomerID)
	assert.Equal(t, bankID, s.BankID)
	assert.Equal(t, types.BankAccountFailed, s.BankAccountStatus)
}

// TestSimulationsValidate: bad input is refused, naming the field, before
// anything is sent (the harness has no responder, so a request would
// fail differently).
func TestSimulationsValidate(t *testing.T) {
	h := newHarness(t)
	bg := context.Background()
	cases := []struct {
		field string
		call  func() error
	}{
		{"quotation_id", func() error {
			_, err := h.client.Payins.SimulateStatus(bg, uuid.Nil, types.PayinSuccess)
			return err
		}},
		{"payin_status", func() error {
			_, err := h.client.Payins.SimulateStatus(bg, payinQuotation, "success")
			return err
		}},
		{"customer_id", func() error {
			_, err := h.client.Customers.SimulateBankVerification(bg, uuid.Nil, bankID, types.BankAccountVerified)
			return err
		}},
		{"bank_id", func() error {
			_, err := h.client.Customers.SimulateBankVerification(bg, customerID, uuid.Nil, types.BankAccountVerified)
			return err
		}},
		{"bank_account_status", func() error {
			_, err := h.client.Customers.SimulateBankVerification(bg, customerID, bankID, "OK")
			return err
		}},
		{"payout_id", func() error {
			_, err := h.client.Payouts.Wait(bg, uuid.Nil)
			return err
		}},
		{"poll interval", func() error {
			_, err := h.client.Payouts.Wait(bg, payoutID, fiatramp.WithPollInterval(0, 1))
			return err
		}},
		{"poll interval", func() error {
			_, err := h.client.Payouts.Wait(bg, payoutID, fiatramp.WithPollInterval(2, 1))
			return err
		}},
	}
	for _, tc := range cases {
		err := tc.call()
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr, tc.field)
		assert.Equal(t, tc.field, verr.Field)
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
	}
	assert.Zero(t, h.mock.GetTotalCallCount(), "nothing sent")
}

func TestSimulationsRefused(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodPatch, testBase+"/pis/api/v1/payin/mock-payin-status",
		httpmock.NewStringResponder(http.StatusBadRequest, fail("Quotation is not found", "", `{}`)))
	h.mock.RegisterResponder(http.MethodPost, testBase+"/cms/api/v1/bank/mock-bank-verification",
		httpmock.NewStringResponder(http.StatusBadRequest, fail("Bank not found or access denied", "", `{}`)))
	s, err := h.client.Payins.SimulateStatus(context.Background(), payinQuotation, types.PayinSuccess)
	assert.Nil(t, s)
	require.ErrorIs(t, err, fiatramp.ErrQuotationNotFound)
	b, err := h.client.Customers.SimulateBankVerification(context.Background(), customerID, bankID, types.BankAccountVerified)
	assert.Nil(t, b)
	require.ErrorIs(t, err, fiatramp.ErrBankNotFound)
}
