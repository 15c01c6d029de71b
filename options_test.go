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

func TestWithErrorMessage(t *testing.T) {
	h := newHarness(t, fiatramp.WithErrorMessage("Prefunded wallet balance too low", fiatramp.ErrInsufficientBalance))
	h.mock.RegisterResponder(http.MethodPost, testBase+"/pos/api/v1/prefunded/payout/initiate",
		httpmock.NewStringResponder(400, fail("Prefunded wallet balance too low.", "X", `{}`)))
	_, err := h.client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{QuotationID: quotationID,
		Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}, Receiver: types.CustomerRef{ID: customerID}}})
	require.ErrorIs(t, err, fiatramp.ErrInsufficientBalance)
}

func TestBaseURLRequiresHTTPS(t *testing.T) {
	t.Run("plain http on a remote host is refused", func(t *testing.T) {
		for _, base := range []string{"http://api.example.com", "http://api.example.com:8080/gateway", "http://10.0.0.1", "HTTP://api.example.com"} {
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(base))
			assert.Nil(t, c, base)
			require.Error(t, err, base)
			assert.Contains(t, err.Error(), "plain http", base)
			assert.Contains(t, err.Error(), "WithInsecureHTTP", base)
			assert.NotContains(t, err.Error(), testSecret)
		}
	})
	t.Run("WithInsecureHTTP allows it", func(t *testing.T) {
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL("http://api.example.com"), fiatramp.WithInsecureHTTP())
		require.NoError(t, err)
		assert.Equal(t, "http://api.example.com", c.BaseURL())
	})
	t.Run("loopback hosts need no option", func(t *testing.T) {
		for _, base := range []string{"http://127.0.0.1:8080", "http://[::1]:80", "http://localhost", "http://LOCALHOST:9000/base", "http://127.0.0.2"} {
			_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(base))
			assert.NoError(t, err, base)
		}
	})
	t.Run("names that only look local are not loopback", func(t *testing.T) {
		for _, base := range []string{"http://localhost.example.com", "http://127.0.0.1.nip.io", "http://0.0.0.0", "http://[::]"} {
			_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(base))
			assert.Error(t, err, base)
		}
	})
	t.Run("https anywhere", func(t *testing.T) {
		_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL("https://api.example.com"))
		assert.NoError(t, err)
	})
}

// TestBaseURLPortOutOfRange: a port no request could go to is refused at
// New, naming the port, rather than failing every call.
func TestBaseURLPortOutOfRange(t *testing.T) {
	for _, base := range []string{
		"https://api.fiatramp.test:0",
		"https://api.fiatramp.test:65536",
		"https://api.fiatramp.test:99999999999999999999",
	} {
		_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(base))
		require.Error(t, err, base)
		assert.Contains(t, err.Error(), "port", base)
		assert.Contains(t, err.Error(), "between 1 and 65535", base)
	}
	_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL("https://api.fiatramp.test:65535"))
	assert.NoError(t, err)
}
