package fiatramp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
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

const payinQuotationData = `{
  "id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01",
  "bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","asset":"USDT","fiat":"INR","payment_method":"UPI",
  "sending_amount":2500.01,"rate":91.25,"receiving_amount":27.39,
  "fees":{"client_fee_fiat":0,"client_fee_crypto":0,"service_fee":0.5,"pg_fee":0,"client_gst_fiat":0,
          "client_gst_crypto":0,"service_gst":0.09,"pg_gst":0,"tds":0,"gross_effective_exchange_rate":91.3},
  "deposit_instructions":{"account_number":"001122334455","ifsc":"ABCD0001234","account_name":"Fiatramp Escrow"},
  "deep_link":"upi://pay?pa=escrow@bank","ios_checkout_link":"https://pay.example/ios/abc",
  "created_at":"2025-03-08T07:31:24.770179Z","expiry_time":"2025-03-08T07:36:24.770179Z"}`

func TestPayinsCreateQuotation(t *testing.T) {
	h := newHarness(t)
	h.expect(http.MethodPost, "/pis/api/v1/payin/quotation",
		`{"asset":"usdt","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","fiat":"inr","payment_method":"UPI","risk_parameters":{"device_id":"dev-42","ip_address":"203.0.113.7","law_enforcement_agency_report":false,"suspicious_activity_report":false},"sending_amount":"2500.010"}`,
		http.StatusOK, ok(payinQuotationData))

	q, err := h.client.Payins.CreateQuotation(context.Background(), types.CreatePayinQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: decimal.RequireFromString("2500.010"), // sent with its own digits
		CustomerID: customerID, BankID: bankID, PaymentMethod: types.PaymentMethodUPI,
		RiskParameters: types.RiskParameters{IPAddress: "203.0.113.7", DeviceID: "dev-42"},
	})
	require.NoError(t, err)
	assert.Equal(t, payinQuotation, q.ID)
	assert.Equal(t, "2500.01", q.SendingAmount.String())
	assert.Equal(t, "ABCD0001234", q.DepositInstructions.IFSC)
	assert.Equal(t, "upi://pay?pa=escrow@bank", q.DeepLink)
	assert.Equal(t, "https://pay.example/ios/abc", q.IOSCheckoutLink)
	assert.Equal(t, 5*60.0, q.ExpiryTime.Sub(q.CreatedAt).Seconds())
	assert.False(t, q.Expired(q.ExpiryTime.Add(-1)))
	assert.True(t, q.Expired(q.ExpiryTime))
}

func TestPayinsGetQuotation(t *testing.T) {
	data := payinQuotationData[:len(payinQuotationData)-1] + `,"order_id":"61c2517e-9fa0-4cbb-90d4-8d7f2e405167","status":"PROCESSING"}`
	h := newHarness(t)
	h.expect(http.MethodGet, "/pis/api/v1/payin/quotation/"+payinQuotation.String(), "", http.StatusOK, ok(data))
	q, err := h.client.Payins.GetQuotation(context.Background(), payinQuotation)
	require.NoError(t, err)
	assert.Equal(t, walletID, q.OrderID)
	assert.Equal(t, types.QuotationProcessing, q.Status)
}

