package fiatramp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

type ctxKey string

// recorder is an Observer that records every event, and tags the contexts
// it returns so that a test can see which context reaches what.
type recorder struct {
	mu       sync.Mutex
	events   []string // "start", "attempt N", "end N", "done"
	calls    []fiatramp.CallInfo
	attempts []fiatramp.AttemptInfo
	results  []fiatramp.CallResult
	ctxSeen  []string // the tags on the context of each event
}

func tags(ctx context.Context) string {
	call, _ := ctx.Value(ctxKey("call")).(string)
	attempt, _ := ctx.Value(ctxKey("attempt")).(string)
	return call + "/" + attempt
}

func (r *recorder) StartCall(ctx context.Context, call fiatramp.CallInfo) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "start")
	r.calls = append(r.calls, call)
	r.ctxSeen = append(r.ctxSeen, tags(ctx))
	return context.WithValue(ctx, ctxKey("call"), call.Operation)
}

func (r *recorder) StartAttempt(ctx context.Context, call fiatramp.CallInfo, n int) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf("attempt %d", n))
	r.ctxSeen = append(r.ctxSeen, tags(ctx))
	return context.WithValue(ctx, ctxKey("attempt"), fmt.Sprint(n))
}

func (r *recorder) EndAttempt(ctx context.Context, a fiatramp.AttemptInfo) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf("end %d", a.Attempt))
	r.attempts = append(r.attempts, a)
	r.ctxSeen = append(r.ctxSeen, tags(ctx))
}

func (r *recorder) EndCall(ctx context.Context, res fiatramp.CallResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "done")
	r.results = append(r.results, res)
	r.ctxSeen = append(r.ctxSeen, tags(ctx))
}

// dump is everything the observer was given, formatted every way a
// careless exporter might.
func (r *recorder) dump() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return fmt.Sprintf("%#v %+v %v %#v %+v %#v %+v", r.calls, r.calls, r.attempts, r.attempts, r.results, r.results, r.events)
}

func TestObserverSeesEveryAttemptAndTheOutcome(t *testing.T) {
	rec := new(recorder)
	h, s := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithObserver(rec))
	kind := createKinds(t)[0]
	var transportTags []string
	var mu sync.Mutex
	replies := []mockReply{
		{status: 503, body: bodyUnavailable, header: map[string]string{"X-Request-Id": "req-HEADER-VALUE-1"}},
		{status: 429, body: bodyRateLimited, header: map[string]string{"Retry-After": "2"}},
		{status: 201, body: ok(kind.data)},
	}
	var hits int
	h.mock.RegisterResponder(http.MethodPost, testBase+kind.path, func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		transportTags = append(transportTags, tags(req.Context()))
		r := replies[hits]
		hits++
		resp := httpmock.NewStringResponse(r.status, r.body)
		for k, v := range r.header {
			resp.Header.Set(k, v)
		}
		return resp, nil
	})
	const ref = "ref-OBSERVED-9c1d"
	_, err := kind.create(context.Background(), h.client, ref)
	require.NoError(t, err)

	assert.Equal(t, []string{"start", "attempt 1", "end 1", "attempt 2", "end 2", "attempt 3", "end 3", "done"}, rec.events)
	// StartCall's context is the attempts' parent; StartAttempt's reaches
	// the transport and EndAttempt; EndCall gets the call's.
	assert.Equal(t, []string{"/", "Payouts.Create/", "Payouts.Create/1", "Payouts.Create/", "Payouts.Create/2",
		"Payouts.Create/", "Payouts.Create/3", "Payouts.Create/"}, rec.ctxSeen)
	assert.Equal(t, []string{"Payouts.Create/1", "Payouts.Create/2", "Payouts.Create/3"}, transportTags)

	info := fiatramp.CallInfo{Operation: "Payouts.Create", Method: "POST", Route: "/pos/api/v1/payout/initiate", Server: "api.fiatramp.test", ServerPort: 443, Scheme: "https"}
	assert.Equal(t, []fiatramp.CallInfo{info}, rec.calls)
	require.Len(t, rec.attempts, 3)
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second}, s.got())
	want := []fiatramp.AttemptInfo{
		{CallInfo: info, Attempt: 1, StatusCode: 503, ErrorClass: fiatramp.ErrorClassUnavailable, Retry: true, RetryDelay: time.Second},
		{CallInfo: info, Attempt: 2, StatusCode: 429, ErrorClass: fiatramp.ErrorClassRateLimited, Retry: true, RetryDelay: 2 * time.Second},
		{CallInfo: info, Attempt: 3, StatusCode: 201},
	}
	for i := range rec.attempts {
		assert.GreaterOrEqual(t, rec.attempts[i].Duration, time.Duration(0))
		rec.attempts[i].Duration = 0
	}
	assert.Equal(t, want, rec.attempts)
	require.Len(t, rec.results, 1)
	res := rec.results[0]
	assert.Positive(t, res.Duration)
	res.Duration = 0
	assert.Equal(t, fiatramp.CallResult{CallInfo: info, Attempts: 3, StatusCode: 201, Outcome: fiatramp.OutcomeSuccess}, res)

	// No body, header, id, reference or credential reaches the observer.
	out := rec.dump()
	for _, secret := range []string{testSecret, testKey, ref, "req-HEADER-VALUE-1", "upstream down", "Service unavailable",
		quotationID.String(), customerID.String(), payoutID.String(), "PROCESSING", sign(testNow.Unix(), "{}")[:12]} {
		assert.NotContains(t, out, secret)
	}
}

