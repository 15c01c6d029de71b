package fiatramp

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Retry defaults, from the service's own guidance: retry 429 and 5xx with
// exponential backoff starting at 1 s, capped at 30 s, at most 5 attempts.
const (
	DefaultMaxAttempts    = 5
	DefaultInitialBackoff = time.Second
	DefaultMaxBackoff     = 30 * time.Second
)

// RetryPolicy says how often and how patiently a call is tried again after
// a connection error, an answer of 408, 429, 500, 502, 503 or 504, a
// refusal with err_code NET_TIMEOUT or UNKNOWN_ERROR (the service gave up
// on the request; it sends them as 400), or an answer whose body was cut
// off. Other answers, TLS certificate errors and
// the caller's own cancellation are never retried. A zero field means its
// default.
//
// Payout creates are retried only when a repeat cannot pay twice: see
// PayoutsService.Create.
type RetryPolicy struct {
	// MaxAttempts is the most attempts one call makes, the first included:
	// 1 switches retries off. Zero means DefaultMaxAttempts.
	MaxAttempts int
	// InitialBackoff is the wait before the second attempt; each later wait
	// doubles, and a random jitter of up to a quarter is added to each.
	// Zero means DefaultInitialBackoff.
	InitialBackoff time.Duration
	// MaxBackoff caps every wait, including one that a Retry-After header
	// asks for. Zero means DefaultMaxBackoff.
	MaxBackoff time.Duration
}

// WithRetry replaces the retry policy; RetryPolicy{MaxAttempts: 1} switches
// retries off. However long the policy allows, a call never waits past its
// context's deadline.
func WithRetry(p RetryPolicy) Option {
	return func(c *config) error {
		p, problem := checkRetryPolicy(p)
		if problem != "" {
			return errors.New("fiatramp: WithRetry: " + problem)
		}
		c.retry = p
		return nil
	}
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts == 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}
	if p.InitialBackoff == 0 {
		p.InitialBackoff = DefaultInitialBackoff
	}
	if p.MaxBackoff == 0 {
		p.MaxBackoff = DefaultMaxBackoff
	}
	return p
}

// backoff returns the wait after failed attempt n (from 1): InitialBackoff
// doubled n-1 times, plus a jitter of up to a quarter drawn by jitter, never
// more than MaxBackoff.
func (p RetryPolicy) backoff(n int, jitter func(n int64) int64) time.Duration {
	d := p.InitialBackoff
	for i := 1; i < n && d < p.MaxBackoff; i++ {
		d *= 2
	}
	if q := int64(d / 4); q > 0 {
		d += time.Duration(jitter(q))
	}
	return min(d, p.MaxBackoff)
}

// defaultJitter draws from the runtime's concurrency-safe generator.
func defaultJitter(n int64) int64 { return rand.Int64N(n) }

// sleepContext waits d, or until ctx is done, which it returns.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// retryAfter reads a Retry-After header: delay seconds, or an HTTP date
// taken relative to the response's own Date when it has one (so that a
// skewed local clock does not stretch the wait), else to now.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(v, 10, 32); err == nil {
		return time.Duration(secs) * time.Second, true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		now = date
	}
	return max(at.Sub(now), 0), true
}

// safety says what repeating an operation could do.
type safety int

const (
	// repeatable: a repeat does no harm (reads, quotations, wallets,
	// simulations), so every retryable failure is retried.
	repeatable safety = iota
	// guarded: a payout create carrying a client_reference_id. The service
	// refuses a second payout with the same reference or quotation, so a
	// repeat cannot pay twice; it is retried, and an earlier attempt that
	// may have acted turns a final failure into an *OutcomeUnknownError.
	guarded
	// oneShot: a repeat could act twice (a payout create without a
	// reference, a POST or PATCH through Do). It is repeated only when no
	// earlier attempt can have reached the service.
	oneShot
)

// verdict is what one attempt's failure allows.
type verdict struct {
	retry bool // another attempt may help
	acted bool // the service may have acted on this attempt
}

