package fiatramp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync/atomic"
)

// Retry budget defaults, those of the large cloud SDKs' retry quota: a
// Client starts with 500 tokens; a retry spends 5, a retry after a timeout
// 10; a call that succeeds at once puts 1 back, one that succeeds after
// retries puts back what its last retry spent. An outage thus stops retries
// after about 100 of them, client-wide, until successes refill the bucket.
const (
	DefaultRetryBudgetCapacity = 500
	DefaultRetryCost           = 5
	DefaultRetryTimeoutCost    = 10
	DefaultRetrySuccessRefill  = 1
)

// ErrRetryBudgetExhausted matches a call that stopped retrying because the
// Client's retry budget was empty (see WithRetryBudget). The error also
// wraps the last attempt's error.
var ErrRetryBudgetExhausted = errors.New("fiatramp: retry budget exhausted")

// RetryBudget is a token bucket shared by every call of a Client, so that
// an outage does not multiply the load each call's retry policy would put
// on the service. Every retry spends tokens; when too few are left, calls
// stop retrying and fail at once with their last error (a payout create
// that may have reached the service still ends with an
// *OutcomeUnknownError). Successes refill the bucket. A zero field means
// its default.
type RetryBudget struct {
	// Capacity is the bucket's size, and its content when the Client is
	// made. Zero means DefaultRetryBudgetCapacity.
	Capacity int
	// RetryCost is what a retry spends. Zero means DefaultRetryCost.
	RetryCost int
	// TimeoutCost is what a retry after a timed-out attempt spends. Zero
	// means DefaultRetryTimeoutCost.
	TimeoutCost int
	// SuccessRefill is what a call that succeeds at its first attempt puts
	// back. Zero means DefaultRetrySuccessRefill.
	SuccessRefill int
}

// WithRetryBudget replaces the Client's retry budget, which by default
// follows the Default* retry budget constants. The budget belongs to the
// Client: every call through it (and its services) draws on it.
//
// A negative field is refused, and so is a Capacity (defaults applied)
// below RetryCost or TimeoutCost: such a bucket could never pay for that
// retry, and would switch retries off without saying so. To make no
// retries, use WithRetry with MaxAttempts 1; to retry without a budget,
// WithoutRetryBudget.
func WithRetryBudget(b RetryBudget) Option {
	return func(c *config) error {
		var field string
		var value int
		switch {
		case b.Capacity < 0:
			field, value = "Capacity", b.Capacity
		case b.RetryCost < 0:
			field, value = "RetryCost", b.RetryCost
		case b.TimeoutCost < 0:
			field, value = "TimeoutCost", b.TimeoutCost
		case b.SuccessRefill < 0:
			field, value = "SuccessRefill", b.SuccessRefill
		}
		if field != "" {
			return fmt.Errorf("fiatramp: WithRetryBudget: %s %d is negative", field, value)
		}
		b = b.withDefaults()
		switch {
		case b.Capacity < b.RetryCost:
			field, value = "RetryCost", b.RetryCost
		case b.Capacity < b.TimeoutCost:
			field, value = "TimeoutCost", b.TimeoutCost
		}
		if field != "" {
			return fmt.Errorf("fiatramp: WithRetryBudget: Capacity %d is below %s %d (a zero field counts as its default): the budget could never pay for such a retry", b.Capacity, field, value)
		}
		c.budget = b
		c.budgetOff = false
		return nil
	}
}

// WithoutRetryBudget switches the retry budget off: every call retries as
// its retry policy allows, however many others are retrying.
func WithoutRetryBudget() Option {
	return func(c *config) error {
		c.budgetOff = true
		return nil
	}
}

func (b RetryBudget) withDefaults() RetryBudget {
	if b.Capacity == 0 {
		b.Capacity = DefaultRetryBudgetCapacity
	}
	if b.RetryCost == 0 {
		b.RetryCost = DefaultRetryCost
	}
	if b.TimeoutCost == 0 {
		b.TimeoutCost = DefaultRetryTimeoutCost
	}
	if b.SuccessRefill == 0 {
		b.SuccessRefill = DefaultRetrySuccessRefill
	}
	return b
}

