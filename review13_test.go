package fiatramp_test

import (
	"context"
	"math"
	"net/http"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// TestServiceInterfacesHaveEveryMethod: each *API interface is the whole
// method set of its service, so that code written against the interface
// (and a fake embedding it) can reach every operation, e.g.
// Customers.ListBankAccountsPage.
func TestServiceInterfacesHaveEveryMethod(t *testing.T) {
	for _, tc := range []struct {
		service, api reflect.Type
	}{
		{reflect.TypeOf(&fiatramp.PayoutsService{}), reflect.TypeOf((*fiatramp.PayoutsAPI)(nil)).Elem()},
		{reflect.TypeOf(&fiatramp.PayinsService{}), reflect.TypeOf((*fiatramp.PayinsAPI)(nil)).Elem()},
		{reflect.TypeOf(&fiatramp.CustomersService{}), reflect.TypeOf((*fiatramp.CustomersAPI)(nil)).Elem()},
		{reflect.TypeOf(&fiatramp.KYCService{}), reflect.TypeOf((*fiatramp.KYCAPI)(nil)).Elem()},
	} {
		for i := range tc.service.NumMethod() {
			m := tc.service.Method(i)
			im, ok := tc.api.MethodByName(m.Name)
			if !assert.True(t, ok, "%s lacks %s", tc.api, m.Name) {
				continue
			}
			// The interface method's type has no receiver.
			in := make([]reflect.Type, 0, m.Type.NumIn()-1)
			for j := 1; j < m.Type.NumIn(); j++ {
				in = append(in, m.Type.In(j))
			}
			out := make([]reflect.Type, 0, m.Type.NumOut())
			for j := range m.Type.NumOut() {
				out = append(out, m.Type.Out(j))
			}
			assert.Equal(t, reflect.FuncOf(in, out, m.Type.IsVariadic()), im.Type, "%s.%s", tc.api, m.Name)
		}
	}
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

// TestRetryBudgetRefillSaturates: a budget sized to the largest int
// refills without wrapping around to a negative count, which would refuse
// every retry from then on.
func TestRetryBudgetRefillSaturates(t *testing.T) {
	h, _ := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 2},
		fiatramp.WithRetryBudget(fiatramp.RetryBudget{Capacity: math.MaxInt, SuccessRefill: math.MaxInt}))
	h.mock.RegisterResponder(http.MethodGet, testBase+payoutGetPath, httpmock.ResponderFromMultipleResponses([]*http.Response{
		httpmock.NewStringResponse(200, ok(gotPayout)),
		httpmock.NewStringResponse(503, bodyUnavailable),
		httpmock.NewStringResponse(200, ok(gotPayout)),
	}))
	_, err := h.client.Payouts.Get(context.Background(), payoutID)
	require.NoError(t, err)
	_, err = h.client.Payouts.Get(context.Background(), payoutID)
	require.NoError(t, err, "the full budget must allow one retry")
	assert.Equal(t, 3, h.mock.GetTotalCallCount())
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

// sloppyLimiter lets every request go, even after the caller's context
// ended while it waited (here: it cancels the context itself).
type sloppyLimiter struct{ cancel context.CancelFunc }

func (l sloppyLimiter) Wait(context.Context) error {
	l.cancel()
	return nil
}

// TestRateLimiterIgnoringTheContextSendsNothing: a limiter that returns
// nil after the caller's context ended does not get the request sent
// (net/http would refuse it anyway); the create is a plain failure, not an
// outcome unknown that would send the caller into reconciliation.
func TestRateLimiterIgnoringTheContextSendsNothing(t *testing.T) {
	srv := newService(t, answer(201, ok(createKinds(t)[0].data)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, _ := serviceClient(t, srv.URL, newTransport(t), fiatramp.WithRateLimiter(sloppyLimiter{cancel}))
	_, err := createKinds(t)[0].create(ctx, c, "ref-sloppy-limiter")
	requirePlain(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, srv.hits.Load())
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
