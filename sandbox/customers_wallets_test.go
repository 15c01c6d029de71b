package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestCustomersAddWallet(t *testing.T) {
	e := newEnv(t)
	c := e.client
	const addr = "TXkq1sJ8Y2Mn1e1c8hQ7dHn4W8YqZ3fA9b"

	var resp fiatramp.Response
	w, err := c.Customers.AddWallet(ctx(t), types.AddWalletRequest{CustomerID: e.cust.ID, WalletAddress: addr}, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "only the initiates answer 201")
	assert.Equal(t, "Wallet added successfully", rawMessage(t, resp.Body))
	assert.NotEqual(t, uuid.Nil, w.ID)
	assert.Equal(t, e.cust.ID, w.CustomerID)
	assert.Equal(t, addr, w.WalletAddress)
	assert.Equal(t, types.WalletActive, w.WalletStatus)
	assert.Nil(t, w.FailureReason)
	data := rawData(t, resp.Body)
	assert.JSONEq(t, "null", string(data["failure_reason"]))
	assert.Len(t, data, 5)

	// The same address again is the same wallet.
	again, err := c.Customers.AddWallet(ctx(t), types.AddWalletRequest{CustomerID: e.cust.ID, WalletAddress: addr}, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "Wallet already added", rawMessage(t, resp.Body))
	assert.Equal(t, w.ID, again.ID)

	// Another address, or the same address for another customer, is new.
	other, err := c.Customers.AddWallet(ctx(t), types.AddWalletRequest{CustomerID: e.cust.ID, WalletAddress: addr + "x"}, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, "Wallet added successfully", rawMessage(t, resp.Body))
	assert.NotEqual(t, w.ID, other.ID)
	cust2 := e.customer(e.org, sandbox.Customer{Name: "Second"})
	w2, err := c.Customers.AddWallet(ctx(t), types.AddWalletRequest{CustomerID: cust2.ID, WalletAddress: addr}, fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, "Wallet added successfully", rawMessage(t, resp.Body))
	assert.NotEqual(t, w.ID, w2.ID)
	assert.Equal(t, cust2.ID, w2.CustomerID)
}

func TestCustomersAddWalletRefusals(t *testing.T) {
	e := newEnv(t)
	c := e.client
	foreign := e.customer(e.otherOrg(false), sandbox.Customer{Name: "Foreign"})

	for name, id := range map[string]uuid.UUID{"absent": uuid.New(), "other organization": foreign.ID} {
		t.Run(name, func(t *testing.T) {
			_, err := c.Customers.AddWallet(ctx(t), types.AddWalletRequest{CustomerID: id, WalletAddress: "T123"})
			apiErr := refused(t, err, http.StatusBadRequest, custNotFound, fiatramp.ErrCustomerNotFound)
			assert.Empty(t, apiErr.Code)
		})
	}

	err := c.Do(ctx(t), http.MethodPost, "/cms/api/v1/wallet/add", map[string]any{}, nil)
	apiErr := refused(t, err, http.StatusBadRequest, "This field is required.", fiatramp.ErrFieldMissing)
	assert.Equal(t, "REQ_FIELD_MISSING", apiErr.Code)
	assert.Equal(t, map[string][]string{
		"customer_id":    {"This field is required."},
		"wallet_address": {"This field is required."},
	}, apiErr.FieldErrors)

	err = c.Do(ctx(t), http.MethodPost, "/cms/api/v1/wallet/add", map[string]any{"customer_id": "nope", "wallet_address": " "}, nil)
	apiErr = refused(t, err, http.StatusBadRequest, "Must be a valid UUID.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{
		"customer_id":    {"Must be a valid UUID."},
		"wallet_address": {"This field may not be blank."},
	}, apiErr.FieldErrors)
}

// rawMessage is the envelope's message of a success body.
func rawMessage(t testing.TB, body []byte) string {
	t.Helper()
	var env struct {
		Message string `json:"message"`
	}
	require.NoError(t, json.Unmarshal(body, &env), string(body))
	return env.Message
}
