package fiatramp_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jarcoal/httpmock"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

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
		_, _ = h.client.Payouts.GetBalance(ctx)
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

// TestDoLongDigitsRefused: a caller's result type through Do may hold a
// decimal.Decimal, whose conversion is quadratic in the digits; a response
// with a run of more than types.MaxDecimalDigits digits is malformed,
// refused before decoding, and the call ends well before its deadline.
func TestDoLongDigitsRefused(t *testing.T) {
	for _, lit := range []string{strings.Repeat("9", 1_500_000), `"` + strings.Repeat("9", 1_500_000) + `"`, `"1.` + strings.Repeat("0", 1001) + `"`} {
		h := newHarness(t)
		h.expect(http.MethodGet, "/pos/api/v1/payout/balance", "", http.StatusOK, ok(`{"balance":`+lit+`}`))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		var out struct {
			Balance decimal.Decimal `json:"balance"`
		}
		err := h.client.Do(ctx, http.MethodGet, "/pos/api/v1/payout/balance", nil, &out)
		require.NoError(t, ctx.Err(), "the call returned before its deadline")
		cancel()
		require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		require.ErrorContains(t, err, "digits, more than 1000")
		require.True(t, out.Balance.IsZero())
	}
	// At the limit the value decodes.
	h := newHarness(t)
	h.expect(http.MethodGet, "/pos/api/v1/payout/balance", "", http.StatusOK, ok(`{"balance":"`+strings.Repeat("1", 1000)+`.`+strings.Repeat("2", 1000)+`"}`))
	var out struct {
		Balance decimal.Decimal `json:"balance"`
	}
	require.NoError(t, h.client.Do(context.Background(), http.MethodGet, "/pos/api/v1/payout/balance", nil, &out))
	assert.Equal(t, strings.Repeat("1", 1000)+"."+strings.Repeat("2", 1000), out.Balance.String())
}

// Do decodes into a request type of package types with encoding/json, which
// converts a decimal.Decimal in time quadratic in its digits: a type of the
// package that has no decoder of its own is no exception to the digit cap.
func TestDoDigitCapCoversTypesWithoutOwnDecoder(t *testing.T) {
	h := newHarness(t)
	const path = "/pis/api/v1/payin/quotation/echo"
	long := strings.Repeat("7", 20_000)
	calls := h.expect(http.MethodGet, path, "", 200, ok(`{"asset":"usdt","sending_amount":"`+long+`"}`))
	var out types.CreatePayinQuotationRequest
	err := h.client.Do(context.Background(), http.MethodGet, path, nil, &out)
	assert.EqualValues(t, 1, calls.Load())
	require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
	assert.Contains(t, err.Error(), "digits")
}

// math/big reads a decimal string with digit separators ("1_2_3"), in time
// quadratic in its digits: a big.Float of the caller's type given to Do
// takes a JSON string of 1.5 million such digits for seconds. Separated
// digits count as one run for the digit cap.
func TestDoDigitCapCountsSeparatedDigits(t *testing.T) {
	h := newHarness(t)
	const path = "/pos/api/v1/custom/echo"
	long := "1" + strings.Repeat("_1", 5_000)
	var probe big.Float
	_, _, err := probe.Parse(long, 0)
	require.NoError(t, err, "math/big takes the separated digits")
	calls := h.expect(http.MethodGet, path, "", 200, ok(`{"F":"`+long+`"}`))
	var out struct{ F *big.Float }
	err = h.client.Do(context.Background(), http.MethodGet, path, nil, &out)
	assert.EqualValues(t, 1, calls.Load())
	require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
	assert.Nil(t, out.F, "nothing decoded")
}

// ---- request options: WithHeader ----

// TestHeaderOptionRefusesWhatNetHTTPRefuses: a header that net/http
// will not send (a name that is not an HTTP token, a value with a control
// character) must be refused by fiatramp.WithHeader as bad input, sending nothing.
// Let through, net/http refuses the request after the library has counted
// an attempt, and a payout create ends in an *fiatramp.OutcomeUnknownError for a
// request that never left the machine (after being retried as if it may
// have reached the service).
func TestHeaderOptionRefusesWhatNetHTTPRefuses(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusBadRequest)
	}))
	defer srv.Close()
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3}),
		fiatramp.WithSleep(func(context.Context, time.Duration) error { return nil }))
	require.NoError(t, err)
	for _, h := range [][2]string{
		{"X Request Id", "1"}, {"X-Request-Id ", "1"}, {"X-Request-Id:", "1"}, {"X-Ré", "1"}, {"(x)", "1"},
		{"X-Request-Id", "a\x00b"}, {"X-Request-Id", "a\x7fb"}, {"X-Request-Id", "a\x1bb"},
	} {
		_, err := c.Payouts.Create(context.Background(), types.CreatePayoutRequest{
			QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: "ref-1"}, fiatramp.WithHeader(h[0], h[1]))
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr, "header %q: %q", h[0], h[1])
		var unknown *fiatramp.OutcomeUnknownError
		require.False(t, errors.As(err, &unknown), "header %q: %q", h[0], h[1])
	}
	require.Zero(t, hits.Load())
}

// TestHeaderOptionCannotShadowAuthentication: Python servers behind
// WSGI read headers from the environ, where X_API_KEY and X-API-KEY are one
// and the same HTTP_X_API_KEY; a header spelt with underscores must not
// reach the service beside the library's own authentication headers.
func TestHeaderOptionCannotShadowAuthentication(t *testing.T) {
	for _, k := range []string{"X_API_KEY", "x_signature", "X-Timestamp", "X_Timestamp", "content_type", "Content_Length", "x-api_key"} {
		sent, err := callWithHeader(t, k, "v")
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr, k)
		require.Nil(t, sent, "%s: nothing sent", k)
	}
	for k, v := range map[string]string{"X_Request_Id": "v", "X-Trace": "v\tw é"} {
		sent, err := callWithHeader(t, k, v)
		require.NoError(t, err, k)
		require.Equal(t, []string{v}, sent[http.CanonicalHeaderKey(k)], k)
	}
}

// callWithHeader makes one GET through the harness with WithHeader(k, v)
// and returns its error and the headers that reached the service (nil when
// nothing was sent).
func callWithHeader(t *testing.T, k, v string) (http.Header, error) {
	t.Helper()
	h := newHarness(t)
	var sent http.Header
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/balance", func(req *http.Request) (*http.Response, error) {
		sent = req.Header.Clone()
		return httpmock.NewStringResponse(200, ok(`{}`)), nil
	})
	err := h.client.Do(context.Background(), http.MethodGet, "/pos/api/v1/payout/balance", nil, nil, fiatramp.WithHeader(k, v))
	return sent, err
}