// TestPayinsErrors sends each refusal of §7.4 and the fetch errors of §7.3.
func TestPayinsErrors(t *testing.T) {
	cases := []struct {
		status  int
		message string
		want    error
	}{
		{400, "Customer is unverified", fiatramp.ErrCustomerUnverified},
		{400, "Bank account is unverified", fiatramp.ErrBankUnverified},
		{400, "Onramp is disabled", fiatramp.ErrOnrampDisabled},
		{400, "Entered amount is less than minimum transaction amount", fiatramp.ErrAmountBelowMinimum},
		{400, "Entered amount exceeds maximum transaction amount", fiatramp.ErrAmountAboveMaximum},
		{400, "AML SCREENING FAILED", fiatramp.ErrAMLScreeningFailed},
		{400, "EDD required", fiatramp.ErrEDDRequired},
		{400, "Daily onramp limit exhausted", fiatramp.ErrDailyLimitExhausted},
		{500, "Internal Server Error", fiatramp.ErrInternal},
		{503, "Service unavailable", fiatramp.ErrUnavailable},
	}
	req := types.CreatePayinQuotationRequest{Asset: "usdt", Fiat: "inr", SendingAmount: decimal.NewFromInt(3000),
		CustomerID: customerID, BankID: bankID, PaymentMethod: types.PaymentMethodIMPS}
	for _, tc := range cases {
		t.Run(tc.message, func(t *testing.T) {
			h := newHarness(t)
			h.mock.RegisterResponder(http.MethodPost, testBase+"/pis/api/v1/payin/quotation",
				httpmock.NewStringResponder(tc.status, fail(tc.message, "X", `{}`)))
			q, err := h.client.Payins.CreateQuotation(context.Background(), req)
			assert.Nil(t, q)
			require.ErrorIs(t, err, tc.want)
		})
	}
	for _, msg := range []string{"Quotation ID is required.", "Quotation ID is invalid"} {
		h := newHarness(t)
		h.mock.RegisterResponder(http.MethodGet, testBase+"/pis/api/v1/payin/quotation/"+payinQuotation.String(),
			httpmock.NewStringResponder(400, fail(msg, "REQ_FIELD_MISSING", `{}`)))
		_, err := h.client.Payins.GetQuotation(context.Background(), payinQuotation)
		require.ErrorIs(t, err, fiatramp.ErrQuotationIDInvalid, msg)
	}
}

// TestSendingAmountDigitsBounded: sending_amount is written with
// every digit of its plain form, so an amount of a huge scale or exponent
// (decimal.NewFromString("1e-2000000000") parses) would be written as
// gigabytes of zeros. It is refused before anything is built or sent, like
// any other bad amount, naming the field.
func TestSendingAmountDigitsBounded(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL))
	require.NoError(t, err)
	req := types.CreatePayinQuotationRequest{Asset: "USDT", Fiat: "INR", CustomerID: customerID, BankID: bankID,
		PaymentMethod: types.PaymentMethodIMPS}
	for _, d := range []decimal.Decimal{
		decimal.New(1, -types.MaxDecimalDigits), decimal.New(1, types.MaxDecimalDigits), decimal.New(1, -1<<30), decimal.New(7, 1<<30),
	} {
		req.SendingAmount = d
		_, err := c.Payins.CreateQuotation(context.Background(), req)
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr)
		require.Equal(t, "sending_amount", verr.Field)
	}
	require.Zero(t, hits.Load())
	// The longest accepted amount is still written with every digit.
	long := decimal.RequireFromString("0." + strings.Repeat("0", types.MaxDecimalDigits-2) + "1")
	var sent atomic.Value
	wire := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sent.Store(string(b))
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, fail("Quotation refused", "", `{}`))
	}))
	defer wire.Close()
	c, err = fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(wire.URL), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)
	req.SendingAmount = long
	_, err = c.Payins.CreateQuotation(context.Background(), req)
	var verr *fiatramp.ValidationError
	require.False(t, errors.As(err, &verr), "the longest amount is accepted: %v", err)
	body, _ := sent.Load().(string)
	require.Contains(t, body, `"sending_amount":"`+long.StringFixed(-long.Exponent())+`"`)
}