// TestObserverNamesEveryOperationWithoutIDs: every typed operation of the
// index (called as requiredOps calls it), the helpers that reuse a row,
// and Do to a known and an unknown path are named by their row (or
// "Client.Do" with an anonymous route), and nothing the Observer sees
// holds an id, a query or the base path.
func TestObserverNamesEveryOperationWithoutIDs(t *testing.T) {
	ctx := context.Background()
	type namingCase struct {
		op, method, route string
		call              func(c *fiatramp.Client) error
	}
	var cases []namingCase
	rows := make(map[string]fiatramp.OperationInfo)
	for _, row := range fiatramp.Operations() {
		rows[row.Name] = row
	}
	for _, op := range requiredOps() {
		call := op.call
		cases = append(cases, namingCase{op.name, rows[op.name].HTTPMethod, rows[op.name].Path, func(c *fiatramp.Client) error {
			_, err := call(ctx, c)
			return err
		}})
	}
	cases = append(cases, []namingCase{
		{"Customers.ListBankAccounts", "GET", "/cms/api/v1/bank/list/{customer_id}", func(c *fiatramp.Client) error {
			_, err := c.Customers.ListBankAccountsPage(ctx, customerID, testBase+"/cms/api/v1/bank/list/"+customerID.String()+"?page=7")
			return err
		}},
		{"Customers.ListBankAccounts", "GET", "/cms/api/v1/bank/list/{customer_id}", func(c *fiatramp.Client) error {
			for _, err := range c.Customers.BankAccounts(ctx, customerID) {
				return err
			}
			return nil
		}},
		{"Payouts.Get", "GET", "/pos/api/v1/payout/{payout_id}", func(c *fiatramp.Client) error {
			_, err := c.Payouts.Wait(ctx, payoutID)
			return err
		}},
		{"Payouts.Get", "GET", "/pos/api/v1/payout/{payout_id}", func(c *fiatramp.Client) error {
			return c.Do(ctx, "GET", "/pos/api/v1/payout/"+payoutID.String()+"?secret=q", nil, nil)
		}},
		{"Client.Do", "DELETE", "/pos/api/v2/thing/{id}/{id}/x/{id}", func(c *fiatramp.Client) error {
			return c.Do(ctx, "DELETE", "/pos/api/v2/thing/"+payoutID.String()+"/123456/x/ab12cd34ef?q=1", nil, nil)
		}},
	}...)
	named := make(map[string]bool)
	for _, tc := range cases {
		named[tc.op] = true
	}
	for _, row := range fiatramp.Operations() {
		assert.True(t, named[row.Name], "%s: the index has it, this test does not call it", row.Name)
	}
	for _, tc := range cases {
		t.Run(tc.op, func(t *testing.T) {
			rec := new(recorder)
			h := newHarness(t, fiatramp.WithObserver(rec))
			// An answer the library refuses: every operation ends with
			// one attempt, whatever it decodes.
			h.mock.RegisterNoResponder(httpmock.NewStringResponder(400, fail("Refused", "BAD_REQUEST", `{}`)))
			err := tc.call(h.client)
			require.Error(t, err)
			require.Equal(t, 1, h.mock.GetTotalCallCount(), "sent: %v", err)
			require.Len(t, rec.calls, 1)
			assert.Equal(t, fiatramp.CallInfo{Operation: tc.op, Method: tc.method, Route: tc.route, Server: "api.fiatramp.test", ServerPort: 443, Scheme: "https"}, rec.calls[0])
			require.Len(t, rec.results, 1)
			assert.Equal(t, fiatramp.OutcomeFailure, rec.results[0].Outcome)
			assert.Equal(t, fiatramp.ErrorClassRefused, rec.results[0].ErrorClass)
			out := rec.dump()
			for _, id := range []uuid.UUID{customerID, bankID, quotationID, payoutID, payinQuotation, senderID, remitterID, walletID} {
				assert.NotContains(t, out, id.String())
			}
			for _, s := range []string{"?", "secret", "Refused", "123456", "ab12cd34ef", "page=7", "/gateway"} {
				assert.NotContains(t, out, s)
			}
		})
	}
}

