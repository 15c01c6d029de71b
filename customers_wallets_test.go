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

func TestCustomersAddWallet(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodPost, "/cms/api/v1/wallet/add",
		`{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","wallet_address":"0xAbC<&>"}`,
		http.StatusOK, ok(`{"id":"61c2517e-9fa0-4cbb-90d4-8d7f2e405167","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","wallet_address":"0xAbC<&>","wallet_status":"ACTIVE","failure_reason":null}`))
	w, err := h.client.Customers.AddWallet(context.Background(), types.AddWalletRequest{CustomerID: customerID, WalletAddress: "0xAbC<&>"})
	require.NoError(t, err)
	assert.Equal(t, walletID, w.ID)
	assert.Equal(t, types.WalletActive, w.WalletStatus)
	assert.Nil(t, w.FailureReason)
}

func TestCustomersAddWalletFieldError(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodPost, testBase+"/cms/api/v1/wallet/add",
		httpmock.NewStringResponder(400, fail("Invalid request", "REQ_FIELD_MISSING", `{"wallet_address":["This field may not be blank."]}`)))
	_, err := h.client.Customers.AddWallet(context.Background(), types.AddWalletRequest{CustomerID: customerID, WalletAddress: "x"})
	require.ErrorIs(t, err, fiatramp.ErrFieldMissing)
	var apiErr *fiatramp.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, map[string][]string{"wallet_address": {"This field may not be blank."}}, apiErr.FieldErrors)
	assert.Equal(t, "REQ_FIELD_MISSING", apiErr.Code)
}
