package fiatramp_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// cannedTransport answers every request with the same 200 envelope, so
// that a benchmark measures the library's own work per call.
type cannedTransport struct{ body string }

func (c cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(c.body)), Request: r,
	}, nil
}

// countingObserver does the least an Observer can: it counts.
type countingObserver struct{ attempts, calls atomic.Int64 }

func (o *countingObserver) StartCall(ctx context.Context, _ fiatramp.CallInfo) context.Context {
	return ctx
}

func (o *countingObserver) StartAttempt(ctx context.Context, _ fiatramp.CallInfo, _ int) context.Context {
	return ctx
}
func (o *countingObserver) EndAttempt(context.Context, fiatramp.AttemptInfo) { o.attempts.Add(1) }
func (o *countingObserver) EndCall(context.Context, fiatramp.CallResult)     { o.calls.Add(1) }

// BenchmarkObserver is one Payouts.Get through a canned transport, without
// and with an Observer. Run with -count so the two interleave, and compare
// the ratio:
//
//	go test -run '^$' -bench BenchmarkObserver -benchmem -count 6 .
func BenchmarkObserver(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []fiatramp.Option
	}{
		{"none", nil},
		{"observer", []fiatramp.Option{fiatramp.WithObserver(new(countingObserver))}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			opts := append([]fiatramp.Option{
				fiatramp.WithBaseURL(testBase),
				fiatramp.WithHTTPClient(&http.Client{Transport: cannedTransport{ok(gotPayout)}}),
			}, bc.opts...)
			c, err := fiatramp.New(testKey, testSecret, opts...)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := c.Payouts.Get(ctx, payoutID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
