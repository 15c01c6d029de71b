package fiatrampotel_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	fiatramp "github.com/fiatramp/fiatramp-go"
	fiatrampotel "github.com/fiatramp/fiatramp-go/otel"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/google/uuid"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

const (
	testSecret = "sk_otel-NEVER-EXPORT"
	payout     = `{"id":"3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34","status":"SUCCESS","utr":"UTR-OTEL-1"}`
)

var payoutID = uuid.MustParse("3e9f2e4b-6c7d-4f88-8da1-5a4c9b1d2e34")

type setup struct {
	spans   *tracetest.SpanRecorder
	reader  *sdkmetric.ManualReader
	client  *fiatramp.Client
	host    string
	port    int
	hits    atomic.Int32
	parents []trace.SpanContext // the span context each request arrived with
}

// newSetup serves GET /pos/api/v1/payout/{id} with statuses in turn (the
// last for every request beyond) and returns a Client observed by a
// fiatrampotel.Observer writing to in-memory exporters.
func newSetup(t *testing.T, statuses ...int) *setup {
	t.Helper()
	s := &setup{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.hits.Add(1))
		status := statuses[min(n, len(statuses))-1]
		w.Header().Set("X-Request-Id", "req-HEADER-SECRET")
		w.WriteHeader(status)
		if status == 200 {
			_, _ = io.WriteString(w, `{"status":true,"message":"ok","data":`+payout+`}`)
			return
		}
		_, _ = io.WriteString(w, `{"status":false,"message":"BODY-TEXT-SECRET","err_code":"X","errors":{},"data":null}`)
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	s.host = u.Hostname()
	s.port, _ = strconv.Atoi(u.Port())

	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(s.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(s.reader))
	obs, err := fiatrampotel.NewObserver(fiatrampotel.WithTracerProvider(tp), fiatrampotel.WithMeterProvider(mp))
	if err != nil {
		t.Fatal(err)
	}
	transport := roundTripper(func(r *http.Request) (*http.Response, error) {
		s.parents = append(s.parents, trace.SpanContextFromContext(r.Context()))
		return http.DefaultTransport.RoundTrip(r)
	})
	s.client, err = fiatramp.New("key_otel", testSecret, fiatramp.WithBaseURL(srv.URL+"/gw"),
		fiatramp.WithHTTPClient(&http.Client{Transport: transport}),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}),
		fiatramp.WithObserver(obs))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func attrs(kvs []attribute.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

func TestSpansPerCallAndAttempt(t *testing.T) {
	s := newSetup(t, 503, 200)
	p, err := s.client.Payouts.Get(context.Background(), payoutID)
	if err != nil {
		t.Fatal(err)
	}
	if p.UTR == nil || *p.UTR != "UTR-OTEL-1" {
		t.Fatalf("decoded %+v", p)
	}
	ended := s.spans.Ended()
	if len(ended) != 3 {
		t.Fatalf("%d spans, want a call and two attempts", len(ended))
	}
	first, second, call := ended[0], ended[1], ended[2]
	if call.Name() != "Payouts.Get" || call.SpanKind() != trace.SpanKindInternal {
		t.Errorf("call span %q kind %v", call.Name(), call.SpanKind())
	}
	for i, a := range []sdktrace.ReadOnlySpan{first, second} {
		if a.Name() != "GET /pos/api/v1/payout/{payout_id}" || a.SpanKind() != trace.SpanKindClient {
			t.Errorf("attempt %d span %q kind %v", i+1, a.Name(), a.SpanKind())
		}
		if a.Parent().SpanID() != call.SpanContext().SpanID() {
			t.Errorf("attempt %d is not the call's child", i+1)
		}
		// The request carries the attempt's span, for transport spans.
		if s.parents[i].SpanID() != a.SpanContext().SpanID() {
			t.Errorf("request %d carried span %v, want the attempt's %v", i+1, s.parents[i].SpanID(), a.SpanContext().SpanID())
		}
	}

	common := map[string]string{
		"fiatramp.operation":  "Payouts.Get",
		"http.request.method": "GET",
		"url.template":        "/pos/api/v1/payout/{payout_id}",
		"server.address":      s.host,
		"server.port":         strconv.Itoa(s.port),
		"url.scheme":          "http",
	}
	check := func(name string, got map[string]string, want map[string]string) {
		t.Helper()
		for k, v := range common {
			want[k] = v
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q (all: %v)", name, k, got[k], v, got)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("%s: unexpected attribute %s=%q", name, k, got[k])
			}
		}
	}
	check("attempt 1", attrs(first.Attributes()), map[string]string{
		"http.response.status_code": "503", "error.type": "unavailable", "fiatramp.retry.delay": "0.001"})
	check("attempt 2", attrs(second.Attributes()), map[string]string{
		"http.response.status_code": "200", "http.request.resend_count": "1"})
	check("call", attrs(call.Attributes()), map[string]string{
		"http.response.status_code": "200", "fiatramp.outcome": "success", "fiatramp.attempts": "2",
		"fiatramp.retry.budget_exhausted": "false"})
	if first.Status().Code != codes.Error || second.Status().Code != codes.Unset || call.Status().Code != codes.Unset {
		t.Errorf("statuses %v %v %v", first.Status(), second.Status(), call.Status())
	}
	if d := first.Status().Description; d != "" {
		t.Errorf("the 503 attempt's status has description %q; the status code tells it", d)
	}
	noSecrets(t, fmt.Sprint(first.Attributes(), second.Attributes(), call.Attributes(), first.Status(), call.Status(),
		first.Events(), call.Events(), first.Name(), call.Name()))
}