func TestObserverErrorClassesAndOutcomes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		status int
		body   string
		class  fiatramp.ErrorClass
	}{
		{400, fail("Bad", "BAD_REQUEST", `{}`), fiatramp.ErrorClassRefused},
		{200, fail("Bad", "BAD_REQUEST", `{}`), fiatramp.ErrorClassRefused},
		{401, fail("Unauthorized", "AUTH", `{}`), fiatramp.ErrorClassUnauthorized},
		{401, fail("Request timestamp expired", "AUTH_TIMESTAMP_EXPIRED", `{}`), fiatramp.ErrorClassClockSkew},
		{408, "", fiatramp.ErrorClassTimeout},
		{429, bodyRateLimited, fiatramp.ErrorClassRateLimited},
		{500, bodyInternal, fiatramp.ErrorClassInternal},
		{502, bodyHTML, fiatramp.ErrorClassUnavailable},
		{503, bodyUnavailable, fiatramp.ErrorClassUnavailable},
		{504, "", fiatramp.ErrorClassUnavailable},
		{501, "", fiatramp.ErrorClassServerError},
		// The service gave up (retried like a 5xx), not a refusal.
		{400, fail("Request timed out", "NET_TIMEOUT", `{}`), fiatramp.ErrorClassServerError},
		{400, fail("Something went wrong", "UNKNOWN_ERROR", `{}`), fiatramp.ErrorClassServerError},
		{302, "", fiatramp.ErrorClassRedirect},
		{200, `{"status":true,"data":`, fiatramp.ErrorClassMalformed},
	} {
		t.Run(fmt.Sprint(tc.status, " ", tc.class), func(t *testing.T) {
			rec := new(recorder)
			h := newHarness(t, fiatramp.WithObserver(rec))
			h.script(http.MethodGet, payoutGetPath, mockReply{status: tc.status, body: tc.body})
			_, err := h.client.Payouts.Get(ctx, payoutID)
			require.Error(t, err)
			require.Len(t, rec.attempts, 1)
			assert.Equal(t, tc.class, rec.attempts[0].ErrorClass, "%v", err)
			assert.Equal(t, tc.status, rec.attempts[0].StatusCode)
			assert.Equal(t, tc.class, rec.results[0].ErrorClass)
			assert.Equal(t, fiatramp.OutcomeFailure, rec.results[0].Outcome)
		})
	}

	t.Run("a create that may have acted is unknown", func(t *testing.T) {
		rec := new(recorder)
		h, _ := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 2}, fiatramp.WithObserver(rec))
		kind := createKinds(t)[0]
		h.script(http.MethodPost, kind.path, mockReply{status: 503, body: bodyUnavailable})
		_, err := kind.create(ctx, h.client, "ref-unknown")
		requireOutcomeUnknown(t, err)
		require.Len(t, rec.results, 1)
		assert.Equal(t, fiatramp.OutcomeUnknown, rec.results[0].Outcome)
		assert.Equal(t, fiatramp.ErrorClassUnavailable, rec.results[0].ErrorClass)
		assert.Equal(t, 2, rec.results[0].Attempts)
		assert.Equal(t, 503, rec.results[0].StatusCode)
	})

	t.Run("a connection broken and an attempt timed out", func(t *testing.T) {
		srv := newService(t, drop, hang)
		rec := new(recorder)
		c, _ := serviceClient(t, srv.URL, newTransport(t), fiatramp.WithObserver(rec),
			fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 2}), fiatramp.WithTimeout(50*time.Millisecond))
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_, err := c.Payouts.Get(ctx, payoutID)
		require.Error(t, err)
		require.Len(t, rec.attempts, 2)
		assert.Equal(t, fiatramp.ErrorClassConnection, rec.attempts[0].ErrorClass)
		assert.Equal(t, fiatramp.ErrorClassTimeout, rec.attempts[1].ErrorClass)
		assert.Equal(t, 0, rec.results[0].StatusCode)
		assert.Equal(t, fiatramp.ErrorClassTimeout, rec.results[0].ErrorClass)
	})

	t.Run("a canceled call", func(t *testing.T) {
		rec := new(recorder)
		h := newHarness(t, fiatramp.WithObserver(rec))
		cctx, cancel := context.WithCancel(ctx)
		h.mock.RegisterResponder(http.MethodGet, testBase+payoutGetPath, func(*http.Request) (*http.Response, error) {
			cancel()
			return nil, context.Canceled
		})
		_, err := h.client.Payouts.Get(cctx, payoutID)
		require.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, fiatramp.ErrorClassCanceled, rec.results[0].ErrorClass)
	})

	t.Run("a call refused before sending is not observed", func(t *testing.T) {
		rec := new(recorder)
		h := newHarness(t, fiatramp.WithObserver(rec))
		_, err := h.client.Payouts.Get(ctx, uuid.Nil)
		require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		assert.Empty(t, rec.events)
	})
}

