package fiatrampotel_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

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
