package fiatramp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
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

func TestNewRequiresConfiguration(t *testing.T) {
	for name, tc := range map[string]struct {
		key, secret string
		opts        []fiatramp.Option
		want        string
	}{
		"no base URL":      {testKey, testSecret, nil, "base URL is required"},
		"empty key":        {"", testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase)}, "API key is empty"},
		"empty secret":     {testKey, "", []fiatramp.Option{fiatramp.WithBaseURL(testBase)}, "API secret is empty"},
		"relative base":    {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL("/api")}, "absolute http or https"},
		"base with query":  {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase + "?x=1")}, "no user info, query"},
		"ftp base":         {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL("ftp://h")}, "absolute http or https"},
		"nil http client":  {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase), fiatramp.WithHTTPClient(nil)}, "nil *http.Client"},
		"nil clock":        {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase), fiatramp.WithClock(nil)}, "nil clock"},
		"negative timeout": {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase), fiatramp.WithTimeout(-1)}, "negative"},
		"bad remittance":   {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase), fiatramp.WithRemittancePayoutPath("x")}, "not an absolute path"},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := fiatramp.New(tc.key, tc.secret, tc.opts...)
			assert.Nil(t, c)
			require.ErrorContains(t, err, tc.want)
			assert.NotContains(t, err.Error(), testSecret)
		})
	}
}

func TestNewFromEnv(t *testing.T) {
	t.Setenv(fiatramp.EnvAPIKey, testKey)
	t.Setenv(fiatramp.EnvAPISecret, testSecret)
	t.Setenv(fiatramp.EnvBaseURL, "https://env.example/base/")
	c, err := fiatramp.NewFromEnv()
	require.NoError(t, err)
	assert.Equal(t, "https://env.example/base", c.BaseURL())

	c, err = fiatramp.NewFromEnv(fiatramp.WithBaseURL(testBase))
	require.NoError(t, err)
	assert.Equal(t, testBase, c.BaseURL(), "options win over the environment")

	t.Setenv(fiatramp.EnvAPISecret, "")
	_, err = fiatramp.NewFromEnv()
	require.ErrorContains(t, err, fiatramp.EnvAPISecret)
}

func TestSecretNeverFormatted(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h := newHarness(t, fiatramp.WithLogger(logger))
	h.expect(http.MethodGet, "/pos/api/v1/payout/"+payoutID.String(), "", 400, fail("Payout ID is invalid", "REQ_FIELD_MISSING", `{}`))
	_, err := h.client.Payouts.Get(context.Background(), payoutID)
	require.Error(t, err)
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/balance", httpmock.NewErrorResponder(errors.New("connection reset")))
	err2 := h.client.Do(context.Background(), http.MethodGet, "/pos/api/v1/payout/balance", nil, nil)
	require.Error(t, err2)
	logger.Info("client", "client", h.client)

	signature := sign(testNow.Unix(), "{}")
	outputs := map[string]string{
		"%v": fmt.Sprintf("%v", h.client), "%+v": fmt.Sprintf("%+v", h.client), "%#v": fmt.Sprintf("%#v", h.client),
		"%s": fmt.Sprintf("%s", h.client), "value %+v": fmt.Sprintf("%+v", *h.client), "value %#v": fmt.Sprintf("%#v", *h.client),
		"%+v payouts": fmt.Sprintf("%+v %#v", h.client.Payouts, h.client.Payouts),
		"api error":   err.Error(), "transport error": err2.Error(), "logs": logs.String(),
	}
	for name, out := range outputs {
		assert.NotContains(t, out, testSecret, name)
		assert.NotContains(t, out, signature, name)
	}
	assert.Contains(t, outputs["%#v"], "[redacted]")
	assert.Contains(t, logs.String(), `"path":"/gateway/pos/api/v1/payout/`+payoutID.String()+`"`)
	assert.Contains(t, logs.String(), `"status":400`)
}

func TestFreshTimestampPerRequest(t *testing.T) {
	var tick atomic.Int64
	tick.Store(testNow.Unix())
	h := newHarness(t, fiatramp.WithClock(func() time.Time { return time.Unix(tick.Add(7), 0) }))
	var seen []int64
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), func(req *http.Request) (*http.Response, error) {
		ts := tick.Load()
		seen = append(seen, ts)
		assertSigned(t, req, ts, "")
		return httpmock.NewStringResponse(200, ok(fetchedPayoutData)), nil
	})
	for range 3 {
		_, err := h.client.Payouts.Get(context.Background(), payoutID)
		require.NoError(t, err)
	}
	assert.Equal(t, []int64{testNow.Unix() + 7, testNow.Unix() + 14, testNow.Unix() + 21}, seen)
}

