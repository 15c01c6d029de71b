package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestWithErrorMessage(t *testing.T) {
	h := newHarness(t, fiatramp.WithErrorMessage("Prefunded wallet balance too low", fiatramp.ErrInsufficientBalance))
	h.mock.RegisterResponder(http.MethodPost, testBase+"/pos/api/v1/prefunded/payout/initiate",
		httpmock.NewStringResponder(400, fail("Prefunded wallet balance too low.", "X", `{}`)))
	_, err := h.client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{QuotationID: quotationID,
		Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}, Receiver: types.CustomerRef{ID: customerID}}})
	require.ErrorIs(t, err, fiatramp.ErrInsufficientBalance)
}
