package fiatramp_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

const createdPayoutData = `{
  "id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23",
  "customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","client_reference_id":"ref-2026-0001",
  "bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","asset":"USDT","fiat":"INR",
  "rate":88.123456789012345678,"sending_amount":1000.000001,"receiving_amount":88123.45,
  "fees":{"client_fee_fiat":10.5,"client_fee_crypto":0.12,"acme_fee":1.25,"pg_fee":0,"client_gst_fiat":1.89,
          "client_gst_crypto":0.02,"acme_gst":0.225,"pg_gst":0,"tds":881.23,"gross_effective_exchange_rate":87.1},
  "exchange_order_id":"ord-9","created_at":"2025-03-08T07:31:24.770179Z","status":"PROCESSING"}`

const fetchedPayoutData = `{
  "id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23",
  "customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","client_reference_id":null,
  "bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","asset":"USDT","fiat":"INR",
  "rate":"88.123456789012345678","sending_amount":"1000.000001","receiveing_amount":"88123.45",
  "fees":{"client_fee_fiat":10.5,"client_fee_crypto":0.12,"service_fee":1.25,"pg_fee":0,"client_gst_fiat":1.89,
          "client_gst_crypto":0.02,"service_gst":0.225,"pg_gst":0,"tds":881.23,"gross_effective_exchange_rate":87.1},
  "exchange_order_id":"ord-9","exchange_transfer_id":"","status":"SUCCESS","failure_reason":null,
  "utr":"UTR123456789","created_at":"2025-02-11T01:30:08.000Z","updated_at":"2025-02-11T01:35:08+05:30"}`

func TestPayoutsCreate(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPost, "/pos/api/v1/payout/initiate",
		`{"client_reference_id":"ref-2026-0001","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","exchange_order_id":"ord-9","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"}`,
		http.StatusCreated, ok(createdPayoutData))

	p, err := h.client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: quotationID, CustomerID: customerID, ExchangeOrderID: "ord-9", ClientReferenceID: "ref-2026-0001",
	})
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, payoutID, p.ID)
	assert.Equal(t, types.PayoutProcessing, p.Status)
	assert.Equal(t, "88.123456789012345678", p.Rate.String(), "rate must not pass through float64")
	assert.Equal(t, "1000.000001", p.SendingAmount.String())
	assert.Equal(t, "88123.45", p.ReceivingAmount.String())
	assert.Equal(t, "1.25", p.Fees.ServiceFee.String(), "brand-named fee key")
	assert.Equal(t, "0.225", p.Fees.ServiceGST.String())
	require.NotNil(t, p.ClientReferenceID)
	assert.Equal(t, "ref-2026-0001", *p.ClientReferenceID)
	assert.JSONEq(t, createdPayoutData, string(p.Raw), "raw data stays reachable")
}

func TestPayoutsCreateOmitsEmptyOptionals(t *testing.T) {
	h := newHarness(t, fiatramp.WithClientReferenceGenerator(nil))
	h.expect(http.MethodPost, "/pos/api/v1/payout/initiate",
		`{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"}`,
		http.StatusOK, ok(createdPayoutData))
	_, err := h.client.Payouts.Create(context.Background(), types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID})
	require.NoError(t, err)
}

func TestPayoutsGet(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodGet, "/pos/api/v1/payout/"+payoutID.String(), "", http.StatusOK, ok(fetchedPayoutData))

	p, err := h.client.Payouts.Get(context.Background(), payoutID)
	require.NoError(t, err)
	assert.Equal(t, types.PayoutSuccess, p.Status)
	assert.Equal(t, "88123.45", p.ReceivingAmount.String(), "receiveing_amount lands in ReceivingAmount")
	assert.Equal(t, "88.123456789012345678", p.Rate.String())
	assert.Nil(t, p.ClientReferenceID)
	assert.Nil(t, p.FailureReason)
	require.NotNil(t, p.UTR)
	assert.Equal(t, "UTR123456789", *p.UTR)
	assert.True(t, p.UpdatedAt.Equal(p.CreatedAt.Add(5*60e9-5.5*3600e9)), "offset timestamps: %v vs %v", p.UpdatedAt, p.CreatedAt)
}

const prefundedData = `{
  "id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23",
  "bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","asset":"USDT","network":"TRON","fiat":"INR",
  "rate":"87.10","sending_amount":"100.000000","receiving_amount":"8710.00","client_reference_id":"pf-1",
  "fees":{"service_fee":"1.00","client_fee":"0.50","client_gst":"0.09","tds":"87.10"},
  "status":"PROCESSING","wallet_address":"TXYZabc","transaction_hash":null,"utr":null,"failure_reason":null,
  "updated_at":"2025-03-08T07:31:24.770179Z","created_at":"2025-03-08T07:31:24.770179Z",
  "customer":{"sender":{"id":null},"receiver":{"id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"}}}`

