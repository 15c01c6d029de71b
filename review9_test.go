package fiatramp_test

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// An answer that matches ErrClockSkew but may come after the service acted
// (a 5xx, or a malformed 2xx, whose err_code names the timestamp) is no
// refusal at the door: WithClockCorrection must not re-send an operation
// that must not run twice. One attempt, and the outcome is unknown.
func TestReview9ClockCorrectionNeverRepeatsAnAttemptThatMayHaveActed(t *testing.T) {
	for name, answer := range map[string]struct {
		status int
		body   string
	}{
		"500 with a timestamp err_code":          {500, `{"status":false,"err_code":"SYS_TIMESTAMP_ERROR","message":"boom"}`},
		"502 with a timestamp err_code":          {502, `{"status":false,"err_code":"TIMESTAMP_UPSTREAM"}`},
		"2xx success whose data does not decode": {200, `{"status":true,"err_code":"AUTH_TIMESTAMP_EXPIRED","data":"not an object"}`},
	} {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.Header().Set("Date", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
				w.WriteHeader(answer.status)
				_, _ = w.Write([]byte(answer.body))
			}))
			defer srv.Close()
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL),
				fiatramp.WithClockCorrection(), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3}))
			require.NoError(t, err)
			var out struct{ ID string }
			err = c.Do(context.Background(), http.MethodPost, "/pos/api/v1/payout/initiate", map[string]string{"a": "b"}, &out)
			require.Error(t, err)
			assert.EqualValues(t, 1, calls.Load(), "a POST that may have acted is sent once")
			var unknown *fiatramp.OutcomeUnknownError
			assert.True(t, errors.As(err, &unknown), "outcome unknown, got %v", err)
		})
	}
}

// Do decodes into a request type of package types with encoding/json, which
// converts a decimal.Decimal in time quadratic in its digits: a type of the
// package that has no decoder of its own is no exception to the digit cap.
func TestReview9DoDigitCapCoversTypesWithoutOwnDecoder(t *testing.T) {
	h := newHarness(t)
	const path = "/pis/api/v1/payin/quotation/echo"
	long := strings.Repeat("7", 20_000)
	calls := h.expect(http.MethodGet, path, "", 200, ok(`{"asset":"usdt","sending_amount":"`+long+`"}`))
	var out types.CreatePayinQuotationRequest
	err := h.client.Do(context.Background(), http.MethodGet, path, nil, &out)
	assert.EqualValues(t, 1, calls.Load())
	require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
	assert.Contains(t, err.Error(), "digits")
}

// A chain of pages whose next links are long and distinct costs memory for
// the page being read, not for every link followed so far: the listing
// remembers what it visited without keeping each link's text (a server can
// make every link nearly as long as the body cap, and the page cap allows
// 10,000 of them).
func TestReview9PaginationMemoryDoesNotGrowWithLinkText(t *testing.T) {
	h := newHarness(t)
	path := "/cms/api/v1/bank/list/" + customerID.String()
	pad := strings.Repeat("a", 1<<20)
	h.mock.RegisterResponder(http.MethodGet, testBase+path, func(req *http.Request) (*http.Response, error) {
		n, _ := strconv.Atoi(req.URL.Query().Get("p"))
		next := jsonQuote(testBase + path + "?p=" + strconv.Itoa(n+1) + "&pad=" + pad)
		return httpmock.NewStringResponse(200, bankPage(1, next, n%900+1)), nil
	})
	const pages = 48
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := 0
	for _, err := range h.client.Customers.BankAccounts(context.Background(), customerID) {
		require.NoError(t, err)
		if n++; n == pages {
			runtime.GC()
			runtime.ReadMemStats(&during)
			break
		}
	}
	require.Equal(t, pages, n)
	grown := int64(during.HeapAlloc) - int64(before.HeapAlloc)
	assert.Less(t, grown, int64(pages/2)<<20, "heap grew by %d MiB over %d pages of 1 MiB links", grown>>20, pages)
}

// math/big reads a decimal string with digit separators ("1_2_3"), in time
// quadratic in its digits: a big.Float of the caller's type given to Do
// takes a JSON string of 1.5 million such digits for seconds. Separated
// digits count as one run for the digit cap.
func TestReview9DoDigitCapCountsSeparatedDigits(t *testing.T) {
	h := newHarness(t)
	const path = "/pos/api/v1/custom/echo"
	long := "1" + strings.Repeat("_1", 5_000)
	var probe big.Float
	_, _, err := probe.Parse(long, 0)
	require.NoError(t, err, "math/big takes the separated digits")
	calls := h.expect(http.MethodGet, path, "", 200, ok(`{"F":"`+long+`"}`))
	var out struct{ F *big.Float }
	err = h.client.Do(context.Background(), http.MethodGet, path, nil, &out)
	assert.EqualValues(t, 1, calls.Load())
	require.ErrorIs(t, err, fiatramp.ErrMalformedResponse)
	assert.Nil(t, out.F, "nothing decoded")
}
