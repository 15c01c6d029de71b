package fiatramp_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// The part of the issue 11 review (see review11_test.go) that needs the
// external test package's fakes.

// TestReview11DeclaredLengthAllocatesNothingUnsent: the read buffer may be
// sized by Content-Length, but only up to what a response can be expected
// to hold. With the cap raised (WithMaxResponseBytes(math.MaxInt64) is
// allowed), a server or proxy that declares 2^62 bytes made the client
// panic (makeslice: cap out of range), and one that declares 256 MiB made
// it allocate 256 MiB for a 60-byte answer.
func TestReview11DeclaredLengthAllocatesNothingUnsent(t *testing.T) {
	body := `{"status":true,"data":{"available_balance":{"USDT":"1.5"}}}`
	for _, declared := range []int64{1 << 62, math.MaxInt64 - 1, 256 << 20} {
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase),
			fiatramp.WithHTTPClient(&http.Client{Transport: lyingTransport{body, declared}}),
			fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}), fiatramp.WithMaxResponseBytes(math.MaxInt64))
		require.NoError(t, err)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var callErr error
		func() {
			defer func() {
				if p := recover(); p != nil {
					callErr = fmt.Errorf("panic: %v", p)
				}
			}()
			_, callErr = c.Payouts.Balance(context.Background())
		}()
		runtime.ReadMemStats(&after)
		require.NoError(t, callErr, "declared %d", declared)
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "declared %d", declared)
	}
}
