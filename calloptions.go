package fiatramp

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// WithCallRetry replaces the Client's retry policy (WithRetry) for this
// call; RetryPolicy{MaxAttempts: 1} makes one attempt only. A zero field
// means its default, as in WithRetry. The Client's retry budget still
// applies.
func WithCallRetry(p RetryPolicy) RequestOption {
	return func(rc *requestConfig) error {
		p, problem := checkRetryPolicy(p)
		if problem != "" {
			return invalid("WithCallRetry", problem)
		}
		rc.retry = &p
		return nil
	}
}

// WithCallTimeout bounds each attempt of this call instead of the Client's
// WithTimeout; zero means no bound beyond the call's context.
func WithCallTimeout(d time.Duration) RequestOption {
	return func(rc *requestConfig) error {
		if d < 0 {
			return invalid("WithCallTimeout", fmt.Sprintf("negative duration %s", d))
		}
		rc.timeout, rc.timeoutSet = d, true
		return nil
	}
}

// checkRetryPolicy fills p's defaults, or says what is wrong with it: a
// negative field, or a first wait longer than the cap.
func checkRetryPolicy(p RetryPolicy) (RetryPolicy, string) {
	if p.MaxAttempts < 0 || p.InitialBackoff < 0 || p.MaxBackoff < 0 {
		return p, fmt.Sprintf("negative value in %+v", p)
	}
	p = p.withDefaults()
	if p.InitialBackoff > p.MaxBackoff {
		return p, fmt.Sprintf("InitialBackoff %s exceeds MaxBackoff %s", p.InitialBackoff, p.MaxBackoff)
	}
	return p, ""
}

// callSettings applies the call's retry policy and per-attempt timeout to
// op and returns the policy.
func (c *Client) callSettings(rc *requestConfig, op *operation) RetryPolicy {
	op.timeout = c.cfg.timeout
	if rc.timeoutSet {
		op.timeout = rc.timeout
	}
	if rc.retry != nil {
		return *rc.retry
	}
	return c.cfg.retry
}

// requestIDHeaders are the response headers APIError.RequestID is read
// from, first match first.
var requestIDHeaders = [...]string{"X-Request-Id", "Request-Id", "X-Correlation-Id", "X-Amzn-Requestid"}

// maxRequestID caps the length of a request id kept in APIError.RequestID.
const maxRequestID = 128

// attachResponse gives an *APIError err (not one it wraps) a copy of the
// answer's headers and its request id.
func attachResponse(err error, header http.Header) {
	if err == nil || header == nil {
		return // before apiErr, which escapes: no allocation on success
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Header != nil {
		return
	}
	apiErr.Header = header.Clone()
	apiErr.RequestID = requestID(header)
}

// requestID returns the first of requestIDHeaders the header carries, when
// it is printable ASCII of at most maxRequestID bytes; else "".
func requestID(h http.Header) string {
	for _, name := range requestIDHeaders {
		v := strings.TrimSpace(h.Get(name))
		if v == "" {
			continue
		}
		if len(v) > maxRequestID || strings.IndexFunc(v, func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0 {
			return ""
		}
		return v
	}
	return ""
}
