package sandbox_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// benchCallers is how many goroutines share one client in the benchmarks.
const benchCallers = 16

// benchHTTPClient keeps a connection per caller alive (the default
// transport keeps only two idle per host, and would open and close
// connections all run long).
func benchHTTPClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		MaxIdleConns:        2 * benchCallers,
		MaxIdleConnsPerHost: 2 * benchCallers,
		IdleConnTimeout:     time.Minute,
	}}
}

// benchRun makes b.N calls of call from benchCallers goroutines sharing
// b.N, and reports the rate.
func benchRun(b *testing.B, call func(context.Context) error) {
	b.Helper()
	ctx := context.Background()
	// Warm the connections outside the timing.
	var warm sync.WaitGroup
	for range benchCallers {
		warm.Add(1)
		go func() {
			defer warm.Done()
			if err := call(ctx); err != nil {
				b.Error(err)
			}
		}()
	}
	warm.Wait()

	var next atomic.Int64
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range benchCallers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				if err := call(ctx); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
}

// BenchmarkSandboxRequests measures signed read calls (KYC configuration)
// through one shared client against a Sandbox served on loopback:
// authentication, routing, the operation and its encoding included.
func BenchmarkSandboxRequests(b *testing.B) {
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	if err != nil {
		b.Fatal(err)
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client(demo.Organization, fiatramp.WithHTTPClient(benchHTTPClient()))
	if err != nil {
		b.Fatal(err)
	}
	id := demo.Customer.ID
	benchRun(b, func(ctx context.Context) error {
		_, err := c.KYC.GetConfiguration(ctx, id)
		return err
	})
}

// BenchmarkLoopbackBaseline is BenchmarkSandboxRequests against a bare
// handler on loopback that answers the same body without authentication
// or state: the cost of the client, HTTP and loopback alone. The ratio of
// the two rates is the sandbox's own cost.
func BenchmarkLoopbackBaseline(b *testing.B) {
	// The body the sandbox answers, captured once.
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	if err != nil {
		b.Fatal(err)
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		b.Fatal(err)
	}
	c0, err := srv.Client(demo.Organization)
	if err != nil {
		b.Fatal(err)
	}
	var resp fiatramp.Response
	if _, err := c0.KYC.GetConfiguration(context.Background(), demo.Customer.ID, fiatramp.CaptureResponse(&resp)); err != nil {
		b.Fatal(err)
	}
	_ = srv.Close()
	body := resp.Body

	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	}))
	defer bare.Close()
	c, err := fiatramp.New("key", "secret", fiatramp.WithBaseURL(bare.URL), fiatramp.WithHTTPClient(benchHTTPClient()))
	if err != nil {
		b.Fatal(err)
	}
	id := uuid.New()
	benchRun(b, func(ctx context.Context) error {
		_, err := c.KYC.GetConfiguration(ctx, id)
		return err
	})
}

// BenchmarkSandboxPayoutCreate measures signed standard payout creations,
// each on its own quotation, through one shared client: the write path,
// with its checks, the stored payout and the 201 encoding.
func BenchmarkSandboxPayoutCreate(b *testing.B) {
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	if err != nil {
		b.Fatal(err)
	}
	quotations := make([]uuid.UUID, b.N+benchCallers)
	for i := range quotations {
		q, err := sb.AddQuotation(sandbox.Quotation{
			CustomerID: demo.Customer.ID, SendingAmount: decimal.NewFromInt(10), ExpiresAt: time.Now().Add(time.Hour),
		})
		if err != nil {
			b.Fatal(err)
		}
		quotations[i] = q.ID
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client(demo.Organization, fiatramp.WithHTTPClient(benchHTTPClient()))
	if err != nil {
		b.Fatal(err)
	}
	var used atomic.Int64
	benchRun(b, func(ctx context.Context) error {
		i := used.Add(1) - 1
		_, err := c.Payouts.Create(ctx, types.CreatePayoutRequest{
			QuotationID: quotations[i], CustomerID: demo.Customer.ID, ClientReferenceID: fmt.Sprintf("bench-%d", i),
		})
		return err
	})
	if got := len(sb.Payouts(demo.Organization.ID)); got != int(used.Load()) {
		b.Fatalf("%d payouts stored for %d creations", got, used.Load())
	}
}
