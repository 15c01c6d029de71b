package fiatrampotel_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	fiatramp "github.com/fiatramp/fiatramp-go"
	fiatrampotel "github.com/fiatramp/fiatramp-go/otel"
)

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