// judge classifies the failure err of an attempt whose result is res.
// parent is the caller's context, without the per-attempt timeout. An
// attempt counts as "acted" unless its answer proves that nothing ran: a
// refusal (4xx, or status false in a 2xx envelope), a rate limit, or a
// request that never left.
func judge(parent context.Context, res *attemptResult, err error) verdict {
	status := res.status
	var apiErr *APIError
	if status != 0 && errors.As(err, &apiErr) {
		switch {
		case status == http.StatusTooManyRequests:
			// A rate limiter refuses before anything runs.
			return verdict{retry: true}
		case serviceGaveUp(err) && ((status >= 200 && status <= 299) || (status >= 400 && status <= 499)):
			// NET_TIMEOUT or UNKNOWN_ERROR: the service gave up on the
			// request, perhaps after acting on it. It proves no more than a
			// 5xx does and is treated as one.
			return verdict{retry: true, acted: true}
		case status == http.StatusRequestTimeout, status == http.StatusInternalServerError,
			status == http.StatusBadGateway, status == http.StatusServiceUnavailable,
			status == http.StatusGatewayTimeout:
			return verdict{retry: true, acted: true}
		case status >= 200 && status <= 299:
			switch {
			case !errors.Is(err, ErrMalformedResponse):
				// A refusal in a 2xx envelope.
				return verdict{}
			case !res.oversize && endsEarly(res.body):
				// The body was cut off: whole, it may have said success.
				// Another attempt settles it, as after a broken connection.
				return verdict{retry: parent.Err() == nil, acted: true}
			}
			// A whole answer the library does not understand: asking
			// again gets the same.
			return verdict{acted: true}
		case status >= 400 && status <= 499:
			// A refusal: nothing ran.
			return verdict{}
		}
		// A 3xx: a 303 is how a server says it processed a POST (RFC 9110),
		// and any redirect may come from a gateway after the service acted.
		// A 5xx not listed above (501, 505, a proxy's 520-527) or a status
		// of no class: nothing proves that the request did not run.
		return verdict{acted: true}
	}
	if status != 0 {
		// The response broke off while its body was read, or the context
		// ended while it was decoded (decodedInTime).
		return verdict{retry: parent.Err() == nil, acted: true}
	}
	switch {
	case parent.Err() != nil:
		// The caller gave up; the request may have been sent already.
		return verdict{acted: !notSent(err)}
	case isCertificateError(err), errors.Is(err, errHeldBack):
		return verdict{}
	case notSent(err):
		return verdict{retry: true}
	}
	// A connection broken after sending, the per-attempt timeout, or an
	// answer with no valid status (HTTP 000).
	return verdict{retry: true, acted: true}
}

// serviceGaveUp reports whether err is the service's own word that it gave
// up on the request without saying whether it acted: err_code NET_TIMEOUT
// or UNKNOWN_ERROR, which it sends as a 400.
func serviceGaveUp(err error) bool {
	return errors.Is(err, ErrServiceTimeout) || errors.Is(err, ErrServiceUnknown)
}

// endsEarly reports whether body is JSON text cut short: empty, or valid up
// to an end that falls inside a value. That is what an answer whose tail
// was lost looks like; any other body that does not decode is a whole answer.
func endsEarly(body []byte) bool {
	var syntaxErr *json.SyntaxError
	return errors.As(json.Unmarshal(body, &struct{}{}), &syntaxErr) &&
		syntaxErr.Offset == int64(len(body)) && strings.HasPrefix(syntaxErr.Error(), "unexpected end")
}

// notSent reports whether err proves that the request never left: a failed
// DNS lookup or connection set-up. Anything else may have sent it.
func notSent(err error) bool {
	if errors.Is(err, errHeldBack) {
		return true
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && (opErr.Op == "dial" || opErr.Op == "proxyconnect") {
		return true
	}
	var tlsErr *tls.RecordHeaderError
	if errors.As(err, &tlsErr) { // plain HTTP spoken to a TLS client: at handshake
		return true
	}
	return isCertificateError(err)
}

// isCertificateError reports whether err is a failed TLS certificate check,
// which no retry can mend.
func isCertificateError(err error) bool {
	var (
		verifyErr   *tls.CertificateVerificationError
		unknownAuth x509.UnknownAuthorityError
		invalid     x509.CertificateInvalidError
		hostname    x509.HostnameError
	)
	return errors.As(err, &verifyErr) || errors.As(err, &unknownAuth) ||
		errors.As(err, &invalid) || errors.As(err, &hostname)
}