// TestHeaderOptionCannotChangeTheBodyEncoding: the library owns
// the bytes of the body, sent and received. An Accept-Encoding of the
// caller's turns off net/http's transparent decompression, so a service
// that compresses its answers had every payout created and every answer
// refused as malformed: each create ended in an *fiatramp.OutcomeUnknownError. A
// Content-Encoding would make the service decode the signed JSON as
// something else. Both are refused before sending.
func TestHeaderOptionCannotChangeTheBodyEncoding(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body := `{"status":true,"data":{"id":"` + payoutID.String() + `","status":"PROCESSING"}}`
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
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)
	req := types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: "ref-1"}
	p, err := c.Payouts.Create(context.Background(), req)
	require.NoError(t, err, "net/http's own gzip handling is transparent")
	require.Equal(t, payoutID, p.ID)
	for _, h := range [][2]string{{"Accept-Encoding", "gzip"}, {"accept-encoding", "br"}, {"Content-Encoding", "gzip"}, {"Content_Encoding", "gzip"}} {
		_, err := c.Payouts.Create(context.Background(), req, fiatramp.WithHeader(h[0], h[1]))
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr, h[0])
	}
	require.Equal(t, int32(1), hits.Load())
}

// TestHeaderOptionKeepsTheAnswerJSON: a Python REST framework
// renders the answer by the Accept header, after the view ran (a browsable
// HTML page for text/html): a create whose answer is not JSON ends in an
// *fiatramp.OutcomeUnknownError though it succeeded. Accept may carry parameters of
// application/json (a version), nothing else.
func TestHeaderOptionKeepsTheAnswerJSON(t *testing.T) {
	for _, v := range []string{"text/html", "*/*", "application/json, text/html", "application/xml", "", "application/jsonx"} {
		for _, k := range []string{"Accept", "accept", "ACCEPT"} {
			sent, err := callWithHeader(t, k, v)
			var verr *fiatramp.ValidationError
			require.ErrorAs(t, err, &verr, "%s: %s", k, v)
			require.Nil(t, sent, "%s: %s: nothing sent", k, v)
		}
	}
	for _, v := range []string{"application/json", "application/json; version=2", "Application/JSON;q=1.0", "application/json, application/json; version=1.0"} {
		sent, err := callWithHeader(t, "Accept", v)
		require.NoError(t, err, v)
		require.Equal(t, []string{v}, sent["Accept"])
	}
}

// TestHeaderOptionCannotMakeNetHTTPReplay: net/http's Transport
// takes a request carrying Idempotency-Key or X-Idempotency-Key as safe to
// replay, and sends it again by itself when a reused connection breaks
// after the request was written, beneath the library's count of attempts
// and its rule that a create is not repeated once it may have acted. The
// service does not document the header, so the replay may run the create
// twice. Both names are refused.
func TestHeaderOptionCannotMakeNetHTTPReplay(t *testing.T) {
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
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL), fiatramp.WithHTTPClient(&http.Client{Transport: &http.Transport{}}),
			fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		require.NoError(t, err)
		require.NoError(t, c.Do(context.Background(), http.MethodGet, "/warm", nil, nil), "a connection to reuse")
		err = c.Do(context.Background(), http.MethodPost, "/pos/api/v1/payout/initiate", []byte(`{"a":1}`), nil, fiatramp.WithHeader(k, "k-1"))
		var verr *fiatramp.ValidationError
		require.ErrorAs(t, err, &verr, "%s: the service ran the create %d times", k, creates.Load())
		require.Zero(t, creates.Load())
	}
}

// ---- timestamps and clock correction ----

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

// skewSandbox is a sandbox whose clock stands still on a whole second (so
// that the skew a refusal reports is exact), seeded with the demo.
func skewSandbox(t *testing.T) (*sandbox.Sandbox, sandbox.Demo) {
	t.Helper()
	sb := sandbox.New()
	sb.SetTime(time.Now().UTC().Truncate(time.Second))
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	return sb, demo
}

// skewServer serves sb on loopback; wrap, when not nil, stands between the
// network and the sandbox.
func skewServer(t *testing.T, sb *sandbox.Sandbox, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	var h http.Handler = sb
	if wrap != nil {
		h = wrap(sb)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// skewedClient signs as the demo organization with a clock off from the
// sandbox's by skew.
func skewedClient(t *testing.T, sb *sandbox.Sandbox, demo sandbox.Demo, base string, skew time.Duration, opts ...fiatramp.Option) *fiatramp.Client {
	t.Helper()
	all := append([]fiatramp.Option{
		fiatramp.WithBaseURL(base),
		fiatramp.WithClock(func() time.Time { return sb.Now().Add(skew) }),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond}),
	}, opts...)
	c, err := fiatramp.New(demo.Organization.APIKey, demo.Organization.APISecret, all...)
	require.NoError(t, err)
	return c
}

// requests counts what the sandbox received from here on.
func requests(sb *sandbox.Sandbox) func() int {
	start := sb.Stats().Requests
	return func() int { return sb.Stats().Requests - start }
}

func TestClockSkewWithoutCorrection(t *testing.T) {
	for name, tc := range map[string]struct {
		skew       time.Duration
		side, amnt string
	}{
		"10 minutes ahead":  {10 * time.Minute, "ahead of", "10m0s"},
		"10 minutes behind": {-10 * time.Minute, "behind", "10m0s"},
		"301 s ahead":       {301 * time.Second, "ahead of", "5m1s"},
	} {
		t.Run(name, func(t *testing.T) {
			sb, demo := skewSandbox(t)
			c := skewedClient(t, sb, demo, skewServer(t, sb, nil), tc.skew)
			n := requests(sb)
			cfg, err := c.KYC.GetConfiguration(context.Background(), demo.Customer.ID)
			assert.Nil(t, cfg)
			require.ErrorIs(t, err, fiatramp.ErrClockSkew)
			require.ErrorIs(t, err, fiatramp.ErrUnauthorized)
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusUnauthorized, apiErr.StatusCode)
			assert.Equal(t, sandbox.CodeUnauthorized, apiErr.Code)

			msg := err.Error()
			assert.Contains(t, msg, "clock skew")
			assert.Contains(t, msg, tc.amnt+" "+tc.side+" the service's Date", "says by how much and which way")
			assert.Contains(t, msg, "WithClockCorrection", "names the remedy")
			assert.NotContains(t, strings.ToLower(msg), "signature", "not presented as a bad signature")
			assert.Equal(t, 1, n(), "a refused timestamp is not retried without correction")
		})
	}
	t.Run("299 s off is inside the window", func(t *testing.T) {
		sb, demo := skewSandbox(t)
		c := skewedClient(t, sb, demo, skewServer(t, sb, nil), 299*time.Second)
		_, err := c.KYC.GetConfiguration(context.Background(), demo.Customer.ID)
		require.NoError(t, err)
	})
}