func noSecrets(t *testing.T, out string) {
	t.Helper()
	for _, s := range []string{testSecret, "key_otel", payoutID.String(), "req-HEADER-SECRET", "BODY-TEXT-SECRET", "UTR-OTEL-1", "/gw"} {
		if strings.Contains(out, s) {
			t.Errorf("exported %q: %s", s, out)
		}
	}
}

func TestFailedCallSpanAndMetrics(t *testing.T) {
	s := newSetup(t, 503)
	_, err := s.client.Payouts.Get(context.Background(), payoutID)
	if err == nil {
		t.Fatal("no error after three 503s")
	}
	ended := s.spans.Ended()
	if len(ended) != 4 {
		t.Fatalf("%d spans, want a call and three attempts", len(ended))
	}
	call := ended[3]
	got := attrs(call.Attributes())
	if got["fiatramp.outcome"] != "failure" || got["error.type"] != "unavailable" || got["fiatramp.attempts"] != "3" {
		t.Errorf("call span attributes %v", got)
	}
	if call.Status().Code != codes.Error {
		t.Errorf("call span status %v", call.Status())
	}

	var rm metricdata.ResourceMetrics
	if err := s.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	metrics := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != fiatrampotel.ScopeName {
			t.Errorf("scope %q", sm.Scope.Name)
		}
		for _, m := range sm.Metrics {
			metrics[m.Name] = m
		}
	}
	calls := metrics[fiatrampotel.CallsMetric].Data.(metricdata.Sum[int64])
	if len(calls.DataPoints) != 1 || calls.DataPoints[0].Value != 1 {
		t.Fatalf("calls %+v", calls.DataPoints)
	}
	if v, _ := calls.DataPoints[0].Attributes.Value("fiatramp.outcome"); v.AsString() != "failure" {
		t.Errorf("calls outcome %v", v.Emit())
	}
	attempts := metrics[fiatrampotel.AttemptsMetric].Data.(metricdata.Sum[int64])
	var total int64
	for _, dp := range attempts.DataPoints {
		total += dp.Value
		if v, _ := dp.Attributes.Value("http.response.status_code"); v.AsInt64() != 503 {
			t.Errorf("attempt status %v", v.Emit())
		}
	}
	if total != 3 {
		t.Errorf("%d attempts counted, want 3", total)
	}
	dur := metrics[fiatrampotel.CallDurationMetric].Data.(metricdata.Histogram[float64])
	if len(dur.DataPoints) != 1 || dur.DataPoints[0].Count != 1 || dur.DataPoints[0].Sum <= 0 {
		t.Errorf("call duration %+v", dur.DataPoints)
	}
	if metrics[fiatrampotel.CallDurationMetric].Unit != "s" {
		t.Errorf("unit %q", metrics[fiatrampotel.CallDurationMetric].Unit)
	}
	req := metrics[fiatrampotel.RequestDurationMetric].Data.(metricdata.Histogram[float64])
	if len(req.DataPoints) != 1 || req.DataPoints[0].Count != 3 {
		t.Errorf("request duration %+v", req.DataPoints)
	}
	noSecrets(t, fmt.Sprintf("%+v", rm))
}

