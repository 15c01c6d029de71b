package fiatramp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// payoutQuotationData is the data of a created on-chain payout quotation:
// amounts as numbers.
const payoutQuotationData = `{"id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01",` +
	`"bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","asset":"USDT","fiat":"INR","network":"TRON","wallet_address":"TXyz",` +
	`"sending_amount":10.5,"rate":88.5,"receiving_amount":918.29,` +
	`"fees":{"client_fee_fiat":0,"client_fee_crypto":0,"service_fee":9.29,"pg_fee":0,"client_gst_fiat":0,"client_gst_crypto":0,"service_gst":1.67,"pg_gst":0,"tds":0,"gross_effective_exchange_rate":87.4562},` +
	`"created_at":"2026-01-01T00:00:00Z","expiry_time":"2026-01-01T00:05:00Z"}`

// payoutQuotationRequest is a valid request.
func payoutQuotationRequest() types.CreatePayoutQuotationRequest {
	return types.CreatePayoutQuotationRequest{Asset: "USDT", Fiat: "INR", SendingAmount: decimal.RequireFromString("10.50"),
		CustomerID: customerID, BankID: bankID, Network: "TRON",
		RiskParameters: types.RiskParameters{IPAddress: "203.0.113.9", DeviceID: "dev-1"}}
}

func TestPayoutsCreateQuotation(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPost, "/pos/api/v1/payout/quotation",
		`{"asset":"usdt","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01",`+
			`"fiat":"inr","network":"TRON","risk_parameters":{"device_id":"dev-1","ip_address":"203.0.113.9",`+
			`"law_enforcement_agency_report":false,"suspicious_activity_report":false},"sending_amount":"10.50"}`,
		http.StatusCreated, ok(payoutQuotationData))
	q, err := h.client.Payouts.CreateQuotation(context.Background(), payoutQuotationRequest())
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, quotationID, q.ID)
	assert.Equal(t, customerID, q.CustomerID)
	assert.Equal(t, bankID, q.BankID)
	assert.Equal(t, "TRON", q.Network)
	assert.Equal(t, "TXyz", q.WalletAddress)
	assert.Equal(t, "918.29", q.ReceivingAmount.String())
	assert.Equal(t, "9.29", q.Fees.ServiceFee.String())
	assert.True(t, q.ExpiryTime.Equal(time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC)))
	assert.False(t, q.Expired(time.Date(2026, 1, 1, 0, 4, 59, 0, time.UTC)))
	assert.True(t, q.Expired(q.ExpiryTime))
}

// A spare quotation expires unused: the create is retried like a read.
func TestPayoutsCreateQuotationRetried(t *testing.T) {
	h := newHarness(t, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 2, InitialBackoff: time.Millisecond}))
	var calls atomic.Int32
	h.mock.RegisterResponder(http.MethodPost, testBase+"/pos/api/v1/payout/quotation", func(*http.Request) (*http.Response, error) {
		if calls.Add(1) == 1 {
			return httpmock.NewStringResponse(http.StatusServiceUnavailable, fail("Service unavailable", "", `{}`)), nil
		}
		return httpmock.NewStringResponse(http.StatusCreated, ok(payoutQuotationData)), nil
	})
	q, err := h.client.Payouts.CreateQuotation(context.Background(), payoutQuotationRequest())
	require.NoError(t, err)
	assert.Equal(t, quotationID, q.ID)
	assert.EqualValues(t, 2, calls.Load())
}

func TestPayoutsCreateQuotationBadInput(t *testing.T) {
	h := newHarness(t) // no responder: a request sent fails the call differently
	for _, tc := range []struct {
		field string
		mod   func(*types.CreatePayoutQuotationRequest)
	}{
		{"asset", func(r *types.CreatePayoutQuotationRequest) { r.Asset = " " }},
		{"fiat", func(r *types.CreatePayoutQuotationRequest) { r.Fiat = "" }},
		{"sending_amount", func(r *types.CreatePayoutQuotationRequest) { r.SendingAmount = decimal.Zero }},
		{"sending_amount", func(r *types.CreatePayoutQuotationRequest) { r.SendingAmount = decimal.NewFromInt(-1) }},
		{"sending_amount", func(r *types.CreatePayoutQuotationRequest) { r.SendingAmount = decimal.New(1, -types.MaxDecimalDigits) }},
		{"sending_amount", func(r *types.CreatePayoutQuotationRequest) { r.SendingAmount = decimal.New(7, 1<<30) }},
		{"customer_id", func(r *types.CreatePayoutQuotationRequest) { r.CustomerID = uuid.Nil }},
		{"bank_id", func(r *types.CreatePayoutQuotationRequest) { r.BankID = uuid.Nil }},
	} {
		req := payoutQuotationRequest()
		tc.mod(&req)
		q, err := h.client.Payouts.CreateQuotation(context.Background(), req)
		assert.Nil(t, q)
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr, tc.field)
		assert.Equal(t, tc.field, verr.Field)
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
	}
	assert.Zero(t, h.mock.GetTotalCallCount(), "nothing sent")
}