func TestClockCorrection(t *testing.T) {
	for name, skew := range map[string]time.Duration{
		"10 minutes ahead":  10 * time.Minute,
		"10 minutes behind": -10 * time.Minute,
		"a day ahead":       24 * time.Hour,
	} {
		t.Run(name, func(t *testing.T) {
			sb, demo := skewSandbox(t)
			c := skewedClient(t, sb, demo, skewServer(t, sb, nil), skew, fiatramp.WithClockCorrection())
			ctx := context.Background()

			n := requests(sb)
			cfg, err := c.KYC.GetConfiguration(ctx, demo.Customer.ID)
			require.NoError(t, err, "the first call succeeds")
			require.NotNil(t, cfg)
			assert.Equal(t, 2, n(), "refused once, learned the offset from Date, re-sent once")

			later := []func() error{
				func() error { _, err := c.KYC.GetConfiguration(ctx, demo.Customer.ID); return err },
				func() error { _, err := c.Customers.ListBankAccounts(ctx, demo.Customer.ID); return err },
				func() error { return c.Do(ctx, http.MethodGet, "/pos/api/v1/payout/balance", nil, nil) },
			}
			for i, call := range later {
				n = requests(sb)
				require.NoError(t, call(), "call %d", i)
				assert.Equal(t, 1, n(), "call %d uses the learned offset: one request", i)
			}
		})
	}

	t.Run("with retries off the re-send still happens", func(t *testing.T) {
		// send re-sends a timestamp refusal outside the retry budget: the
		// refused attempt ran nothing, and the re-send is signed afresh.
		sb, demo := skewSandbox(t)
		c := skewedClient(t, sb, demo, skewServer(t, sb, nil), 10*time.Minute,
			fiatramp.WithClockCorrection(), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		n := requests(sb)
		_, err := c.Customers.ListBankAccounts(context.Background(), demo.Customer.ID)
		require.NoError(t, err)
		assert.Equal(t, 2, n())
	})

	t.Run("a payout create pays once", func(t *testing.T) {
		for _, policy := range []fiatramp.RetryPolicy{{MaxAttempts: 1}, {InitialBackoff: time.Millisecond}} {
			sb, demo := skewSandbox(t)
			c := skewedClient(t, sb, demo, skewServer(t, sb, nil), 10*time.Minute,
				fiatramp.WithClockCorrection(), fiatramp.WithRetry(policy))
			n := requests(sb)
			p, err := c.Payouts.Create(context.Background(), types.CreatePayoutRequest{
				QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID, ClientReferenceID: "skew-1",
			})
			require.NoError(t, err, "%+v", policy)
			assert.Equal(t, 2, n(), "%+v", policy)
			payouts := sb.Payouts(demo.Organization.ID)
			require.Len(t, payouts, 1, "exactly one payout")
			assert.Equal(t, p.ID, payouts[0].ID)
		}
	})

	t.Run("no Date header: no re-send", func(t *testing.T) {
		sb, demo := skewSandbox(t)
		base := skewServer(t, sb, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(noDateWriter{w}, r)
			})
		})
		c := skewedClient(t, sb, demo, base, 10*time.Minute, fiatramp.WithClockCorrection())
		n := requests(sb)
		var resp fiatramp.Response
		_, err := c.KYC.GetConfiguration(context.Background(), demo.Customer.ID, fiatramp.CaptureResponse(&resp))
		require.ErrorIs(t, err, fiatramp.ErrClockSkew)
		require.ErrorIs(t, err, fiatramp.ErrUnauthorized)
		assert.Empty(t, resp.Header.Values("Date"), "the server really sent no Date")
		assert.Equal(t, 1, n(), "nothing to learn from, so no re-send")
		assert.Contains(t, err.Error(), "clock skew")
		assert.NotContains(t, err.Error(), "WithClockCorrection", "already on: not suggested")
	})

	t.Run("a lying Date: one re-send, then the refusal", func(t *testing.T) {
		// The Date says an hour later than the clock the sandbox checks
		// against: the corrected timestamp is refused again, and the client
		// must give up rather than chase it.
		sb, demo := skewSandbox(t)
		base := skewServer(t, sb, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(fixedDateWriter{w, sb.Now().Add(time.Hour)}, r)
			})
		})
		c := skewedClient(t, sb, demo, base, 10*time.Minute, fiatramp.WithClockCorrection())
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		n := requests(sb)
		_, err := c.KYC.GetConfiguration(ctx, demo.Customer.ID)
		require.ErrorIs(t, err, fiatramp.ErrClockSkew)
		assert.False(t, errors.Is(err, context.DeadlineExceeded))
		assert.Equal(t, 2, n(), "exactly one re-send")
	})

	t.Run("no correction without the option", func(t *testing.T) {
		sb, demo := skewSandbox(t)
		c := skewedClient(t, sb, demo, skewServer(t, sb, nil), 10*time.Minute)
		for range 2 {
			_, err := c.KYC.GetConfiguration(context.Background(), demo.Customer.ID)
			require.ErrorIs(t, err, fiatramp.ErrClockSkew, "Date headers are not learned from")
		}
	})
}

// noDateWriter sends the response without a Date header (net/http adds one
// unless the header is present and nil).
type noDateWriter struct{ http.ResponseWriter }

func (w noDateWriter) WriteHeader(code int) {
	w.Header()["Date"] = nil
	w.ResponseWriter.WriteHeader(code)
}

func (w noDateWriter) Write(b []byte) (int, error) {
	w.Header()["Date"] = nil
	return w.ResponseWriter.Write(b)
}

// fixedDateWriter replaces the Date header with at.
type fixedDateWriter struct {
	http.ResponseWriter
	at time.Time
}

func (w fixedDateWriter) WriteHeader(code int) {
	w.Header().Set("Date", w.at.UTC().Format(http.TimeFormat))
	w.ResponseWriter.WriteHeader(code)
}

func (w fixedDateWriter) Write(b []byte) (int, error) {
	w.Header().Set("Date", w.at.UTC().Format(http.TimeFormat))
	return w.ResponseWriter.Write(b)
}

// An answer that matches ErrClockSkew but may come after the service acted
// (a 5xx, or a malformed 2xx, whose err_code names the timestamp) is no
// refusal at the door: WithClockCorrection must not re-send an operation
// that must not run twice. One attempt, and the outcome is unknown.
func TestClockCorrectionNeverRepeatsAnAttemptThatMayHaveActed(t *testing.T) {
	for name, answer := range map[string]struct {
		status int
		body   string
	}{
		"500 with a timestamp err_code":          {500, `{"status":false,"err_code":"SYS_TIMESTAMP_ERROR","message":"boom"}`},
		"502 with a timestamp err_code":          {502, `{"status":false,"err_code":"TIMESTAMP_UPSTREAM"}`},
		"2xx success whose data does not decode": {200, `{"status":true,"err_code":"AUTH_TIMESTAMP_EXPIRED","data":"not an object"}`},
	} {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.Header().Set("Date", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
				w.WriteHeader(answer.status)
				_, _ = w.Write([]byte(answer.body))
			}))
			defer srv.Close()
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL),
				fiatramp.WithClockCorrection(), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3}))
			require.NoError(t, err)
			var out struct{ ID string }
			err = c.Do(context.Background(), http.MethodPost, "/pos/api/v1/payout/initiate", map[string]string{"a": "b"}, &out)
			require.Error(t, err)
			assert.EqualValues(t, 1, calls.Load(), "a POST that may have acted is sent once")
			var unknown *fiatramp.OutcomeUnknownError
			assert.True(t, errors.As(err, &unknown), "outcome unknown, got %v", err)
		})
	}
}

