package fiatramp_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// TestRetryBudgetDefaults: with the documented defaults (500 tokens, 5 a
// retry), an outage gets 100 retries from a Client, then every call makes
// one attempt only and fails fast with its last error.
func TestRetryBudgetDefaults(t *testing.T) {
	h, s := retryHarness(t, fiatramp.RetryPolicy{})
	rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
	ctx := context.Background()
	for i := range 30 {
		_, err := h.client.Payouts.Get(ctx, payoutID)
		requireAPIError(t, err, 503)
		assert.ErrorIs(t, err, fiatramp.ErrUnavailable)
		if i < 25 {
			assert.NotErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted, "call %d", i+1)
		} else {
			assert.ErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted, "call %d", i+1)
		}
	}
	// 25 calls of 5 attempts spend 25*4*5 = 500 tokens; 5 more of one.
	assert.EqualValues(t, 25*5+5, rec.hits.Load())
	assert.Len(t, s.got(), 100)
}

func TestRetryBudget(t *testing.T) {
	ctx := context.Background()
	small := fiatramp.WithRetryBudget(fiatramp.RetryBudget{Capacity: 10, RetryCost: 5, SuccessRefill: 5})

	t.Run("an empty budget fails fast with the last error", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, small)
		rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		assert.ErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted)
		assert.ErrorIs(t, err, fiatramp.ErrUnavailable)
		assert.Contains(t, err.Error(), "no retry after attempt 3")
		requireAPIError(t, err, 503)
		assert.EqualValues(t, 3, rec.hits.Load(), "two retries of 5 tokens, then none")
		_, err = h.client.Payouts.Get(ctx, payoutID)
		assert.ErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted)
		assert.EqualValues(t, 4, rec.hits.Load(), "one attempt once the budget is empty")
	})

	t.Run("successes refill it", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, small)
		rec := h.script(http.MethodGet, payoutGetPath,
			mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 503, body: bodyUnavailable},
			mockReply{status: 503, body: bodyUnavailable}, // budget now empty
			mockReply{status: 200, body: ok(gotPayout)},   // refills 5
			mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 200, body: ok(gotPayout)})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		require.ErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted)
		_, err = h.client.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
		_, err = h.client.Payouts.Get(ctx, payoutID)
		require.NoError(t, err, "the refilled tokens pay one retry")
		assert.EqualValues(t, 6, rec.hits.Load())
	})

	t.Run("a success after retries refunds its last retry", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithRetryBudget(fiatramp.RetryBudget{Capacity: 10, RetryCost: 5}))
		rec := h.script(http.MethodGet, payoutGetPath,
			mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 200, body: ok(gotPayout)}, // 10 spent, 5 back
			mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 503, body: bodyUnavailable})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
		_, err = h.client.Payouts.Get(ctx, payoutID)
		require.ErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted)
		assert.EqualValues(t, 5, rec.hits.Load(), "the 5 tokens refunded pay exactly one retry")
	})

	t.Run("a create still ends outcome-unknown", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, small)
		kind := createKinds(t)[0]
		rec := h.script(http.MethodPost, kind.path, mockReply{status: 503, body: bodyUnavailable})
		_, err := kind.create(ctx, h.client, "ref-budget-1")
		ou := requireOutcomeUnknown(t, err)
		assert.ErrorIs(t, ou.Err, fiatramp.ErrRetryBudgetExhausted)
		assert.ErrorIs(t, ou.Err, fiatramp.ErrUnavailable)
		assert.Equal(t, 3, ou.Attempts)
		assert.Equal(t, "ref-budget-1", ou.ClientReferenceID)
		// With the budget empty, a create whose only attempt may have
		// acted is still unknown, not a plain failure.
		_, err = kind.create(ctx, h.client, "ref-budget-2")
		ou = requireOutcomeUnknown(t, err)
		assert.Equal(t, 1, ou.Attempts)
		assert.ErrorIs(t, ou.Err, fiatramp.ErrRetryBudgetExhausted)
		assert.EqualValues(t, 4, rec.hits.Load())
		bodies, _ := rec.seen()
		allSame(t, bodies[:3])
	})

	t.Run("a create refused at the door stays a plain failure", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, small)
		kind := createKinds(t)[0]
		h.script(http.MethodPost, kind.path, mockReply{status: 429, body: bodyRateLimited})
		_, err := kind.create(ctx, h.client, "ref-budget-3")
		requirePlain(t, err)
		assert.ErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted)
		assert.ErrorIs(t, err, fiatramp.ErrRateLimited)
	})

	t.Run("switched off", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, small, fiatramp.WithoutRetryBudget())
		rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
		for range 5 {
			_, err := h.client.Payouts.Get(ctx, payoutID)
			assert.NotErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted)
		}
		assert.EqualValues(t, 25, rec.hits.Load())
	})

	t.Run("WithRetryBudget after WithoutRetryBudget switches it on", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithoutRetryBudget(), small)
		rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		assert.ErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted)
		assert.EqualValues(t, 3, rec.hits.Load())
	})

	t.Run("the observer is told", func(t *testing.T) {
		obs := new(recorder)
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, small, fiatramp.WithObserver(obs))
		h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		require.Error(t, err)
		require.Len(t, obs.results, 1)
		assert.True(t, obs.results[0].RetryBudgetExhausted)
		assert.Equal(t, 3, obs.results[0].Attempts)
		assert.Equal(t, fiatramp.ErrorClassUnavailable, obs.results[0].ErrorClass)
		require.Len(t, obs.attempts, 3)
		assert.False(t, obs.attempts[2].Retry, "no retry follows the attempt the budget stopped")
	})

	t.Run("negative settings are refused", func(t *testing.T) {
		for _, b := range []fiatramp.RetryBudget{{Capacity: -1}, {RetryCost: -1}, {TimeoutCost: -1}, {SuccessRefill: -1}} {
			_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase), fiatramp.WithRetryBudget(b))
			assert.ErrorContains(t, err, "WithRetryBudget")
		}
	})
}