func TestPayinsSimulateStatus(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPatch, "/pis/api/v1/payin/mock-payin-status",
		`{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payin_status":"REFUND_INITIATED"}`,
		http.StatusOK, ok(`{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payin_status":"REFUND_INITIATED"}`))
	s, err := h.client.Payins.SimulateStatus(context.Background(), payoutID, types.PayinRefundInitiated)
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, payoutID, s.PayinID)
	assert.Equal(t, types.PayinRefundInitiated, s.PayinStatus)
	assert.JSONEq(t, `{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payin_status":"REFUND_INITIATED"}`, string(s.Raw))

	// A status the library does not list is sent as given (open enum).
	h.expect(http.MethodPatch, "/pis/api/v1/payin/mock-payin-status",
		`{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payin_status":"SETTLING"}`,
		http.StatusOK, ok(`{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payin_status":"SETTLING"}`))
	s, err = h.client.Payins.SimulateStatus(context.Background(), payoutID, "SETTLING")
	require.NoError(t, err)
	assert.Equal(t, types.PayinStatus("SETTLING"), s.PayinStatus)
}

// TestPayinsSimulateStatusRefused: the service's refusal matches its
// sentinel, and no result comes back.
func TestPayinsSimulateStatusRefused(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodPatch, testBase+"/pis/api/v1/payin/mock-payin-status",
		httpmock.NewStringResponder(http.StatusBadRequest, fail("Quotation is not found", "", `{}`)))
	s, err := h.client.Payins.SimulateStatus(context.Background(), payinQuotation, types.PayinSuccess)
	assert.Nil(t, s)
	require.ErrorIs(t, err, fiatramp.ErrQuotationNotFound)
}

// payinInitiatedData is the answer of a payin initiate: the quotation's
// fields as numbers plus the payin's id, utr and status.
const payinInitiatedData = `{
  "id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278",
  "customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12",
  "asset":"USDT","fiat":"INR","payment_method":"UPI","sending_amount":2500.01,"rate":91.25,"receiving_amount":27.39,
  "fees":{"service_fee":0.5,"service_gst":0.09},"utr":"123456789012","status":"PROCESSING",
  "created_at":"2025-03-08T07:32:00Z","expiry_time":"2025-03-08T07:36:24.770179Z"}`

func TestPayinsInitiate(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPost, "/pis/api/v1/payin/initiate",
		`{"client_reference_id":"order-7","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278","utr":"123456789012"}`,
		http.StatusCreated, ok(payinInitiatedData))
	p, err := h.client.Payins.Initiate(context.Background(), types.InitiatePayinRequest{
		QuotationID: payinQuotation, CustomerID: customerID, UTR: "123456789012", ClientReferenceID: "order-7",
	})
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, payoutID, p.ID, "the payin's own id")
	assert.Equal(t, payinQuotation, p.QuotationID)
	assert.Equal(t, types.PayinProcessing, p.Status)
	assert.Equal(t, "123456789012", p.UTR)
	assert.Equal(t, "27.39", p.ReceivingAmount.String())
	require.NotNil(t, p.ClientReferenceID, "the reference sent fills a response without one")
	assert.Equal(t, "order-7", *p.ClientReferenceID)
}

// TestPayinsInitiateGeneratesReference: without a reference one is
// generated, sent, and set on the result.
func TestPayinsInitiateGeneratesReference(t *testing.T) {
	h := newHarness(t, fiatramp.WithClientReferenceGenerator(func() (string, error) { return "gen-1", nil }))
	h.expect(http.MethodPost, "/pis/api/v1/payin/initiate",
		`{"client_reference_id":"gen-1","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278","utr":"ABCDEF123456"}`,
		http.StatusCreated, ok(payinInitiatedData))
	p, err := h.client.Payins.Initiate(context.Background(), types.InitiatePayinRequest{
		QuotationID: payinQuotation, CustomerID: customerID, UTR: "ABCDEF123456",
	})
	require.NoError(t, err)
	require.NotNil(t, p.ClientReferenceID)
	assert.Equal(t, "gen-1", *p.ClientReferenceID)
}