func TestGlobalProvidersByDefault(t *testing.T) {
	obs, err := fiatrampotel.NewObserver()
	if err != nil {
		t.Fatal(err)
	}
	// The global providers are no-ops until set: nothing panics, and the
	// call's context passes through.
	ctx := obs.StartCall(context.Background(), fiatramp.CallInfo{Operation: "Payouts.Get", Method: "GET", Route: "/x", Server: "h"})
	actx := obs.StartAttempt(ctx, fiatramp.CallInfo{}, 1)
	obs.EndAttempt(actx, fiatramp.AttemptInfo{Attempt: 1, StatusCode: 200})
	obs.EndCall(ctx, fiatramp.CallResult{Outcome: fiatramp.OutcomeSuccess})
	if ctx == nil || actx == nil {
		t.Fatal("nil context")
	}
}

// cannedSetup is a Client on base whose every request answer answers,
// observed into in-memory exporters; nothing leaves the process.
type cannedSetup struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	client *fiatramp.Client
}

func newCannedSetup(t *testing.T, base string, answer func(*http.Request) (*http.Response, error)) *cannedSetup {
	t.Helper()
	s := &cannedSetup{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	obs, err := fiatrampotel.NewObserver(
		fiatrampotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(s.spans))),
		fiatrampotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(s.reader))))
	if err != nil {
		t.Fatal(err)
	}
	s.client, err = fiatramp.New("key_otel", testSecret, fiatramp.WithBaseURL(base), fiatramp.WithInsecureHTTP(),
		fiatramp.WithHTTPClient(&http.Client{Transport: roundTripper(answer)}),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}),
		fiatramp.WithObserver(obs))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func answer(status int, body string) func(*http.Request) (*http.Response, error) {
	return func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	}
}

// metricAttrs returns the attribute sets of every data point of every
// metric, by metric name.
func (s *cannedSetup) metricAttrs(t *testing.T) map[string][]attribute.Set {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := s.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string][]attribute.Set{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, dp := range d.DataPoints {
					out[m.Name] = append(out[m.Name], dp.Attributes)
				}
			case metricdata.Histogram[float64]:
				for _, dp := range d.DataPoints {
					out[m.Name] = append(out[m.Name], dp.Attributes)
				}
			default:
				t.Fatalf("%s: unexpected data %T", m.Name, m.Data)
			}
		}
	}
	return out
}

const okPayout = `{"status":true,"message":"ok","data":` + payout + `}`

// TestServerPortDefaultsToTheSchemes: the conventions require server.port
// on client spans and on http.client.request.duration; when the base
// address names no port it is the scheme's default. url.scheme (opt-in)
// goes on spans, not on metrics, where each attribute costs every record.
func TestServerPortDefaultsToTheSchemes(t *testing.T) {
	for _, tc := range []struct {
		base, address, port, scheme string
	}{
		{"https://api.fiatramp.test", "api.fiatramp.test", "443", "https"},
		{"https://api.fiatramp.test/gw", "api.fiatramp.test", "443", "https"},
		{"http://api.fiatramp.test", "api.fiatramp.test", "80", "http"},
		{"https://api.fiatramp.test:8443", "api.fiatramp.test", "8443", "https"},
		{"https://[2001:db8::7]", "2001:db8::7", "443", "https"},
	} {
		t.Run(tc.base, func(t *testing.T) {
			s := newCannedSetup(t, tc.base, answer(200, okPayout))
			if _, err := s.client.Payouts.Get(context.Background(), payoutID); err != nil {
				t.Fatal(err)
			}
			ended := s.spans.Ended()
			if len(ended) != 2 {
				t.Fatalf("%d spans", len(ended))
			}
			for _, sp := range ended {
				got := attrs(sp.Attributes())
				if got["server.address"] != tc.address || got["server.port"] != tc.port || got["url.scheme"] != tc.scheme {
					t.Errorf("span %q: server.address %q server.port %q url.scheme %q", sp.Name(),
						got["server.address"], got["server.port"], got["url.scheme"])
				}
			}
			metrics := s.metricAttrs(t)
			for _, name := range []string{fiatrampotel.RequestDurationMetric, fiatrampotel.AttemptsMetric, fiatrampotel.CallsMetric, fiatrampotel.CallDurationMetric} {
				sets := metrics[name]
				if len(sets) != 1 {
					t.Fatalf("%s: %d data points", name, len(sets))
				}
				got := attrs(sets[0].ToSlice())
				if _, scheme := got["url.scheme"]; got["server.address"] != tc.address || got["server.port"] != tc.port || scheme {
					t.Errorf("%s: attributes %v, want server.address %s and server.port %s (url.scheme, opt-in, on spans only)", name, got, tc.address, tc.port)
				}
			}
		})
	}
}

