package fiatrampotel_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

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