// TestPayinsInitiateRefused: each documented refusal matches its sentinel
// and leaves no result.
func TestPayinsInitiateRefused(t *testing.T) {
	cases := []struct {
		message string
		want    error
	}{
		{"Client Reference ID already exists", fiatramp.ErrClientReferenceExists},
		{"Quotation is not found", fiatramp.ErrQuotationNotFound},
		{"Customer ID does not match with the quotation", fiatramp.ErrCustomerMismatch},
		{"Quotation has expired", fiatramp.ErrQuotationExpired},
		{"UTR is already linked to another payin", fiatramp.ErrUTRInUse},
		{"Invalid UTR format", fiatramp.ErrUTRInvalid},
		{"Quotation is already linked to another payin", fiatramp.ErrQuotationAlreadyLinked},
	}
	for _, tc := range cases {
		t.Run(tc.message, func(t *testing.T) {
			h := newHarness(t)
			h.mock.RegisterResponder(http.MethodPost, testBase+"/pis/api/v1/payin/initiate",
				httpmock.NewStringResponder(http.StatusBadRequest, fail(tc.message, "", `{}`)))
			p, err := h.client.Payins.Initiate(context.Background(), types.InitiatePayinRequest{
				QuotationID: payinQuotation, CustomerID: customerID, UTR: "123456789012", ClientReferenceID: "r",
			})
			assert.Nil(t, p)
			require.ErrorIs(t, err, tc.want)
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tc.message, apiErr.Message)
		})
	}
}

// TestPayinsInitiateRetriedAfterLostAnswer: the first attempt's answer is
// lost after the payin was recorded; the repeat, refused because the UTR
// is taken, ends in an *OutcomeUnknownError naming the reference and the
// quotation, never in a plain refusal a caller could take for "nothing
// happened".
func TestPayinsInitiateRetriedAfterLostAnswer(t *testing.T) {
	h := newHarness(t, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}))
	var n atomic.Int32
	h.mock.RegisterResponder(http.MethodPost, testBase+"/pis/api/v1/payin/initiate", func(*http.Request) (*http.Response, error) {
		if n.Add(1) == 1 {
			return httpmock.NewStringResponse(http.StatusBadGateway, "upstream gone"), nil
		}
		return httpmock.NewStringResponse(http.StatusBadRequest, fail("UTR is already linked to another payin", "", `{}`)), nil
	})
	p, err := h.client.Payins.Initiate(context.Background(), types.InitiatePayinRequest{
		QuotationID: payinQuotation, CustomerID: customerID, UTR: "123456789012", ClientReferenceID: "order-9",
	})
	assert.Nil(t, p)
	assert.EqualValues(t, 2, n.Load(), "retried: the UTR guards the repeat")
	var unknown *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, "order-9", unknown.ClientReferenceID)
	assert.Equal(t, payinQuotation, unknown.QuotationID)
	assert.Equal(t, customerID, unknown.CustomerID)
	assert.Equal(t, 2, unknown.Attempts)
	assert.True(t, unknown.ProbablyCreated, "the repeat was refused because the first attempt took the UTR")
	msg := err.Error()
	assert.Contains(t, msg, "(Payins.Initiate)")
	assert.Contains(t, msg, "the payin was probably created", "a payin initiate creates a payin")
	assert.NotContains(t, msg, "payout")
	assert.False(t, errors.Is(err, fiatramp.ErrUTRInUse), "an unknown outcome is no refusal")
}

// TestPayinsInitiateRetriedWithoutReference: with reference generation
// off, the UTR alone still guards a repeat, so the call is retried after
// an attempt that may have acted, and the body carries no reference.
func TestPayinsInitiateRetriedWithoutReference(t *testing.T) {
	h := newHarness(t, fiatramp.WithClientReferenceGenerator(nil),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}))
	var n atomic.Int32
	h.mock.RegisterResponder(http.MethodPost, testBase+"/pis/api/v1/payin/initiate", func(req *http.Request) (*http.Response, error) {
		body, _ := io.ReadAll(req.Body)
		assert.NotContains(t, string(body), "client_reference_id")
		if n.Add(1) == 1 {
			return httpmock.NewStringResponse(http.StatusBadGateway, "upstream gone"), nil // may have acted
		}
		return httpmock.NewStringResponse(http.StatusCreated, ok(payinInitiatedData)), nil
	})
	p, err := h.client.Payins.Initiate(context.Background(), types.InitiatePayinRequest{
		QuotationID: payinQuotation, CustomerID: customerID, UTR: "123456789012",
	})
	require.NoError(t, err)
	assert.EqualValues(t, 2, n.Load())
	assert.Equal(t, payoutID, p.ID)
	assert.Nil(t, p.ClientReferenceID)
}

