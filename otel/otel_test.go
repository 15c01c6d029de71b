package fiatrampotel_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	fiatramp "github.com/fiatramp/fiatramp-go"
	fiatrampotel "github.com/fiatramp/fiatramp-go/otel"
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