// TestObserverConcurrentCalls: one Observer, many calls at once; each
// call's events stay its own (run with -race).
func TestObserverConcurrentCalls(t *testing.T) {
	rec := new(recorder)
	h := newHarness(t, fiatramp.WithObserver(rec))
	h.script(http.MethodGet, payoutGetPath, mockReply{status: 200, body: ok(gotPayout)})
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := h.client.Payouts.Get(context.Background(), payoutID)
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	assert.Len(t, rec.results, 16)
	assert.Len(t, rec.attempts, 16)
	assert.Equal(t, 16, strings.Count(strings.Join(rec.events, ","), "done"))
}

// nilContexts is an Observer that returns nil contexts, which keep the
// ones passed in.
type nilContexts struct{ ended atomic.Int32 }

func (*nilContexts) StartCall(context.Context, fiatramp.CallInfo) context.Context { return nil }
func (*nilContexts) StartAttempt(context.Context, fiatramp.CallInfo, int) context.Context {
	return nil
}
func (*nilContexts) EndAttempt(context.Context, fiatramp.AttemptInfo) {}
func (o *nilContexts) EndCall(ctx context.Context, _ fiatramp.CallResult) {
	if ctx != nil && ctx.Value(ctxKey("call")) == "caller" {
		o.ended.Add(1)
	}
}