func TestValidationSendsNothing(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	good := types.CreatePayinQuotationRequest{Asset: "usdt", Fiat: "inr", SendingAmount: decimal.NewFromInt(3000),
		CustomerID: customerID, BankID: bankID, PaymentMethod: types.PaymentMethodIMPS}
	with := func(f func(*types.CreatePayinQuotationRequest)) types.CreatePayinQuotationRequest {
		r := good
		f(&r)
		return r
	}
	p, c, k := h.client.Payouts, h.client.Customers, h.client.KYC
	cases := map[string]struct {
		field string
		call  func() error
	}{
		"create quotation_id": {"quotation_id", func() error { _, err := p.Create(ctx, types.CreatePayoutRequest{CustomerID: customerID}); return err }},
		"create customer_id":  {"customer_id", func() error { _, err := p.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID}); return err }},
		"prefunded quotation": {"quotation_id", func() error { _, err := p.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{}); return err }},
		"prefunded sender": {"customer.sender.id", func() error {
			_, err := p.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{QuotationID: quotationID, Customer: types.PrefundedCustomer{Receiver: types.CustomerRef{ID: customerID}}})
			return err
		}},
		"prefunded receiver": {"customer.receiver.id", func() error {
			_, err := p.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{QuotationID: quotationID, Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}}})
			return err
		}},
		"remittance remitter": {"remitter_id", func() error {
			_, err := p.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{QuotationID: quotationID, CustomerID: customerID})
			return err
		}},
		"remittance customer": {"customer_id", func() error {
			_, err := p.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{QuotationID: quotationID, RemitterID: remitterID})
			return err
		}},
		"get payout":      {"payout_id", func() error { _, err := p.Get(ctx, uuid.Nil); return err }},
		"simulate payout": {"payout_id", func() error { _, err := p.SimulateStatus(ctx, uuid.Nil, types.PayoutSuccess); return err }},
		"simulate unknown status": {"payout_status", func() error {
			_, err := p.SimulateStatus(ctx, payoutID, types.PayoutStatus("PAID"))
			return err
		}},
		"quotation asset": {"asset", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.Asset = " " }))
			return err
		}},
		"quotation fiat": {"fiat", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.Fiat = "" }))
			return err
		}},
		"quotation zero amount": {"sending_amount", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.SendingAmount = decimal.Zero }))
			return err
		}},
		"quotation negative amount": {"sending_amount", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.SendingAmount = decimal.NewFromInt(-5) }))
			return err
		}},
		"quotation customer": {"customer_id", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.CustomerID = uuid.Nil }))
			return err
		}},
		"quotation bank": {"bank_id", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.BankID = uuid.Nil }))
			return err
		}},
		"quotation method": {"payment_method", func() error {
			_, err := h.client.Payins.CreateQuotation(ctx, with(func(r *types.CreatePayinQuotationRequest) { r.PaymentMethod = "NEFT" }))
			return err
		}},
		"get quotation":      {"quotation_id", func() error { _, err := h.client.Payins.GetQuotation(ctx, uuid.Nil); return err }},
		"wallet customer":    {"customer_id", func() error { _, err := c.AddWallet(ctx, types.AddWalletRequest{WalletAddress: "0x1"}); return err }},
		"wallet address":     {"wallet_address", func() error { _, err := c.AddWallet(ctx, types.AddWalletRequest{CustomerID: customerID}); return err }},
		"bank customer":      {"customer_id", func() error { _, err := c.GetBankAccount(ctx, uuid.Nil, bankID); return err }},
		"bank id":            {"bank_id", func() error { _, err := c.GetBankAccount(ctx, customerID, uuid.Nil); return err }},
		"list customer":      {"customer_id", func() error { _, err := c.ListBankAccounts(ctx, uuid.Nil); return err }},
		"kyc config":         {"customer_id", func() error { _, err := k.GetConfiguration(ctx, uuid.Nil); return err }},
		"kyc simulate":       {"customer_id", func() error { _, err := k.SimulateStatus(ctx, uuid.Nil, types.KYCVerified); return err }},
		"kyc unknown":        {"kyc_status", func() error { _, err := k.SimulateStatus(ctx, customerID, "DONE"); return err }},
		"do method":          {"method", func() error { return h.client.Do(ctx, "get", "/x", nil, nil) }},
		"do absolute path":   {"path", func() error { return h.client.Do(ctx, "GET", "https://evil.example/x", nil, nil) }},
		"do scheme-relative": {"path", func() error { return h.client.Do(ctx, "GET", "//evil.example/x", nil, nil) }},
		"do GET with body":   {"body", func() error { return h.client.Do(ctx, "GET", "/x", map[string]int{"a": 1}, nil) }},
		"do invalid JSON":    {"body", func() error { return h.client.Do(ctx, "POST", "/x", []byte(`{"a":`), nil) }},
		"do non-pointer out": {"out", func() error { var m map[string]any; return h.client.Do(ctx, "GET", "/x", nil, m) }},
		"do nil pointer out": {"out", func() error { var p *map[string]any; return h.client.Do(ctx, "GET", "/x", nil, p) }},
		"do inexact amount": {"body", func() error {
			return h.client.Do(ctx, "POST", "/x", json.RawMessage(`{"amount":12345678901234567.5}`), nil)
		}},
		"reserved header": {"header X-Signature", func() error {
			_, err := p.Get(ctx, payoutID, fiatramp.WithHeader("X-Signature", "forged"))
			return err
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := tc.call()
			require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
			var ve *fiatramp.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tc.field, ve.Field)
			assert.Contains(t, err.Error(), tc.field)
		})
	}
	assert.Zero(t, h.mock.GetTotalCallCount(), "bad input sends nothing")
}