// ---- redirects ----

// hitCounter is an httptest handler that counts the requests it gets and
// answers them all with a successful payout.
type hitCounter struct{ hits atomic.Int32 }

// countingTransport counts the round trips of the caller's own client.
type countingTransport struct {
	n    atomic.Int32
	base http.RoundTripper
}

func (h *hitCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.hits.Add(1)
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, ok(`{"id":"`+payoutID.String()+`","status":"PROCESSING"}`))
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

// TestRedirectsNotFollowed: a signed request meets a 3xx. The answer is an
// *APIError matching ErrRedirect that names the Location, nothing is sent
// to the redirect target (which would receive X-API-KEY, X-SIGNATURE and,
// on 307/308, the body), and the caller's http.Client is left as it was.
func TestRedirectsNotFollowed(t *testing.T) {
	target := new(hitCounter)
	targetSrv := httptest.NewServer(target)
	defer targetSrv.Close()
	location := targetSrv.URL + "/pos/api/v1/payout/" + payoutID.String()

	for _, status := range []int{301, 302, 303, 307, 308} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			t.Run(fmt.Sprintf("%d %s", status, method), func(t *testing.T) {
				var originHits atomic.Int32
				origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					originHits.Add(1)
					w.Header().Set("Location", location)
					w.WriteHeader(status)
					_, _ = io.WriteString(w, "<html>Moved</html>")
				}))
				defer origin.Close()

				transport := &countingTransport{base: origin.Client().Transport}
				callers := &http.Client{Transport: transport}
				c, err := fiatramp.New(testKey, testSecret,
					fiatramp.WithBaseURL(origin.URL),
					fiatramp.WithHTTPClient(callers),
					// Retries on: a redirect must not be retried either.
					fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond}))
				require.NoError(t, err)
				assert.Nil(t, callers.CheckRedirect, "New leaves the caller's client alone")

				ctx := context.Background()
				if method == http.MethodGet {
					p, err2 := c.Payouts.Get(ctx, payoutID)
					assert.Nil(t, p)
					err = err2
				} else {
					p, err2 := c.Payouts.Create(ctx, types.CreatePayoutRequest{
						QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: "redirect-1",
					})
					assert.Nil(t, p)
					err = err2
				}
				if method == http.MethodPost {
					// A 303 is how a server says it processed a POST, and
					// any 3xx may come after the service acted: a create
					// answered by one has an unknown outcome.
					var ou *fiatramp.OutcomeUnknownError
					require.ErrorAs(t, err, &ou)
					assert.NotErrorIs(t, err, fiatramp.ErrRedirect, "an outcome unknown is never a plain redirect")
					assert.Equal(t, "redirect-1", ou.ClientReferenceID)
					assert.Equal(t, 1, ou.Attempts)
					err = ou.Err
				} else {
					assert.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown, "nothing ran for a read")
				}
				require.ErrorIs(t, err, fiatramp.ErrRedirect)
				assert.NotErrorIs(t, err, fiatramp.ErrMalformedResponse)
				var apiErr *fiatramp.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, status, apiErr.StatusCode)
				assert.Contains(t, err.Error(), location, "Error names the Location")
				assert.Contains(t, err.Error(), "not followed")
				assert.Contains(t, err.Error(), "follow no redirects")

				assert.Zero(t, target.hits.Load(), "the redirect target receives nothing")
				assert.Equal(t, int32(1), originHits.Load(), "one request, no retry")
				assert.Equal(t, int32(1), transport.n.Load(), "sent through the caller's transport")
				assert.Nil(t, callers.CheckRedirect, "still untouched after the call")
			})
		}
	}

	t.Run("a caller's CheckRedirect that follows is not used", func(t *testing.T) {
		origin := httptest.NewServer(http.RedirectHandler(location, http.StatusTemporaryRedirect))
		defer origin.Close()
		var consulted atomic.Int32
		callers := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
			consulted.Add(1)
			return nil // follow
		}}
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(origin.URL), fiatramp.WithHTTPClient(callers),
			fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		require.NoError(t, err)
		err = c.Do(context.Background(), http.MethodPost, "/cms/api/v1/wallet/add", map[string]string{"wallet_address": "0xabc"}, nil)
		var ou *fiatramp.OutcomeUnknownError
		require.ErrorAs(t, err, &ou, "a POST answered by a 3xx may have acted")
		require.ErrorIs(t, ou.Err, fiatramp.ErrRedirect)
		assert.Zero(t, target.hits.Load())
		assert.Zero(t, consulted.Load(), "the library's own policy decides")
		require.NotNil(t, callers.CheckRedirect)
		assert.NoError(t, callers.CheckRedirect(nil, nil), "the caller's function is still the caller's")
	})
}

// ---- the response body cap ----

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
			_, err = c.Payouts.GetBalance(context.Background(), fiatramp.CaptureResponse(&resp))
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

// TestDeclaredLengthAllocatesNothingUnsent: the read buffer may be
// sized by Content-Length, but only up to what a response can be expected
// to hold. With the cap raised (WithMaxResponseBytes(math.MaxInt64) is
// allowed), a server or proxy that declares 2^62 bytes made the client
// panic (makeslice: cap out of range), and one that declares 256 MiB made
// it allocate 256 MiB for a 60-byte answer.
func TestDeclaredLengthAllocatesNothingUnsent(t *testing.T) {
	body := `{"status":true,"data":{"available_balance":{"USDT":"1.5"}}}`
	for _, declared := range []int64{1 << 62, math.MaxInt64 - 1, 256 << 20} {
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase),
			fiatramp.WithHTTPClient(&http.Client{Transport: lyingTransport{body, declared}}),
			fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}), fiatramp.WithMaxResponseBytes(math.MaxInt64))
		require.NoError(t, err)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var callErr error
		func() {
			defer func() {
				if p := recover(); p != nil {
					callErr = fmt.Errorf("panic: %v", p)
				}
			}()
			_, callErr = c.Payouts.GetBalance(context.Background())
		}()
		runtime.ReadMemStats(&after)
		require.NoError(t, callErr, "declared %d", declared)
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "declared %d", declared)
	}
}

