// Package fiatrampotel reports the calls of a fiatramp.Client to
// OpenTelemetry: a span per call with a child span per attempt, and
// metrics of call durations, attempts and outcomes. It lives in its own
// module, so that the fiatramp module itself depends on no telemetry
// library.
//
//	obs, err := fiatrampotel.NewObserver()
//	client, err := fiatramp.New(key, secret, fiatramp.WithBaseURL(base), fiatramp.WithObserver(obs))
//
// Attempt spans are CLIENT spans named "{method} {url.template}"; the call
// span above them is INTERNAL, named by the operation. Attributes follow
// the OpenTelemetry semantic conventions for HTTP clients
// (http.request.method, http.request.method_original, url.template,
// url.scheme on spans only, server.address, server.port (the scheme's
// default when the base address names none), http.response.status_code,
// error.type, http.request.resend_count) and add fiatramp.operation, fiatramp.outcome,
// fiatramp.attempts, fiatramp.retry.delay,
// fiatramp.retry.budget_exhausted and, on a create that WithReconcile
// settled, fiatramp.reconciled (its outcome success or failure, never
// unknown; the reconciliation's reads are calls of their own, their spans
// children of the create's). error.type is a fiatramp.ErrorClass
// (e.g. "unavailable", "timeout", "refused"). An attempt span's status is
// Error for every failed attempt, a 4xx or 5xx answer included, with the
// error class as its description only when the status code does not tell
// the failure (no answer, or a refusal inside a 2xx).
//
// url.full, which the conventions require on client spans, is left out on
// purpose: the full address holds the ids of payouts, customers and bank
// accounts, and the observer never receives them (url.template stands in).
// No body, header, id from the path, query or credential is recorded.
package fiatrampotel

import (
	"context"
	"strconv"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/fiatramp/fiatramp-go/otel"

// Attribute keys this package adds to the semantic conventions'.
const (
	OperationKey       = attribute.Key("fiatramp.operation")              // e.g. "Payouts.Create"
	OutcomeKey         = attribute.Key("fiatramp.outcome")                // success, failure, unknown
	AttemptsKey        = attribute.Key("fiatramp.attempts")               // attempts of a call
	RetryDelayKey      = attribute.Key("fiatramp.retry.delay")            // seconds before the next attempt
	BudgetExhaustedKey = attribute.Key("fiatramp.retry.budget_exhausted") // the retry budget stopped a retry
	// ReconciledKey is true on a create whose outcome was unknown until
	// the reconciliation WithReconcile asked for settled it; its outcome
	// is then success or failure, never unknown. Absent otherwise.
	ReconciledKey = attribute.Key("fiatramp.reconciled")
)

// Metric names.
const (
	CallDurationMetric    = "fiatramp.client.call.duration" // histogram, s, per call, waits included
	CallsMetric           = "fiatramp.client.calls"         // counter, per call, by outcome
	AttemptsMetric        = "fiatramp.client.attempts"      // counter, per attempt
	RequestDurationMetric = "http.client.request.duration"  // histogram, s, per attempt (semantic conventions)
)

// requestBuckets are http.client.request.duration's bucket boundaries in
// seconds, those the semantic conventions give, so that its histograms
// merge with other HTTP clients'.
var requestBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

// callBuckets are the call duration's: the same, and beyond 10 s for
// calls whose retries wait (up to 30 s each by default).
var callBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60, 120}

// knownMethods are the HTTP methods the semantic conventions name; any
// other is recorded as "_OTHER".
var knownMethods = map[string]bool{
	"CONNECT": true, "DELETE": true, "GET": true, "HEAD": true, "OPTIONS": true,
	"PATCH": true, "POST": true, "PUT": true, "TRACE": true,
}

// Option configures NewObserver.
type Option func(*settings)

type settings struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// WithTracerProvider sets where spans go; the default is the global
// provider (otel.GetTracerProvider).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(s *settings) { s.tp = tp }
}

// WithMeterProvider sets where metrics go; the default is the global
// provider (otel.GetMeterProvider).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(s *settings) { s.mp = mp }
}

// Observer is a fiatramp.Observer that records spans and metrics. It is
// safe for concurrent use; one serves any number of Clients.
type Observer struct {
	tracer          trace.Tracer
	callDuration    metric.Float64Histogram
	calls           metric.Int64Counter
	attempts        metric.Int64Counter
	requestDuration metric.Float64Histogram
}

var _ fiatramp.Observer = (*Observer)(nil)

// NewObserver returns an Observer recording to the given (or the global)
// providers. It fails only when an instrument cannot be created.
func NewObserver(opts ...Option) (*Observer, error) {
	s := settings{}
	for _, opt := range opts {
		opt(&s)
	}
	if s.tp == nil {
		s.tp = otel.GetTracerProvider()
	}
	if s.mp == nil {
		s.mp = otel.GetMeterProvider()
	}
	meter := s.mp.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL))
	o := &Observer{tracer: s.tp.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL))}
	var err error
	if o.callDuration, err = meter.Float64Histogram(CallDurationMetric, metric.WithUnit("s"),
		metric.WithExplicitBucketBoundaries(callBuckets...),
		metric.WithDescription("Duration of fiatramp calls, every attempt and wait included.")); err != nil {
		return nil, err
	}
	if o.calls, err = meter.Int64Counter(CallsMetric, metric.WithUnit("{call}"),
		metric.WithDescription("fiatramp calls, by operation and outcome.")); err != nil {
		return nil, err
	}
	if o.attempts, err = meter.Int64Counter(AttemptsMetric, metric.WithUnit("{attempt}"),
		metric.WithDescription("HTTP attempts of fiatramp calls, retries included.")); err != nil {
		return nil, err
	}
	if o.requestDuration, err = meter.Float64Histogram(RequestDurationMetric, metric.WithUnit("s"),
		metric.WithExplicitBucketBoundaries(requestBuckets...),
		metric.WithDescription("Duration of HTTP client requests.")); err != nil {
		return nil, err
	}
	return o, nil
}

