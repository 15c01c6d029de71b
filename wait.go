package fiatramp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// Polling defaults of PayoutsService.Wait: the first fetch is immediate,
// then the waits grow from DefaultPollInterval, doubling, to
// DefaultMaxPollInterval.
const (
	DefaultPollInterval    = 2 * time.Second
	DefaultMaxPollInterval = 30 * time.Second
)

// WaitOption changes how PayoutsService.Wait polls.
type WaitOption func(*waitConfig) error

type waitConfig struct {
	policy RetryPolicy // InitialBackoff and MaxBackoff are the poll waits
	get    []RequestOption
	done   func(types.PayoutStatus) bool // the status Wait stops at
}

// WaitUntil makes Wait stop at the first status for which done reports
// true, instead of at a decided fiat outcome. To wait until the funds of
// a failed payout have come back (the moment to re-credit the user), or
// for any final status, pass the status method itself:
//
//	client.Payouts.Wait(ctx, id, fiatramp.WaitUntil(types.PayoutStatus.IsFinal))
//
// A FAILED payout keeps such a Wait polling until REFUNDED, so give it a
// context with a deadline.
func WaitUntil(done func(types.PayoutStatus) bool) WaitOption {
	return func(w *waitConfig) error {
		if done == nil {
			return invalid("opts", "nil WaitUntil condition")
		}
		w.done = done
		return nil
	}
}

// fiatDecided is Wait's default stop: the fiat outcome is decided.
func fiatDecided(s types.PayoutStatus) bool { return !s.MayStillPay() }

// WithPollInterval sets the wait after the first fetch (initial) and the
// largest wait (max); each wait doubles the one before, plus a jitter of
// up to a quarter. Both must be positive and initial at most max.
func WithPollInterval(initial, max time.Duration) WaitOption {
	return func(w *waitConfig) error {
		if initial <= 0 || max <= 0 || initial > max {
			return invalid("poll interval", fmt.Sprintf("want 0 < initial <= max, got %s and %s", initial, max))
		}
		w.policy.InitialBackoff, w.policy.MaxBackoff = initial, max
		return nil
	}
}

// WithPollRequestOptions passes opts to every fetch Wait makes, e.g. a
// header.
func WithPollRequestOptions(opts ...RequestOption) WaitOption {
	return func(w *waitConfig) error {
		w.get = append(w.get, opts...)
		return nil
	}
}

// Wait polls a payout until its fiat outcome is decided and returns it:
// SUCCESS (paid), or FAILED, REFUNDED or CANCELLED (no fiat will be paid),
// the statuses for which types.PayoutStatus.MayStillPay is false. It is
// the fallback for a program that cannot receive webhooks; a program that
// can should let the PAYOUT events tell it instead (package webhook).
//
// FAILED is decided but not final: the funds come back later, with
// REFUNDED, which is when to re-credit the user (see
// types.PayoutStatus.FundsReturned). WaitUntil(types.PayoutStatus.IsFinal)
// waits for that instead.
//
// The first fetch (GET /pos/api/v1/payout/{payout_id}, with the client's
// retries) is immediate; later ones follow WithPollInterval, by default
// 2 s doubling to 30 s. IN_REVIEW keeps Wait waiting: a payout under review
// may still be paid, and so does a status this library does not know. A fetch that fails for a reason that may pass (a connection
// error, 408, 429, 5xx) is tried again at the next poll; any other failure
// (an unknown payout, a refused signature, an unreadable answer, a TLS
// certificate the client does not trust) ends Wait with that error at
// once. When ctx ends first, Wait returns the payout as last fetched (nil
// if no fetch succeeded) with an error that wraps ctx's error and names the
// last status or failure.
func (s *PayoutsService) Wait(ctx context.Context, payoutID uuid.UUID, opts ...WaitOption) (*types.Payout, error) {
	if err := requireID("payout_id", payoutID); err != nil {
		return nil, err
	}
	cfg := waitConfig{policy: RetryPolicy{InitialBackoff: DefaultPollInterval, MaxBackoff: DefaultMaxPollInterval}, done: fiatDecided}
	for _, o := range opts {
		if o == nil {
			return nil, invalid("opts", "nil WaitOption")
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	var (
		last    *types.Payout
		lastErr error
	)
	for n := 1; ; n++ {
		p, err := s.Get(ctx, payoutID, cfg.get...)
		switch {
		case err == nil:
			if cfg.done(p.Status) {
				return p, nil
			}
			last, lastErr = p, nil
		case ctx.Err() != nil:
			// the context ended during the fetch: reported below
		case !passing(err):
			return nil, err
		default:
			lastErr = err
		}
		if err := sleepContext(ctx, cfg.policy.backoff(n, s.client.cfg.jitter)); err != nil {
			return last, waitEnded(payoutID, last, lastErr, err)
		}
	}
}

// passing reports whether a failed fetch may succeed when tried again.
func passing(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusInternalServerError,
			http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	var verr *ValidationError
	return !errors.As(err, &verr) && !errors.Is(err, ErrMalformedResponse) && !isCertificateError(err)
}

// waitEnded is Wait's error when its context ends before a final status.
func waitEnded(id uuid.UUID, last *types.Payout, lastErr, ctxErr error) error {
	switch {
	case lastErr != nil:
		return fmt.Errorf("fiatramp: waiting for payout %s: %w (last fetch failed: %w)", id, ctxErr, lastErr)
	case last != nil:
		return fmt.Errorf("fiatramp: waiting for payout %s: %w (last status %s)", id, ctxErr, last.Status)
	}
	return fmt.Errorf("fiatramp: waiting for payout %s: %w (no fetch completed)", id, ctxErr)
}