// endlessBody is a response body that does not end before the client has
// read far more than any cap under test; it counts what was read and
// whether it was closed. (It does end at readTooFar, so that a client that
// ignores its cap fails the test instead of eating the machine's memory.)
type endlessBody struct {
	prefix string
	read   atomic.Int64
	closed atomic.Bool
}

const readTooFar = 4 * fiatramp.DefaultMaxResponseBytes

var errReadTooFar = errors.New("test: the client read far past its cap")

func (b *endlessBody) Read(p []byte) (int, error) {
	off := b.read.Load()
	if off >= readTooFar {
		return 0, errReadTooFar
	}
	for i := range p {
		if j := off + int64(i); j < int64(len(b.prefix)) {
			p[i] = b.prefix[j]
		} else {
			p[i] = 'a'
		}
	}
	b.read.Add(int64(len(p)))
	return len(p), nil
}

func (b *endlessBody) Close() error {
	b.closed.Store(true)
	return nil
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestMaxResponseBytes(t *testing.T) {
	body := ok(`{"id":"` + payoutID.String() + `","status":"PROCESSING"}`)
	n := int64(len(body))
	ctx := context.Background()

	t.Run("exactly the limit is decoded", func(t *testing.T) {
		c := hostileClient(t, hostileServer(t, 200, "application/json", []byte(body)), fiatramp.WithMaxResponseBytes(n))
		p, err := c.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
		assert.Equal(t, payoutID, p.ID)
	})
	t.Run("one byte over is refused", func(t *testing.T) {
		c := hostileClient(t, hostileServer(t, 200, "application/json", []byte(body)), fiatramp.WithMaxResponseBytes(n-1))
		p, err := c.Payouts.Get(ctx, payoutID)
		assert.Nil(t, p)
		require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, 200, apiErr.StatusCode)
		assert.Contains(t, err.Error(), "exceeds "+strconv.FormatInt(n-1, 10)+" bytes", "names the limit")
	})
	t.Run("an error status over the limit is refused too", func(t *testing.T) {
		big := fail("Quotation has expired", "X", `"`+strings.Repeat("x", 100)+`"`)
		c := hostileClient(t, hostileServer(t, 400, "application/json", []byte(big)), fiatramp.WithMaxResponseBytes(int64(len(big)-1)))
		_, err := c.Payouts.Get(ctx, payoutID)
		require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		assert.Contains(t, err.Error(), "exceeds")
	})
	t.Run("zero and negative limits are refused", func(t *testing.T) {
		for _, bad := range []int64{0, -1, math.MinInt64} {
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase), fiatramp.WithMaxResponseBytes(bad))
			assert.Nil(t, c)
			assert.ErrorContains(t, err, "WithMaxResponseBytes", "%d", bad)
		}
	})
	t.Run("reads exactly limit+1 bytes of an endless body", func(t *testing.T) {
		for _, limit := range []int64{1, 1000, fiatramp.DefaultMaxResponseBytes} {
			stream := &endlessBody{prefix: `{"status":true,"message":"Success","data":{"id":"`}
			opts := []fiatramp.Option{fiatramp.WithHTTPClient(&http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Header: http.Header{}, Body: stream, ContentLength: -1, Request: r}, nil
			})})}
			if limit != fiatramp.DefaultMaxResponseBytes {
				opts = append(opts, fiatramp.WithMaxResponseBytes(limit))
			}
			c := hostileClient(t, testBase, opts...)
			_, err := c.Payouts.Get(ctx, payoutID)
			require.ErrorIs(t, err, fiatramp.ErrMalformedResponse, "limit %d", limit)
			assert.Contains(t, err.Error(), "exceeds "+strconv.FormatInt(limit, 10)+" bytes")
			assert.Equal(t, limit+1, stream.read.Load(), "limit %d: read limit+1 bytes, no more", limit)
			assert.True(t, stream.closed.Load(), "the body is closed")
		}
	})
	t.Run("an endless body over the network ends with the default cap", func(t *testing.T) {
		chunk := bytes.Repeat([]byte("a"), 32<<10)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"status":true,"data":{"id":"`)
			// Streams until the client hangs up; at readTooFar it breaks
			// the connection instead, so that a client without a cap gets
			// a transport error (and the test fails) rather than filling
			// memory.
			for wrote := 0; r.Context().Err() == nil; wrote += len(chunk) {
				if wrote >= readTooFar {
					panic(http.ErrAbortHandler)
				}
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}))
		defer srv.Close()
		c := hostileClient(t, srv.URL)
		// The deadline only keeps a regression from hanging the suite; the
		// call must end on the cap, long before it.
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		p, err := c.Payouts.Get(ctx, payoutID)
		assert.Nil(t, p)
		require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		assert.NotErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), "exceeds "+strconv.Itoa(fiatramp.DefaultMaxResponseBytes)+" bytes")
		var apiErr *fiatramp.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.LessOrEqual(t, len(apiErr.RawBody), 64<<10, "the kept body is capped")
	})
	t.Run("the largest limit does not overflow", func(t *testing.T) {
		c := hostileClient(t, hostileServer(t, 200, "application/json", []byte(body)), fiatramp.WithMaxResponseBytes(math.MaxInt64))
		p, err := c.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
		assert.Equal(t, payoutID, p.ID)
	})
}

// ---- answers from a broken or hostile service ----

// hostileCall is one operation run against a broken service: it reports
// whether a result came back, and the error.
type hostileCall struct {
	name string
	run  func(ctx context.Context, c *fiatramp.Client) (gotResult bool, err error)
}

var hostileCalls = []hostileCall{
	{"Payouts.Get", func(ctx context.Context, c *fiatramp.Client) (bool, error) {
		p, err := c.Payouts.Get(ctx, payoutID)
		return p != nil, err
	}},
	{"Customers.ListBankAccounts", func(ctx context.Context, c *fiatramp.Client) (bool, error) {
		p, err := c.Customers.ListBankAccounts(ctx, customerID)
		return p != nil, err
	}},
	{"Payouts.Create", func(ctx context.Context, c *fiatramp.Client) (bool, error) {
		p, err := c.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: "hostile-1"})
		return p != nil, err
	}},
	{"KYC.GetConfiguration", func(ctx context.Context, c *fiatramp.Client) (bool, error) {
		k, err := c.KYC.GetConfiguration(ctx, customerID)
		return k != nil, err
	}},
}

// checkErrorText fails when an error text could break a log line or a
// terminal: control characters or invalid UTF-8.
func checkErrorText(t *testing.T, msg string) {
	t.Helper()
	assert.True(t, utf8.ValidString(msg), "Error() is valid UTF-8: %q", msg)
	for _, r := range msg {
		if unicode.IsControl(r) {
			t.Errorf("control character %q in Error() %q", r, msg)
			return
		}
	}
}

