package fiatramp_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// This file tests the retry loop and the payout-safety rules: which failures
// are repeated, how long the client waits, and when a payout create ends in
// an *OutcomeUnknownError. No test sleeps: waits are recorded through
// WithSleep, and jitter is fixed through WithJitter.

// ---------------------------------------------------------------------------
// Fixtures.

const (
	payoutGetPath = "/pos/api/v1/payout/3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"
	// gotPayout is a fetched payout, enough to tell a decoded result.
	gotPayout = `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","status":"SUCCESS","utr":"UTR-RETRY-1"}`
)

// Error envelopes of interface.md §7, as the service sends them.
var (
	bodyUnavailable = fail("Service unavailable", "SYS_UNAVAILABLE", `"upstream down"`)
	bodyInternal    = `{"success":false,"message":"Internal Server Error","err_code":"SYS_INTERNAL_ERROR","errors":"trace","data":null}`
	bodyRateLimited = fail("Too many requests", "RATE_LIMITED", `{}`)
	bodyDuplicate   = fail("Client Reference ID already exists", "BAD_REQUEST", `{}`)
	bodyLinked      = fail("Quotation is already linked to another payout", "BAD_REQUEST", `{}`)
	bodyExpired     = fail("Quotation has expired", "BAD_REQUEST", `{}`)
	bodyHTML        = "<html><body>502 Bad Gateway</body></html>"
)

// sleeps stands in for the wait between attempts: it records each delay and
// returns at once, with the context's error if it is done.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// noJitter and fullJitter are the two ends of the jitter range [0, n).
func noJitter(int64) int64     { return 0 }
func fullJitter(n int64) int64 { return n - 1 }

// retryHarness is the httpmock harness with retries on under policy p,
// waits recorded in the returned sleeps and no jitter; later options win.
func retryHarness(t *testing.T, p fiatramp.RetryPolicy, opts ...fiatramp.Option) (*harness, *sleeps) {
	t.Helper()
	s := new(sleeps)
	base := []fiatramp.Option{fiatramp.WithRetry(p), fiatramp.WithSleep(s.sleep), fiatramp.WithJitter(noJitter)}
	return newHarness(t, append(base, opts...)...), s
}

// mockReply is one scripted answer of the httpmock service.
type mockReply struct {
	status int
	body   string
	header map[string]string
}

// routeRecorder is what a scripted route saw.
type routeRecorder struct {
	hits    atomic.Int32
	mu      sync.Mutex
	bodies  []string
	headers []http.Header
}

func (r *routeRecorder) seen() (bodies []string, headers []http.Header) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.bodies...), append([]http.Header(nil), r.headers...)
}

// script answers the route's hits with replies in turn, the last reply for
// every hit beyond them, and records every request.
func (h *harness) script(method, path string, replies ...mockReply) *routeRecorder {
	h.t.Helper()
	rec := new(routeRecorder)
	h.mock.RegisterResponder(method, testBase+path, func(req *http.Request) (*http.Response, error) {
		var body []byte
		if req.Body != nil {
			body, _ = io.ReadAll(req.Body)
		}
		rec.mu.Lock()
		rec.bodies = append(rec.bodies, string(body))
		rec.headers = append(rec.headers, req.Header.Clone())
		rec.mu.Unlock()
		n := int(rec.hits.Add(1))
		r := replies[min(n, len(replies))-1]
		resp := httpmock.NewStringResponse(r.status, r.body)
		for k, v := range r.header {
			resp.Header.Set(k, v)
		}
		return resp, nil
	})
	return rec
}

// ---------------------------------------------------------------------------
// A real HTTP service on loopback, for connection-level behaviour.

// fakeService is an httptest server that plays a script of actions, one per
// request (the last one for every request beyond), after reading the body.
type fakeService struct {
	*httptest.Server
	hits     atomic.Int32
	received chan struct{} // a value per request, once its body is read
	stop     chan struct{} // closed at cleanup: releases blocked handlers
	mu       sync.Mutex
	bodies   []string
}

type action func(s *fakeService, w http.ResponseWriter, r *http.Request)

func newService(t *testing.T, actions ...action) *fakeService {
	t.Helper()
	s := &fakeService{received: make(chan struct{}, 1), stop: make(chan struct{})}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, string(body))
		s.mu.Unlock()
		n := int(s.hits.Add(1))
		select {
		case s.received <- struct{}{}:
		default:
		}
		actions[min(n, len(actions))-1](s, w, r)
	}))
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.Start()
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.stop) }) // runs before Close
	return s
}

func (s *fakeService) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// drop closes the connection after the request was read: the service may
// have acted, the client gets no answer.
func drop(_ *fakeService, w http.ResponseWriter, _ *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	_ = conn.Close()
}

// answer replies with status and body.
func answer(status int, body string) action {
	return func(_ *fakeService, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// cutOff sends the status line, headers and the start of a 201 body, then
// closes the connection: the service acted, the answer is lost.
func cutOff(_ *fakeService, w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Length", "1000")
	w.WriteHeader(http.StatusCreated)
	_, _ = io.WriteString(w, `{"status":true,"data":{"id":"3e9f`)
	rc := http.NewResponseController(w)
	if err := rc.Flush(); err != nil {
		panic(err)
	}
	conn, _, err := rc.Hijack()
	if err != nil {
		panic(err)
	}
	_ = conn.Close()
}

// hang answers nothing until the client gives up.
func hang(s *fakeService, _ http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.stop:
	}
}

// attemptCounter counts the attempts that reach the HTTP layer. The first
// refuse of them fail like a refused connection, before anything is sent.
type attemptCounter struct {
	base     http.RoundTripper
	attempts atomic.Int32
	refuse   int32
}

func newTransport(t *testing.T) *attemptCounter {
	// A fresh connection per request: net/http then never resends a
	// request on its own, so every attempt is the library's.
	base := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(base.CloseIdleConnections)
	return &attemptCounter{base: base}
}

func (tr *attemptCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	if tr.attempts.Add(1) <= tr.refuse {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	}
	return tr.base.RoundTrip(req)
}

// serviceClient is a client of baseURL through tr with the default retry
// policy, recorded waits and no jitter; later options win.
func serviceClient(t *testing.T, baseURL string, tr *attemptCounter, opts ...fiatramp.Option) (*fiatramp.Client, *sleeps) {
	t.Helper()
	s := new(sleeps)
	base := []fiatramp.Option{
		fiatramp.WithBaseURL(baseURL),
		fiatramp.WithHTTPClient(&http.Client{Transport: tr}),
		fiatramp.WithClock(func() time.Time { return testNow }),
		fiatramp.WithRetry(fiatramp.RetryPolicy{}),
		fiatramp.WithSleep(s.sleep),
		fiatramp.WithJitter(noJitter),
	}
	c, err := fiatramp.New(testKey, testSecret, append(base, opts...)...)
	require.NoError(t, err)
	return c, s
}

// ---------------------------------------------------------------------------
// The three payout creates, for table-driven tests.

type created struct {
	id  uuid.UUID
	ref *string
}

type createKind struct {
	name string
	path string
	// data is a created payout of this kind without client_reference_id.
	data   string
	create func(ctx context.Context, c *fiatramp.Client, ref string) (*created, error)
}

// createdFrom turns an operation's answer into a *created, failing the test when
// a result comes with an error.
func createdFrom[P any](t *testing.T, p *P, err error, get func(*P) created) (*created, error) {
	t.Helper()
	if err != nil {
		assert.Nil(t, p, "no result with an error")
		return nil, err
	}
	require.NotNil(t, p, "a result without an error")
	c := get(p)
	return &c, nil
}

func createKinds(t *testing.T) []createKind {
	return []createKind{
		{
			name: "standard",
			path: "/pos/api/v1/payout/initiate",
			data: `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23","status":"PROCESSING"}`,
			create: func(ctx context.Context, c *fiatramp.Client, ref string) (*created, error) {
				p, err := c.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: ref})
				return createdFrom(t, p, err, func(p *types.Payout) created { return created{p.ID, p.ClientReferenceID} })
			},
		},
		{
			name: "prefunded",
			path: "/pos/api/v1/prefunded/payout/initiate",
			data: `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23","status":"PROCESSING"}`,
			create: func(ctx context.Context, c *fiatramp.Client, ref string) (*created, error) {
				p, err := c.Payouts.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{
					QuotationID: quotationID, ClientReferenceID: ref,
					Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}, Receiver: types.CustomerRef{ID: customerID}},
				})
				return createdFrom(t, p, err, func(p *types.PrefundedPayout) created { return created{p.ID, p.ClientReferenceID} })
			},
		},
		{
			name: "remittance",
			path: fiatramp.DefaultRemittancePayoutPath,
			data: `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","remitter_id":"50b1406d-8e9f-4baa-8fc3-7c6e1d3f4056","status":"PROCESSING"}`,
			create: func(ctx context.Context, c *fiatramp.Client, ref string) (*created, error) {
				p, err := c.Payouts.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{
					QuotationID: quotationID, CustomerID: customerID, RemitterID: remitterID, ClientReferenceID: ref, TransactionHash: "0xabc",
				})
				return createdFrom(t, p, err, func(p *types.RemittancePayout) created { return created{p.ID, p.ClientReferenceID} })
			},
		},
	}
}

// bodyReference returns the client_reference_id of a request body, and
// whether the body has the key at all.
func bodyReference(t *testing.T, body string) (string, bool) {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(body), &m), "request body %s", body)
	raw, ok := m["client_reference_id"]
	if !ok {
		return "", false
	}
	var ref string
	require.NoError(t, json.Unmarshal(raw, &ref), "client_reference_id %s", raw)
	return ref, true
}

// allSame asserts that every request carried the same body bytes.
func allSame(t *testing.T, bodies []string) {
	t.Helper()
	require.NotEmpty(t, bodies)
	for i, b := range bodies {
		assert.Equal(t, bodies[0], b, "body of attempt %d differs from the first", i+1)
	}
}