func TestObserverNilContextsKeepTheCallers(t *testing.T) {
	obs := new(nilContexts)
	h := newHarness(t, fiatramp.WithObserver(obs))
	var seen atomic.Value
	h.mock.RegisterResponder(http.MethodGet, testBase+payoutGetPath, func(req *http.Request) (*http.Response, error) {
		seen.Store(req.Context().Value(ctxKey("call")))
		return httpmock.NewStringResponse(200, ok(gotPayout)), nil
	})
	ctx := context.WithValue(context.Background(), ctxKey("call"), "caller")
	_, err := h.client.Payouts.Get(ctx, payoutID)
	require.NoError(t, err)
	assert.Equal(t, "caller", seen.Load())
	assert.EqualValues(t, 1, obs.ended.Load())
}

// TestCallInfoServerPortAndScheme: an Observer gets the host, the port the
// requests go to (the scheme's default when the base address names none,
// as the HTTP semantic conventions want for server.port) and the scheme,
// the same for every call of a Client.
func TestCallInfoServerPortAndScheme(t *testing.T) {
	cases := []struct {
		base, server, scheme string
		port                 int
	}{
		{"https://api.fiatramp.test", "api.fiatramp.test", "https", 443},
		{"https://api.fiatramp.test/gateway/", "api.fiatramp.test", "https", 443},
		{"https://api.fiatramp.test:8443/gw", "api.fiatramp.test", "https", 8443},
		{"https://api.fiatramp.test:443", "api.fiatramp.test", "https", 443},
		{"https://api.fiatramp.test:", "api.fiatramp.test", "https", 443},
		{"http://api.fiatramp.test", "api.fiatramp.test", "http", 80},
		{"http://127.0.0.1:8080", "127.0.0.1", "http", 8080},
		{"http://[::1]", "::1", "http", 80},
		{"https://[2001:db8::1]:9443", "2001:db8::1", "https", 9443},
	}
	for _, tc := range cases {
		t.Run(tc.base, func(t *testing.T) {
			rec := new(recorder)
			var hosts []string
			transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				hosts = append(hosts, r.URL.Host)
				return cannedTransport{ok(gotPayout)}.RoundTrip(r)
			})
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(tc.base), fiatramp.WithInsecureHTTP(),
				fiatramp.WithHTTPClient(&http.Client{Transport: transport}), fiatramp.WithObserver(rec))
			require.NoError(t, err)
			for range 2 {
				_, err := c.Payouts.Get(context.Background(), payoutID)
				require.NoError(t, err)
			}
			want := fiatramp.CallInfo{Operation: "Payouts.Get", Method: http.MethodGet, Route: "/pos/api/v1/payout/{payout_id}",
				Server: tc.server, ServerPort: tc.port, Scheme: tc.scheme}
			assert.Equal(t, []fiatramp.CallInfo{want, want}, rec.calls)
			require.Len(t, rec.attempts, 2)
			assert.Equal(t, want, rec.attempts[1].CallInfo)
			assert.Equal(t, want, rec.results[1].CallInfo)
			require.Len(t, hosts, 2, "both calls were sent")
		})
	}
}

// limiterFunc is a RateLimiter made of a function, as a caller might write.
type limiterFunc func(ctx context.Context) error

func (f limiterFunc) Wait(ctx context.Context) error { return f(ctx) }

// TestTypedNilObserverAndLimiterRefused: a nil pointer (or func) in the
// interface is not "no Observer": its methods would panic at the first
// call, so New refuses it and names the option and the type. nil itself
// still means none.
func TestTypedNilObserverAndLimiterRefused(t *testing.T) {
	var nilRecorder *recorder
	var nilLimiter *fakeLimiter
	var nilFunc limiterFunc
	cases := []struct {
		opt  fiatramp.Option
		want string
	}{
		{fiatramp.WithObserver(nilRecorder), "fiatramp: WithObserver: nil *fiatramp_test.recorder"},
		{fiatramp.WithRateLimiter(nilLimiter), "fiatramp: WithRateLimiter: nil *fiatramp_test.fakeLimiter"},
		{fiatramp.WithRateLimiter(nilFunc), "fiatramp: WithRateLimiter: nil fiatramp_test.limiterFunc"},
	}
	for _, tc := range cases {
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase), tc.opt)
		require.Error(t, err, tc.want)
		assert.Nil(t, c)
		assert.Contains(t, err.Error(), tc.want)
	}

	// nil itself, and working values, are accepted; the calls go out.
	var sent int
	transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent++
		return cannedTransport{ok(gotPayout)}.RoundTrip(r)
	})
	waited := 0
	for _, opts := range [][]fiatramp.Option{
		{fiatramp.WithObserver(nil), fiatramp.WithRateLimiter(nil)},
		{fiatramp.WithObserver(new(recorder)), fiatramp.WithRateLimiter(limiterFunc(func(context.Context) error { waited++; return nil }))},
	} {
		c, err := fiatramp.New(testKey, testSecret, append([]fiatramp.Option{fiatramp.WithBaseURL(testBase),
			fiatramp.WithHTTPClient(&http.Client{Transport: transport})}, opts...)...)
		require.NoError(t, err)
		_, err = c.Payouts.Get(context.Background(), payoutID)
		require.NoError(t, err)
	}
	assert.Equal(t, 2, sent)
	assert.Equal(t, 1, waited)
}

