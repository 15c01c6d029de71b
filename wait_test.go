package fiatramp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
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

// payoutWithStatus is fetchedPayoutData with another status.
func payoutWithStatus(s types.PayoutStatus) string {
	return strings.Replace(fetchedPayoutData, `"status":"SUCCESS"`, `"status":"`+string(s)+`"`, 1)
}

// sequence answers the payout fetch with one answer per call, the last
// repeated, and checks each request is the signed GET.
func sequence(h *harness, answers ...func() (int, string)) *atomic.Int32 {
	var calls atomic.Int32
	t := h.t
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), func(req *http.Request) (*http.Response, error) {
		n := int(calls.Add(1))
		assertSigned(t, req, testNow.Unix(), "")
		status, body := answers[min(n, len(answers))-1]()
		return httpmock.NewStringResponse(status, body), nil
	})
	return &calls
}

func status(s types.PayoutStatus) func() (int, string) {
	return func() (int, string) { return http.StatusOK, ok(payoutWithStatus(s)) }
}

func reply(code int, body string) func() (int, string) {
	return func() (int, string) { return code, body }
}

var fastPoll = fiatramp.WithPollInterval(time.Millisecond, 4*time.Millisecond)

// By default Wait stops at the first status whose fiat outcome is decided
// (MayStillPay false), FAILED included, though FAILED is not final.
func TestPayoutsWaitUntilDecided(t *testing.T) {
	for _, final := range []types.PayoutStatus{types.PayoutSuccess, types.PayoutFailed, types.PayoutRefunded, types.PayoutCancelled} {
		t.Run(string(final), func(t *testing.T) {
			h := newHarness(t)
			calls := sequence(h, status(types.PayoutProcessing), status(types.PayoutInReview), status(types.PayoutInReview), status(final))
			p, err := h.client.Payouts.Wait(context.Background(), payoutID, fastPoll)
			require.NoError(t, err)
			assert.Equal(t, final, p.Status)
			assert.EqualValues(t, 4, calls.Load(), "IN_REVIEW is not final: polling went on")
		})
	}
}

func TestPayoutsWaitFinalAtOnce(t *testing.T) {
	h := newHarness(t)
	calls := sequence(h, status(types.PayoutSuccess))
	start := time.Now()
	// A long interval: a final first answer must not wait at all.
	p, err := h.client.Payouts.Wait(context.Background(), payoutID, fiatramp.WithPollInterval(time.Hour, time.Hour))
	require.NoError(t, err)
	assert.Equal(t, types.PayoutSuccess, p.Status)
	assert.EqualValues(t, 1, calls.Load())
	assert.Less(t, time.Since(start), 5*time.Second)
}

func TestPayoutsWaitContextEnds(t *testing.T) {
	h := newHarness(t)
	calls := sequence(h, status(types.PayoutInReview))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	p, err := h.client.Payouts.Wait(ctx, payoutID, fastPoll)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "last status IN_REVIEW")
	require.NotNil(t, p, "the payout as last fetched")
	assert.Equal(t, types.PayoutInReview, p.Status)
	assert.Greater(t, calls.Load(), int32(1), "polled more than once")
}

func TestPayoutsWaitCancelledBeforeAnyFetch(t *testing.T) {
	h := newHarness(t)
	calls := sequence(h, status(types.PayoutSuccess))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p, err := h.client.Payouts.Wait(ctx, payoutID, fastPoll)
	assert.Nil(t, p)
	require.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, calls.Load())
}

func TestPayoutsWaitTransientErrorsKeepPolling(t *testing.T) {
	h := newHarness(t)
	calls := sequence(h,
		reply(http.StatusInternalServerError, `{"success":false,"message":"Internal Server Error","err_code":"SYS_INTERNAL_ERROR","errors":"Internal Server Error","data":null}`),
		reply(http.StatusServiceUnavailable, fail("Service unavailable", "", `{}`)),
		reply(http.StatusTooManyRequests, fail("Too many requests.", "", `{}`)),
		status(types.PayoutSuccess))
	p, err := h.client.Payouts.Wait(context.Background(), payoutID, fastPoll)
	require.NoError(t, err)
	assert.Equal(t, types.PayoutSuccess, p.Status)
	assert.EqualValues(t, 4, calls.Load())
}