// requireOutcomeUnknown checks that err is an *OutcomeUnknownError, returned
// as it is, and that it does not unwrap: no sentinel of the last attempt's
// error (kept in Err) may match it, or a refusal met on a retry would pass
// for "nothing was paid".
func requireOutcomeUnknown(t *testing.T, err error) *fiatramp.OutcomeUnknownError {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, fiatramp.ErrOutcomeUnknown, "%v", err)
	ou, isOU := err.(*fiatramp.OutcomeUnknownError)
	require.True(t, isOU, "an *OutcomeUnknownError itself, not wrapped: %T", err)
	require.Error(t, ou.Err, "the last attempt's error is kept")
	assert.Nil(t, errors.Unwrap(err), "an OutcomeUnknownError does not unwrap")
	var apiErr *fiatramp.APIError
	assert.False(t, errors.As(err, &apiErr), "the last attempt's APIError is not reachable through errors.As")
	for _, s := range []error{
		fiatramp.ErrClientReferenceExists, fiatramp.ErrQuotationAlreadyLinked, fiatramp.ErrQuotationExpired,
		fiatramp.ErrInternal, fiatramp.ErrUnavailable, fiatramp.ErrRateLimited, fiatramp.ErrMalformedResponse,
		fiatramp.ErrRedirect, context.Canceled, context.DeadlineExceeded,
	} {
		assert.NotErrorIs(t, err, s, "an outcome unknown is never %q", s)
	}
	return ou
}

// requirePlain checks err is an error but not an *OutcomeUnknownError.
func requirePlain(t *testing.T, err error) {
	t.Helper()
	require.Error(t, err)
	assert.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown, "%v", err)
	var ou *fiatramp.OutcomeUnknownError
	assert.False(t, errors.As(err, &ou), "no *OutcomeUnknownError: %v", err)
}

func requireAPIError(t *testing.T, err error, status int) *fiatramp.APIError {
	t.Helper()
	var apiErr *fiatramp.APIError
	require.ErrorAs(t, err, &apiErr, "%v", err)
	assert.Equal(t, status, apiErr.StatusCode)
	return apiErr
}

// ---------------------------------------------------------------------------
// Which answers are retried.

func TestRetryStatusTable(t *testing.T) {
	ctx := context.Background()
	for _, status := range []int{408, 429, 500, 502, 503, 504} {
		t.Run("retried "+strconv.Itoa(status), func(t *testing.T) {
			h, s := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 4})
			rec := h.script(http.MethodGet, payoutGetPath,
				mockReply{status: status, body: fail("transient", "X", `{}`)},
				mockReply{status: status, body: fail("transient", "X", `{}`)},
				mockReply{status: 200, body: ok(gotPayout)})
			p, err := h.client.Payouts.Get(ctx, payoutID)
			require.NoError(t, err)
			assert.EqualValues(t, 3, rec.hits.Load(), "two failures, then the success")
			assert.Equal(t, payoutID, p.ID)
			assert.Equal(t, types.PayoutSuccess, p.Status)
			require.NotNil(t, p.UTR)
			assert.Equal(t, "UTR-RETRY-1", *p.UTR)
			assert.Len(t, s.got(), 2, "one wait before each repeat")
		})
	}

	redirect := func(status int) mockReply {
		return mockReply{status: status, body: "", header: map[string]string{"Location": "https://elsewhere.test/steal"}}
	}
	for _, tc := range []struct {
		reply mockReply
		want  error
	}{
		{mockReply{status: 400, body: fail("Payout ID is invalid", "REQ_FIELD_MISSING", `{"payout_id":["Payout ID is invalid"]}`)}, fiatramp.ErrPayoutIDInvalid},
		{mockReply{status: 401, body: fail("Unauthorized", "AUTH_INVALID_SIGNATURE", `{"signature":["Invalid Signature"]}`)}, fiatramp.ErrUnauthorized},
		{mockReply{status: 403, body: fail("This endpoint is not available for your organization.", "FORBIDDEN", `{}`)}, fiatramp.ErrNotEntitled},
		{mockReply{status: 404, body: fail("Customer not found or access denied", "NOT_FOUND", `{}`)}, fiatramp.ErrCustomerNotFound},
		{mockReply{status: 409, body: bodyDuplicate}, fiatramp.ErrClientReferenceExists},
		{mockReply{status: 422, body: fail("Invalid input", "REQ_FIELD_MISSING", `{"payout_id":["This field is required."]}`)}, fiatramp.ErrFieldMissing},
		{redirect(301), fiatramp.ErrRedirect},
		{redirect(302), fiatramp.ErrRedirect},
		{redirect(307), fiatramp.ErrRedirect},
		{redirect(308), fiatramp.ErrRedirect},
	} {
		t.Run("not retried "+strconv.Itoa(tc.reply.status), func(t *testing.T) {
			h, s := retryHarness(t, fiatramp.RetryPolicy{})
			rec := h.script(http.MethodGet, payoutGetPath, tc.reply, mockReply{status: 200, body: ok(gotPayout)})
			var elsewhere atomic.Int32
			h.mock.RegisterResponder(http.MethodGet, "https://elsewhere.test/steal", func(*http.Request) (*http.Response, error) {
				elsewhere.Add(1)
				return httpmock.NewStringResponse(200, ok(gotPayout)), nil
			})
			p, err := h.client.Payouts.Get(ctx, payoutID)
			assert.Nil(t, p)
			require.ErrorIs(t, err, tc.want)
			requireAPIError(t, err, tc.reply.status)
			assert.EqualValues(t, 1, rec.hits.Load(), "exactly one request")
			assert.Zero(t, elsewhere.Load(), "a redirect is never followed")
			assert.Empty(t, s.got(), "no wait")
		})
	}
}

// ---------------------------------------------------------------------------
// How many attempts.

func TestRetryMaxAttempts(t *testing.T) {
	// Every attempt fails differently, so that the error returned shows
	// which attempt it came from.
	failures := []mockReply{
		{status: 500, body: fail("attempt 1", "X", `{}`)},
		{status: 502, body: fail("attempt 2", "X", `{}`)},
		{status: 504, body: fail("attempt 3", "X", `{}`)},
		{status: 408, body: fail("attempt 4", "X", `{}`)},
		{status: 503, body: fail("attempt 5", "X", `{}`)},
		{status: 500, body: fail("attempt 6 is one too many", "X", `{}`)},
	}
	for _, tc := range []struct {
		name   string
		policy *fiatramp.RetryPolicy // nil: no WithRetry at all
		want   int
	}{
		{"New's default", nil, 5},
		{"zero policy means the defaults", &fiatramp.RetryPolicy{}, 5},
		{"one attempt switches retries off", &fiatramp.RetryPolicy{MaxAttempts: 1}, 1},
		{"three", &fiatramp.RetryPolicy{MaxAttempts: 3}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mt := httpmock.NewMockTransport()
			s := new(sleeps)
			opts := []fiatramp.Option{
				fiatramp.WithBaseURL(testBase),
				fiatramp.WithHTTPClient(&http.Client{Transport: mt}),
				fiatramp.WithSleep(s.sleep),
				fiatramp.WithJitter(noJitter),
			}
			if tc.policy != nil {
				opts = append(opts, fiatramp.WithRetry(*tc.policy))
			}
			c, err := fiatramp.New(testKey, testSecret, opts...)
			require.NoError(t, err)
			h := &harness{t: t, mock: mt, client: c}
			rec := h.script(http.MethodGet, payoutGetPath, failures...)

			_, err = c.Payouts.Get(context.Background(), payoutID)
			assert.EqualValues(t, tc.want, rec.hits.Load(), "requests made")
			assert.Len(t, s.got(), tc.want-1, "waits")
			last := failures[tc.want-1]
			apiErr := requireAPIError(t, err, last.status)
			assert.Equal(t, "attempt "+strconv.Itoa(tc.want), apiErr.Message, "the last attempt's error")
		})
	}
}

func TestRetryPolicyZeroValueIsDefaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy fiatramp.RetryPolicy
		want   []time.Duration
	}{
		{"all zero", fiatramp.RetryPolicy{}, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}},
		{"zero InitialBackoff is 1s", fiatramp.RetryPolicy{MaxAttempts: 3}, []time.Duration{time.Second, 2 * time.Second}},
		{"zero MaxBackoff is 30s", fiatramp.RetryPolicy{InitialBackoff: 10 * time.Second}, []time.Duration{10 * time.Second, 20 * time.Second, 30 * time.Second, 30 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, s := retryHarness(t, tc.policy)
			rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
			_, err := h.client.Payouts.Get(context.Background(), payoutID)
			require.ErrorIs(t, err, fiatramp.ErrUnavailable)
			assert.EqualValues(t, len(tc.want)+1, rec.hits.Load())
			assert.Equal(t, tc.want, s.got())
		})
	}
}

// ---------------------------------------------------------------------------
// Backoff.