// timeoutError is a network timeout as a transport reports one.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestRetryBudgetTimeoutsCostMore(t *testing.T) {
	ctx := context.Background()
	budget := fiatramp.WithRetryBudget(fiatramp.RetryBudget{Capacity: 10, RetryCost: 1, TimeoutCost: 10})
	for _, tc := range []struct {
		name     string
		err      error
		attempts int32
	}{
		{"a timeout spends 10", timeoutError{}, 2},
		{"a broken connection spends 1", errors.New("connection reset by peer"), 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := retryHarness(t, fiatramp.RetryPolicy{}, budget)
			var hits atomic.Int32
			h.mock.RegisterResponder(http.MethodGet, testBase+payoutGetPath, func(*http.Request) (*http.Response, error) {
				hits.Add(1)
				return nil, tc.err
			})
			_, err := h.client.Payouts.Get(ctx, payoutID)
			require.Error(t, err)
			assert.Equal(t, tc.attempts, hits.Load(), "%v", err)
		})
	}
}

// TestRetryBudgetSharedByConcurrentCalls: calls in parallel draw on one
// bucket; no more retries are made than it holds.
func TestRetryBudgetSharedByConcurrentCalls(t *testing.T) {
	h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithRetryBudget(fiatramp.RetryBudget{Capacity: 50, RetryCost: 5}))
	rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := h.client.Payouts.Get(context.Background(), payoutID)
			assert.ErrorIs(t, err, fiatramp.ErrUnavailable)
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 20+10, rec.hits.Load(), "20 first attempts and the 10 retries 50 tokens pay")
}

// fakeLimiter has the method set of golang.org/x/time/rate's *Limiter
// that WithRateLimiter uses: Wait(ctx) error.
type fakeLimiter struct {
	waits  atomic.Int32
	refuse error // returned by every Wait when set
}

func (l *fakeLimiter) Wait(ctx context.Context) error {
	l.waits.Add(1)
	if l.refuse != nil {
		return l.refuse
	}
	return ctx.Err()
}