func TestDo(t *testing.T) {
	ctx := context.Background()
	t.Run("HEAD succeeds on a 2xx without a body and fails on a 4xx", func(t *testing.T) {
		h := newHarness(t)
		calls := h.expect(http.MethodHead, "/pos/api/v1/payout/balance", "", http.StatusOK, "")
		require.NoError(t, h.client.Do(ctx, http.MethodHead, "/pos/api/v1/payout/balance", nil, nil))
		assert.EqualValues(t, 1, calls.Load())
		h.expect(http.MethodHead, "/pos/api/v1/payout/missing", "", http.StatusNotFound, "")
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, h.client.Do(ctx, http.MethodHead, "/pos/api/v1/payout/missing", nil, nil), &apiErr)
		assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	})
	t.Run("GET with query signs {} and decodes data", func(t *testing.T) {
		h := newHarness(t)
		h.mock.RegisterResponderWithQuery(http.MethodGet, testBase+"/pos/api/v1/payout/balance", "asset=USDT", func(req *http.Request) (*http.Response, error) {
			assertSigned(t, req, testNow.Unix(), "")
			return httpmock.NewStringResponse(200, ok(`{"available_balance":{"USDT":"1500.123456789"}}`)), nil
		})
		var out struct {
			AvailableBalance map[string]decimal.Decimal `json:"available_balance"`
		}
		require.NoError(t, h.client.Do(ctx, http.MethodGet, "/pos/api/v1/payout/balance?asset=USDT", nil, &out))
		assert.Equal(t, "1500.123456789", out.AvailableBalance["USDT"].String())
	})
	t.Run("POST sends exactly the canonical bytes it signed", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodPost, "/org/api/v1/organizations/api-webhooks",
			`{"events":["PAYOUT"],"note":"caf\u00e9 <&>","url":"https://hooks.example/x"}`, 201, ok(`{"id":"abc"}`))
		var raw json.RawMessage
		body := []byte("{ \"url\": \"https://hooks.example/x\", \"note\": \"café <&>\", \"events\": [\"PAYOUT\"] }")
		require.NoError(t, h.client.Do(ctx, http.MethodPost, "/org/api/v1/organizations/api-webhooks", body, &raw))
		assert.JSONEq(t, `{"id":"abc"}`, string(raw))
	})
	t.Run("struct body and nil out", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodPost, "/cms/api/v1/bank/mock-bank-verification", `{"a":"x","b":1}`, 200, ok(`null`))
		require.NoError(t, h.client.Do(ctx, http.MethodPost, "/cms/api/v1/bank/mock-bank-verification", struct {
			B int    `json:"b"`
			A string `json:"a"`
		}{1, "x"}, nil))
	})
}