func TestBackoffSequence(t *testing.T) {
	const ns = time.Nanosecond
	for _, tc := range []struct {
		name       string
		policy     fiatramp.RetryPolicy
		jitter     func(int64) int64
		want       []time.Duration
		wantJitter []int64 // the bound each jitter draw was given
	}{
		{
			name:   "defaults without jitter",
			policy: fiatramp.RetryPolicy{},
			jitter: noJitter,
			want:   []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second},
		},
		{
			name:       "defaults with the largest jitter, a quarter",
			policy:     fiatramp.RetryPolicy{},
			jitter:     fullJitter,
			want:       []time.Duration{1250*time.Millisecond - ns, 2500*time.Millisecond - ns, 5*time.Second - ns, 10*time.Second - ns},
			wantJitter: []int64{int64(250 * time.Millisecond), int64(500 * time.Millisecond), int64(time.Second), int64(2 * time.Second)},
		},
		{
			name:   "jitter is added",
			policy: fiatramp.RetryPolicy{MaxAttempts: 3},
			jitter: func(n int64) int64 { return n / 2 },
			want:   []time.Duration{1125 * time.Millisecond, 2250 * time.Millisecond},
		},
		{
			name:   "MaxBackoff caps, jitter included",
			policy: fiatramp.RetryPolicy{MaxAttempts: 6, InitialBackoff: time.Second, MaxBackoff: 3 * time.Second},
			jitter: fullJitter,
			want:   []time.Duration{1250*time.Millisecond - ns, 2500*time.Millisecond - ns, 3 * time.Second, 3 * time.Second, 3 * time.Second},
		},
		{
			name:   "InitialBackoff equal to MaxBackoff",
			policy: fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: 2 * time.Second, MaxBackoff: 2 * time.Second},
			jitter: fullJitter,
			want:   []time.Duration{2 * time.Second, 2 * time.Second},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var bounds []int64
			jitter := func(n int64) int64 {
				mu.Lock()
				bounds = append(bounds, n)
				mu.Unlock()
				return tc.jitter(n)
			}
			h, s := retryHarness(t, tc.policy, fiatramp.WithJitter(jitter))
			rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
			_, err := h.client.Payouts.Get(context.Background(), payoutID)
			require.ErrorIs(t, err, fiatramp.ErrUnavailable)
			assert.EqualValues(t, len(tc.want)+1, rec.hits.Load())
			assert.Equal(t, tc.want, s.got())
			if tc.wantJitter != nil {
				mu.Lock()
				assert.Equal(t, tc.wantJitter, bounds, "jitter draws up to a quarter of the wait")
				mu.Unlock()
			}
		})
	}

	t.Run("many attempts stay at MaxBackoff", func(t *testing.T) {
		const maxBackoff = time.Hour
		h, s := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 80, InitialBackoff: time.Millisecond, MaxBackoff: maxBackoff},
			fiatramp.WithJitter(fullJitter))
		h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
		_, err := h.client.Payouts.Get(context.Background(), payoutID)
		require.Error(t, err)
		got := s.got()
		require.Len(t, got, 79)
		for i, d := range got {
			assert.Positive(t, d, "wait %d", i+1)
			assert.LessOrEqual(t, d, maxBackoff, "wait %d", i+1)
			if i > 0 {
				assert.GreaterOrEqual(t, d, got[i-1], "waits never shrink (wait %d)", i+1)
			}
		}
		assert.Equal(t, maxBackoff, got[len(got)-1])
	})
}

func TestRetryPolicyValidation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy fiatramp.RetryPolicy
		want   string // "" when valid
	}{
		{"InitialBackoff above MaxBackoff", fiatramp.RetryPolicy{InitialBackoff: 10 * time.Second, MaxBackoff: 5 * time.Second}, "exceeds MaxBackoff"},
		{"InitialBackoff above the default MaxBackoff", fiatramp.RetryPolicy{InitialBackoff: 31 * time.Second}, "exceeds MaxBackoff"},
		{"MaxBackoff below the default InitialBackoff", fiatramp.RetryPolicy{MaxBackoff: 500 * time.Millisecond}, "exceeds MaxBackoff"},
		{"negative MaxAttempts", fiatramp.RetryPolicy{MaxAttempts: -1}, "negative"},
		{"negative InitialBackoff", fiatramp.RetryPolicy{InitialBackoff: -time.Second}, "negative"},
		{"negative MaxBackoff", fiatramp.RetryPolicy{MaxBackoff: -time.Second}, "negative"},
		{"equal backoffs", fiatramp.RetryPolicy{InitialBackoff: 5 * time.Second, MaxBackoff: 5 * time.Second}, ""},
		{"retries off", fiatramp.RetryPolicy{MaxAttempts: 1}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase), fiatramp.WithRetry(tc.policy))
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			assert.Nil(t, c)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "WithRetry")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// ---------------------------------------------------------------------------
// Retry-After.

func TestRetryAfter(t *testing.T) {
	// The response's clock is years away from the local one: an HTTP date
	// counts from the response's Date header, not from time.Now.
	serverNow := time.Date(2019, 6, 1, 12, 0, 0, 0, time.UTC)
	date := func(d time.Duration) string { return serverNow.Add(d).Format(http.TimeFormat) }
	normal := 1250*time.Millisecond - time.Nanosecond // first backoff with fullJitter
	for _, tc := range []struct {
		name   string
		status int
		header map[string]string
		policy fiatramp.RetryPolicy
		want   time.Duration
	}{
		{"delta seconds", 503, map[string]string{"Retry-After": "3"}, fiatramp.RetryPolicy{}, 3 * time.Second},
		{"delta seconds on 429", 429, map[string]string{"Retry-After": "2"}, fiatramp.RetryPolicy{}, 2 * time.Second},
		{"zero", 503, map[string]string{"Retry-After": "0"}, fiatramp.RetryPolicy{}, 0},
		{"HTTP date after the response's Date", 503, map[string]string{"Retry-After": date(7 * time.Second), "Date": date(0)}, fiatramp.RetryPolicy{}, 7 * time.Second},
		{"HTTP date before the response's Date", 503, map[string]string{"Retry-After": date(-time.Minute), "Date": date(0)}, fiatramp.RetryPolicy{}, 0},
		{"HTTP date far ahead is capped", 503, map[string]string{"Retry-After": date(time.Hour), "Date": date(0)}, fiatramp.RetryPolicy{}, fiatramp.DefaultMaxBackoff},
		{"HTTP date without Date, far ahead of now", 503, map[string]string{"Retry-After": time.Now().Add(24 * time.Hour).UTC().Format(http.TimeFormat)}, fiatramp.RetryPolicy{}, fiatramp.DefaultMaxBackoff},
		{"beyond the default MaxBackoff", 503, map[string]string{"Retry-After": "120"}, fiatramp.RetryPolicy{}, fiatramp.DefaultMaxBackoff},
		{"beyond a small MaxBackoff", 503, map[string]string{"Retry-After": "120"}, fiatramp.RetryPolicy{MaxBackoff: 10 * time.Second}, 10 * time.Second},
		{"garbage", 503, map[string]string{"Retry-After": "soon"}, fiatramp.RetryPolicy{}, normal},
		{"negative", 503, map[string]string{"Retry-After": "-5"}, fiatramp.RetryPolicy{}, normal},
		{"fraction", 503, map[string]string{"Retry-After": "1.5"}, fiatramp.RetryPolicy{}, normal},
		{"absent", 503, nil, fiatramp.RetryPolicy{}, normal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, s := retryHarness(t, tc.policy, fiatramp.WithJitter(fullJitter))
			rec := h.script(http.MethodGet, payoutGetPath,
				mockReply{status: tc.status, body: fail("busy", "X", `{}`), header: tc.header},
				mockReply{status: 200, body: ok(gotPayout)})
			_, err := h.client.Payouts.Get(context.Background(), payoutID)
			require.NoError(t, err)
			assert.EqualValues(t, 2, rec.hits.Load())
			assert.Equal(t, []time.Duration{tc.want}, s.got())
		})
	}
}

// ---------------------------------------------------------------------------
// Every attempt is signed afresh.

func TestRetryResignsEachAttempt(t *testing.T) {
	var tick atomic.Int64
	tick.Store(testNow.Unix())
	h, _ := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 5},
		fiatramp.WithClock(func() time.Time { return time.Unix(tick.Add(1), 0) }))
	kind := createKinds(t)[0]
	rec := h.script(http.MethodPost, kind.path,
		mockReply{status: 503, body: bodyUnavailable},
		mockReply{status: 502, body: bodyUnavailable},
		mockReply{status: 429, body: bodyRateLimited},
		mockReply{status: 201, body: ok(kind.data)})

	got, err := kind.create(context.Background(), h.client, "ref-resign-1")
	require.NoError(t, err)
	assert.Equal(t, payoutID, got.id)

	bodies, headers := rec.seen()
	require.Len(t, headers, 4)
	allSame(t, bodies)
	assert.Equal(t, `{"client_reference_id":"ref-resign-1","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","quotation_id":"2d8e1d3a-5b6c-4e77-9c90-4f3b8a0c1d23"}`, bodies[0])
	seen := map[string]bool{}
	for i, hd := range headers {
		ts := hd.Get("X-TIMESTAMP")
		assert.False(t, seen[ts], "attempt %d reuses timestamp %s", i+1, ts)
		seen[ts] = true
		n, err := strconv.ParseInt(ts, 10, 64)
		require.NoError(t, err)
		assert.Equal(t, sign(n, bodies[i]), hd.Get("X-SIGNATURE"), "attempt %d is signed for its own timestamp", i+1)
		assert.Equal(t, testKey, hd.Get("X-API-KEY"))
	}
}

// ---------------------------------------------------------------------------
// The caller's context.