func TestPayoutsCreatePrefunded(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodPost, "/pos/api/v1/prefunded/payout/initiate",
		`{"client_reference_id":"pf-1","customer":{"receiver":{"id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01"},"sender":{"id":"4fa03f5c-7d8e-4a99-9eb2-6b5d0c2e3f45"}},"quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"}`,
		http.StatusCreated, ok(prefundedData))

	p, err := h.client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{
		QuotationID: quotationID,
		Customer: types.PrefundedCustomer{
			Sender:   types.CustomerRef{ID: senderID},
			Receiver: types.CustomerRef{ID: customerID},
		},
		ClientReferenceID: "pf-1",
	})
	require.NoError(t, err)
	assert.Equal(t, "8710", p.ReceivingAmount.String())
	assert.True(t, p.Fees.ClientGST.Equal(decimal.RequireFromString("0.09")))
	assert.Equal(t, "TRON", p.Network)
	assert.Nil(t, p.Customer.Sender.ID)
	require.NotNil(t, p.Customer.Receiver.ID)
	assert.Equal(t, customerID, *p.Customer.Receiver.ID)
	assert.Nil(t, p.TransactionHash)
}

func TestPayoutsCreateRemittance(t *testing.T) {
	data := `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","remitter_id":"50b1406d-8e9f-4baa-8fc3-7c6e1d3f4056","status":"PROCESSING","partner_field":"kept"}`
	body := `{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23","remitter_id":"50b1406d-8e9f-4baa-8fc3-7c6e1d3f4056","transaction_hash":"0xabc"}`
	req := types.CreateRemittancePayoutRequest{QuotationID: quotationID, CustomerID: customerID, RemitterID: remitterID, TransactionHash: "0xabc"}

	t.Run("default path", func(t *testing.T) {
		h := newHarness(t, fiatramp.WithClientReferenceGenerator(nil))
		h.expect(http.MethodPost, "/pos/api/v1/remittance-payout/initiate", body, http.StatusOK, ok(data))
		p, err := h.client.Payouts.CreateRemittance(context.Background(), req)
		require.NoError(t, err)
		assert.Equal(t, remitterID, p.RemitterID)
		assert.Equal(t, types.PayoutProcessing, p.Status)
		assert.Contains(t, string(p.Raw), `"partner_field":"kept"`)
	})
	t.Run("overridden path", func(t *testing.T) {
		h := newHarness(t, fiatramp.WithRemittancePayoutPath("/pos/api/v2/remit"), fiatramp.WithClientReferenceGenerator(nil))
		h.expect(http.MethodPost, "/pos/api/v2/remit", body, http.StatusOK, ok(data))
		_, err := h.client.Payouts.CreateRemittance(context.Background(), req)
		require.NoError(t, err)
	})
	t.Run("prefunding flow omits the hash", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodPost, "/pos/api/v1/remittance-payout/initiate",
			`{"client_reference_id":"r-1","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23","remitter_id":"50b1406d-8e9f-4baa-8fc3-7c6e1d3f4056"}`,
			http.StatusOK, ok(data))
		_, err := h.client.Payouts.CreateRemittance(context.Background(), types.CreateRemittancePayoutRequest{
			QuotationID: quotationID, CustomerID: customerID, RemitterID: remitterID, ClientReferenceID: "r-1"})
		require.NoError(t, err)
	})
}

func TestPayoutsSimulateStatus(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodPatch, "/pos/api/v1/payout/mock-payout-status",
		`{"payout_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payout_status":"SUCCESS"}`,
		http.StatusOK, ok(`{"payout_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payout_status":"SUCCESS"}`))
	s, err := h.client.Payouts.SimulateStatus(context.Background(), payoutID, types.PayoutSuccess)
	require.NoError(t, err)
	assert.Equal(t, payoutID, s.PayoutID)
	assert.Equal(t, types.PayoutSuccess, s.PayoutStatus)
}

