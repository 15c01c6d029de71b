package fiatramp

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// This file holds the adversarial review of the one-pass request path
// (issue 11): bodies written directly against the Python oracle, the
// canonicalizer's pooled buffers under concurrency, and the request path's
// header and body handling.

// TestReview11HeaderOptionRefusesWhatNetHTTPRefuses: a header that net/http
// will not send (a name that is not an HTTP token, a value with a control
// character) must be refused by WithHeader as bad input, sending nothing.
// Let through, net/http refuses the request after the library has counted
// an attempt, and a payout create ends in an *OutcomeUnknownError for a
// request that never left the machine (after being retried as if it may
// have reached the service).
func TestReview11HeaderOptionRefusesWhatNetHTTPRefuses(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusBadRequest)
	}))
	defer srv.Close()
	c, err := New("key", "secret", WithBaseURL(srv.URL), WithRetry(RetryPolicy{MaxAttempts: 3}),
		WithSleep(func(context.Context, time.Duration) error { return nil }))
	require.NoError(t, err)
	for _, h := range [][2]string{
		{"X Request Id", "1"}, {"X-Request-Id ", "1"}, {"X-Request-Id:", "1"}, {"X-Ré", "1"}, {"(x)", "1"},
		{"X-Request-Id", "a\x00b"}, {"X-Request-Id", "a\x7fb"}, {"X-Request-Id", "a\x1bb"},
	} {
		_, err := c.Payouts.Create(context.Background(), types.CreatePayoutRequest{
			QuotationID: bodyQuotation, CustomerID: bodyCustomer, ClientReferenceID: "ref-1"}, WithHeader(h[0], h[1]))
		var verr *ValidationError
		require.ErrorAs(t, err, &verr, "header %q: %q", h[0], h[1])
		var unknown *OutcomeUnknownError
		require.False(t, errors.As(err, &unknown), "header %q: %q", h[0], h[1])
	}
	require.Zero(t, hits.Load())
}

// TestReview11HeaderOptionCannotShadowAuthentication: Python servers behind
// WSGI read headers from the environ, where X_API_KEY and X-API-KEY are one
// and the same HTTP_X_API_KEY; a header spelt with underscores must not
// reach the service beside the library's own authentication headers.
func TestReview11HeaderOptionCannotShadowAuthentication(t *testing.T) {
	for _, k := range []string{"X_API_KEY", "x_signature", "X-Timestamp", "X_Timestamp", "content_type", "Content_Length", "x-api_key"} {
		var rc requestConfig
		err := WithHeader(k, "v")(&rc)
		var verr *ValidationError
		require.ErrorAs(t, err, &verr, k)
	}
	var rc requestConfig
	require.NoError(t, WithHeader("X_Request_Id", "v")(&rc))
	require.NoError(t, WithHeader("X-Trace", "v\tw é")(&rc))
}

// TestReview11SendingAmountDigitsBounded: sending_amount is written with
// every digit of its plain form, so an amount of a huge scale or exponent
// (decimal.NewFromString("1e-2000000000") parses) would be written as
// gigabytes of zeros. It is refused before anything is built or sent, like
// any other bad amount, naming the field.
func TestReview11SendingAmountDigitsBounded(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	c, err := New("key", "secret", WithBaseURL(srv.URL))
	require.NoError(t, err)
	req := types.CreatePayinQuotationRequest{Asset: "USDT", Fiat: "INR", CustomerID: bodyCustomer, BankID: bodyBank,
		PaymentMethod: types.PaymentMethodIMPS}
	for _, d := range []decimal.Decimal{
		decimal.New(1, -types.MaxDecimalDigits), decimal.New(1, types.MaxDecimalDigits), decimal.New(1, -1<<30), decimal.New(7, 1<<30),
	} {
		req.SendingAmount = d
		_, err := c.Payins.CreateQuotation(context.Background(), req)
		var verr *ValidationError
		require.ErrorAs(t, err, &verr)
		require.Equal(t, "sending_amount", verr.Field)
	}
	require.Zero(t, hits.Load())
	// The longest accepted amount is still written with every digit.
	long := decimal.RequireFromString("0." + strings.Repeat("0", types.MaxDecimalDigits-2) + "1")
	require.Contains(t, string(createPayinQuotationBody(types.CreatePayinQuotationRequest{SendingAmount: long})), long.StringFixed(-long.Exponent()))
}

// TestReview11ResultsOwnTheirBytes: calls in parallel get answers of
// different sizes (up to 64 KiB); each
// result, its Raw and the captured body must still hold its own answer
// after every other call has finished, so no response buffer may be shared
// between calls or reused after one returns.
func TestReview11ResultsOwnTheirBytes(t *testing.T) {
	answer := func(id uuid.UUID) string {
		note := strings.Repeat(id.String()[:4], int(id[0])<<6)
		return `{"status":true,"data":{"id":"` + id.String() + `","note":"` + note + `","status":"PROCESSING","sending_amount":"1.` +
			strings.Repeat("0", int(id[1])) + `5","created_at":"2025-03-08T07:31:24Z"}}`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := uuid.Parse(r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:])
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		_, _ = io.WriteString(w, answer(id))
	}))
	defer srv.Close()
	c, err := New("key", "secret", WithBaseURL(srv.URL))
	require.NoError(t, err)
	type result struct {
		id   uuid.UUID
		p    *types.Payout
		resp Response
	}
	const workers, calls = 8, 24
	results := make([][]result, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				id := uuid.New()
				var r result
				r.id = id
				var err error
				r.p, err = c.Payouts.Get(context.Background(), id, CaptureResponse(&r.resp))
				if err != nil {
					panic(err)
				}
				results[w] = append(results[w], r)
			}
		}()
	}
	wg.Wait()
	for _, rs := range results {
		for _, r := range rs {
			want := answer(r.id)
			require.Equal(t, r.id, r.p.ID)
			require.Equal(t, want, string(r.resp.Body))
			require.JSONEq(t, want[strings.Index(want, `"data":`)+7:len(want)-1], string(r.p.Raw))
			require.Equal(t, "1."+strings.Repeat("0", int(r.id[1]))+"5", r.p.SendingAmount.String())
		}
	}
}