// The service's refusals of a payout quotation keep their message.
func TestPayoutsCreateQuotationRefusals(t *testing.T) {
	for _, tc := range []struct {
		message string
		want    error
	}{
		{"Customer is unverified", fiatramp.ErrCustomerUnverified},
		{"Bank account is unverified", fiatramp.ErrBankUnverified},
		{"UPI is not supported", fiatramp.ErrUPIUnsupported},
		{"Entered amount is less than minimum transaction amount", fiatramp.ErrAmountBelowMinimum},
	} {
		t.Run(tc.message, func(t *testing.T) {
			h := newHarness(t)
			h.mock.RegisterResponder(http.MethodPost, testBase+"/pos/api/v1/payout/quotation",
				httpmock.NewStringResponder(http.StatusBadRequest, fail(tc.message, "", `{}`)))
			q, err := h.client.Payouts.CreateQuotation(context.Background(), payoutQuotationRequest())
			assert.Nil(t, q)
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tc.message, apiErr.Message)
			if tc.want != nil {
				assert.ErrorIs(t, err, tc.want)
			}
		})
	}
}

func TestPayoutsGetQuotation(t *testing.T) {
	for _, status := range []types.QuotationStatus{types.QuotationUnlinked, types.QuotationLinked, types.QuotationExpired, "PROCESSING", "ARCHIVED"} {
		h := newHarness(t)
		data := payoutQuotationData[:len(payoutQuotationData)-1] + `,"order_id":"61c2517e-9fa0-4cbb-90d4-8d7f2e405167","status":"` + string(status) + `"}`
		h.expect(http.MethodGet, "/pos/api/v1/payout/quotation/"+quotationID.String(), "", http.StatusOK, ok(data))
		q, err := h.client.Payouts.GetQuotation(context.Background(), quotationID)
		require.NoError(t, err)
		assert.Equal(t, status, q.Status, "kept as text")
		assert.Equal(t, walletID, q.OrderID)
	}
	h := newHarness(t)
	_, err := h.client.Payouts.GetQuotation(context.Background(), uuid.Nil)
	var verr *fiatramp.ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "quotation_id", verr.Field)
	for _, msg := range []string{"Quotation ID is required.", "Quotation ID is invalid"} {
		h := newHarness(t)
		h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/quotation/"+quotationID.String(),
			httpmock.NewStringResponder(http.StatusBadRequest, fail(msg, "REQ_FIELD_MISSING", `{}`)))
		_, err := h.client.Payouts.GetQuotation(context.Background(), quotationID)
		require.ErrorIs(t, err, fiatramp.ErrQuotationIDInvalid, msg)
	}
}

func TestPayoutsLinkTransfer(t *testing.T) {
	h := newHarness(t, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 2, InitialBackoff: time.Millisecond}))
	var calls atomic.Int32
	h.mock.RegisterResponder(http.MethodPatch, testBase+"/pos/api/v1/payout/update-transfer-id", func(req *http.Request) (*http.Response, error) {
		assertSigned(t, req, testNow.Unix(), `{"exchange_order_id":"EXO-9","exchange_transfer_id":"0042"}`)
		if calls.Add(1) == 1 { // an update sets a value: retried
			return httpmock.NewStringResponse(http.StatusBadGateway, "bad gateway"), nil
		}
		return httpmock.NewStringResponse(http.StatusOK, ok(`{"exchange_order_id":"EXO-9","exchange_transfer_id":"0042"}`)), nil
	})
	l, err := h.client.Payouts.LinkTransfer(context.Background(), types.LinkTransferRequest{ExchangeOrderID: "EXO-9", ExchangeTransferID: "0042"})
	require.NoError(t, err)
	assert.Equal(t, "EXO-9", l.ExchangeOrderID)
	assert.Equal(t, "0042", l.ExchangeTransferID, "digit strings stay strings")
	assert.EqualValues(t, 2, calls.Load())

	for _, tc := range []struct {
		field string
		req   types.LinkTransferRequest
	}{
		{"exchange_order_id", types.LinkTransferRequest{ExchangeTransferID: "1"}},
		{"exchange_transfer_id", types.LinkTransferRequest{ExchangeOrderID: "EXO-9", ExchangeTransferID: "\t"}},
	} {
		_, err := h.client.Payouts.LinkTransfer(context.Background(), tc.req)
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr)
		assert.Equal(t, tc.field, verr.Field)
	}
	assert.EqualValues(t, 2, calls.Load(), "bad input sent nothing")
}

// Create sends transaction_hash only when set (the on-chain model).
func TestPayoutsCreateTransactionHash(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodPost, "/pos/api/v1/payout/initiate",
		`{"client_reference_id":"ref-1","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23","transaction_hash":"0xfeed"}`,
		http.StatusCreated, ok(`{"id":"`+payoutID.String()+`","status":"PROCESSING"}`))
	p, err := h.client.Payouts.Create(context.Background(), types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID,
		ClientReferenceID: "ref-1", TransactionHash: "0xfeed"})
	require.NoError(t, err)
	assert.Equal(t, payoutID, p.ID)
}