// hostileServer answers every request with status, contentType and body.
func hostileServer(t *testing.T, status int, contentType string, body []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func hostileClient(t *testing.T, base string, opts ...fiatramp.Option) *fiatramp.Client {
	t.Helper()
	c, err := fiatramp.New(testKey, testSecret, append([]fiatramp.Option{
		fiatramp.WithBaseURL(base),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}),
	}, opts...)...)
	require.NoError(t, err)
	return c
}

// responseError returns the *APIError of a call that got a response, and
// the error to test sentinels on: err itself, or for a payout create whose
// outcome is unknown (an *OutcomeUnknownError, which deliberately does not
// unwrap) the last attempt's error it keeps in Err.
func responseError(err error) (*fiatramp.APIError, error) {
	var ou *fiatramp.OutcomeUnknownError
	if errors.As(err, &ou) {
		err = ou.Err
	}
	var apiErr *fiatramp.APIError
	if errors.As(err, &apiErr) {
		return apiErr, err
	}
	return nil, err
}

const htmlProxyPage = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"

// TestHostileResponses sends broken answers through the whole client (real
// HTTP over loopback): every call returns an *APIError, never panics, never
// a nil error without a result; a broken 2xx matches ErrMalformedResponse.
func TestHostileResponses(t *testing.T) {
	pid := `"` + payoutID.String() + `"`
	for name, tc := range map[string]struct {
		status int
		ctype  string
		body   string
		also   error // a further sentinel every call must match
	}{
		"HTML proxy page 502":   {502, "text/html", htmlProxyPage, fiatramp.ErrUnavailable},
		"HTML proxy page 200":   {200, "text/html", htmlProxyPage, nil},
		"plain text 200":        {200, "text/plain", "OK", nil},
		"truncated JSON 200":    {200, "application/json", `{"status":true,"message":"Success","data":{"id":` + pid[:10], nil},
		"truncated JSON 500":    {500, "application/json", `{"success":false,"message":"Internal Server Er`, fiatramp.ErrInternal},
		"data is an array":      {200, "application/json", ok(`[{"id":` + pid + `}]`), nil},
		"data is a string":      {200, "application/json", ok(`"ok"`), nil},
		"data is a number":      {200, "application/json", ok(`42`), nil},
		"data is null":          {200, "application/json", ok(`null`), nil},
		"data missing":          {200, "application/json", `{"status":true,"message":"Success"}`, nil},
		"amount is an object":   {200, "application/json", ok(`{"id":` + pid + `,"sending_amount":{"value":"10"},"count":{"value":1},"results":[],"supported_document_types":{"a":1}}`), nil},
		"id is a number":        {200, "application/json", ok(`{"id":12345,"count":"1","results":[{"id":12345}],"supported_document_types":[1,2]}`), nil},
		"status is string true": {200, "application/json", `{"status":"true","message":"Success","data":{"id":` + pid + `,"count":0,"results":[]}}`, nil},
		"status is 1":           {200, "application/json", `{"status":1,"data":{"id":` + pid + `}}`, nil},
		"empty body 200":        {200, "application/json", "", nil},
		"empty body 500":        {500, "", "", fiatramp.ErrInternal},
		"empty body 204":        {204, "", "", nil},
		"JSON null 200":         {200, "application/json", "null", nil},
		"JSON array 200":        {200, "application/json", "[]", nil},
		"JSON string 200":       {200, "application/json", `"status"`, nil},
		"huge number":           {200, "application/json", ok(`{"id":` + pid + `,"sending_amount":1e999999999,"count":1e999999999,"results":[],"supported_document_types":1e999999999}`), nil},
		"many digits":           {200, "application/json", ok(`{"id":` + pid + `,"rate":"1` + strings.Repeat("0", 20000) + `e-99999","count":1` + strings.Repeat("0", 400) + `,"supported_document_types":1` + strings.Repeat("0", 400) + `}`), nil},
		"deep nesting":          {200, "application/json", ok(strings.Repeat(`[`, 20000) + strings.Repeat(`]`, 20000)), nil},
		"invalid UTF-8 200":     {200, "application/json", "\xff\xfe\xfd{\"status\":true}", nil},
		"invalid UTF-8 400":     {400, "text/plain", "bad \xff\xfe request\x00\x1b[31m", nil},
		"control characters in a 400 envelope": {400, "application/json",
			`{"status":false,"message":"line1\nline2\r\u001b[2Jgone\u0000\u007f` + "\x7f\u009b" + `","err_code":"X\u0001Y","errors":{"f\u0007":["m\u2028x"]},"data":null}`, nil},
		"invalid UTF-8 in a 400 envelope": {400, "application/json",
			"{\"status\":false,\"message\":\"bad \xff\xfe\",\"err_code\":\"E\xc3\",\"errors\":\"\xed\xa0\x80\",\"data\":null}", nil},
		"status false in 200": {200, "application/json", fail("Quotation has expired", "X", `{}`), fiatramp.ErrQuotationExpired},
		"NUL bytes":           {200, "application/json", "\x00\x00\x00\x00", nil},
		"BOM then JSON":       {200, "application/json", "\xef\xbb\xbf" + ok(`{"id":`+pid+`}`), nil},
		"two JSON values":     {200, "application/json", ok(`{"id":`+pid+`}`) + ok(`{"id":`+pid+`}`), nil},
	} {
		t.Run(name, func(t *testing.T) {
			base := hostileServer(t, tc.status, tc.ctype, []byte(tc.body))
			c := hostileClient(t, base)
			for _, call := range hostileCalls {
				var (
					got bool
					err error
				)
				require.NotPanics(t, func() { got, err = call.run(context.Background(), c) }, call.name)
				require.Error(t, err, "%s: a broken answer is never a success", call.name)
				assert.False(t, got, "%s: never a result with an error", call.name)
				apiErr, inner := responseError(err)
				require.NotNil(t, apiErr, "%s: *APIError in %T %v", call.name, err, err)
				assert.Equal(t, tc.status, apiErr.StatusCode, call.name)
				if tc.status >= 200 && tc.status <= 299 && tc.also == nil {
					assert.ErrorIs(t, inner, fiatramp.ErrMalformedResponse, call.name)
				}
				if tc.status >= 400 && tc.body == "" {
					assert.NotErrorIs(t, inner, fiatramp.ErrMalformedResponse, "%s: an error status with no body is not malformed", call.name)
				}
				if tc.also != nil {
					assert.ErrorIs(t, inner, tc.also, call.name)
				}
				checkErrorText(t, err.Error())
				assert.LessOrEqual(t, len(err.Error()), 2048, "%s: Error() stays short", call.name)
			}
		})
	}
}