// panicTransport panics on every request, as a buggy RoundTripper would
// (httpmock turns a responder's panic into an error).
type panicTransport struct{}

func (panicTransport) RoundTrip(*http.Request) (*http.Response, error) { panic("transport bug") }

// TestObserverCallEndsWhenTheCallPanics: a transport (or a caller's
// decoder, or the observer itself) that panics must not leave the call
// reported as a success, nor its attempt span open.
func TestObserverCallEndsWhenTheCallPanics(t *testing.T) {
	rec := new(recorder)
	panicking := fiatramp.WithHTTPClient(&http.Client{Transport: panicTransport{}})
	h := newHarness(t, fiatramp.WithObserver(rec), panicking)
	func() {
		defer func() {
			assert.Equal(t, "transport bug", recover(), "the panic reaches the caller unchanged")
		}()
		_, _ = h.client.Payouts.Get(context.Background(), payoutID)
	}()
	assert.Equal(t, []string{"start", "attempt 1", "end 1", "done"}, rec.events)
	require.Len(t, rec.results, 1)
	assert.NotEqual(t, fiatramp.OutcomeSuccess, rec.results[0].Outcome)
	assert.Equal(t, fiatramp.ErrorClassPanic, rec.results[0].ErrorClass)
	require.Len(t, rec.attempts, 1)
	assert.Equal(t, fiatramp.ErrorClassPanic, rec.attempts[0].ErrorClass)
	assert.False(t, rec.attempts[0].Retry)

	// A create that panicked may have been sent: its outcome is unknown.
	rec2 := new(recorder)
	h2 := newHarness(t, fiatramp.WithObserver(rec2), panicking)
	kind := createKinds(t)[0]
	func() {
		defer func() { _ = recover() }()
		_, _ = kind.create(context.Background(), h2.client, "ref-panic")
	}()
	require.Len(t, rec2.results, 1)
	assert.Equal(t, fiatramp.OutcomeUnknown, rec2.results[0].Outcome)
}

// TestObserverRouteOfUnknownPathsKeepsOnlyWords: a path the library does
// not know (Client.Do) keeps only segments that read as route words; any
// other segment (an e-mail, a reference without digits, a mixed-case
// token) could be an id and reads "{id}", so that no id reaches a trace or
// a metric attribute.
func TestObserverRouteOfUnknownPathsKeepsOnlyWords(t *testing.T) {
	for _, tc := range []struct{ path, route string }{
		{"/org/api/v1/organizations/api-webhooks", "/org/api/v1/organizations/api-webhooks"},
		{"/cms/api/v1/customer/by-email/jane.doe@example.com", "/cms/api/v1/customer/by-email/{id}"},
		{"/pos/api/v1/payout/by-reference/ORDERALPHA/status", "/pos/api/v1/payout/by-reference/{id}/status"},
		{"/pos/api/v1/payout/by-reference/Order_Alpha", "/pos/api/v1/payout/by-reference/{id}"},
		{"/pos/api/v1/payout/by-reference/ref%20alpha%2Fbeta", "/pos/api/v1/payout/by-reference/{id}"},
		{"/pos/api/v1/payout/by-reference/abcdefghijklmnopqrstuvwxyzabcdefghijklmnop", "/pos/api/v1/payout/by-reference/{id}"},
		{"/pos/api/v2/thing/" + payoutID.String() + "/x?q=1", "/pos/api/v2/thing/{id}/x"},
	} {
		rec := new(recorder)
		h := newHarness(t, fiatramp.WithObserver(rec))
		h.mock.RegisterNoResponder(httpmock.NewStringResponder(200, ok(`{}`)))
		require.NoError(t, h.client.Do(context.Background(), http.MethodGet, tc.path, nil, nil))
		require.Len(t, rec.calls, 1)
		assert.Equal(t, "Client.Do", rec.calls[0].Operation, tc.path)
		assert.Equal(t, tc.route, rec.calls[0].Route, tc.path)
	}
}