// TestPayoutsErrors sends each documented refusal of §7.1 through the client
// and checks which sentinel it matches.
func TestPayoutsErrors(t *testing.T) {
	cases := []struct {
		message string
		want    error
	}{
		{"Client Reference ID already exists", fiatramp.ErrClientReferenceExists},
		{"Quotation is not found", fiatramp.ErrQuotationNotFound},
		{"Customer ID does not match with the quotation", fiatramp.ErrCustomerMismatch},
		{"Quotation has expired", fiatramp.ErrQuotationExpired},
		{"Quotation is already linked to another payout", fiatramp.ErrQuotationAlreadyLinked},
		{"Exchange Order ID already linked to a payout that is either processing or successful", fiatramp.ErrExchangeOrderInUse},
	}
	for _, tc := range cases {
		t.Run(tc.message, func(t *testing.T) {
			h := newHarness(t, fiatramp.WithClientReferenceGenerator(nil))
			h.expect(http.MethodPost, "/pos/api/v1/payout/initiate",
				`{"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"}`,
				http.StatusBadRequest, fail(tc.message, "BAD_REQUEST", `{}`))
			p, err := h.client.Payouts.Create(context.Background(), types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID})
			assert.Nil(t, p, "no payout on error")
			require.ErrorIs(t, err, tc.want)
			var apiErr *fiatramp.APIError
			require.True(t, errors.As(err, &apiErr))
			assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
			assert.Equal(t, tc.message, apiErr.Message)
		})
	}
	t.Run("prefunded not entitled", func(t *testing.T) {
		h := newHarness(t)
		h.mock.RegisterResponder(http.MethodPost, testBase+"/pos/api/v1/prefunded/payout/initiate",
			httpmock.NewStringResponder(http.StatusBadRequest, fail("This endpoint is not available for your organization.", "BAD_REQUEST", `{}`)))
		_, err := h.client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{
			QuotationID: quotationID, Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}, Receiver: types.CustomerRef{ID: customerID}}})
		require.ErrorIs(t, err, fiatramp.ErrNotEntitled)
	})
	t.Run("fetch invalid id", func(t *testing.T) {
		h := newHarness(t)
		h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(),
			httpmock.NewStringResponder(http.StatusBadRequest, fail("Payout ID is invalid", "REQ_FIELD_MISSING", `{"payout_id":["Payout ID is invalid"]}`)))
		_, err := h.client.Payouts.Get(context.Background(), payoutID)
		require.ErrorIs(t, err, fiatramp.ErrPayoutIDInvalid)
		require.ErrorIs(t, err, fiatramp.ErrFieldMissing)
	})
}

const createBody = `{"client_reference_id":"ref-2026-0001","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"}`

func createRequest() types.CreatePayoutRequest {
	return types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: "ref-2026-0001"}
}

// TestCreateEnvelopeNamesExact: a refusal of a payout create stays a
// refusal whatever folded or repeated names the body adds, and the payout
// returned is the one the last data member holds.
func TestCreateEnvelopeNamesExact(t *testing.T) {
	for name, body := range map[string]string{
		"Status":        `{"status":false,"Status":true,"message":"Quotation has expired","data":` + createdPayoutData + `}`,
		"STATUS":        `{"status":false,"STATUS":true,"message":"Quotation has expired","data":` + createdPayoutData + `}`,
		"long s":        `{"status":false,"ſtatus":true,"message":"Quotation has expired","data":` + createdPayoutData + `}`,
		"SUCCESS":       `{"success":false,"SUCCESS":true,"message":"Quotation has expired","data":` + createdPayoutData + `}`,
		"status twice":  `{"status":true,"status":false,"message":"Quotation has expired","data":` + createdPayoutData + `}`,
		"message twice": `{"status":false,"message":"Payout created","message":"Quotation has expired","data":null}`,
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			calls := h.expect(http.MethodPost, "/pos/api/v1/payout/initiate", createBody, http.StatusCreated, body)
			p, err := h.client.Payouts.Create(context.Background(), createRequest())
			require.Nil(t, p)
			require.ErrorIs(t, err, fiatramp.ErrQuotationExpired)
			require.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown, "a refusal in the envelope is an answer")
			require.NotErrorIs(t, err, fiatramp.ErrMalformedResponse)
			assert.EqualValues(t, 1, calls.Load())
		})
	}

	t.Run("data", func(t *testing.T) {
		other := strings.Replace(createdPayoutData, payoutID.String(), "00000000-0000-4000-8000-000000000001", 1)
		h := newHarness(t)
		h.expect(http.MethodPost, "/pos/api/v1/payout/initiate", createBody, http.StatusCreated,
			`{"status":true,"data":`+other+`,"DATA":`+other+`,"data":`+createdPayoutData+`,"Data":`+other+`}`)
		p, err := h.client.Payouts.Create(context.Background(), createRequest())
		require.NoError(t, err)
		assert.Equal(t, payoutID, p.ID, "the last data member, and only data")
		assert.Equal(t, "1000.000001", p.SendingAmount.String())
	})
}

func TestPayoutsBalance(t *testing.T) {
	h := newHarness(t)
	data := `{"available_balance":{"USDT":"1000.123456789012345678","USDC":12.5,"BTC":"0"}}`
	calls := h.expect(http.MethodGet, "/pos/api/v1/payout/balance", "", http.StatusOK, ok(data))
	b, err := h.client.Payouts.GetBalance(context.Background())
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
		b, err := h.client.Payouts.GetBalance(context.Background())
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
			b, err := h.client.Payouts.GetBalance(context.Background())
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
	b, err := h.client.Payouts.GetBalance(context.Background())
	require.NoError(t, err)
	assert.NotNil(t, b.AvailableBalance)
	assert.Empty(t, b.AvailableBalance)
}