// TestClientSpanStatus: for a client span the conventions make every 4xx
// and 5xx answer an Error, with no status description when the status
// code tells the reason; a failure without one (no answer, a refusal
// inside a 2xx envelope) is an Error that says its class. error.type is
// the library's error class; a success sets neither.
func TestClientSpanStatus(t *testing.T) {
	refusedBody := `{"status":false,"message":"BODY-TEXT-SECRET","err_code":"X","errors":{},"data":null}`
	for _, tc := range []struct {
		name      string
		answer    func(*http.Request) (*http.Response, error)
		status    string // http.response.status_code; "" for none
		errorType string // "" for none
		desc      string
	}{
		{"200", answer(200, okPayout), "200", "", ""},
		{"400", answer(400, refusedBody), "400", "refused", ""},
		{"401", answer(401, refusedBody), "401", "unauthorized", ""},
		{"404", answer(404, refusedBody), "404", "refused", ""},
		{"429", answer(429, refusedBody), "429", "rate_limited", ""},
		{"500", answer(500, refusedBody), "500", "internal", ""},
		{"503", answer(503, refusedBody), "503", "unavailable", ""},
		{"refusal in a 200", answer(200, refusedBody), "200", "refused", "refused"},
		{"no answer", func(*http.Request) (*http.Response, error) { return nil, errors.New("connection reset by peer") },
			"", "connection", "connection"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newCannedSetup(t, "https://api.fiatramp.test", tc.answer)
			_, err := s.client.Payouts.Get(context.Background(), payoutID)
			if (err == nil) != (tc.errorType == "") {
				t.Fatalf("error %v", err)
			}
			ended := s.spans.Ended()
			if len(ended) != 2 {
				t.Fatalf("%d spans", len(ended))
			}
			attempt, call := ended[0], ended[1]
			if attempt.SpanKind() != trace.SpanKindClient || call.SpanKind() != trace.SpanKindInternal {
				t.Fatalf("kinds %v %v", attempt.SpanKind(), call.SpanKind())
			}
			got := attrs(attempt.Attributes())
			if got["http.response.status_code"] != tc.status || got["error.type"] != tc.errorType {
				t.Errorf("attempt: status_code %q error.type %q, want %q %q", got["http.response.status_code"], got["error.type"], tc.status, tc.errorType)
			}
			wantCode := codes.Error
			if tc.errorType == "" {
				wantCode = codes.Unset
			}
			if st := attempt.Status(); st.Code != wantCode || st.Description != tc.desc {
				t.Errorf("attempt status %v %q, want %v %q", st.Code, st.Description, wantCode, tc.desc)
			}
			if call.Status().Code != wantCode {
				t.Errorf("call status %v, want %v", call.Status().Code, wantCode)
			}
			if ct := attrs(call.Attributes()); ct["error.type"] != tc.errorType {
				t.Errorf("call error.type %q, want %q", ct["error.type"], tc.errorType)
			}
			for name, sets := range s.metricAttrs(t) {
				for _, set := range sets {
					if got := attrs(set.ToSlice())["error.type"]; got != tc.errorType {
						t.Errorf("%s: error.type %q, want %q", name, got, tc.errorType)
					}
				}
			}
		})
	}
}

// TestStatusWithoutErrorClass: an Observer fed by hand (or by a later
// library) with a 4xx or 5xx but no error class still marks the client
// span failed, with the status code as error.type.
func TestStatusWithoutErrorClass(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	obs, err := fiatrampotel.NewObserver(
		fiatrampotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))),
		fiatrampotel.WithMeterProvider(sdkmetric.NewMeterProvider()))
	if err != nil {
		t.Fatal(err)
	}
	info := fiatramp.CallInfo{Operation: "Client.Do", Method: "GET", Route: "/x", Server: "h", ServerPort: 443, Scheme: "https"}
	for _, code := range []int{404, 502} {
		ctx := obs.StartAttempt(context.Background(), info, 1)
		obs.EndAttempt(ctx, fiatramp.AttemptInfo{CallInfo: info, Attempt: 1, StatusCode: code})
	}
	ctx := obs.StartAttempt(context.Background(), info, 1)
	obs.EndAttempt(ctx, fiatramp.AttemptInfo{CallInfo: info, Attempt: 1, StatusCode: 302})
	ended := spans.Ended()
	if len(ended) != 3 {
		t.Fatalf("%d spans", len(ended))
	}
	for i, want := range []string{"404", "502"} {
		if got := attrs(ended[i].Attributes())["error.type"]; got != want || ended[i].Status().Code != codes.Error {
			t.Errorf("span %d: error.type %q status %v", i, got, ended[i].Status())
		}
	}
	if got := attrs(ended[2].Attributes()); got["error.type"] != "" || ended[2].Status().Code != codes.Unset {
		t.Errorf("a 3xx without an error class: %v %v", got, ended[2].Status())
	}
}