func TestRetryContext(t *testing.T) {
	t.Run("cancelled before the call", func(t *testing.T) {
		srv := newService(t, answer(503, bodyUnavailable))
		tr := newTransport(t)
		c, s := serviceClient(t, srv.URL, tr)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := c.Payouts.Get(ctx, payoutID)
		require.ErrorIs(t, err, context.Canceled)
		assert.LessOrEqual(t, tr.attempts.Load(), int32(1), "no retry")
		assert.Zero(t, srv.hits.Load(), "nothing reached the service")
		assert.Empty(t, s.got())
	})

	t.Run("cancelled during a retryable attempt", func(t *testing.T) {
		h, s := retryHarness(t, fiatramp.RetryPolicy{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var hits atomic.Int32
		h.mock.RegisterResponder(http.MethodGet, testBase+payoutGetPath, func(*http.Request) (*http.Response, error) {
			hits.Add(1)
			cancel()
			return httpmock.NewStringResponse(503, bodyUnavailable), nil
		})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		require.ErrorIs(t, err, context.Canceled)
		assert.EqualValues(t, 1, hits.Load(), "no retry")
		assert.LessOrEqual(t, len(s.got()), 1)
	})

	t.Run("deadline before the next attempt", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{InitialBackoff: 2 * time.Minute, MaxBackoff: 5 * time.Minute},
			fiatramp.WithSleep(func(context.Context, time.Duration) error {
				t.Error("sleep called although the deadline comes first")
				return nil
			}))
		rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 200, body: ok(gotPayout)})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := h.client.Payouts.Get(ctx, payoutID)
		require.NoError(t, ctx.Err(), "returned at once, long before the deadline")
		requireAPIError(t, err, 503)
		require.ErrorIs(t, err, fiatramp.ErrUnavailable)
		assert.Contains(t, err.Error(), "deadline")
		assert.EqualValues(t, 1, rec.hits.Load())
	})

	t.Run("deadline before a Retry-After", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{},
			fiatramp.WithSleep(func(context.Context, time.Duration) error {
				t.Error("sleep called although the deadline comes first")
				return nil
			}))
		rec := h.script(http.MethodGet, payoutGetPath,
			mockReply{status: 429, body: bodyRateLimited, header: map[string]string{"Retry-After": "25"}},
			mockReply{status: 200, body: ok(gotPayout)})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_, err := h.client.Payouts.Get(ctx, payoutID)
		require.ErrorIs(t, err, fiatramp.ErrRateLimited)
		requireAPIError(t, err, 429)
		assert.Contains(t, err.Error(), "deadline")
		assert.EqualValues(t, 1, rec.hits.Load())
	})

	t.Run("deadline before the next attempt of a create that may have acted", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{InitialBackoff: 2 * time.Minute, MaxBackoff: 5 * time.Minute})
		kind := createKinds(t)[0]
		rec := h.script(http.MethodPost, kind.path, mockReply{status: 503, body: bodyUnavailable})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := kind.create(ctx, h.client, "ref-deadline")
		ou := requireOutcomeUnknown(t, err)
		assert.Equal(t, 1, ou.Attempts)
		assert.Equal(t, "ref-deadline", ou.ClientReferenceID)
		requireAPIError(t, ou.Err, 503)
		assert.Contains(t, ou.Err.Error(), "deadline")
		assert.Contains(t, err.Error(), "deadline")
		assert.EqualValues(t, 1, rec.hits.Load())
	})

	t.Run("cancelled during the wait", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var waits atomic.Int32
		srv := newService(t, answer(503, bodyUnavailable), answer(200, ok(gotPayout)))
		tr := newTransport(t)
		c, _ := serviceClient(t, srv.URL, tr, fiatramp.WithSleep(func(ctx context.Context, _ time.Duration) error {
			waits.Add(1)
			cancel()
			return ctx.Err()
		}))
		_, err := c.Payouts.Get(ctx, payoutID)
		require.ErrorIs(t, err, context.Canceled)
		requireAPIError(t, err, 503)
		assert.EqualValues(t, 1, tr.attempts.Load(), "no attempt after the cancelled wait")
		assert.EqualValues(t, 1, srv.hits.Load())
		assert.EqualValues(t, 1, waits.Load())
	})
}

// ---------------------------------------------------------------------------
// The per-attempt timeout.

func TestRetryPerAttemptTimeout(t *testing.T) {
	// The caller's own bound only keeps a broken per-attempt timeout from
	// hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	timeout := fiatramp.WithTimeout(50 * time.Millisecond)

	t.Run("a read is retried", func(t *testing.T) {
		srv := newService(t, hang, answer(200, ok(gotPayout)))
		tr := newTransport(t)
		c, s := serviceClient(t, srv.URL, tr, timeout)
		p, err := c.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
		assert.Equal(t, payoutID, p.ID)
		assert.EqualValues(t, 2, srv.hits.Load())
		assert.EqualValues(t, 2, tr.attempts.Load())
		assert.Len(t, s.got(), 1)
	})

	t.Run("a guarded create is retried and the timeout counts as acted", func(t *testing.T) {
		srv := newService(t, hang, answer(400, bodyDuplicate))
		c, _ := serviceClient(t, srv.URL, newTransport(t), timeout)
		_, err := createKinds(t)[0].create(ctx, c, "ref-timeout")
		ou := requireOutcomeUnknown(t, err)
		assert.True(t, ou.ProbablyCreated)
		assert.Equal(t, 2, ou.Attempts)
		assert.EqualValues(t, 2, srv.hits.Load())
	})

	t.Run("a create without reference is not repeated", func(t *testing.T) {
		srv := newService(t, hang, answer(201, ok(createKinds(t)[0].data)))
		c, _ := serviceClient(t, srv.URL, newTransport(t), timeout, fiatramp.WithClientReferenceGenerator(nil))
		_, err := createKinds(t)[0].create(ctx, c, "")
		ou := requireOutcomeUnknown(t, err)
		assert.ErrorIs(t, ou.Err, context.DeadlineExceeded)
		assert.Equal(t, 1, ou.Attempts)
		assert.EqualValues(t, 1, srv.hits.Load())
	})
}

// ---------------------------------------------------------------------------
// Connection failures.

func TestRetryTLSCertificateError(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		_, _ = io.WriteString(w, ok(gotPayout))
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the failed handshakes
	srv.StartTLS()
	t.Cleanup(srv.Close)
	base := "https://" + srv.Listener.Addr().String()

	isCertError := func(err error) bool {
		var verify *tls.CertificateVerificationError
		var unknown x509.UnknownAuthorityError
		return errors.As(err, &verify) || errors.As(err, &unknown)
	}
	t.Run("read", func(t *testing.T) {
		tr := newTransport(t) // without the server's CA
		c, s := serviceClient(t, base, tr)
		_, err := c.Payouts.Get(context.Background(), payoutID)
		require.Error(t, err)
		assert.True(t, isCertError(err), "a certificate error: %v", err)
		assert.EqualValues(t, 1, tr.attempts.Load(), "never retried")
		assert.Zero(t, hits.Load())
		assert.Empty(t, s.got())
	})
	t.Run("create", func(t *testing.T) {
		tr := newTransport(t)
		c, _ := serviceClient(t, base, tr)
		_, err := createKinds(t)[0].create(context.Background(), c, "ref-tls")
		requirePlain(t, err) // the handshake failed: nothing was sent
		assert.True(t, isCertError(err), "a certificate error: %v", err)
		assert.EqualValues(t, 1, tr.attempts.Load())
		assert.Zero(t, hits.Load())
	})
}

// closedAddress returns the address of a listener that no longer listens.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return "http://" + addr
}

func TestRetryConnectionRefused(t *testing.T) {
	ctx := context.Background()
	kind := createKinds(t)[0]
	for _, tc := range []struct {
		name string
		opts []fiatramp.Option
		call func(c *fiatramp.Client) error
	}{
		{"read", nil, func(c *fiatramp.Client) error { _, err := c.Payouts.Get(ctx, payoutID); return err }},
		{"guarded create", nil, func(c *fiatramp.Client) error { _, err := kind.create(ctx, c, "ref-refused"); return err }},
		{"create without reference", []fiatramp.Option{fiatramp.WithClientReferenceGenerator(nil)},
			func(c *fiatramp.Client) error { _, err := kind.create(ctx, c, ""); return err }},
		{"Do POST", nil, func(c *fiatramp.Client) error {
			return c.Do(ctx, http.MethodPost, "/pos/api/v1/anything", map[string]string{"a": "b"}, nil)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTransport(t)
			c, s := serviceClient(t, closedAddress(t), tr, append([]fiatramp.Option{fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3})}, tc.opts...)...)
			err := tc.call(c)
			requirePlain(t, err) // nothing was sent, so the outcome is known
			assert.ErrorIs(t, err, syscall.ECONNREFUSED)
			var opErr *net.OpError
			require.ErrorAs(t, err, &opErr)
			assert.Equal(t, "dial", opErr.Op)
			assert.EqualValues(t, 3, tr.attempts.Load(), "a refused connection is retried")
			assert.Len(t, s.got(), 2)
		})
	}

	t.Run("create without reference: refused, then created", func(t *testing.T) {
		srv := newService(t, answer(201, ok(kind.data)))
		tr := newTransport(t)
		tr.refuse = 1
		c, _ := serviceClient(t, srv.URL, tr, fiatramp.WithClientReferenceGenerator(nil))
		got, err := kind.create(ctx, c, "")
		require.NoError(t, err)
		assert.Equal(t, payoutID, got.id)
		assert.EqualValues(t, 2, tr.attempts.Load())
		assert.EqualValues(t, 1, srv.hits.Load())
	})
}

// ---------------------------------------------------------------------------
// client_reference_id on payout creates.