func TestPayinsGet(t *testing.T) {
	data := `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278",
	  "customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","client_reference_id":"order-7",
	  "bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","asset":"USDT","fiat":"INR",
	  "sending_amount":"2500.01","rate":"91.25","receiveing_amount":"27.390000","fees":{"service_fee":"0.50"},
	  "utr":"123456789012","exchange_transfer_id":"tx-55","status":"FAILED","failure_reason":"PAYMENT_NOT_RECEIVED",
	  "refund_reason":null,"created_at":"2025-03-08T07:32:00Z","updated_at":"2025-03-08T07:40:00Z"}`
	h := newHarness(t)
	h.expect(http.MethodGet, "/pis/api/v1/payin/"+payoutID.String(), "", http.StatusOK, ok(data))
	p, err := h.client.Payins.Get(context.Background(), payoutID)
	require.NoError(t, err)
	assert.Equal(t, payoutID, p.ID)
	assert.Equal(t, "27.39", p.ReceivingAmount.String())
	assert.EqualValues(t, -6, p.ReceivingAmount.Exponent(), "every digit kept")
	assert.Equal(t, "tx-55", p.ExchangeTransferID)
	assert.Equal(t, types.PayinFailed, p.Status)
	assert.Equal(t, types.PayinFailurePaymentNotReceived, p.FailureReason)
	assert.Equal(t, types.PayinRefundReason(""), p.RefundReason)
	assert.Equal(t, "order-7", *p.ClientReferenceID)
}

// TestPayinsGetWithoutIDOrStatus: a payin without its id or status is no
// payin.
func TestPayinsGetWithoutIDOrStatus(t *testing.T) {
	for _, data := range []string{`{"status":"SUCCESS"}`, `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"}`} {
		h := newHarness(t)
		h.expect(http.MethodGet, "/pis/api/v1/payin/"+payoutID.String(), "", http.StatusOK, ok(data))
		p, err := h.client.Payins.Get(context.Background(), payoutID)
		assert.Nil(t, p)
		require.ErrorIs(t, err, fiatramp.ErrMalformedResponse, data)
	}
}

func TestPayinsLinkTransfer(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPatch, "/pis/api/v1/payin/update-transfer-id",
		`{"exchange_transfer_id":"778899","payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"}`,
		http.StatusOK, ok(`{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","exchange_transfer_id":"778899"}`))
	l, err := h.client.Payins.LinkTransfer(context.Background(), types.LinkPayinTransferRequest{PayinID: payoutID, ExchangeTransferID: "778899"})
	require.NoError(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, payoutID, l.PayinID)
	assert.Equal(t, "778899", l.ExchangeTransferID)
}