func TestRateLimiter(t *testing.T) {
	ctx := context.Background()

	t.Run("every attempt waits its turn", func(t *testing.T) {
		lim := new(fakeLimiter)
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithRateLimiter(lim))
		rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 200, body: ok(gotPayout)})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
		assert.EqualValues(t, 2, lim.waits.Load())
		assert.EqualValues(t, 2, rec.hits.Load())
	})

	t.Run("a refusal sends nothing and is not retried", func(t *testing.T) {
		refusal := errors.New("rate: Wait(n=1) would exceed context deadline")
		lim := &fakeLimiter{refuse: refusal}
		obs := new(recorder)
		h, s := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithRateLimiter(lim), fiatramp.WithObserver(obs))
		kind := createKinds(t)[0]
		rec := h.script(http.MethodPost, kind.path, mockReply{status: 201, body: ok(kind.data)})
		_, err := kind.create(ctx, h.client, "ref-limited")
		requirePlain(t, err)
		assert.ErrorIs(t, err, refusal)
		assert.Contains(t, err.Error(), "rate limiter: ")
		assert.Zero(t, rec.hits.Load())
		assert.EqualValues(t, 1, lim.waits.Load())
		assert.Empty(t, s.got())
		assert.Equal(t, fiatramp.ErrorClassRateLimiter, obs.results[0].ErrorClass)
	})

	t.Run("a refusal after an attempt that may have acted keeps the create unknown", func(t *testing.T) {
		lim := new(fakeLimiter)
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithRateLimiter(lim))
		kind := createKinds(t)[0]
		refusal := errors.New("limiter closed")
		var hits atomic.Int32
		h.mock.RegisterResponder(http.MethodPost, testBase+kind.path, func(*http.Request) (*http.Response, error) {
			hits.Add(1)
			lim.refuse = refusal // the next Wait refuses
			return httpmock.NewStringResponse(503, bodyUnavailable), nil
		})
		_, err := kind.create(ctx, h.client, "ref-limited-2")
		ou := requireOutcomeUnknown(t, err)
		assert.ErrorIs(t, ou.Err, refusal)
		assert.Equal(t, 2, ou.Attempts)
		assert.EqualValues(t, 1, hits.Load())
	})

	t.Run("a wait the caller cancels", func(t *testing.T) {
		lim := new(fakeLimiter)
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithRateLimiter(lim))
		kind := createKinds(t)[0]
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		rec := h.script(http.MethodPost, kind.path, mockReply{status: 201, body: ok(kind.data)})
		_, err := kind.create(cctx, h.client, "ref-limited-3")
		requirePlain(t, err)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Zero(t, rec.hits.Load())
	})

	t.Run("a slow limiter is bounded by the context, not the attempt timeout", func(t *testing.T) {
		slow := waitFor(80 * time.Millisecond)
		h, _ := retryHarness(t, fiatramp.RetryPolicy{}, fiatramp.WithRateLimiter(slow), fiatramp.WithTimeout(20*time.Millisecond))
		h.script(http.MethodGet, payoutGetPath, mockReply{status: 200, body: ok(gotPayout)})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		require.NoError(t, err)
	})
}

// waitFor is a limiter that lets every request go after d.
type waitFor time.Duration

func (d waitFor) Wait(ctx context.Context) error {
	t := time.NewTimer(time.Duration(d))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
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

// TestRetryBudgetCapacityBelowACost: a bucket smaller than what a retry
// costs could never pay for one, which would switch retries off without a
// word; WithRetryBudget refuses it and names the field. A bucket of
// exactly one retry is allowed, and pays for it.
func TestRetryBudgetCapacityBelowACost(t *testing.T) {
	cases := []struct {
		budget fiatramp.RetryBudget
		want   string
	}{
		{fiatramp.RetryBudget{Capacity: 4, RetryCost: 5, TimeoutCost: 4}, "fiatramp: WithRetryBudget: Capacity 4 is below RetryCost 5"},
		{fiatramp.RetryBudget{Capacity: 3}, "fiatramp: WithRetryBudget: Capacity 3 is below RetryCost 5"},
		{fiatramp.RetryBudget{Capacity: 8, RetryCost: 2}, "fiatramp: WithRetryBudget: Capacity 8 is below TimeoutCost 10"},
		{fiatramp.RetryBudget{Capacity: 20, TimeoutCost: 21}, "fiatramp: WithRetryBudget: Capacity 20 is below TimeoutCost 21"},
		{fiatramp.RetryBudget{RetryCost: fiatramp.DefaultRetryBudgetCapacity + 1}, "fiatramp: WithRetryBudget: Capacity 500 is below RetryCost 501"},
		{fiatramp.RetryBudget{RetryCost: -1}, "fiatramp: WithRetryBudget: RetryCost -1 is negative"},
		{fiatramp.RetryBudget{SuccessRefill: -2}, "fiatramp: WithRetryBudget: SuccessRefill -2 is negative"},
	}
	for _, tc := range cases {
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase), fiatramp.WithRetryBudget(tc.budget))
		require.Error(t, err, "%+v", tc.budget)
		assert.Nil(t, c)
		assert.Contains(t, err.Error(), tc.want)
	}

	h, _ := retryHarness(t, fiatramp.RetryPolicy{},
		fiatramp.WithRetryBudget(fiatramp.RetryBudget{Capacity: 5, RetryCost: 5, TimeoutCost: 5}))
	rec := h.script(http.MethodGet, payoutGetPath,
		mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 200, body: ok(gotPayout)},
		mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 503, body: bodyUnavailable})
	_, err := h.client.Payouts.Get(context.Background(), payoutID)
	require.NoError(t, err, "the one retry the bucket holds is paid")
	_, err = h.client.Payouts.Get(context.Background(), payoutID)
	assert.ErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted, "the success refunded the retry, which this call spent; then none")
	assert.EqualValues(t, 4, rec.hits.Load())
}