// detached is an Observer whose StartCall and StartAttempt return contexts
// that do not derive from the caller's, as an exporter that starts its
// spans on context.Background() would.
type detached struct{}

func (detached) StartCall(context.Context, fiatramp.CallInfo) context.Context {
	return context.WithValue(context.Background(), ctxKey("call"), "detached")
}
func (detached) StartAttempt(context.Context, fiatramp.CallInfo, int) context.Context {
	return context.WithValue(context.Background(), ctxKey("attempt"), "detached")
}
func (detached) EndAttempt(context.Context, fiatramp.AttemptInfo) {}
func (detached) EndCall(context.Context, fiatramp.CallResult)     {}

// TestObserverCannotDetachTheCallFromItsContext: whatever contexts an
// Observer returns, the caller's deadline still ends the call, while the
// observer's values (its spans) still reach the transport.
func TestObserverCannotDetachTheCallFromItsContext(t *testing.T) {
	srv := newService(t, hang)
	var seen atomic.Value
	tr := newTransport(t)
	c, _ := serviceClient(t, srv.URL, tr, fiatramp.WithObserver(detached{}), fiatramp.WithTimeout(0),
		fiatramp.WithHTTPClient(&http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			seen.Store(tags(r.Context()))
			return tr.RoundTrip(r)
		})}))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.Payouts.Get(ctx, payoutID)
		done <- err
	}()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	case <-time.After(5 * time.Second):
		t.Fatal("the call outlived its context's deadline by seconds")
	}
	assert.Equal(t, "/detached", seen.Load(), "the attempt context's values reach the transport")
}

// cannedTransport answers every request with the same 200 envelope, so
// that a benchmark measures the library's own work per call.
type cannedTransport struct{ body string }

func (c cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(c.body)), Request: r,
	}, nil
}

// countingObserver does the least an Observer can: it counts.
type countingObserver struct{ attempts, calls atomic.Int64 }

func (o *countingObserver) StartCall(ctx context.Context, _ fiatramp.CallInfo) context.Context {
	return ctx
}

func (o *countingObserver) StartAttempt(ctx context.Context, _ fiatramp.CallInfo, _ int) context.Context {
	return ctx
}
func (o *countingObserver) EndAttempt(context.Context, fiatramp.AttemptInfo) { o.attempts.Add(1) }
func (o *countingObserver) EndCall(context.Context, fiatramp.CallResult)     { o.calls.Add(1) }

// BenchmarkObserver is one Payouts.Get through a canned transport, without
// and with an Observer. Run with -count so the two interleave, and compare
// the ratio:
//
//	go test -run '^$' -bench BenchmarkObserver -benchmem -count 6 .
func BenchmarkObserver(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []fiatramp.Option
	}{
		{"none", nil},
		{"observer", []fiatramp.Option{fiatramp.WithObserver(new(countingObserver))}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			opts := append([]fiatramp.Option{
				fiatramp.WithBaseURL(testBase),
				fiatramp.WithHTTPClient(&http.Client{Transport: cannedTransport{ok(gotPayout)}}),
			}, bc.opts...)
			c, err := fiatramp.New(testKey, testSecret, opts...)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := c.Payouts.Get(ctx, payoutID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
