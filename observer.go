package fiatramp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Observer watches the calls of a Client and their attempts, e.g. to
// record traces and metrics (the module github.com/fiatramp/fiatramp-go/otel
// does so for OpenTelemetry). It sees the operation's name, method and path
// template, the attempt number, the status, durations, an error class, the
// retry delay and the call's outcome; never a body, a header, an id from
// the path, a query or a credential.
//
// The methods run on the calling goroutine, in order: StartCall once, then
// StartAttempt and EndAttempt for each attempt, then EndCall. They must be
// quick and safe for concurrent use, since calls run in parallel. The
// context StartCall returns is the parent of the call's attempts and of
// EndCall; the one StartAttempt returns carries the attempt's HTTP request
// (so transport instrumentation nests under it). Only their values count:
// the call keeps the caller's deadline and cancellation whatever context an
// Observer returns (one started from context.Background() included); nil
// keeps the one passed in.
//
// A call refused before anything is sent (bad input, a context already
// done) is not observed.
type Observer interface {
	StartCall(ctx context.Context, call CallInfo) context.Context
	StartAttempt(ctx context.Context, call CallInfo, attempt int) context.Context
	EndAttempt(ctx context.Context, attempt AttemptInfo)
	EndCall(ctx context.Context, result CallResult)
}

// WithObserver makes the Client report every call and attempt to o. nil
// (the default) reports nothing and costs nothing. A typed nil (a nil
// pointer, func, map, slice or channel inside o) is refused: its methods
// would most likely panic at the first call.
func WithObserver(o Observer) Option {
	return func(c *config) error {
		if typedNil(o) {
			return fmt.Errorf("fiatramp: WithObserver: nil %T (pass nil itself for no Observer)", o)
		}
		c.observer = o
		return nil
	}
}

