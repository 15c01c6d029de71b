package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestPayinsRate(t *testing.T) {
	h := newHarness(t)
	h.expectQuery("/pis/api/v1/payin/fetch-rate", "asset=USDC&fiat=INR", http.StatusOK, ok(`{"asset":"USDC","fiat":"INR","rate":"88.40"}`))
	r, err := h.client.Payins.GetRate(context.Background(), types.RateRequest{Asset: "Usdc", Fiat: "inr"})
	require.NoError(t, err)
	assert.Equal(t, "88.4", r.Rate.String())

	_, err = h.client.Payins.GetRate(context.Background(), types.RateRequest{Asset: "USDC"})
	var v *fiatramp.ValidationError
	require.ErrorAs(t, err, &v)
	assert.Equal(t, "fiat", v.Field)
	assert.Equal(t, 1, h.mock.GetTotalCallCount(), "the refused call sent nothing")
}
