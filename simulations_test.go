package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

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

// TestCustomersSimulateBankVerificationRefused: the service's refusal of an
// unknown bank matches ErrBankNotFound, and no result comes back.
func TestCustomersSimulateBankVerificationRefused(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodPost, testBase+"/cms/api/v1/bank/mock-bank-verification",
		httpmock.NewStringResponder(http.StatusBadRequest, fail("Bank not found or access denied", "", `{}`)))
	b, err := h.client.Customers.SimulateBankVerification(context.Background(), customerID, bankID, types.BankAccountVerified)
	assert.Nil(t, b)
	require.ErrorIs(t, err, fiatramp.ErrBankNotFound)
}