func TestPayoutsWaitTransientErrorThenContextEnds(t *testing.T) {
	h := newHarness(t)
	sequence(h, status(types.PayoutProcessing), reply(http.StatusServiceUnavailable, fail("Service unavailable", "", `{}`)))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	p, err := h.client.Payouts.Wait(ctx, payoutID, fastPoll)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorIs(t, err, fiatramp.ErrUnavailable, "the last fetch's failure is kept")
	require.NotNil(t, p)
	assert.Equal(t, types.PayoutProcessing, p.Status)
}

func TestPayoutsWaitPermanentErrorsEndAtOnce(t *testing.T) {
	cases := map[string]struct {
		answer func() (int, string)
		want   error
	}{
		"unknown payout": {reply(http.StatusBadRequest, fail("Payout ID is invalid", "REQ_FIELD_MISSING", `{"payout_id":["Payout ID is invalid"]}`)), fiatramp.ErrPayoutIDInvalid},
		"unauthorized":   {reply(http.StatusUnauthorized, fail("Invalid Signature", "AUTH_INVALID_SIGNATURE", `{}`)), fiatramp.ErrUnauthorized},
		"malformed":      {reply(http.StatusOK, ok(`{"id":"not-a-uuid"}`)), fiatramp.ErrMalformedResponse},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			calls := sequence(h, status(types.PayoutProcessing), tc.answer, status(types.PayoutSuccess))
			p, err := h.client.Payouts.Wait(context.Background(), payoutID, fastPoll)
			assert.Nil(t, p)
			require.ErrorIs(t, err, tc.want)
			assert.False(t, errors.Is(err, context.DeadlineExceeded))
			assert.EqualValues(t, 2, calls.Load(), "no poll after a permanent failure")
		})
	}
}

func TestPayoutsWaitPassesRequestOptions(t *testing.T) {
	h := newHarness(t)
	var seen atomic.Value
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), func(req *http.Request) (*http.Response, error) {
		seen.Store(req.Header.Get("X-Trace"))
		return httpmock.NewStringResponse(http.StatusOK, ok(payoutWithStatus(types.PayoutFailed))), nil
	})
	var resp fiatramp.Response
	p, err := h.client.Payouts.Wait(context.Background(), payoutID, fastPoll,
		fiatramp.WithPollRequestOptions(fiatramp.WithHeader("X-Trace", "t-1"), fiatramp.CaptureResponse(&resp)))
	require.NoError(t, err)
	assert.Equal(t, types.PayoutFailed, p.Status)
	assert.Equal(t, "t-1", seen.Load())
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// WaitUntil(IsFinal) waits through FAILED until the funds come back
// (REFUNDED); a nil condition is refused before anything is sent.
func TestPayoutsWaitUntil(t *testing.T) {
	h := newHarness(t)
	calls := sequence(h, status(types.PayoutProcessing), status(types.PayoutFailed), status(types.PayoutFailed), status(types.PayoutRefunded))
	p, err := h.client.Payouts.Wait(context.Background(), payoutID, fastPoll, fiatramp.WaitUntil(types.PayoutStatus.IsFinal))
	require.NoError(t, err)
	assert.Equal(t, types.PayoutRefunded, p.Status)
	assert.EqualValues(t, 4, calls.Load(), "FAILED is not final: polling went on")

	_, err = h.client.Payouts.Wait(context.Background(), payoutID, fiatramp.WaitUntil(nil))
	require.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
	assert.EqualValues(t, 4, calls.Load(), "nothing sent")
}

func TestPayoutsWaitUntrustedCertificateEndsAtOnce(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	client, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	p, err := client.Payouts.Wait(ctx, payoutID, fastPoll)
	assert.Nil(t, p)
	require.Error(t, err)
	assert.NotErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "certificate")
	assert.Less(t, time.Since(start), 5*time.Second, "no polling until the context ends")
	assert.Zero(t, hits.Load(), "no request got through")
}