// TestRequestDurationBucketsAreTheConventions: http.client.request.duration
// keeps the conventions' boundaries exactly, so that it aggregates with
// other HTTP clients' histograms of the same name; only the library's own
// call duration goes beyond 10 s (retries wait).
func TestRequestDurationBucketsAreTheConventions(t *testing.T) {
	s := newCannedSetup(t, "https://api.fiatramp.test", answer(200, okPayout))
	if _, err := s.client.Payouts.Get(context.Background(), payoutID); err != nil {
		t.Fatal(err)
	}
	var rm metricdata.ResourceMetrics
	if err := s.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	conventions := []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}
	seen := map[string][]float64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if h, ok := m.Data.(metricdata.Histogram[float64]); ok && len(h.DataPoints) == 1 {
				seen[m.Name] = h.DataPoints[0].Bounds
			}
		}
	}
	if b := seen[fiatrampotel.RequestDurationMetric]; !slices.Equal(b, conventions) {
		t.Errorf("%s bounds %v, want %v", fiatrampotel.RequestDurationMetric, b, conventions)
	}
	b := seen[fiatrampotel.CallDurationMetric]
	if len(b) <= len(conventions) || !slices.Equal(b[:len(conventions)], conventions) || b[len(b)-1] < 60 {
		t.Errorf("%s bounds %v, want the conventions' and more up to at least 60 s", fiatrampotel.CallDurationMetric, b)
	}
}

// TestUnknownMethodIsOther: the semantic conventions bound
// http.request.method to the known methods; any other (Client.Do takes any
// upper-case word) is "_OTHER", with the method itself only on spans as
// http.request.method_original, and the attempt span is named "HTTP
// {url.template}". Metrics never carry the caller's word, which would make
// their cardinality unbounded.
func TestUnknownMethodIsOther(t *testing.T) {
	s := newSetup(t, 200)
	if err := s.client.Do(context.Background(), "PURGEXYZ", "/pos/api/v1/payout/"+payoutID.String(), nil, nil); err != nil {
		t.Fatal(err)
	}
	ended := s.spans.Ended()
	if len(ended) != 2 {
		t.Fatalf("%d spans, want a call and an attempt", len(ended))
	}
	if name := ended[0].Name(); name != "HTTP /pos/api/v1/payout/{id}" {
		t.Errorf("attempt span name %q", name)
	}
	for _, sp := range ended {
		got := attrs(sp.Attributes())
		if got["http.request.method"] != "_OTHER" || got["http.request.method_original"] != "PURGEXYZ" {
			t.Errorf("span %q: method attributes %v", sp.Name(), got)
		}
	}

	var rm metricdata.ResourceMetrics
	if err := s.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	dump := fmt.Sprintf("%+v", rm)
	if strings.Contains(dump, "PURGEXYZ") || strings.Contains(dump, "method_original") {
		t.Errorf("the caller's method reached a metric")
	}
	if !strings.Contains(dump, "_OTHER") {
		t.Errorf("no _OTHER method in the metrics")
	}
}

// TestDurationHistogramsHaveSecondBuckets: both duration histograms are in
// seconds, so their buckets must be too (the semantic conventions'
// boundaries for http.client.request.duration); the SDK's default
// boundaries (0, 5, 10, ... 10000) are meant for milliseconds and would put
// every call under five seconds into one bucket.
func TestDurationHistogramsHaveSecondBuckets(t *testing.T) {
	s := newSetup(t, 200)
	if _, err := s.client.Payouts.Get(context.Background(), payoutID); err != nil {
		t.Fatal(err)
	}
	var rm metricdata.ResourceMetrics
	if err := s.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok {
				continue
			}
			seen++
			if len(h.DataPoints) != 1 {
				t.Fatalf("%s: %d data points", m.Name, len(h.DataPoints))
			}
			b := h.DataPoints[0].Bounds
			if len(b) < 10 || b[0] != 0.005 || b[len(b)-1] < 10 {
				t.Errorf("%s: bounds %v, want seconds from 0.005 up to at least 10", m.Name, b)
			}
		}
	}
	if seen != 2 {
		t.Errorf("%d histograms, want 2", seen)
	}
}