func TestTransportFailures(t *testing.T) {
	ctx := context.Background()
	t.Run("connection error wraps the cause", func(t *testing.T) {
		h := newHarness(t)
		cause := errors.New("connection refused")
		h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), httpmock.NewErrorResponder(cause))
		p, err := h.client.Payouts.Get(ctx, payoutID)
		assert.Nil(t, p)
		require.ErrorIs(t, err, cause)
		var apiErr *fiatramp.APIError
		assert.False(t, errors.As(err, &apiErr), "no response, so no APIError")
	})
	t.Run("timeout", func(t *testing.T) {
		h := newHarness(t, fiatramp.WithTimeout(20*time.Millisecond))
		h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), func(req *http.Request) (*http.Response, error) {
			<-req.Context().Done()
			return nil, req.Context().Err()
		})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		require.ErrorIs(t, err, context.DeadlineExceeded)
	})
	for name, tc := range map[string]struct {
		status int
		body   string
		want   error
	}{
		"proxy HTML 502":        {502, "<html><body>Bad Gateway</body></html>", fiatramp.ErrUnavailable},
		"empty 200":             {200, "", fiatramp.ErrMalformedResponse},
		"truncated 200":         {200, `{"status":true,"data":{"id":"3e9f`, fiatramp.ErrMalformedResponse},
		"status false in 200":   {200, fail("Quotation has expired", "X", `{}`), fiatramp.ErrQuotationExpired},
		"data null in 200":      {200, ok("null"), fiatramp.ErrMalformedResponse},
		"wrong-typed data":      {200, ok(`{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","rate":{"x":1}}`), fiatramp.ErrMalformedResponse},
		"500 with success":      {500, `{"success":false,"message":"Internal Server Error","err_code":"SYS_INTERNAL_ERROR","errors":"trace","data":null}`, fiatramp.ErrInternal},
		"401 signature refused": {401, fail("Unauthorized", "AUTH_INVALID_SIGNATURE", `{"signature":["Invalid Signature"]}`), fiatramp.ErrUnauthorized},
		"429":                   {429, fail("Too many requests", "RATE_LIMITED", `{}`), fiatramp.ErrRateLimited},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), httpmock.NewStringResponder(tc.status, tc.body))
			var resp fiatramp.Response
			p, err := h.client.Payouts.Get(ctx, payoutID, fiatramp.CaptureResponse(&resp))
			assert.Nil(t, p, "never a success")
			require.ErrorIs(t, err, tc.want)
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tc.status, apiErr.StatusCode)
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, tc.body, string(resp.Body))
		})
	}
}

func TestRequestOptions(t *testing.T) {
	h := newHarness(t, fiatramp.WithUserAgent("acme-payouts/2.1"))
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), func(req *http.Request) (*http.Response, error) {
		assert.Equal(t, "trace-77", req.Header.Get("X-Request-Id"))
		assert.True(t, strings.HasPrefix(req.Header.Get("User-Agent"), "acme-payouts/2.1 fiatramp-go/"), req.Header.Get("User-Agent"))
		r := httpmock.NewStringResponse(200, ok(fetchedPayoutData))
		r.Header.Set("X-Trace", "t1")
		return r, nil
	})
	var resp fiatramp.Response
	_, err := h.client.Payouts.Get(context.Background(), payoutID, fiatramp.WithHeader("X-Request-Id", "trace-77"), fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+quotationID.String(), func(req *http.Request) (*http.Response, error) {
		assert.Equal(t, "custom-agent/1", req.Header.Get("User-Agent"), "a per-call User-Agent wins")
		return httpmock.NewStringResponse(200, ok(fetchedPayoutData)), nil
	})
	_, err = h.client.Payouts.Get(context.Background(), quotationID, fiatramp.WithHeader("User-Agent", "custom-agent/1"))
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "t1", resp.Header.Get("X-Trace"))
	assert.Equal(t, ok(fetchedPayoutData), string(resp.Body))
}

func TestWithErrorMessage(t *testing.T) {
	h := newHarness(t, fiatramp.WithErrorMessage("Prefunded wallet balance too low", fiatramp.ErrInsufficientBalance))
	h.mock.RegisterResponder(http.MethodPost, testBase+"/pos/api/v1/prefunded/payout/initiate",
		httpmock.NewStringResponder(400, fail("Prefunded wallet balance too low.", "X", `{}`)))
	_, err := h.client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{QuotationID: quotationID,
		Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}, Receiver: types.CustomerRef{ID: customerID}}})
	require.ErrorIs(t, err, fiatramp.ErrInsufficientBalance)
}

func TestConcurrentUse(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), httpmock.NewStringResponder(200, ok(fetchedPayoutData)))
	errs := make(chan error, 32)
	for range 32 {
		go func() {
			_, err := h.client.Payouts.Get(context.Background(), payoutID)
			errs <- err
		}()
	}
	for range 32 {
		require.NoError(t, <-errs)
	}
	assert.Equal(t, 32, h.mock.GetTotalCallCount())
}