func TestReferenceGeneration(t *testing.T) {
	ctx := context.Background()
	for _, kind := range createKinds(t) {
		t.Run(kind.name, func(t *testing.T) {
			withRef := strings.Replace(kind.data, `"status"`, `"client_reference_id":"from-the-service","status"`, 1)

			t.Run("generated UUID, the same on every attempt, returned", func(t *testing.T) {
				h, _ := retryHarness(t, fiatramp.RetryPolicy{})
				rec := h.script(http.MethodPost, kind.path,
					mockReply{status: 503, body: bodyUnavailable},
					mockReply{status: 500, body: bodyInternal},
					mockReply{status: 201, body: ok(kind.data)})
				got, err := kind.create(ctx, h.client, "")
				require.NoError(t, err)
				bodies, _ := rec.seen()
				require.Len(t, bodies, 3)
				allSame(t, bodies)
				ref, present := bodyReference(t, bodies[0])
				require.True(t, present, "a generated reference is sent: %s", bodies[0])
				id, err := uuid.Parse(ref)
				require.NoError(t, err, "reference %q", ref)
				assert.Equal(t, id.String(), ref, "canonical UUID text")
				assert.Equal(t, uuid.Version(4), id.Version(), "a random UUID")
				require.NotNil(t, got.ref, "the result carries the reference sent")
				assert.Equal(t, ref, *got.ref)
			})

			t.Run("every create gets its own reference", func(t *testing.T) {
				h, _ := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 1})
				rec := h.script(http.MethodPost, kind.path, mockReply{status: 201, body: ok(kind.data)})
				for range 2 {
					_, err := kind.create(ctx, h.client, "")
					require.NoError(t, err)
				}
				bodies, _ := rec.seen()
				require.Len(t, bodies, 2)
				a, _ := bodyReference(t, bodies[0])
				b, _ := bodyReference(t, bodies[1])
				assert.NotEqual(t, a, b)
			})

			t.Run("the service's own reference wins", func(t *testing.T) {
				h, _ := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 1})
				h.script(http.MethodPost, kind.path, mockReply{status: 201, body: ok(withRef)})
				got, err := kind.create(ctx, h.client, "")
				require.NoError(t, err)
				require.NotNil(t, got.ref)
				assert.Equal(t, "from-the-service", *got.ref)
			})

			t.Run("the caller's reference is kept", func(t *testing.T) {
				h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithClientReferenceGenerator(func() (string, error) {
					t.Error("generator called although the caller gave a reference")
					return "generated", nil
				}))
				rec := h.script(http.MethodPost, kind.path, mockReply{status: 502, body: bodyUnavailable}, mockReply{status: 201, body: ok(kind.data)})
				const mine = "  Caller/Ref #1 é "
				got, err := kind.create(ctx, h.client, mine)
				require.NoError(t, err)
				bodies, _ := rec.seen()
				require.Len(t, bodies, 2)
				allSame(t, bodies)
				ref, present := bodyReference(t, bodies[0])
				require.True(t, present)
				assert.Equal(t, mine, ref, "sent untouched")
				require.NotNil(t, got.ref)
				assert.Equal(t, mine, *got.ref)
			})

			t.Run("a custom generator", func(t *testing.T) {
				h, _ := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 1},
					fiatramp.WithClientReferenceGenerator(func() (string, error) { return "acme-000042", nil }))
				rec := h.script(http.MethodPost, kind.path, mockReply{status: 201, body: ok(kind.data)})
				got, err := kind.create(ctx, h.client, "")
				require.NoError(t, err)
				bodies, _ := rec.seen()
				ref, _ := bodyReference(t, bodies[0])
				assert.Equal(t, "acme-000042", ref)
				require.NotNil(t, got.ref)
				assert.Equal(t, "acme-000042", *got.ref)
			})

			genErr := errors.New("entropy exhausted")
			for _, gen := range []struct {
				name string
				fn   func() (string, error)
				want func(t *testing.T, err error)
			}{
				{"generator error", func() (string, error) { return "x", genErr }, func(t *testing.T, err error) { assert.ErrorIs(t, err, genErr) }},
				{"generator returns empty", func() (string, error) { return "", nil }, func(t *testing.T, err error) { assert.Contains(t, err.Error(), "empty") }},
				{"generator returns blanks", func() (string, error) { return " \t", nil }, func(t *testing.T, err error) { assert.Contains(t, err.Error(), "empty") }},
			} {
				t.Run(gen.name+" sends nothing", func(t *testing.T) {
					h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithClientReferenceGenerator(gen.fn))
					rec := h.script(http.MethodPost, kind.path, mockReply{status: 201, body: ok(kind.data)})
					got, err := kind.create(ctx, h.client, "")
					require.Error(t, err)
					assert.Nil(t, got)
					assert.Contains(t, err.Error(), "client_reference_id")
					gen.want(t, err)
					assert.Zero(t, rec.hits.Load())
				})
			}

			t.Run("generation off sends no reference", func(t *testing.T) {
				h, _ := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 1}, fiatramp.WithClientReferenceGenerator(nil))
				rec := h.script(http.MethodPost, kind.path, mockReply{status: 201, body: ok(kind.data)})
				got, err := kind.create(ctx, h.client, "")
				require.NoError(t, err)
				bodies, _ := rec.seen()
				require.Len(t, bodies, 1)
				_, present := bodyReference(t, bodies[0])
				assert.False(t, present, "no client_reference_id key: %s", bodies[0])
				assert.Nil(t, got.ref)
			})
		})
	}
}

// ---------------------------------------------------------------------------
// Outcome unknown.

// outcomeCase is one script of a guarded create and what it must end in.
type outcomeCase struct {
	name    string
	policy  fiatramp.RetryPolicy
	script  []action
	hits    int
	success bool
	// unknown: an *OutcomeUnknownError with these fields; else a plain error.
	unknown  bool
	probably bool
	status   int     // the last attempt's APIError status, 0 for none
	is       []error // sentinels the error matches
}

func TestOutcomeUnknownGuardedCreate(t *testing.T) {
	html := answer(200, bodyHTML)
	cases := []outcomeCase{
		{name: "drop, then duplicate reference", script: []action{drop, answer(400, bodyDuplicate)},
			hits: 2, unknown: true, probably: true, status: 400, is: []error{fiatramp.ErrClientReferenceExists}},
		{name: "503, then quotation already linked", script: []action{answer(503, bodyUnavailable), answer(400, bodyLinked)},
			hits: 2, unknown: true, probably: true, status: 400, is: []error{fiatramp.ErrQuotationAlreadyLinked}},
		{name: "408, 504, then duplicate reference", script: []action{answer(408, ""), answer(504, ""), answer(400, bodyDuplicate)},
			hits: 3, unknown: true, probably: true, status: 400, is: []error{fiatramp.ErrClientReferenceExists}},
		{name: "drop, then duplicate refused in a 200 envelope", script: []action{drop, answer(200, bodyDuplicate)},
			hits: 2, unknown: true, probably: true, status: 200, is: []error{fiatramp.ErrClientReferenceExists}},
		{name: "500, then quotation expired", script: []action{answer(500, bodyInternal), answer(400, bodyExpired)},
			hits: 2, unknown: true, probably: false, status: 400, is: []error{fiatramp.ErrQuotationExpired}},
		{name: "drop, then a redirect", script: []action{drop, answer(302, "")},
			hits: 2, unknown: true, status: 302, is: []error{fiatramp.ErrRedirect}},
		{name: "drop every time", script: []action{drop}, hits: 5, unknown: true},
		{name: "201 cut off, then duplicate reference", script: []action{cutOff, answer(400, bodyDuplicate)},
			hits: 2, unknown: true, probably: true, status: 400, is: []error{fiatramp.ErrClientReferenceExists}},
		{name: "drop, then rate limited to the end", script: []action{drop, answer(429, bodyRateLimited)},
			policy: fiatramp.RetryPolicy{MaxAttempts: 3}, hits: 3, unknown: true, status: 429, is: []error{fiatramp.ErrRateLimited}},
		{name: "a duplicate message on the only attempt that may have acted",
			script: []action{answer(500, fail("Client Reference ID already exists", "SYS_INTERNAL_ERROR", `"dup"`))},
			policy: fiatramp.RetryPolicy{MaxAttempts: 1}, hits: 1, unknown: true, probably: false, status: 500, is: []error{fiatramp.ErrClientReferenceExists}},
		{name: "malformed 200 is not repeated", script: []action{html, answer(201, ok(`{}`))},
			hits: 1, unknown: true, status: 200, is: []error{fiatramp.ErrMalformedResponse}},
		{name: "truncated 201, then duplicate reference", script: []action{answer(201, `{"status":true,"data":{"id":"3e9f`), answer(400, bodyDuplicate)},
			hits: 2, unknown: true, probably: true, status: 400, is: []error{fiatramp.ErrClientReferenceExists}},
		{name: "empty 201, then duplicate reference", script: []action{answer(201, ""), answer(400, bodyDuplicate)},
			hits: 2, unknown: true, probably: true, status: 400, is: []error{fiatramp.ErrClientReferenceExists}},
		{name: "truncated 201 every time", script: []action{answer(201, `{"status":true,"data":{"id":"3e9f`)},
			hits: 5, unknown: true, status: 201, is: []error{fiatramp.ErrMalformedResponse}},
		{name: "303 See Other is not repeated", script: []action{answer(303, ""), answer(201, ok(`{}`))},
			hits: 1, unknown: true, status: 303, is: []error{fiatramp.ErrRedirect}},
		{name: "429, then duplicate reference: the caller reused it", script: []action{answer(429, bodyRateLimited), answer(400, bodyDuplicate)},
			hits: 2, status: 400, is: []error{fiatramp.ErrClientReferenceExists}},
		{name: "duplicate reference at once", script: []action{answer(400, bodyDuplicate)},
			hits: 1, status: 400, is: []error{fiatramp.ErrClientReferenceExists}},
		{name: "drop, then created", script: []action{drop, answer(201, "")}, hits: 2, success: true},
		{name: "503, 429, then created", script: []action{answer(503, bodyUnavailable), answer(429, bodyRateLimited), answer(201, "")}, hits: 3, success: true},
	}
	ctx := context.Background()
	for _, kind := range createKinds(t) {
		for _, tc := range cases {
			t.Run(kind.name+"/"+tc.name, func(t *testing.T) {
				script := append([]action(nil), tc.script...)
				if tc.success { // the created payout of this kind
					script[len(script)-1] = answer(201, ok(kind.data))
				}
				srv := newService(t, script...)
				tr := newTransport(t)
				c, _ := serviceClient(t, srv.URL, tr, fiatramp.WithRetry(tc.policy))
				const ref = "ref-outcome-7"
				got, err := kind.create(ctx, c, ref)
				assert.EqualValues(t, tc.hits, srv.hits.Load(), "requests")
				assert.EqualValues(t, tc.hits, tr.attempts.Load(), "attempts")
				allSame(t, srv.seen())
				if sent, _ := bodyReference(t, srv.seen()[0]); sent != ref {
					t.Errorf("sent reference %q, want %q", sent, ref)
				}
				if tc.success {
					require.NoError(t, err)
					assert.Equal(t, payoutID, got.id)
					return
				}
				checkOutcome(t, err, tc, kind.path, ref, quotationID)
			})
		}
	}
}

// checkOutcome checks err against tc.
func checkOutcome(t *testing.T, err error, tc outcomeCase, path, ref string, quotation uuid.UUID) {
	t.Helper()
	require.Error(t, err)
	// last is the last attempt's error: err itself, or an outcome
	// unknown's Err.
	last := err
	var ou *fiatramp.OutcomeUnknownError
	if tc.unknown {
		ou = requireOutcomeUnknown(t, err)
		last = ou.Err
	} else {
		requirePlain(t, err)
	}
	for _, s := range tc.is {
		assert.ErrorIs(t, last, s)
	}
	if tc.status != 0 {
		requireAPIError(t, last, tc.status)
	} else {
		var apiErr *fiatramp.APIError
		assert.False(t, errors.As(last, &apiErr), "no response, no APIError: %v", last)
	}
	if !tc.unknown {
		return
	}
	assert.Equal(t, ref, ou.ClientReferenceID)
	assert.Equal(t, quotation, ou.QuotationID)
	assert.Equal(t, http.MethodPost, ou.Method)
	assert.Equal(t, path, ou.Path)
	assert.Equal(t, tc.hits, ou.Attempts)
	assert.Equal(t, tc.probably, ou.ProbablyCreated)
	msg := err.Error()
	assert.Contains(t, msg, "outcome unknown")
	if ref != "" {
		assert.Contains(t, msg, ref)
	}
	if quotation != uuid.Nil {
		assert.Contains(t, msg, quotation.String())
	}
	assert.Contains(t, msg, "attempts: "+strconv.Itoa(tc.hits))
	if tc.probably {
		assert.Contains(t, msg, "probably created")
	} else {
		assert.NotContains(t, msg, "probably")
		assert.Contains(t, msg, "may have taken effect")
	}
}