// TestReview11HeaderOptionCannotChangeTheBodyEncoding: the library owns
// the bytes of the body, sent and received. An Accept-Encoding of the
// caller's turns off net/http's transparent decompression, so a service
// that compresses its answers had every payout created and every answer
// refused as malformed: each create ended in an *OutcomeUnknownError. A
// Content-Encoding would make the service decode the signed JSON as
// something else. Both are refused before sending.
func TestReview11HeaderOptionCannotChangeTheBodyEncoding(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body := `{"status":true,"data":{"id":"` + bodyOther.String() + `","status":"PROCESSING"}}`
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			_, _ = io.WriteString(zw, body)
			_ = zw.Close()
			return
		}
		_, _ = io.WriteString(w, body)
	}))
	defer srv.Close()
	c, err := New("key", "secret", WithBaseURL(srv.URL), WithRetry(RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)
	req := types.CreatePayoutRequest{QuotationID: bodyQuotation, CustomerID: bodyCustomer, ClientReferenceID: "ref-1"}
	p, err := c.Payouts.Create(context.Background(), req)
	require.NoError(t, err, "net/http's own gzip handling is transparent")
	require.Equal(t, bodyOther, p.ID)
	for _, h := range [][2]string{{"Accept-Encoding", "gzip"}, {"accept-encoding", "br"}, {"Content-Encoding", "gzip"}, {"Content_Encoding", "gzip"}} {
		_, err := c.Payouts.Create(context.Background(), req, WithHeader(h[0], h[1]))
		var verr *ValidationError
		require.ErrorAs(t, err, &verr, h[0])
	}
	require.Equal(t, int32(1), hits.Load())
}

// TestReview11ClientRefusesUnsendableHeaders: an API key or user agent
// with a control character would make net/http refuse every request after
// the library counted it as an attempt (so a create ended in an
// *OutcomeUnknownError); New refuses it instead.
func TestReview11ClientRefusesUnsendableHeaders(t *testing.T) {
	_, err := New("key\x00", "secret", WithBaseURL("http://127.0.0.1:1"))
	require.ErrorContains(t, err, "control character")
	_, err = New("key\x7f", "secret", WithBaseURL("http://127.0.0.1:1"))
	require.ErrorContains(t, err, "control character")
	_, err = New("key", "secret", WithBaseURL("http://127.0.0.1:1"), WithUserAgent("acme\x1b[31m"))
	require.ErrorContains(t, err, "control character")
	_, err = New("key\twith tab é", "secret", WithBaseURL("http://127.0.0.1:1"), WithUserAgent("acme/1 (é)"))
	require.NoError(t, err, "net/http sends a tab and non-ASCII bytes")
}

// TestReview11HeaderOptionKeepsTheAnswerJSON: a Python REST framework
// renders the answer by the Accept header, after the view ran (a browsable
// HTML page for text/html): a create whose answer is not JSON ends in an
// *OutcomeUnknownError though it succeeded. Accept may carry parameters of
// application/json (a version), nothing else.
func TestReview11HeaderOptionKeepsTheAnswerJSON(t *testing.T) {
	for _, v := range []string{"text/html", "*/*", "application/json, text/html", "application/xml", "", "application/jsonx"} {
		for _, k := range []string{"Accept", "accept", "ACCEPT"} {
			var rc requestConfig
			var verr *ValidationError
			require.ErrorAs(t, WithHeader(k, v)(&rc), &verr, "%s: %s", k, v)
		}
	}
	for _, v := range []string{"application/json", "application/json; version=2", "Application/JSON;q=1.0", "application/json, application/json; version=1.0"} {
		var rc requestConfig
		require.NoError(t, WithHeader("Accept", v)(&rc), v)
		require.Equal(t, []string{v}, rc.header["Accept"])
	}
}

// TestReview11HeaderOptionCannotMakeNetHTTPReplay: net/http's Transport
// takes a request carrying Idempotency-Key or X-Idempotency-Key as safe to
// replay, and sends it again by itself when a reused connection breaks
// after the request was written, beneath the library's count of attempts
// and its rule that a create is not repeated once it may have acted. The
// service does not document the header, so the replay may run the create
// twice. Both names are refused.
func TestReview11HeaderOptionCannotMakeNetHTTPReplay(t *testing.T) {
	var creates atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		if r.Method == http.MethodPost {
			creates.Add(1) // ran, then the connection breaks before the answer
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		_, _ = io.WriteString(w, `{"status":true,"data":{}}`)
	}))
	defer srv.Close()
	for _, k := range []string{"Idempotency-Key", "X-Idempotency-Key", "idempotency_key"} {
		creates.Store(0)
		c, err := New("key", "secret", WithBaseURL(srv.URL), WithHTTPClient(&http.Client{Transport: &http.Transport{}}),
			WithRetry(RetryPolicy{MaxAttempts: 1}))
		require.NoError(t, err)
		require.NoError(t, c.Do(context.Background(), http.MethodGet, "/warm", nil, nil), "a connection to reuse")
		err = c.Do(context.Background(), http.MethodPost, "/pos/api/v1/payout/initiate", []byte(`{"a":1}`), nil, WithHeader(k, "k-1"))
		var verr *ValidationError
		require.ErrorAs(t, err, &verr, "%s: the service ran the create %d times", k, creates.Load())
		require.Zero(t, creates.Load())
	}
}
