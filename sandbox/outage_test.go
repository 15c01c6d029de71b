package sandbox_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
)

// TestOutageRetryBudget: under a 100% 503 fault, 200 calls at once make
// 1,000 attempts without a retry budget (five each) and 300 with the
// default one (200 first attempts, then the 100 retries its 500 tokens
// pay). The waits are 1 ms so the test is quick; with
// FIATRAMP_OUTAGE_DEFAULT_BACKOFF=1 the default retry policy runs instead
// (1 s doubling, about 15 s of waits a call), which is how the README's
// figures were measured:
//
//	FIATRAMP_OUTAGE_DEFAULT_BACKOFF=1 go test -run TestOutageRetryBudget -v ./sandbox
func TestOutageRetryBudget(t *testing.T) {
	policy := fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}
	if os.Getenv("FIATRAMP_OUTAGE_DEFAULT_BACKOFF") != "" {
		policy = fiatramp.RetryPolicy{}
	}
	const calls = 200
	for _, tc := range []struct {
		name     string
		opts     []fiatramp.Option
		attempts int
	}{
		{"without a budget", []fiatramp.Option{fiatramp.WithoutRetryBudget()}, calls * fiatramp.DefaultMaxAttempts},
		{"with the default budget", nil, calls + fiatramp.DefaultRetryBudgetCapacity/fiatramp.DefaultRetryCost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb := sandbox.New()
			demo, err := sb.SeedDemo()
			require.NoError(t, err)
			srv, err := sandbox.NewServer(sb)
			require.NoError(t, err)
			defer srv.Close()
			client, err := srv.Client(demo.Organization, append([]fiatramp.Option{fiatramp.WithRetry(policy)}, tc.opts...)...)
			require.NoError(t, err)
			require.NoError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultUnavailable}))

			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			start := time.Now()
			var wg sync.WaitGroup
			var mu sync.Mutex
			exhausted := 0
			for range calls {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := client.KYC.GetConfiguration(ctx, demo.Customer.ID)
					assert.ErrorIs(t, err, fiatramp.ErrUnavailable)
					if errors.Is(err, fiatramp.ErrRetryBudgetExhausted) {
						mu.Lock()
						exhausted++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			stats := sb.Stats()
			assert.Equal(t, tc.attempts, stats.Requests, "attempts")
			assert.Equal(t, tc.attempts, stats.Faults[sandbox.FaultUnavailable])
			t.Logf("%d calls, %d attempts, %d stopped by the budget, %s", calls, stats.Requests, exhausted, elapsed.Round(time.Millisecond))
		})
	}
}