// typedNil reports whether v holds a nil pointer, func, map, slice or
// channel: an interface value that is not nil itself but whose methods
// would most likely panic. Options check it once, never a call.
func typedNil(v any) bool {
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Chan, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

// CallInfo names one call.
type CallInfo struct {
	// Operation is the library's name for the operation, e.g.
	// "Payouts.Create" or "Customers.ListBankAccounts". A call through
	// Client.Do to a path the library knows carries that operation's name;
	// to any other path, "Client.Do".
	Operation string
	// Method is the HTTP method.
	Method string
	// Route is the path template from the base address, with
	// placeholders instead of ids, e.g. "/pos/api/v1/payout/{payout_id}".
	// For a path the library does not know (Client.Do), only segments that
	// read as route words stay (lower-case letters, "-" and "_", at most 32
	// bytes, or a version such as "v1"); every other segment (a UUID, a
	// number, a reference, an e-mail address, anything escaped) reads
	// "{id}". Never a query.
	Route string
	// Server is the host of the base address: a name, or an IP address
	// (an IPv6 one without brackets); never a port.
	Server string
	// ServerPort is the port requests go to: the base address's, or the
	// scheme's default (443 for https, 80 for http) when it names none.
	ServerPort int
	// Scheme is the base address's scheme: "https", or "http".
	Scheme string
}

// AttemptInfo describes one finished attempt.
type AttemptInfo struct {
	CallInfo
	// Attempt is the attempt's number, from 1.
	Attempt int
	// StatusCode is the HTTP status of the answer; 0 when none came.
	StatusCode int
	// Duration runs from sending the request to reading the last byte of
	// the answer (or the transport's failure).
	Duration time.Duration
	// ErrorClass says why the attempt failed; "" when it succeeded.
	ErrorClass ErrorClass
	// Retry is true when another attempt is due after RetryDelay; the
	// caller's context may still end the call during that wait.
	Retry      bool
	RetryDelay time.Duration
}

// CallResult describes a finished call.
type CallResult struct {
	CallInfo
	// Attempts is how many attempts the call made.
	Attempts int
	// StatusCode is the HTTP status of the last attempt's answer; 0 when
	// none came.
	StatusCode int
	// Duration runs from the call's start to its end, waits included.
	Duration time.Duration
	// Outcome says whether the call succeeded, failed, or may have acted.
	Outcome Outcome
	// ErrorClass says why the call failed; "" when it succeeded.
	ErrorClass ErrorClass
	// RetryBudgetExhausted is true when the Client's retry budget stopped
	// a retry the policy allowed (see WithRetryBudget).
	RetryBudgetExhausted bool
	// Reconciled is true when the call's outcome was unknown until the
	// reconciliation WithReconcile asked for settled it: Outcome is then
	// OutcomeSuccess (a lost attempt created what the call returns) or
	// OutcomeFailure (a *NotCreatedError: nothing was created), never
	// OutcomeUnknown; ErrorClass stays the last attempt's, "" for a
	// success. A reconciliation that settles nothing leaves the call
	// OutcomeUnknown with Reconciled false.
	Reconciled bool
}

// Outcome is how a call ended.
type Outcome string

// Outcomes of a call.
const (
	// OutcomeSuccess: the call returned its result.
	OutcomeSuccess Outcome = "success"
	// OutcomeFailure: the call returned an error, and the operation did
	// not run or is safe to repeat.
	OutcomeFailure Outcome = "failure"
	// OutcomeUnknown: the call returned an *OutcomeUnknownError: an
	// operation that must not run twice may have run. A call of such an
	// operation that panicked (ErrorClassPanic) after its first attempt
	// started is unknown too. A create that WithReconcile settled is never
	// unknown: it ends as success or failure, with CallResult.Reconciled.
	OutcomeUnknown Outcome = "unknown"
)

// ErrorClass is a short, fixed name for why an attempt or a call failed,
// fit for a metric attribute.
type ErrorClass string

// Error classes.
const (
	ErrorClassRateLimited  ErrorClass = "rate_limited"       // HTTP 429
	ErrorClassUnavailable  ErrorClass = "unavailable"        // HTTP 502, 503, 504
	ErrorClassInternal     ErrorClass = "internal"           // HTTP 500
	ErrorClassServerError  ErrorClass = "server_error"       // another 5xx, a 400 where the service gave up (NET_TIMEOUT, UNKNOWN_ERROR), or a status of no class
	ErrorClassUnauthorized ErrorClass = "unauthorized"       // HTTP 401
	ErrorClassClockSkew    ErrorClass = "clock_skew"         // the timestamp was refused
	ErrorClassRefused      ErrorClass = "refused"            // another 4xx, or status false in a 2xx envelope
	ErrorClassMalformed    ErrorClass = "malformed_response" // an answer the library cannot read
	ErrorClassRedirect     ErrorClass = "redirect"           // a 3xx, not followed
	ErrorClassTimeout      ErrorClass = "timeout"            // the per-attempt timeout, a deadline, a network timeout, HTTP 408
	ErrorClassCanceled     ErrorClass = "canceled"           // the caller's context was canceled
	ErrorClassConnection   ErrorClass = "connection"         // no answer, or one broken off
	ErrorClassCertificate  ErrorClass = "certificate"        // a failed TLS certificate check
	ErrorClassRateLimiter  ErrorClass = "rate_limiter"       // the client-side rate limiter refused (WithRateLimiter)
	ErrorClassPanic        ErrorClass = "panic"              // the call panicked (the transport, a decoder, the Observer); the panic goes on to the caller
)

// classify names the class of a failed attempt's or call's error.
func classify(err error) ErrorClass {
	if err == nil {
		return ""
	}
	var unknown *OutcomeUnknownError
	if errors.As(err, &unknown) { // which does not unwrap
		return classify(unknown.Err)
	}
	var notCreated *NotCreatedError
	if errors.As(err, &notCreated) { // which does not unwrap either
		return classify(notCreated.Err)
	}
	var apiErr *APIError
	var netErr net.Error
	var limErr *limiterError
	switch {
	case errors.Is(err, context.Canceled): // also while the rate limiter waited
		return ErrorClassCanceled
	case errors.As(err, &limErr):
		return ErrorClassRateLimiter
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return ErrorClassTimeout
	case isCertificateError(err):
		return ErrorClassCertificate
	case !errors.As(err, &apiErr):
		return ErrorClassConnection
	case errors.Is(err, ErrClockSkew):
		return ErrorClassClockSkew
	case errors.Is(err, ErrRedirect):
		return ErrorClassRedirect
	}
	switch s := apiErr.StatusCode; {
	case s == http.StatusUnauthorized:
		return ErrorClassUnauthorized
	case s == http.StatusRequestTimeout:
		return ErrorClassTimeout
	case s == http.StatusTooManyRequests:
		return ErrorClassRateLimited
	case s == http.StatusInternalServerError:
		return ErrorClassInternal
	case s == http.StatusBadGateway, s == http.StatusServiceUnavailable, s == http.StatusGatewayTimeout:
		return ErrorClassUnavailable
	case s < 200 || s > 499, serviceGaveUp(err):
		// A 400 with NET_TIMEOUT or UNKNOWN_ERROR is the service giving
		// up, retried like a 5xx: no refusal.
		return ErrorClassServerError
	case errors.Is(err, ErrMalformedResponse):
		return ErrorClassMalformed
	}
	return ErrorClassRefused
}

// callObservation follows one call for its Observer.
type callObservation struct {
	obs        Observer
	info       CallInfo
	callCtx    context.Context
	attemptCtx context.Context
	start      time.Time
	attempts   int  // attempts ended
	started    int  // attempts started
	unsafe     bool // the operation must not run twice
	status     int
	exhausted  bool // the retry budget stopped a retry
	reconciled bool // WithReconcile settled the outcome
}

// observeCall starts observing op, when the Client has an Observer, and
// returns the context the call continues with.
func (c *Client) observeCall(ctx context.Context, op *operation) context.Context {
	if c.cfg.observer == nil {
		return ctx
	}
	info := c.callInfo(op)
	o := &callObservation{obs: c.cfg.observer, info: info, start: time.Now(), unsafe: op.safety != repeatable}
	ctx = withValuesOf(ctx, o.obs.StartCall(ctx, info))
	o.callCtx = ctx
	op.obs = o
	return ctx
}

// attemptContext starts observing attempt n and returns the context its
// request carries; without an Observer, ctx itself.
func (o *callObservation) attemptContext(ctx context.Context, n int) context.Context {
	if o == nil {
		return ctx
	}
	actx := withValuesOf(ctx, o.obs.StartAttempt(ctx, o.info, n))
	o.attemptCtx, o.started = actx, n
	return actx
}

// endAttempt reports attempt n; retryIn >= 0 is the wait before the next
// attempt, -1 means none follows.
func (o *callObservation) endAttempt(n int, res *attemptResult, err error, retryIn time.Duration) {
	if o == nil {
		return
	}
	o.attempts, o.status = n, res.status
	ctx := o.attemptCtx
	if ctx == nil {
		ctx = o.callCtx
	}
	o.attemptCtx = nil // ended, even if EndAttempt panics
	o.obs.EndAttempt(ctx, AttemptInfo{
		CallInfo: o.info, Attempt: n, StatusCode: res.status, Duration: res.duration,
		ErrorClass: classify(err), Retry: retryIn >= 0, RetryDelay: max(retryIn, 0),
	})
}

// endCall reports the call's end with its error *errp. Deferred by the
// request path, it also reports a call that panicked, and lets the panic
// go on.
func (o *callObservation) endCall(errp *error) {
	if p := recover(); p != nil {
		o.endPanicked()
		panic(p)
	}
	err := *errp
	r := CallResult{
		CallInfo: o.info, Attempts: o.attempts, StatusCode: o.status,
		Duration: time.Since(o.start), Outcome: OutcomeSuccess, ErrorClass: classify(err),
		RetryBudgetExhausted: o.exhausted, Reconciled: o.reconciled,
	}
	var unknown *OutcomeUnknownError
	switch {
	case errors.As(err, &unknown):
		r.Outcome = OutcomeUnknown
	case err != nil:
		r.Outcome = OutcomeFailure
	}
	o.obs.EndCall(o.callCtx, r)
}

// endPanicked reports a call that panicked: the attempt under way, if any,
// ends, and the call fails, or is unknown when an attempt of an operation
// that must not run twice had started.
func (o *callObservation) endPanicked() {
	if ctx := o.attemptCtx; ctx != nil {
		o.attemptCtx, o.attempts = nil, o.started
		o.obs.EndAttempt(ctx, AttemptInfo{CallInfo: o.info, Attempt: o.started, ErrorClass: ErrorClassPanic})
	}
	r := CallResult{
		CallInfo: o.info, Attempts: o.attempts, StatusCode: o.status,
		Duration: time.Since(o.start), Outcome: OutcomeFailure, ErrorClass: ErrorClassPanic,
		RetryBudgetExhausted: o.exhausted,
	}
	if o.unsafe && o.started > 0 {
		r.Outcome = OutcomeUnknown
	}
	o.obs.EndCall(o.callCtx, r)
}

// observedContext is the caller's context, whose deadline, cancellation
// and error govern the call, with the values of the context an Observer
// returned (its spans).
type observedContext struct {
	context.Context
	values context.Context
}

func (c *observedContext) Value(key any) any { return c.values.Value(key) }

// withValuesOf returns ctx with the values of the Observer's context
// values: ctx itself when values is nil or ctx, values itself when it ends
// as ctx does (derived with context.WithValue, as a span is), else both
// combined.
func withValuesOf(ctx, values context.Context) context.Context {
	if values == nil || values == ctx {
		return ctx
	}
	if values.Done() == ctx.Done() {
		d1, ok1 := values.Deadline()
		d2, ok2 := ctx.Deadline()
		if ok1 == ok2 && d1.Equal(d2) {
			return values
		}
	}
	return &observedContext{Context: ctx, values: values}
}

// serverInfo is the part of every CallInfo the base address u gives
// (Server, ServerPort, Scheme), worked out once per Client.
func serverInfo(u *url.URL) CallInfo {
	info := CallInfo{Server: u.Hostname(), Scheme: u.Scheme}
	switch port := u.Port(); {
	case port != "":
		info.ServerPort, _ = strconv.Atoi(port) // checked by parseBaseURL
	case u.Scheme == "https":
		info.ServerPort = 443
	case u.Scheme == "http":
		info.ServerPort = 80
	}
	return info
}

// callInfo names op for an Observer: a typed call by its row of the index
// of operations, a call through Do (or to a pagination link) by the row
// whose method and path template its path fits, else "Client.Do". Only
// templates and the base address's scheme, host and port reach it: never
// the path's ids, the query, a header or a body.
func (c *Client) callInfo(op *operation) CallInfo {
	info := c.cfg.server
	info.Method = op.method
	row := op.row
	if row == nil {
		// The escaped path, as sent: an escaped "/" inside an id does not
		// split it into segments.
		rel := strings.TrimPrefix(op.url.EscapedPath(), c.cfg.baseURL.EscapedPath())
		if row = knownRoute(op.method, rel, c.cfg.remittancePath); row == nil {
			info.Operation, info.Route = "Client.Do", anonymousPath(rel)
			return info
		}
	}
	info.Operation, info.Route = row.name, row.path
	if row.remittance {
		info.Route = c.cfg.remittancePath
	}
	return info
}

// matchTemplate reports whether path fits template, whose "{...}" segments
// stand for one non-empty segment each.
func matchTemplate(template, path string) bool {
	if strings.Count(template, "/") != strings.Count(path, "/") {
		return false
	}
	for template != "" {
		var t, p string
		t, template, _ = strings.Cut(template, "/")
		p, path, _ = strings.Cut(path, "/")
		if t != p && (p == "" || !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}")) {
			return false
		}
	}
	return true
}

// anonymousPath replaces every segment of an escaped path that is not a
// route word with "{id}": what cannot be told from an id is taken for one.
func anonymousPath(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if s != "" && !routeWord(s) {
			segs[i] = "{id}"
		}
	}
	return strings.Join(segs, "/")
}

// routeWord reports whether a path segment reads as a fixed part of a
// route: lower-case letters, "-" and "_" (at most 32 bytes, starting with
// a letter), or a version, "v" and one to three digits.
func routeWord(s string) bool {
	if len(s) >= 2 && len(s) <= 4 && s[0] == 'v' && strings.Trim(s[1:], "0123456789") == "" {
		return true
	}
	if len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz-_") == ""
}
