package fiatramp_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

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
