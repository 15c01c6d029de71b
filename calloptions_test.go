package fiatramp_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

func TestWithCallRetry(t *testing.T) {
	ctx := context.Background()

	t.Run("one call makes fewer attempts", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{})
		rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
		_, err := h.client.Payouts.Get(ctx, payoutID, fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		requireAPIError(t, err, 503)
		assert.EqualValues(t, 1, rec.hits.Load())
		_, err = h.client.Payouts.Get(ctx, payoutID)
		requireAPIError(t, err, 503)
		assert.EqualValues(t, 1+5, rec.hits.Load(), "the Client's policy is untouched")
	})

	t.Run("one call makes more attempts, with its own waits", func(t *testing.T) {
		h, s := retryHarness(t, fiatramp.RetryPolicy{MaxAttempts: 1})
		rec := h.script(http.MethodGet, payoutGetPath, mockReply{status: 503, body: bodyUnavailable})
		_, err := h.client.Payouts.Get(ctx, payoutID,
			fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: 10 * time.Millisecond, MaxBackoff: 15 * time.Millisecond}))
		requireAPIError(t, err, 503)
		assert.EqualValues(t, 3, rec.hits.Load())
		assert.Equal(t, []time.Duration{10 * time.Millisecond, 15 * time.Millisecond}, s.got())
	})

	t.Run("bad policies are refused before sending", func(t *testing.T) {
		h, _ := retryHarness(t, fiatramp.RetryPolicy{})
		for _, p := range []fiatramp.RetryPolicy{{MaxAttempts: -1}, {InitialBackoff: -1}, {InitialBackoff: time.Minute, MaxBackoff: time.Second}} {
			_, err := h.client.Payouts.Get(ctx, payoutID, fiatramp.WithCallRetry(p))
			assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
			assert.ErrorContains(t, err, "WithCallRetry")
		}
		assert.Zero(t, h.mock.GetTotalCallCount())
	})
}

func TestWithCallTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	t.Run("bounds each attempt of one call", func(t *testing.T) {
		srv := newService(t, hang, answer(200, ok(gotPayout)))
		c, _ := serviceClient(t, srv.URL, newTransport(t), fiatramp.WithTimeout(0))
		p, err := c.Payouts.Get(ctx, payoutID, fiatramp.WithCallTimeout(50*time.Millisecond))
		require.NoError(t, err)
		assert.Equal(t, payoutID, p.ID)
		assert.EqualValues(t, 2, srv.hits.Load(), "the first attempt timed out and was retried")
	})

	t.Run("zero lifts the Client's bound for one call", func(t *testing.T) {
		srv := newService(t, func(s *fakeService, w http.ResponseWriter, r *http.Request) {
			time.Sleep(100 * time.Millisecond)
			answer(200, ok(gotPayout))(s, w, r)
		})
		c, _ := serviceClient(t, srv.URL, newTransport(t), fiatramp.WithTimeout(20*time.Millisecond))
		_, err := c.Payouts.Get(ctx, payoutID, fiatramp.WithCallTimeout(0))
		require.NoError(t, err)
		assert.EqualValues(t, 1, srv.hits.Load())
	})

	t.Run("negative is refused", func(t *testing.T) {
		h := newHarness(t)
		_, err := h.client.Payouts.Get(ctx, payoutID, fiatramp.WithCallTimeout(-time.Second))
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		assert.ErrorContains(t, err, "WithCallTimeout")
		assert.Zero(t, h.mock.GetTotalCallCount())
	})
}

func TestAPIErrorCarriesHeadersAndRequestID(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		header map[string]string
		want   string
	}{
		{"X-Request-Id", map[string]string{"X-Request-Id": " req-7f3a ", "X-Correlation-Id": "corr-1"}, "req-7f3a"},
		{"Request-Id", map[string]string{"Request-Id": "rid-2"}, "rid-2"},
		{"X-Correlation-Id", map[string]string{"X-Correlation-Id": "corr-3"}, "corr-3"},
		{"X-Amzn-Requestid", map[string]string{"X-Amzn-RequestId": "amzn-4"}, "amzn-4"},
		{"none", map[string]string{"X-Other": "x"}, ""},
		{"too long", map[string]string{"X-Request-Id": strings.Repeat("a", 129)}, ""},
		{"not printable", map[string]string{"X-Request-Id": "req 1"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			var captured fiatramp.Response
			h.script(http.MethodGet, payoutGetPath, mockReply{status: 404, body: fail("Not found", "NOT_FOUND", `{}`), header: tc.header})
			_, err := h.client.Payouts.Get(ctx, payoutID, fiatramp.CaptureResponse(&captured))
			apiErr := requireAPIError(t, err, 404)
			assert.Equal(t, tc.want, apiErr.RequestID)
			for k, v := range tc.header {
				assert.Equal(t, v, apiErr.Header.Get(k))
			}
			apiErr.Header.Set("X-Other", "changed")
			assert.NotEqual(t, "changed", captured.Header.Get("X-Other"), "a copy")
			assert.NotContains(t, apiErr.Error(), "X-")
		})
	}

	t.Run("also on a refusal in a 2xx envelope and a malformed answer", func(t *testing.T) {
		h := newHarness(t)
		h.script(http.MethodGet, payoutGetPath, mockReply{status: 200, body: fail("No", "BAD_REQUEST", `{}`), header: map[string]string{"X-Request-Id": "r1"}})
		_, err := h.client.Payouts.Get(ctx, payoutID)
		assert.Equal(t, "r1", requireAPIError(t, err, 200).RequestID)
		h.script(http.MethodGet, payoutGetPath, mockReply{status: 502, body: bodyHTML, header: map[string]string{"X-Request-Id": "r2"}})
		_, err = h.client.Payouts.Get(ctx, payoutID)
		assert.Equal(t, "r2", requireAPIError(t, err, 502).RequestID)
	})
}