// Benchmarks: each payout quotation call against the hand-written floor
// (net/http, canonical body by json.Marshal of a sorted struct, HMAC,
// decode into a struct with decimal fields), interleaved in chunks on an
// in-memory transport, reporting the ratios of time and of bytes
// allocated (library over floor).

// floorQuotation is the floor's payout quotation.
type floorQuotation struct {
	ID              uuid.UUID       `json:"id"`
	OrderID         *uuid.UUID      `json:"order_id"`
	CustomerID      uuid.UUID       `json:"customer_id"`
	BankID          uuid.UUID       `json:"bank_id"`
	Status          string          `json:"status"`
	Asset           string          `json:"asset"`
	Fiat            string          `json:"fiat"`
	Network         string          `json:"network"`
	WalletAddress   string          `json:"wallet_address"`
	SendingAmount   decimal.Decimal `json:"sending_amount"`
	Rate            decimal.Decimal `json:"rate"`
	ReceivingAmount decimal.Decimal `json:"receiving_amount"`
	Fees            floorFees       `json:"fees"`
	CreatedAt       time.Time       `json:"created_at"`
	ExpiryTime      time.Time       `json:"expiry_time"`
}

// floorQuotationRequest is the quotation request with its members in
// sorted order, so that json.Marshal writes canonical JSON.
type floorQuotationRequest struct {
	Asset          string    `json:"asset"`
	BankID         uuid.UUID `json:"bank_id"`
	CustomerID     uuid.UUID `json:"customer_id"`
	Fiat           string    `json:"fiat"`
	Network        string    `json:"network"`
	RiskParameters struct {
		DeviceID                   string `json:"device_id"`
		IPAddress                  string `json:"ip_address"`
		LawEnforcementAgencyReport bool   `json:"law_enforcement_agency_report"`
		SuspiciousActivityReport   bool   `json:"suspicious_activity_report"`
	} `json:"risk_parameters"`
	SendingAmount string `json:"sending_amount"`
}

// BenchmarkPayoutQuotationCallsVsFloor compares CreateQuotation,
// GetQuotation and LinkTransfer with their hand-written floors.
func BenchmarkPayoutQuotationCallsVsFloor(b *testing.B) {
	ctx := context.Background()
	const base = "http://127.0.0.1:1"
	fetched := payoutQuotationData[:len(payoutQuotationData)-1] + `,"order_id":"61c2517e-9fa0-4cbb-90d4-8d7f2e405167","status":"UNLINKED"}`
	link := `{"exchange_order_id":"EX-88231994","exchange_transfer_id":"770011223344"}`
	req := payoutQuotationRequest()
	for _, tc := range []struct {
		name  string
		data  string
		lib   func(c *fiatramp.Client) error
		floor func(hc *http.Client) error
	}{
		{"CreateQuotation", payoutQuotationData,
			func(c *fiatramp.Client) error { _, err := c.Payouts.CreateQuotation(ctx, req); return err },
			func(hc *http.Client) error {
				fr := floorQuotationRequest{Asset: strings.ToLower(req.Asset), BankID: req.BankID, CustomerID: req.CustomerID,
					Fiat: strings.ToLower(req.Fiat), Network: req.Network, SendingAmount: req.SendingAmount.String()}
				fr.RiskParameters.DeviceID, fr.RiskParameters.IPAddress = req.RiskParameters.DeviceID, req.RiskParameters.IPAddress
				body, err := json.Marshal(fr)
				if err != nil {
					return err
				}
				var q floorQuotation
				return floorSend(ctx, hc, http.MethodPost, base+"/pos/api/v1/payout/quotation", body, &q)
			}},
		{"GetQuotation", fetched,
			func(c *fiatramp.Client) error { _, err := c.Payouts.GetQuotation(ctx, quotationID); return err },
			func(hc *http.Client) error {
				var q floorQuotation
				return floorSend(ctx, hc, http.MethodGet, base+"/pos/api/v1/payout/quotation/"+quotationID.String(), nil, &q)
			}},
		{"LinkTransfer", link,
			func(c *fiatramp.Client) error {
				_, err := c.Payouts.LinkTransfer(ctx, types.LinkTransferRequest{ExchangeOrderID: "EX-88231994", ExchangeTransferID: "770011223344"})
				return err
			},
			func(hc *http.Client) error {
				body, err := json.Marshal(struct {
					ExchangeOrderID    string `json:"exchange_order_id"`
					ExchangeTransferID string `json:"exchange_transfer_id"`
				}{"EX-88231994", "770011223344"})
				if err != nil {
					return err
				}
				var l struct {
					ExchangeOrderID    string `json:"exchange_order_id"`
					ExchangeTransferID string `json:"exchange_transfer_id"`
				}
				return floorSend(ctx, hc, http.MethodPatch, base+"/pos/api/v1/payout/update-transfer-id", body, &l)
			}},
	} {
		b.Run(tc.name, func(b *testing.B) { compareInMemory(b, []byte(ok(tc.data)), tc.lib, tc.floor) })
	}
}