func TestOutcomeUnknownGeneratedReference(t *testing.T) {
	kind := createKinds(t)[1]
	srv := newService(t, drop, answer(400, bodyDuplicate))
	c, _ := serviceClient(t, srv.URL, newTransport(t))
	_, err := kind.create(context.Background(), c, "")
	ou := requireOutcomeUnknown(t, err)
	bodies := srv.seen()
	require.Len(t, bodies, 2)
	allSame(t, bodies)
	ref, present := bodyReference(t, bodies[0])
	require.True(t, present)
	assert.Equal(t, ref, ou.ClientReferenceID, "the error names the reference sent")
	assert.True(t, ou.ProbablyCreated)
	assert.Contains(t, err.Error(), ref)
}

func TestOutcomeUnknownNotForReads(t *testing.T) {
	ctx := context.Background()
	t.Run("malformed 200", func(t *testing.T) {
		srv := newService(t, answer(200, bodyHTML), answer(200, ok(gotPayout)))
		c, _ := serviceClient(t, srv.URL, newTransport(t))
		_, err := c.Payouts.Get(ctx, payoutID)
		requirePlain(t, err)
		requireAPIError(t, err, 200)
		assert.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
		assert.EqualValues(t, 1, srv.hits.Load(), "a malformed answer is not repeated")
	})
	t.Run("201 cut off, then whole", func(t *testing.T) {
		srv := newService(t, cutOff, answer(200, ok(gotPayout)))
		c, _ := serviceClient(t, srv.URL, newTransport(t))
		p, err := c.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
		assert.Equal(t, payoutID, p.ID)
		assert.EqualValues(t, 2, srv.hits.Load())
	})
	t.Run("drop every time", func(t *testing.T) {
		srv := newService(t, drop)
		c, s := serviceClient(t, srv.URL, newTransport(t))
		_, err := c.Payouts.Get(ctx, payoutID)
		requirePlain(t, err)
		assert.EqualValues(t, 5, srv.hits.Load())
		assert.Len(t, s.got(), 4)
	})
	t.Run("typed non-payout POST is repeatable", func(t *testing.T) {
		srv := newService(t, drop, answer(200, ok(`{"id":"61c2517e-9fa0-4cbb-90d4-8d7f2e405167","customer_id":"0b6c9b1e-3f4a-4c55-9a7e-2d1f6e8a9b01","wallet_address":"TXYZ"}`)))
		c, _ := serviceClient(t, srv.URL, newTransport(t))
		_, err := c.Customers.AddWallet(ctx, types.AddWalletRequest{CustomerID: customerID, WalletAddress: "TXYZ"})
		require.NoError(t, err)
		assert.EqualValues(t, 2, srv.hits.Load())
	})
}

func TestOutcomeUnknownOneShotCreate(t *testing.T) {
	noRef := fiatramp.WithClientReferenceGenerator(nil)
	cases := []outcomeCase{
		{name: "drop", script: []action{drop, answer(201, "")}, hits: 1, unknown: true},
		{name: "201 cut off", script: []action{cutOff, answer(201, "")}, hits: 1, unknown: true},
		{name: "408", script: []action{answer(408, ""), answer(201, "")}, hits: 1, unknown: true, status: 408},
		{name: "500", script: []action{answer(500, bodyInternal), answer(201, "")}, hits: 1, unknown: true, status: 500, is: []error{fiatramp.ErrInternal}},
		{name: "502", script: []action{answer(502, bodyHTML), answer(201, "")}, hits: 1, unknown: true, status: 502, is: []error{fiatramp.ErrUnavailable}},
		{name: "503", script: []action{answer(503, bodyUnavailable), answer(201, "")}, hits: 1, unknown: true, status: 503, is: []error{fiatramp.ErrUnavailable}},
		{name: "504", script: []action{answer(504, ""), answer(201, "")}, hits: 1, unknown: true, status: 504},
		{name: "malformed 200", script: []action{answer(200, bodyHTML), answer(201, "")}, hits: 1, unknown: true, status: 200, is: []error{fiatramp.ErrMalformedResponse}},
		{name: "429, then drop", script: []action{answer(429, bodyRateLimited), drop}, hits: 2, unknown: true},
		{name: "429 to the end", policy: fiatramp.RetryPolicy{MaxAttempts: 3}, script: []action{answer(429, bodyRateLimited)}, hits: 3, status: 429, is: []error{fiatramp.ErrRateLimited}},
		{name: "400", script: []action{answer(400, bodyExpired)}, hits: 1, status: 400, is: []error{fiatramp.ErrQuotationExpired}},
		{name: "429, then created", script: []action{answer(429, bodyRateLimited), answer(201, "")}, hits: 2, success: true},
	}
	ctx := context.Background()
	for _, kind := range createKinds(t) {
		for _, tc := range cases {
			t.Run(kind.name+"/"+tc.name, func(t *testing.T) {
				script := append([]action(nil), tc.script...)
				if tc.success { // the created payout of this kind
					script[len(script)-1] = answer(201, ok(kind.data))
				}
				srv := newService(t, script...)
				c, _ := serviceClient(t, srv.URL, newTransport(t), fiatramp.WithRetry(tc.policy), noRef)
				got, err := kind.create(ctx, c, "")
				assert.EqualValues(t, tc.hits, srv.hits.Load(), "requests")
				_, present := bodyReference(t, srv.seen()[0])
				assert.False(t, present, "no reference sent")
				if tc.success {
					require.NoError(t, err)
					assert.Equal(t, payoutID, got.id)
					assert.Nil(t, got.ref)
					return
				}
				checkOutcome(t, err, tc, kind.path, "", quotationID)
			})
		}
	}
}

func TestOutcomeUnknownDo(t *testing.T) {
	ctx := context.Background()
	const path = "/pos/api/v1/some/operation"
	done := answer(200, ok(`{}`))
	for _, tc := range []struct {
		name    string
		method  string
		script  []action
		hits    int
		unknown bool
	}{
		{"drop", http.MethodPost, []action{drop, done}, 1, true},
		{"drop", http.MethodPatch, []action{drop, done}, 1, true},
		{"503", http.MethodPost, []action{answer(503, bodyUnavailable), done}, 1, true},
		{"body cut off", http.MethodPost, []action{cutOff, done}, 1, true},
		{"429, then done", http.MethodPost, []action{answer(429, bodyRateLimited), done}, 2, false},
		{"drop, then done", http.MethodGet, []action{drop, done}, 2, false},
		{"drop, then done", http.MethodPut, []action{drop, done}, 2, false},
		{"503, then done", http.MethodDelete, []action{answer(503, bodyUnavailable), done}, 2, false},
		{"drop, then done", http.MethodOptions, []action{drop, done}, 2, false},
	} {
		t.Run(tc.method+"/"+tc.name, func(t *testing.T) {
			srv := newService(t, tc.script...)
			c, _ := serviceClient(t, srv.URL, newTransport(t))
			var body any
			if tc.method != http.MethodGet && tc.method != http.MethodHead {
				body = map[string]string{"k": "v"}
			}
			var out json.RawMessage
			err := c.Do(ctx, tc.method, path, body, &out)
			assert.EqualValues(t, tc.hits, srv.hits.Load(), "requests")
			if !tc.unknown {
				require.NoError(t, err)
				assert.JSONEq(t, `{}`, string(out))
				return
			}
			ou := requireOutcomeUnknown(t, err)
			assert.Equal(t, "", ou.ClientReferenceID)
			assert.Equal(t, uuid.Nil, ou.QuotationID)
			assert.Equal(t, tc.method, ou.Method)
			assert.Equal(t, path, ou.Path)
			assert.Equal(t, 1, ou.Attempts)
			assert.False(t, ou.ProbablyCreated)
			assert.NotContains(t, err.Error(), "quotation_id")
		})
	}
}

func TestOutcomeUnknownCallerCancelsInFlight(t *testing.T) {
	run := func(t *testing.T, call func(ctx context.Context, c *fiatramp.Client) error, opts ...fiatramp.Option) (*fakeService, error) {
		srv := newService(t, hang, answer(201, ok(createKinds(t)[0].data)))
		// The per-attempt timeout only keeps a lost cancellation from
		// hanging the test.
		c, s := serviceClient(t, srv.URL, newTransport(t), append([]fiatramp.Option{fiatramp.WithTimeout(5 * time.Second)}, opts...)...)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-srv.received: // the request, body and all, is at the service
				cancel()
			case <-srv.stop:
			}
		}()
		err := call(ctx, c)
		assert.EqualValues(t, 1, srv.hits.Load(), "no retry after the caller gave up")
		assert.Empty(t, s.got())
		return srv, err
	}
	kind := createKinds(t)[0]
	t.Run("guarded create", func(t *testing.T) {
		_, err := run(t, func(ctx context.Context, c *fiatramp.Client) error {
			_, err := kind.create(ctx, c, "ref-cancel")
			return err
		})
		ou := requireOutcomeUnknown(t, err)
		assert.ErrorIs(t, ou.Err, context.Canceled)
		assert.Equal(t, "ref-cancel", ou.ClientReferenceID)
		assert.Equal(t, 1, ou.Attempts)
	})
	t.Run("create without reference", func(t *testing.T) {
		_, err := run(t, func(ctx context.Context, c *fiatramp.Client) error { _, err := kind.create(ctx, c, ""); return err },
			fiatramp.WithClientReferenceGenerator(nil))
		ou := requireOutcomeUnknown(t, err)
		assert.ErrorIs(t, ou.Err, context.Canceled)
	})
	t.Run("read", func(t *testing.T) {
		_, err := run(t, func(ctx context.Context, c *fiatramp.Client) error {
			_, err := c.Payouts.Get(ctx, payoutID)
			return err
		})
		requirePlain(t, err)
		assert.ErrorIs(t, err, context.Canceled)
	})
}