// TestHostileResponsesDecodeErrorText: a 2xx whose data holds a control
// character or invalid UTF-8 where a typed field expects something else.
// The decoder's message quotes the raw value; Error() must not carry it
// raw (fixed in 91ebe5c, found by FuzzDecodeResponse too).
func TestHostileResponsesDecodeErrorText(t *testing.T) {
	for name, data := range map[string]string{
		// Raw bytes, not \u escapes: JSON allows DEL, C1 controls and
		// (for encoding/json) invalid UTF-8 inside a string as they are.
		"DEL in id":              "{\"id\":\"\x7f\"}",
		"C1 CSI in id":           "{\"id\":\"\u009b2J\"}",
		"invalid UTF-8 in id":    "{\"id\":\"\xff\"}",
		"DEL in an amount":       "{\"id\":\"" + payoutID.String() + "\",\"sending_amount\":\"1\x7f\"}",
		"cut inside a character": "{\"id\":\"" + strings.Repeat("a", 62) + "\u00e9\"}",
	} {
		t.Run(name, func(t *testing.T) {
			c := hostileClient(t, hostileServer(t, 200, "application/json", []byte(ok(data))))
			_, err := c.Payouts.Get(context.Background(), payoutID)
			require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
			checkErrorText(t, err.Error())
		})
	}
}

// TestStatusZeroResponse: a server answering "HTTP/1.1 000" gets a
// response with StatusCode 0 from net/http, which the library takes for
// "no response": the error is no *APIError and reads "%!w(<nil>)".
func TestStatusZeroResponse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				if _, err := http.ReadRequest(bufio.NewReader(conn)); err != nil {
					return
				}
				body := ok(`{"id":"` + payoutID.String() + `"}`)
				_, _ = fmt.Fprintf(conn, "HTTP/1.1 000 Weird\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
			}()
		}
	}()
	c := hostileClient(t, "http://"+ln.Addr().String())
	p, err := c.Payouts.Get(context.Background(), payoutID)
	assert.Nil(t, p)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "%!")
	var apiErr *fiatramp.APIError
	require.True(t, errors.As(err, &apiErr), "a response arrived: *APIError, not %T %v", err, err)
	assert.Equal(t, 0, apiErr.StatusCode)
	assert.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
}

// ---- deadlines while the answer is read ----

// slowOut is a caller's result type whose decoding takes delay.
type slowOut struct{ delay time.Duration }

func (s *slowOut) UnmarshalJSON([]byte) error { time.Sleep(s.delay); return nil }

// TestDecodingPastTheDeadline: a call whose context ends while its
// response is decoded reports the context's error, never a result, and a
// POST through Do (which must not run twice) becomes outcome unknown.
func TestDecodingPastTheDeadline(t *testing.T) {
	t.Run("GET", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodGet, "/pos/api/v1/payout/balance", "", http.StatusOK, ok(`{"balance":"1"}`))
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		err := h.client.Do(ctx, http.MethodGet, "/pos/api/v1/payout/balance", nil, &slowOut{delay: 150 * time.Millisecond})
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.ErrorContains(t, err, "the context ended while the response was decoded")
		require.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
	})
	t.Run("POST", func(t *testing.T) {
		h := newHarness(t)
		h.expect(http.MethodPost, "/pos/api/v1/payout/wallet", `{"a":1}`, http.StatusCreated, ok(`{"id":1}`))
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		err := h.client.Do(ctx, http.MethodPost, "/pos/api/v1/payout/wallet", []byte(`{"a":1}`), &slowOut{delay: 150 * time.Millisecond})
		ou := requireOutcomeUnknown(t, err)
		require.ErrorIs(t, ou.Err, context.DeadlineExceeded)
		assert.Equal(t, 1, ou.Attempts)
	})
}

// lateBody is a response body that arrives after a pause, whatever the
// request's context says (a transport that does not watch it).
type lateBody struct {
	pause time.Duration
	r     io.Reader
}

func (b *lateBody) Read(p []byte) (int, error) {
	if b.pause > 0 {
		time.Sleep(b.pause)
		b.pause = 0
	}
	return b.r.Read(p)
}

// lateClient answers every request with status and body, after pause.
func lateClient(t *testing.T, method, path string, pause time.Duration, status int, body string) *fiatramp.Client {
	t.Helper()
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		assert.Equal(t, method, r.Method)
		assert.Equal(t, "/gateway"+path, r.URL.Path)
		return &http.Response{
			StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{}, Body: io.NopCloser(&lateBody{pause: pause, r: strings.NewReader(body)}), Request: r,
		}, nil
	})
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase),
		fiatramp.WithHTTPClient(&http.Client{Transport: rt}),
		fiatramp.WithClock(func() time.Time { return testNow }),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3}))
	require.NoError(t, err)
	return c
}