// TestKnownMethodsKeepTheirName: a standard method is its own value, with
// no method_original.
func TestKnownMethodsKeepTheirName(t *testing.T) {
	s := newSetup(t, 200)
	if _, err := s.client.Payouts.Get(context.Background(), payoutID); err != nil {
		t.Fatal(err)
	}
	for _, sp := range s.spans.Ended() {
		got := attrs(sp.Attributes())
		if _, ok := got["http.request.method_original"]; ok || got["http.request.method"] != "GET" {
			t.Errorf("span %q: method attributes %v", sp.Name(), got)
		}
	}
}

// BenchmarkObserver is one Payouts.Get through a canned transport: without
// an observer, and with this package's Observer on the SDK's providers
// (every span sampled and recorded, metrics aggregated). Compare the ratio:
//
//	cd otel && go test -run '^$' -bench BenchmarkObserver -benchmem -count 6 .
func BenchmarkObserver(b *testing.B) {
	sdk, err := fiatrampotel.NewObserver(
		fiatrampotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))),
		fiatrampotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))))
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opts []fiatramp.Option
	}{
		{"none", nil},
		{"otel-sdk", []fiatramp.Option{fiatramp.WithObserver(sdk)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			transport := roundTripper(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Header: http.Header{},
					Body: io.NopCloser(strings.NewReader(`{"status":true,"message":"ok","data":` + payout + `}`)), Request: r}, nil
			})
			c, err := fiatramp.New("key", "secret", append([]fiatramp.Option{
				fiatramp.WithBaseURL("https://api.fiatramp.test"), fiatramp.WithHTTPClient(&http.Client{Transport: transport}),
			}, bc.opts...)...)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for range b.N {
				if _, err := c.Payouts.Get(ctx, payoutID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A create whose answer was lost and that WithReconcile settled ends as a
// success, marked reconciled, never unknown: the alert on unknown
// outcomes does not fire for it. Its reads are spans under its own.
func TestReconciledCreateIsASuccess(t *testing.T) {
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	spans, reader := tracetest.NewSpanRecorder(), sdkmetric.NewManualReader()
	obs, err := fiatrampotel.NewObserver(
		fiatrampotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))),
		fiatrampotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	if err != nil {
		t.Fatal(err)
	}
	client, err := srv.Client(demo.Organization, fiatramp.WithObserver(obs), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: http.MethodPost, Count: 1}); err != nil {
		t.Fatal(err)
	}
	q := demo.Quotations[0]
	if _, err := client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: q.ID, CustomerID: q.CustomerID, ClientReferenceID: "otel-reconciled",
	}, fiatramp.WithReconcile()); err != nil {
		t.Fatalf("create: %v", err)
	}
	var create sdktrace.ReadOnlySpan
	for _, s := range spans.Ended() {
		if s.Name() == "Payouts.Create" {
			create = s
		}
	}
	if create == nil {
		t.Fatal("no span of the create")
	}
	got := attrs(create.Attributes())
	if got["fiatramp.outcome"] != "success" || got["fiatramp.reconciled"] != "true" {
		t.Errorf("create span attributes %v", got)
	}
	if create.Status().Code == codes.Error {
		t.Errorf("create span status %v", create.Status())
	}
	reads := 0
	for _, s := range spans.Ended() {
		if (s.Name() == "Payouts.GetQuotation" || s.Name() == "Payouts.List") && s.Parent().SpanID() == create.SpanContext().SpanID() {
			reads++
		}
	}
	if reads != 2 {
		t.Errorf("%d reads under the create's span, want the quotation and the newest page", reads)
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != fiatrampotel.CallsMetric {
				continue
			}
			for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
				op, _ := dp.Attributes.Value(fiatrampotel.OperationKey)
				outcome, _ := dp.Attributes.Value(fiatrampotel.OutcomeKey)
				if op.AsString() == "Payouts.Create" && outcome.AsString() != "success" {
					t.Errorf("create counted as %s", outcome.Emit())
				}
			}
		}
	}
}