// tokenBucket is a Client's retry budget.
type tokenBucket struct {
	RetryBudget
	tokens atomic.Int64
}

// newTokenBucket returns a full bucket, or nil when the budget is off.
func newTokenBucket(b RetryBudget, off bool) *tokenBucket {
	if off {
		return nil
	}
	t := &tokenBucket{RetryBudget: b.withDefaults()}
	t.tokens.Store(int64(t.Capacity))
	return t
}

// spend takes the cost of retrying after res from the bucket and records it
// on op; false when too few tokens are left. A nil bucket always allows.
func (t *tokenBucket) spend(op *operation, res *attemptResult) bool {
	if t == nil {
		return true
	}
	cost := t.RetryCost
	var netErr net.Error
	if res.status == 0 && (errors.Is(res.err, context.DeadlineExceeded) || errors.As(res.err, &netErr) && netErr.Timeout()) {
		cost = t.TimeoutCost
	}
	for {
		cur := t.tokens.Load()
		if cur < int64(cost) {
			if op.obs != nil {
				op.obs.exhausted = true
			}
			return false
		}
		if t.tokens.CompareAndSwap(cur, cur-int64(cost)) {
			op.retryCost = cost
			return true
		}
	}
}

// succeeded refills the bucket after op succeeded: what its last retry
// spent, or SuccessRefill when it made none.
func (t *tokenBucket) succeeded(op *operation) {
	if t == nil {
		return
	}
	refill := int64(t.SuccessRefill)
	if op.retryCost > 0 {
		refill = int64(op.retryCost)
	}
	for {
		cur := t.tokens.Load()
		next := int64(t.Capacity)
		if cur < next-refill { // no overflow: cur <= Capacity and both are >= 0
			next = cur + refill
		}
		if next == cur || t.tokens.CompareAndSwap(cur, next) {
			return
		}
	}
}

// budgetError is the error of a call whose retry the budget refused after
// attempt n failed with err.
func budgetError(op *operation, n int, err error) error {
	return fmt.Errorf("fiatramp: %s %s: no retry after attempt %d: %w: %w", op.method, op.url.Path, n, ErrRetryBudgetExhausted, err)
}

// RateLimiter paces a Client's requests: Wait returns when the next request
// may go, or an error (the context ended, or the wait would outlast its
// deadline). golang.org/x/time/rate's *Limiter satisfies it.
type RateLimiter interface {
	Wait(ctx context.Context) error
}

// WithRateLimiter makes every attempt of every call wait for l before it is
// sent (retries included). An attempt l refuses is not sent, and the call
// returns an error wrapping l's error; a call that earlier attempts may have
// completed (a payout create) still ends with an *OutcomeUnknownError. nil,
// the default, sends at once. A typed nil (e.g. a nil *rate.Limiter) is
// refused: its Wait would most likely panic at the first call.
func WithRateLimiter(l RateLimiter) Option {
	return func(c *config) error {
		if typedNil(l) {
			return fmt.Errorf("fiatramp: WithRateLimiter: nil %T (pass nil itself for no rate limiter)", l)
		}
		c.limiter = l
		return nil
	}
}

// errHeldBack marks an attempt the rate limiter refused: it was never
// sent, and is not retried.
var errHeldBack = errors.New("request held back by the rate limiter")

// limiterError is an attempt the rate limiter refused.
type limiterError struct{ err error }

func (e *limiterError) Error() string   { return "rate limiter: " + e.err.Error() }
func (e *limiterError) Unwrap() []error { return []error{errHeldBack, e.err} }

// waitTurn waits for the Client's rate limiter, if any.
func (c *Client) waitTurn(ctx context.Context) error {
	if c.cfg.limiter == nil {
		return nil
	}
	if err := c.cfg.limiter.Wait(ctx); err != nil {
		return &limiterError{err}
	}
	if err := ctx.Err(); err != nil {
		// A limiter that let the request go after its context ended: it
		// is not sent (net/http would refuse it, and this way the request
		// counts as never sent).
		return &limiterError{err}
	}
	return nil
}