func TestOversizedResponseRefused(t *testing.T) {
	h := newHarness(t)
	huge := ok(`{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","pad":"` + strings.Repeat("x", 8<<20) + `"}`)
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), httpmock.NewStringResponder(200, huge))
	p, err := h.client.Payouts.Get(context.Background(), payoutID)
	assert.Nil(t, p)
	require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
	assert.Contains(t, err.Error(), "exceeds")
	var apiErr *fiatramp.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.LessOrEqual(t, len(apiErr.RawBody), 64<<10, "the kept body is capped")
}

func TestDoKeepsEscapedPath(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodGet, `=~^`+testBase+`/cms/api/v1/ref/a%2Fb$`, func(req *http.Request) (*http.Response, error) {
		assert.Equal(t, "/gateway/cms/api/v1/ref/a%2Fb", req.URL.EscapedPath(), "an escaped slash stays escaped")
		assertSigned(t, req, testNow.Unix(), "")
		return httpmock.NewStringResponse(200, ok(`{}`)), nil
	})
	require.NoError(t, h.client.Do(context.Background(), http.MethodGet, "/cms/api/v1/ref/a%2Fb", nil, nil))
	assert.Equal(t, 1, h.mock.GetTotalCallCount())
}

func TestZeroClientFormats(t *testing.T) {
	var c fiatramp.Client
	assert.Equal(t, "fiatramp.Client{baseURL: , apiKey: ****, apiSecret: [redacted]}", fmt.Sprintf("%+v", c))
}

// TestAttemptDeadline: each attempt is bounded by the sooner of the
// caller's deadline and WithTimeout (none with WithTimeout(0) and no
// deadline), as the request's context shows to the transport.
func TestAttemptDeadline(t *testing.T) {
	seen := func(t *testing.T, ctx context.Context, timeout time.Duration) (time.Time, bool) {
		t.Helper()
		h := newHarness(t, fiatramp.WithTimeout(timeout))
		var deadline time.Time
		var has bool
		h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/balance", func(req *http.Request) (*http.Response, error) {
			deadline, has = req.Context().Deadline()
			return httpmock.NewStringResponse(200, ok(`{}`)), nil
		})
		_, _ = h.client.Payouts.Balance(ctx)
		return deadline, has
	}
	t.Run("caller's deadline first", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		want, _ := ctx.Deadline()
		got, has := seen(t, ctx, time.Hour)
		require.True(t, has)
		require.Equal(t, want, got)
	})
	t.Run("timeout first", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		start := time.Now()
		got, has := seen(t, ctx, time.Minute)
		require.True(t, has)
		require.WithinDuration(t, start.Add(time.Minute), got, 5*time.Second)
	})
	t.Run("no caller deadline", func(t *testing.T) {
		start := time.Now()
		got, has := seen(t, context.Background(), time.Minute)
		require.True(t, has)
		require.WithinDuration(t, start.Add(time.Minute), got, 5*time.Second)
	})
	t.Run("no bound at all", func(t *testing.T) {
		_, has := seen(t, context.Background(), 0)
		require.False(t, has)
	})
}

// lyingTransport answers with body but declares contentLength.
type lyingTransport struct {
	body          string
	contentLength int64
}

func (l lyingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Request: req, ContentLength: l.contentLength,
		Body: io.NopCloser(strings.NewReader(l.body))}, nil
}

// TestDeclaredLengthIsOnlyAHint: the response is read by its bytes, not by
// its Content-Length: a body longer or shorter than declared, or without a
// declared length, decodes alike, and the size cap holds whatever is
// declared.
func TestDeclaredLengthIsOnlyAHint(t *testing.T) {
	body := ok(`{"available_balance":{"USDT":"1500.25"}}`)
	for _, declared := range []int64{-1, 0, 5, int64(len(body)), int64(len(body)) + 100, 1 << 40} {
		for _, limit := range []int64{int64(len(body)), int64(len(body)) - 1} {
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase),
				fiatramp.WithHTTPClient(&http.Client{Transport: lyingTransport{body, declared}}),
				fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}), fiatramp.WithMaxResponseBytes(limit))
			require.NoError(t, err)
			var resp fiatramp.Response
			_, err = c.Payouts.Balance(context.Background(), fiatramp.CaptureResponse(&resp))
			if limit < int64(len(body)) {
				require.ErrorIs(t, err, fiatramp.ErrMalformedResponse, "declared %d", declared)
				require.ErrorContains(t, err, "exceeds")
				continue
			}
			require.NoError(t, err, "declared %d", declared)
			require.Equal(t, body, string(resp.Body))
		}
	}
}