// ---------------------------------------------------------------------------
// Logging.

// logLines decodes the JSON lines of a slog.JSONHandler.
func logLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(buf.Bytes()))
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), "log line %s", sc.Bytes())
		out = append(out, m)
	}
	require.NoError(t, sc.Err())
	return out
}

func TestRetryLogging(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h, s := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithLogger(logger))
	kind := createKinds(t)[0]
	rec := h.script(http.MethodPost, kind.path,
		mockReply{status: 503, body: bodyUnavailable},
		mockReply{status: 429, body: bodyRateLimited, header: map[string]string{"Retry-After": "2"}},
		mockReply{status: 201, body: ok(kind.data)})
	const ref = "ref-LOGCHECK-71b3"
	_, err := kind.create(context.Background(), h.client, ref)
	require.NoError(t, err)

	lines := logLines(t, &buf)
	require.Len(t, lines, 3, "one record per attempt:\n%s", buf.String())
	wantStatus := []float64{503, 429, 201}
	delays := s.got()
	require.Equal(t, []time.Duration{time.Second, 2 * time.Second}, delays)
	for i, l := range lines {
		assert.Equal(t, "fiatramp request", l["msg"])
		assert.Equal(t, "DEBUG", l["level"])
		assert.Equal(t, http.MethodPost, l["method"])
		assert.Equal(t, "/gateway"+kind.path, l["path"])
		assert.EqualValues(t, i+1, l["attempt"])
		assert.Equal(t, wantStatus[i], l["status"])
		assert.Contains(t, l, "duration")
		last := i == len(lines)-1
		if last {
			assert.NotContains(t, l, "retry_in", "no attempt follows the last")
			assert.NotContains(t, l, "error", "the last attempt succeeded")
		} else {
			assert.EqualValues(t, delays[i], l["retry_in"], "retry_in of attempt %d", i+1)
			assert.Contains(t, l["error"], strconv.Itoa(int(wantStatus[i])))
		}
	}

	bodies, headers := rec.seen()
	out := buf.String()
	secrets := []string{testSecret, testKey, bodies[0], ref, "fiatramp-go/"}
	for _, hd := range headers {
		secrets = append(secrets, hd.Get("X-SIGNATURE"))
	}
	for _, s := range secrets {
		assert.NotContains(t, out, s)
	}

	t.Run("a transport error is logged, failure to the end", func(t *testing.T) {
		var buf bytes.Buffer
		logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
		srv := newService(t, drop)
		c, _ := serviceClient(t, srv.URL, newTransport(t), fiatramp.WithLogger(logger), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3}))
		_, err := c.Payouts.Get(context.Background(), payoutID)
		require.Error(t, err)
		lines := logLines(t, &buf)
		require.Len(t, lines, 3)
		for i, l := range lines {
			assert.EqualValues(t, i+1, l["attempt"])
			assert.EqualValues(t, 0, l["status"])
			assert.Contains(t, l, "error")
			if i < 2 {
				assert.Contains(t, l, "retry_in")
			} else {
				assert.NotContains(t, l, "retry_in")
			}
		}
		assert.NotContains(t, buf.String(), testSecret)
	})

	t.Run("nothing above debug", func(t *testing.T) {
		var buf bytes.Buffer
		logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithLogger(logger))
		h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 200, body: ok(gotPayout)})
		_, err := h.client.Payouts.Get(context.Background(), payoutID)
		require.NoError(t, err)
		assert.Empty(t, buf.String())
	})
}

// ---------------------------------------------------------------------------
// Failures no repeat can mend.

// TestRetryNotForCallerBugs: a Do whose out cannot be written to would fail
// alike on every attempt, after a 2xx that for a POST means the operation
// ran; it is refused before anything is sent.
func TestRetryNotForCallerBugs(t *testing.T) {
	ctx := context.Background()
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		for name, out := range map[string]any{"struct": struct{ A int }{}, "nil pointer": (*struct{ A int })(nil)} {
			t.Run(method+"/"+name, func(t *testing.T) {
				srv := newService(t, answer(200, ok(`{"a":1}`)))
				tr := newTransport(t)
				c, s := serviceClient(t, srv.URL, tr)
				var body any
				if method == http.MethodPost {
					body = map[string]int{"a": 1}
				}
				err := c.Do(ctx, method, "/pos/api/v1/anything", body, out)
				requirePlain(t, err)
				assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
				assert.Zero(t, tr.attempts.Load(), "nothing sent")
				assert.Empty(t, s.got(), "no wait")
			})
		}
	}
}

// TestOutcomeUnknownNotBeforeSending: a create whose context is already
// done sends nothing, so its outcome is known: nothing happened.
func TestOutcomeUnknownNotBeforeSending(t *testing.T) {
	for _, kind := range createKinds(t) {
		t.Run(kind.name, func(t *testing.T) {
			srv := newService(t, answer(201, ok(kind.data)))
			tr := newTransport(t)
			c, s := serviceClient(t, srv.URL, tr)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			got, err := kind.create(ctx, c, "ref-never-sent")
			assert.Nil(t, got)
			requirePlain(t, err)
			assert.ErrorIs(t, err, context.Canceled)
			assert.Zero(t, srv.hits.Load(), "nothing sent")
			assert.LessOrEqual(t, tr.attempts.Load(), int32(1))
			assert.Empty(t, s.got())
		})
	}
}

// The table of failure classes that README.md shows under "Retries, and
// payouts that never pay twice". TestVerdictTable makes every class happen
// to every kind of call and checks what the call does; it then renders the
// table from the same rows and requires README.md to hold it verbatim, so
// the README cannot say one thing while the code does another.

// callKind is a kind of call, by what repeating it could do.
type callKind int

const (
	readCall    callKind = iota // Payouts.Get: a repeat does no harm
	refCreate                   // Payouts.Create with a client_reference_id
	noRefCreate                 // Payouts.Create without one
	doPost                      // Client.Do with POST
	numCallKinds
)

func (k callKind) String() string {
	return [...]string{"read", "create with a reference", "create without a reference", "Do POST"}[k]
}

// verdictCase is one way a class of failure shows up.
type verdictCase struct {
	name    string
	actions []action          // what the service does on every request
	opts    []fiatramp.Option // extra client options
	setup   func(*verdictEnv) // instead of actions: builds the service
	is      error             // a sentinel the read's error matches
	status  int               // the read's APIError status (0: none)
	call    func(*verdictEnv) // runs before the call (e.g. to cancel)
	ctx     func() (context.Context, context.CancelFunc)
	// typedOnly: the case concerns a result type of package types; Do
	// with a type of the caller's own does not see it (and succeeds).
	typedOnly bool
}

// verdictRow is one row of the README table and the behaviour it promises.
type verdictRow struct {
	failure string
	// retried says whether each kind of call makes a second attempt;
	// doPost follows noRefCreate.
	retried [3]bool
	once    bool // repeated exactly once whatever the policy (clock skew)
	// unknown: a create or Do POST ends in *OutcomeUnknownError.
	unknown bool
	sees    string // what a read returns
	cases   []verdictCase
}

// verdictEnv is the service and client of one case.
type verdictEnv struct {
	t       *testing.T
	baseURL string
	tr      *attemptCounter
	srv     *fakeService
	cancel  context.CancelFunc
}

func redirectTo(status int) action {
	return func(_ *fakeService, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Location", "https://elsewhere.test/done")
		w.WriteHeader(status)
	}
}