// TestCreateAnsweredPastTheDeadline: a create answered with a success only
// after its context ended is outcome unknown (the payout may well exist),
// not a success returned late and not a plain failure; a refusal read late
// is still the refusal, with the context's error.
func TestCreateAnsweredPastTheDeadline(t *testing.T) {
	c := lateClient(t, http.MethodPost, "/pos/api/v1/payout/initiate", 100*time.Millisecond, http.StatusCreated, ok(createdPayoutData))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	p, err := c.Payouts.Create(ctx, createRequest())
	require.Nil(t, p)
	ou := requireOutcomeUnknown(t, err)
	assert.Equal(t, "ref-2026-0001", ou.ClientReferenceID)
	assert.Equal(t, quotationID, ou.QuotationID)
	assert.Equal(t, 1, ou.Attempts, "no retry after the context ended")
	require.ErrorIs(t, ou.Err, context.DeadlineExceeded)

	// A refusal read late stays a refusal: nothing ran.
	r := lateClient(t, http.MethodPost, "/pos/api/v1/payout/initiate", 100*time.Millisecond, http.StatusBadRequest,
		fail("Quotation has expired", "QUOTATION_EXPIRED", `{}`))
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	p, err = r.Payouts.Create(ctx, createRequest())
	require.Nil(t, p)
	require.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
	require.ErrorIs(t, err, fiatramp.ErrQuotationExpired)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	g := lateClient(t, http.MethodGet, "/pos/api/v1/payout/"+payoutID.String(), 100*time.Millisecond, http.StatusOK, ok(fetchedPayoutData))
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	got, err := g.Payouts.Get(ctx, payoutID)
	require.Nil(t, got)
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

// TestHostileBodiesEndByTheDeadline sends one hostile body of each class
// over loopback HTTP: every call returns its verdict before a deadline far
// below what the body cost before (seconds), with a typed error.
func TestHostileBodiesEndByTheDeadline(t *testing.T) {
	pid := payoutID.String()
	tests := []struct {
		name      string
		status    int
		body      string
		malformed bool
	}{
		{"long decimal", 200, `{"status":true,"data":{"id":"` + pid + `","sending_amount":"` + strings.Repeat("9", 1_500_000) + `"}}`, true},
		{"long fee", 200, `{"status":true,"data":{"id":"` + pid + `","fees":{"tds":` + strings.Repeat("9", 1_500_000) + `}}}`, true},
		{"deep errors", 400, `{"status":false,"errors":` + strings.Repeat("[", 9800) + strings.Repeat("]", 9800) + `}`, true},
		{"deep data", 200, `{"status":true,"data":{"id":"` + pid + `","x":` + strings.Repeat(`{"a":`, 9000) + "1" + strings.Repeat("}", 9000) + `}}`, true},
		{"4 MB string in 40 arrays", 400, `{"status":false,"errors":{"f":` + strings.Repeat("[", 40) + `"` + strings.Repeat("a", 4_000_000) + `"` + strings.Repeat("]", 40) + `}}`, false},
		{"wide errors", 400, `{"status":false,"errors":[` + strings.Repeat(`"m",`, 999_999) + `"m"]}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := hostileClient(t, hostileServer(t, tt.status, "application/json", []byte(tt.body)))
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			p, err := c.Payouts.Get(ctx, payoutID)
			require.NoError(t, ctx.Err(), "the call returned before its deadline")
			require.Nil(t, p)
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, tt.status, apiErr.StatusCode)
			require.Equal(t, tt.malformed, errors.Is(err, fiatramp.ErrMalformedResponse))
			require.Less(t, len(err.Error()), 4096)
			require.LessOrEqual(t, len(apiErr.RawBody), 64<<10)
		})
	}
}

// ---- fuzzing ----

// FuzzClientResponse serves an arbitrary status, Content-Type and body
// through an http.RoundTripper fake (no network) to Payouts.Get and
// Customers.ListBankAccounts, retries off. Whatever arrives: no panic; a
// result without error only for a 2xx; otherwise an *APIError whose
// Error() has no control characters.
func FuzzClientResponse(f *testing.F) {
	pid := `"` + payoutID.String() + `"`
	f.Add(200, "application/json", []byte(ok(`{"id":`+pid+`,"count":1,"next":null,"results":[]}`)))
	f.Add(502, "text/html", []byte(htmlProxyPage))
	f.Add(200, "text/html", []byte(htmlProxyPage))
	f.Add(200, "application/json", []byte(`{"status":true,"data":{"id":`))
	f.Add(200, "application/json", []byte(ok(`[1,2,3]`)))
	f.Add(200, "application/json", []byte(`null`))
	f.Add(500, "", []byte{})
	f.Add(302, "text/html", []byte("<a href=\"https://evil.example/\">Found</a>"))
	f.Add(401, "application/json", []byte(fail("Unauthorized", "AUTH_TIMESTAMP_EXPIRED", `{"timestamp":["Request timestamp is outside the allowed window"]}`)))
	f.Add(400, "application/json", []byte("{\"status\":false,\"message\":\"bad \xff\u0007\",\"data\":null}"))

	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte) {
		// net/http delivers a three-digit status; 000 (StatusCode 0) has
		// its own test, TestStatusZeroResponse.
		if status < 100 || status > 999 {
			status = 100 + ((status%900)+900)%900
		}
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			h := http.Header{}
			h.Set("Content-Type", contentType)
			return &http.Response{
				StatusCode: status, Status: strconv.Itoa(status) + " Fuzz",
				Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r,
			}, nil
		})
		c, err := fiatramp.New(testKey, testSecret,
			fiatramp.WithBaseURL(testBase),
			fiatramp.WithHTTPClient(&http.Client{Transport: rt}),
			fiatramp.WithClock(func() time.Time { return testNow }),
			fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		p, err := c.Payouts.Get(ctx, payoutID)
		checkFuzzOutcome(t, "Payouts.Get", status, p != nil, err)
		page, err := c.Customers.ListBankAccounts(ctx, customerID)
		checkFuzzOutcome(t, "Customers.ListBankAccounts", status, page != nil, err)
	})
}

func checkFuzzOutcome(t *testing.T, op string, status int, gotResult bool, err error) {
	t.Helper()
	if err == nil {
		if !gotResult {
			t.Fatalf("%s: HTTP %d: nil error and nil result", op, status)
		}
		if status < 200 || status > 299 {
			t.Fatalf("%s: HTTP %d: success from a non-2xx answer", op, status)
		}
		return
	}
	if gotResult {
		t.Fatalf("%s: HTTP %d: both a result and an error %v", op, status, err)
	}
	var apiErr *fiatramp.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("%s: HTTP %d: a response arrived but the error is %T %v, not an *APIError", op, status, err, err)
	}
	if apiErr.StatusCode != status {
		t.Fatalf("%s: HTTP %d: APIError.StatusCode %d", op, status, apiErr.StatusCode)
	}
	if status >= 300 && status <= 399 && !errors.Is(err, fiatramp.ErrRedirect) {
		t.Fatalf("%s: HTTP %d: %v does not match ErrRedirect", op, status, err)
	}
	msg := err.Error()
	for _, r := range msg {
		if unicode.IsControl(r) {
			t.Fatalf("%s: HTTP %d: control character %q in Error() %q", op, status, r, msg)
		}
	}
}

// TestDoRefusesPathsThatLeaveTheBase: Do sends its path as written under
// the base path; a dot segment, plain or escaped (once or twice), would be
// resolved outside it by a gateway that normalises paths, so such a path is
// refused before anything is sent, naming the field.
func TestDoRefusesPathsThatLeaveTheBase(t *testing.T) {
	var hits atomic.Int32
	var gotPath string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		gotPath = r.URL.EscapedPath()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":true,"message":"ok","data":{}}`))
	}))
	t.Cleanup(srv.Close)
	c, err := fiatramp.New("key", "secret", fiatramp.WithBaseURL(srv.URL+"/gw"),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)

	for _, p := range []string{
		"/../x", "/pos/../../x", "/pos/./x", "/pos/..;/x", "/pos/%2e%2e/x", "/pos/%2E%2E/x",
		"/pos/.%2e/x", "/pos%2F..%2Fx", "/pos/%5C..%5Cx", "/pos/%252e%252e/x", "/pos/%25252e./x", "/pos\\..\\x",
	} {
		err := c.Do(context.Background(), http.MethodGet, p, nil, nil)
		var ve *fiatramp.ValidationError
		require.True(t, errors.As(err, &ve), "%s: %v", p, err)
		assert.Equal(t, "path", ve.Field, p)
		assert.True(t, errors.Is(err, fiatramp.ErrInvalidRequest), p)
	}
	assert.Zero(t, hits.Load(), "a refused path sent a request")

	// Dots inside a segment, an escaped slash inside an id and escapes in
	// the query are no way out.
	require.NoError(t, c.Do(context.Background(), http.MethodGet, "/pos/api/v1/a..b/x.y/ref%2Fid?next=%2Fgw%2F..", nil, nil))
	assert.Equal(t, int32(1), hits.Load())
	assert.Equal(t, "/gw/pos/api/v1/a..b/x.y/ref%2Fid", gotPath)
}