// TestPayinsRefusedBeforeSending: bad input never reaches the service and
// names its field.
func TestPayinsRefusedBeforeSending(t *testing.T) {
	h := newHarness(t) // no responder: a request would fail differently
	bg := context.Background()
	req := types.InitiatePayinRequest{QuotationID: payinQuotation, CustomerID: customerID, UTR: "123456789012"}
	cases := map[string]func() error{
		"quotation_id": func() error {
			r := req
			r.QuotationID = uuid.Nil
			_, err := h.client.Payins.Initiate(bg, r)
			return err
		},
		"customer_id": func() error {
			r := req
			r.CustomerID = uuid.Nil
			_, err := h.client.Payins.Initiate(bg, r)
			return err
		},
		"utr": func() error {
			r := req
			r.UTR = "  "
			_, err := h.client.Payins.Initiate(bg, r)
			return err
		},
		"payin_id": func() error { _, err := h.client.Payins.Get(bg, uuid.Nil); return err },
		"exchange_transfer_id": func() error {
			_, err := h.client.Payins.LinkTransfer(bg, types.LinkPayinTransferRequest{PayinID: payoutID})
			return err
		},
		"payin_status": func() error { _, err := h.client.Payins.SimulateStatus(bg, payoutID, ""); return err },
	}
	for field, run := range cases {
		err := run()
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr, field)
		assert.Equal(t, field, verr.Field)
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
	}
	_, err := h.client.Payins.LinkTransfer(bg, types.LinkPayinTransferRequest{ExchangeTransferID: "x"})
	var verr *fiatramp.ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "payin_id", verr.Field)
}

// The payin calls measured against the hand-written floor (net/http, a
// canonical body, the HMAC signature, a decode into a struct with decimal
// fields), interleaved, in time and in memory:
//
//	go test -run '^$' -bench 'PayinCallsVsFloor' -benchtime 4000x .
//
// mem-ratio is the library's bytes allocated per call over the floor's.

// floorPayin is the payin as a careful caller declares it.
type floorPayin struct {
	ID                 uuid.UUID       `json:"id"`
	QuotationID        uuid.UUID       `json:"quotation_id"`
	CustomerID         uuid.UUID       `json:"customer_id"`
	ClientReferenceID  *string         `json:"client_reference_id"`
	BankID             uuid.UUID       `json:"bank_id"`
	Asset              string          `json:"asset"`
	Fiat               string          `json:"fiat"`
	PaymentMethod      string          `json:"payment_method"`
	SendingAmount      decimal.Decimal `json:"sending_amount"`
	Rate               decimal.Decimal `json:"rate"`
	ReceivingAmount    decimal.Decimal `json:"receiving_amount"`
	ReceiveingAmount   decimal.Decimal `json:"receiveing_amount"`
	Fees               floorFees       `json:"fees"`
	UTR                string          `json:"utr"`
	ExchangeTransferID *string         `json:"exchange_transfer_id"`
	Status             string          `json:"status"`
	FailureReason      *string         `json:"failure_reason"`
	RefundReason       *string         `json:"refund_reason"`
	CreatedAt          time.Time       `json:"created_at"`
	UpdatedAt          time.Time       `json:"updated_at"`
	ExpiryTime         time.Time       `json:"expiry_time"`
}