func verdictRows() []verdictRow {
	statuses := func(codes []int, body string, is error) []verdictCase {
		var cs []verdictCase
		for _, code := range codes {
			cs = append(cs, verdictCase{name: strconv.Itoa(code), actions: []action{answer(code, body)}, is: is, status: code})
		}
		return cs
	}
	var redirects []verdictCase
	for _, code := range []int{301, 302, 303, 307, 308} {
		redirects = append(redirects, verdictCase{name: strconv.Itoa(code), actions: []action{redirectTo(code)}, is: fiatramp.ErrRedirect, status: code})
	}
	refusals := []verdictCase{
		{name: "400", actions: []action{answer(400, bodyExpired)}, is: fiatramp.ErrQuotationExpired, status: 400},
		{name: "401", actions: []action{answer(401, fail("Unauthorized", "AUTH_INVALID_SIGNATURE", `{}`))}, is: fiatramp.ErrUnauthorized, status: 401},
		{name: "403", actions: []action{answer(403, fail("This endpoint is not available for your organization.", "FORBIDDEN", `{}`))}, is: fiatramp.ErrNotEntitled, status: 403},
		{name: "404", actions: []action{answer(404, bodyHTML)}, status: 404},
		{name: "409", actions: []action{answer(409, bodyDuplicate)}, is: fiatramp.ErrClientReferenceExists, status: 409},
		{name: "422", actions: []action{answer(422, fail("Invalid input", "REQ_FIELD_MISSING", `{"payout_id":["This field is required."]}`))}, is: fiatramp.ErrFieldMissing, status: 422},
	}
	truncated := `{"status":true,"message":"Success","data":{"id":"3e9f2e4b-6c7d`
	return []verdictRow{
		{
			failure: "connection refused, DNS failure",
			retried: [3]bool{true, true, true},
			sees:    "the network error, wrapped",
			cases: []verdictCase{{name: "refused", setup: func(e *verdictEnv) {
				e.srv = newService(e.t, answer(200, ok(gotPayout)))
				e.baseURL = e.srv.URL
				e.tr.refuse = 1 << 20
			}, is: syscall.ECONNREFUSED}},
		},
		{
			failure: "429",
			retried: [3]bool{true, true, true},
			sees:    "`*APIError` matching `ErrRateLimited`",
			cases:   statuses([]int{429}, bodyRateLimited, fiatramp.ErrRateLimited),
		},
		{
			failure: "connection broken after sending, attempt timed out",
			retried: [3]bool{true, true, false},
			unknown: true,
			sees:    "the network error, wrapped",
			cases: []verdictCase{
				{name: "dropped", actions: []action{drop}},
				{name: "timed out", actions: []action{hang}, opts: []fiatramp.Option{fiatramp.WithTimeout(50 * time.Millisecond)}, is: context.DeadlineExceeded},
			},
		},
		{
			failure: "408, 500, 502, 503, 504",
			retried: [3]bool{true, true, false},
			unknown: true,
			sees:    "`*APIError` (`ErrInternal`, `ErrUnavailable`)",
			cases:   statuses([]int{408, 500, 502, 503, 504}, bodyHTML, nil),
		},
		{
			failure: "400 (or a 2xx with status false) with `err_code` NET_TIMEOUT or UNKNOWN_ERROR: the service gave up on the request",
			retried: [3]bool{true, true, false},
			unknown: true,
			sees:    "`*APIError` matching `ErrServiceTimeout` or `ErrServiceUnknown`",
			cases: []verdictCase{
				{name: "NET_TIMEOUT", actions: []action{answer(400, fail("Request timed out", "NET_TIMEOUT", `{}`))}, is: fiatramp.ErrServiceTimeout, status: 400},
				{name: "UNKNOWN_ERROR", actions: []action{answer(400, fail("Something went wrong", "UNKNOWN_ERROR", `{}`))}, is: fiatramp.ErrServiceUnknown, status: 400},
				{name: "unknown_error in a 2xx refusal", actions: []action{answer(200, fail("Something went wrong", "unknown_error", `null`))}, is: fiatramp.ErrServiceUnknown, status: 200},
			},
		},
		{
			failure: "a body broken off while read; a 2xx body that ends early (truncated JSON, empty)",
			retried: [3]bool{true, true, false},
			unknown: true,
			sees:    "the read error, or `*APIError` matching `ErrMalformedResponse`",
			cases: []verdictCase{
				{name: "201 broken off", actions: []action{cutOff}},
				{name: "truncated 201", actions: []action{answer(201, truncated)}, is: fiatramp.ErrMalformedResponse, status: 201},
				{name: "empty 200", actions: []action{answer(200, "")}, is: fiatramp.ErrMalformedResponse, status: 200},
				{name: "blank 200", actions: []action{answer(200, " \n")}, is: fiatramp.ErrMalformedResponse, status: 200},
			},
		},
		{
			failure: "a whole 2xx that is not an envelope, whose data does not decode or lacks a member the result cannot be used without (a payout's `id`, `status`), or over the size cap",
			retried: [3]bool{false, false, false},
			unknown: true,
			sees:    "`*APIError` matching `ErrMalformedResponse`",
			cases: []verdictCase{
				{name: "HTML 200", actions: []action{answer(200, bodyHTML)}, is: fiatramp.ErrMalformedResponse, status: 200},
				{name: "no status", actions: []action{answer(200, `{"message":"Success","data":{}}`)}, is: fiatramp.ErrMalformedResponse, status: 200},
				{name: "data that does not decode", actions: []action{answer(201, ok(`{"id":"not-a-uuid"}`))}, is: fiatramp.ErrMalformedResponse, status: 201},
				{name: "data without an id", actions: []action{answer(201, ok(`{"id":null,"status":"PROCESSING"}`))}, is: fiatramp.ErrMalformedResponse, status: 201, typedOnly: true},
				{name: "data without a status", actions: []action{answer(200, ok(`{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34"}`))}, is: fiatramp.ErrMalformedResponse, status: 200, typedOnly: true},
				{name: "over the cap", actions: []action{answer(201, ok(`{"pad":"`+strings.Repeat("x", 200)+`"}`))},
					opts: []fiatramp.Option{fiatramp.WithMaxResponseBytes(100)}, is: fiatramp.ErrMalformedResponse, status: 201},
			},
		},
		{
			failure: "a 2xx envelope with status false",
			retried: [3]bool{false, false, false},
			sees:    "`*APIError` with the refusal's sentinel",
			cases:   statuses([]int{200, 201}, bodyExpired, fiatramp.ErrQuotationExpired),
		},
		{
			failure: "3xx (never followed)",
			retried: [3]bool{false, false, false},
			unknown: true,
			sees:    "`*APIError` matching `ErrRedirect`",
			cases:   redirects,
		},
		{
			failure: "other 4xx",
			retried: [3]bool{false, false, false},
			sees:    "`*APIError` with its sentinel",
			cases:   refusals,
		},
		{
			failure: "other 5xx (501, 505, a proxy's 52x), a status of no class",
			retried: [3]bool{false, false, false},
			unknown: true,
			sees:    "`*APIError`",
			cases:   statuses([]int{501, 505, 520, 524, 599, 600, 999}, bodyHTML, nil),
		},
		{
			failure: "TLS certificate error",
			retried: [3]bool{false, false, false},
			sees:    "the TLS error, wrapped",
			cases: []verdictCase{{name: "untrusted certificate", setup: func(e *verdictEnv) {
				srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					_, _ = w.Write([]byte(ok(gotPayout)))
				}))
				srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
				srv.StartTLS()
				e.t.Cleanup(srv.Close)
				e.baseURL = srv.URL
				e.srv = nil
			}}},
		},
		{
			failure: "timestamp refused (`ErrClockSkew`) under `WithClockCorrection`",
			once:    true,
			sees:    "`*APIError` matching `ErrClockSkew` if refused again",
			cases: []verdictCase{{name: "401 expired timestamp",
				actions: []action{answer(401, fail("Timestamp expired", "AUTH_TIMESTAMP_EXPIRED", `{}`))},
				opts:    []fiatramp.Option{fiatramp.WithClockCorrection()}, is: fiatramp.ErrClockSkew, status: 401}},
		},
		{
			failure: "your context ends while a request is in flight, or while its answer is read or decoded",
			unknown: true,
			sees:    "the context's error, wrapped",
			cases: []verdictCase{{name: "cancelled", actions: []action{hang}, is: context.Canceled,
				call: func(e *verdictEnv) {
					go func() {
						<-e.srv.received
						e.cancel()
					}()
				}}},
		},
		{
			failure: "your context is done before the call",
			sees:    "the context's error, wrapped; nothing is sent",
			cases: []verdictCase{{name: "cancelled", actions: []action{answer(200, ok(gotPayout))}, is: context.Canceled,
				ctx: func() (context.Context, context.CancelFunc) {
					ctx, cancel := context.WithCancel(context.Background())
					cancel()
					return ctx, cancel
				}}},
		},
	}
}

// renderVerdictTable is the README table of rows.
func renderVerdictTable(rows []verdictRow) string {
	var b strings.Builder
	b.WriteString("| Failure | Retried? | May the service have acted? | A read returns | A payout create, `Do` POST/PATCH return |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for _, r := range rows {
		retried := "no"
		switch {
		case r.once:
			retried = "once, re-signed with the corrected clock"
		case r.retried == [3]bool{true, true, true}:
			retried = "yes"
		case r.retried == [3]bool{true, true, false}:
			retried = "yes, except a create without a reference and `Do` POST/PATCH"
		}
		acted, creates := "no", "the same"
		if r.unknown {
			acted, creates = "yes", "`*OutcomeUnknownError`"
		}
		b.WriteString("| " + r.failure + " | " + retried + " | " + acted + " | " + r.sees + " | " + creates + " |\n")
	}
	return b.String()
}

func TestVerdictTable(t *testing.T) {
	rows := verdictRows()
	for _, row := range rows {
		for _, vc := range row.cases {
			for kind := callKind(0); kind < numCallKinds; kind++ {
				if vc.typedOnly && kind == doPost {
					continue
				}
				t.Run(row.failure+"/"+vc.name+"/"+kind.String(), func(t *testing.T) {
					runVerdictCase(t, row, vc, kind)
				})
			}
		}
	}

	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	if table := renderVerdictTable(rows); !strings.Contains(string(readme), table) {
		t.Errorf("README.md's table of failures must be the one this test checks:\n%s", table)
	}
}

func runVerdictCase(t *testing.T, row verdictRow, vc verdictCase, kind callKind) {
	e := &verdictEnv{t: t, tr: newTransport(t)}
	if vc.setup != nil {
		vc.setup(e)
	} else {
		e.srv = newService(t, vc.actions...)
		e.baseURL = e.srv.URL
	}
	// Two attempts at most: a second request shows a retry. No waits.
	opts := append([]fiatramp.Option{fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 2})}, vc.opts...)
	if kind == noRefCreate {
		opts = append(opts, fiatramp.WithClientReferenceGenerator(nil))
	}
	c, _ := serviceClient(t, e.baseURL, e.tr, opts...)

	var (
		ctx    context.Context
		cancel context.CancelFunc
		err    error
	)
	if vc.ctx != nil {
		ctx, cancel = vc.ctx()
	} else {
		ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	}
	defer cancel()
	e.cancel = cancel
	if vc.call != nil {
		vc.call(e)
	}

	switch kind {
	case readCall:
		p, err2 := c.Payouts.Get(ctx, payoutID)
		assert.Nil(t, p)
		err = err2
	case refCreate, noRefCreate:
		ref := ""
		if kind == refCreate {
			ref = "ref-verdict-1"
		}
		p, err2 := c.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: ref})
		assert.Nil(t, p)
		err = err2
	case doPost:
		var out struct {
			ID uuid.UUID `json:"id"`
		}
		err = c.Do(ctx, http.MethodPost, "/pos/api/v1/some/operation", map[string]string{"k": "v"}, &out)
	}
	require.Error(t, err)

	retried := row.retried[min(kind, noRefCreate)]
	wantAttempts := int32(1)
	switch {
	case vc.ctx != nil:
		wantAttempts = 0
	case retried || row.once:
		wantAttempts = 2
	}
	assert.Equal(t, wantAttempts, e.tr.attempts.Load(), "attempts")
	if e.srv != nil && e.tr.refuse == 0 && vc.ctx == nil {
		assert.Equal(t, wantAttempts, e.srv.hits.Load(), "requests the service received")
	}

	last := err
	if kind != readCall && row.unknown {
		last = requireOutcomeUnknown(t, err).Err
	} else {
		requirePlain(t, err)
	}
	if vc.is != nil {
		assert.ErrorIs(t, last, vc.is)
	}
	var apiErr *fiatramp.APIError
	if vc.status != 0 {
		require.ErrorAs(t, last, &apiErr)
		assert.Equal(t, vc.status, apiErr.StatusCode)
	} else {
		assert.False(t, errors.As(last, &apiErr), "no answer, no APIError: %v", last)
	}
}