// method is the http.request.method of m: m when the semantic conventions
// know it, else "_OTHER".
func method(m string) string {
	if knownMethods[m] {
		return m
	}
	return "_OTHER"
}

// spanAttrs are callAttrs plus url.scheme and, for a method recorded as
// "_OTHER", the method itself (spans only: metrics keep the attributes
// the conventions require or recommend, and a bounded set of values).
// more is room for the caller's own.
func spanAttrs(c fiatramp.CallInfo, more int) []attribute.KeyValue {
	attrs := callAttrs(c, 2+more)
	if c.Scheme != "" {
		attrs = append(attrs, semconv.URLScheme(c.Scheme))
	}
	if !knownMethods[c.Method] {
		attrs = append(attrs, semconv.HTTPRequestMethodOriginal(c.Method))
	}
	return attrs
}

// callAttrs are the attributes every span and metric of a call carries,
// in a slice with room for more others (one allocation).
func callAttrs(c fiatramp.CallInfo, more int) []attribute.KeyValue {
	attrs := append(make([]attribute.KeyValue, 0, 5+more),
		OperationKey.String(c.Operation),
		semconv.HTTPRequestMethodKey.String(method(c.Method)),
		semconv.URLTemplate(c.Route),
		semconv.ServerAddress(c.Server),
	)
	if c.ServerPort != 0 {
		attrs = append(attrs, semconv.ServerPort(c.ServerPort))
	}
	return attrs
}

// failed reports whether an attempt or a call that ended with status and
// class failed: the semantic conventions make every 4xx and 5xx answer an
// error for a client, and the library's error class covers the rest.
func failed(status int, class fiatramp.ErrorClass) bool {
	return class != "" || status >= 400
}

// errorType is the error.type of a failed attempt or call: its error
// class; should a failure come without one, the status code of a 4xx or
// 5xx, else "_OTHER".
func errorType(status int, class fiatramp.ErrorClass) string {
	switch {
	case class != "":
		return string(class)
	case status >= 400:
		return strconv.Itoa(status)
	}
	return "_OTHER"
}

// StartCall starts the call's span.
func (o *Observer) StartCall(ctx context.Context, call fiatramp.CallInfo) context.Context {
	ctx, _ = o.tracer.Start(ctx, call.Operation, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(spanAttrs(call, 0)...))
	return ctx
}

// StartAttempt starts an attempt's span, a client span named
// "{method} {url.template}" under the call's ("HTTP {url.template}" for a
// method recorded as "_OTHER").
func (o *Observer) StartAttempt(ctx context.Context, call fiatramp.CallInfo, attempt int) context.Context {
	attrs := spanAttrs(call, 1)
	name := method(call.Method)
	if name == "_OTHER" {
		name = "HTTP"
	}
	if attempt > 1 {
		attrs = append(attrs, semconv.HTTPRequestResendCount(attempt-1))
	}
	ctx, _ = o.tracer.Start(ctx, name+" "+call.Route, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

// EndAttempt ends the attempt's span and counts the attempt.
func (o *Observer) EndAttempt(ctx context.Context, a fiatramp.AttemptInfo) {
	span := trace.SpanFromContext(ctx)
	var extra []attribute.KeyValue
	if a.StatusCode != 0 {
		extra = append(extra, semconv.HTTPResponseStatusCode(a.StatusCode))
	}
	if failed(a.StatusCode, a.ErrorClass) {
		extra = append(extra, semconv.ErrorTypeKey.String(errorType(a.StatusCode, a.ErrorClass)))
		// The conventions want no description when the status code
		// tells the reason.
		desc := ""
		if a.StatusCode < 400 {
			desc = string(a.ErrorClass)
		}
		span.SetStatus(codes.Error, desc)
	}
	span.SetAttributes(extra...)
	if a.Retry {
		span.SetAttributes(RetryDelayKey.Float64(a.RetryDelay.Seconds()))
	}
	span.End()
	set := metric.WithAttributes(append(callAttrs(a.CallInfo, len(extra)), extra...)...)
	o.attempts.Add(ctx, 1, set)
	o.requestDuration.Record(ctx, a.Duration.Seconds(), set)
}

// EndCall ends the call's span and records its duration and outcome.
func (o *Observer) EndCall(ctx context.Context, r fiatramp.CallResult) {
	span := trace.SpanFromContext(ctx)
	attrs := append(callAttrs(r.CallInfo, 6), OutcomeKey.String(string(r.Outcome)))
	if r.Reconciled {
		attrs = append(attrs, ReconciledKey.Bool(true))
	}
	if r.Outcome != fiatramp.OutcomeSuccess {
		attrs = append(attrs, semconv.ErrorTypeKey.String(errorType(r.StatusCode, r.ErrorClass)))
	}
	if r.StatusCode != 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCode(r.StatusCode))
	}
	span.SetAttributes(append(attrs, AttemptsKey.Int(r.Attempts), BudgetExhaustedKey.Bool(r.RetryBudgetExhausted))...)
	if r.Outcome != fiatramp.OutcomeSuccess {
		span.SetStatus(codes.Error, string(r.Outcome)+": "+string(r.ErrorClass))
	}
	span.End()
	set := metric.WithAttributes(attrs...)
	o.callDuration.Record(ctx, r.Duration.Seconds(), set)
	o.calls.Add(ctx, 1, set)
}