// BenchmarkPayinCallsVsFloor compares Initiate, Get, List (a page
// of 10 payins), LinkTransfer and SimulateStatus with their hand-written
// floors, through an in-memory transport.
func BenchmarkPayinCallsVsFloor(b *testing.B) {
	ctx := context.Background()
	const base = "http://127.0.0.1:1"
	fetched := `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","quotation_id":"72d36280-a0b1-4dcc-a1e5-9e80f3516278",` +
		`"customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","client_reference_id":"order-7",` +
		`"bank_id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","asset":"USDT","fiat":"INR",` +
		`"sending_amount":"2600.50","rate":"88.50","receiveing_amount":"29.085169",` +
		`"fees":{"client_fee_fiat":"0","client_fee_crypto":"0","service_fee":"26.01","pg_fee":"0","client_gst_fiat":"0",` +
		`"client_gst_crypto":"0","service_gst":"4.68","pg_gst":"0","tds":"0","gross_effective_exchange_rate":"89.4097"},` +
		`"utr":"123456789012","exchange_transfer_id":"778899","status":"SUCCESS","failure_reason":null,"refund_reason":null,` +
		`"created_at":"2025-03-08T07:32:00.000000Z","updated_at":"2025-03-08T07:40:00.000000Z"}`
	page := `{"count":10,"next":null,"previous":null,"results":[` + strings.TrimSuffix(strings.Repeat(fetched+",", 10), ",") + `]}`
	link := `{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","exchange_transfer_id":"778899"}`
	sim := `{"payin_id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","payin_status":"SUCCESS"}`
	initReq := types.InitiatePayinRequest{QuotationID: payinQuotation, CustomerID: customerID, UTR: "123456789012", ClientReferenceID: "order-7"}
	for _, tc := range []struct {
		name  string
		data  string
		lib   func(c *fiatramp.Client) error
		floor func(hc *http.Client) error
	}{
		{"Initiate", payinInitiatedData,
			func(c *fiatramp.Client) error { _, err := c.Payins.Initiate(ctx, initReq); return err },
			func(hc *http.Client) error {
				body, err := json.Marshal(struct {
					ClientReferenceID string    `json:"client_reference_id"`
					CustomerID        uuid.UUID `json:"customer_id"`
					QuotationID       uuid.UUID `json:"quotation_id"`
					UTR               string    `json:"utr"`
				}{initReq.ClientReferenceID, initReq.CustomerID, initReq.QuotationID, initReq.UTR})
				if err != nil {
					return err
				}
				var p floorPayin
				return floorSend(ctx, hc, http.MethodPost, base+"/pis/api/v1/payin/initiate", body, &p)
			}},
		{"Get", fetched,
			func(c *fiatramp.Client) error { _, err := c.Payins.Get(ctx, payoutID); return err },
			func(hc *http.Client) error {
				var p floorPayin
				return floorSend(ctx, hc, http.MethodGet, base+"/pis/api/v1/payin/"+payoutID.String(), nil, &p)
			}},
		{"List", page,
			func(c *fiatramp.Client) error {
				_, err := c.Payins.List(ctx, types.PayinListFilter{Status: types.PayinSuccess, CustomerID: customerID})
				return err
			},
			func(hc *http.Client) error {
				var p struct {
					Count    int          `json:"count"`
					Next     *string      `json:"next"`
					Previous *string      `json:"previous"`
					Results  []floorPayin `json:"results"`
				}
				return floorSend(ctx, hc, http.MethodGet,
					base+"/pis/api/v1/payin/history?customer_id="+customerID.String()+"&payin_status=SUCCESS", nil, &p)
			}},
		{"LinkTransfer", link,
			func(c *fiatramp.Client) error {
				_, err := c.Payins.LinkTransfer(ctx, types.LinkPayinTransferRequest{PayinID: payoutID, ExchangeTransferID: "778899"})
				return err
			},
			func(hc *http.Client) error {
				type pair struct {
					ExchangeTransferID string    `json:"exchange_transfer_id"`
					PayinID            uuid.UUID `json:"payin_id"`
				}
				body, err := json.Marshal(pair{"778899", payoutID})
				if err != nil {
					return err
				}
				var l pair
				return floorSend(ctx, hc, http.MethodPatch, base+"/pis/api/v1/payin/update-transfer-id", body, &l)
			}},
		{"SimulateStatus", sim,
			func(c *fiatramp.Client) error {
				_, err := c.Payins.SimulateStatus(ctx, payoutID, types.PayinSuccess)
				return err
			},
			func(hc *http.Client) error {
				type pair struct {
					PayinID     uuid.UUID `json:"payin_id"`
					PayinStatus string    `json:"payin_status"`
				}
				body, err := json.Marshal(pair{payoutID, "SUCCESS"})
				if err != nil {
					return err
				}
				var s pair
				return floorSend(ctx, hc, http.MethodPatch, base+"/pis/api/v1/payin/mock-payin-status", body, &s)
			}},
	} {
		b.Run(tc.name, func(b *testing.B) { compareInMemory(b, []byte(ok(tc.data)), tc.lib, tc.floor) })
	}
}
