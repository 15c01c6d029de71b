package fiatramp_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

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
