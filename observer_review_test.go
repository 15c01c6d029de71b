package fiatramp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// TestCallInfoServerPortAndScheme: an Observer gets the host, the port the
// requests go to (the scheme's default when the base address names none,
// as the HTTP semantic conventions want for server.port) and the scheme,
// the same for every call of a Client.
func TestCallInfoServerPortAndScheme(t *testing.T) {
	cases := []struct {
		base, server, scheme string
		port                 int
	}{
		{"https://api.fiatramp.test", "api.fiatramp.test", "https", 443},
		{"https://api.fiatramp.test/gateway/", "api.fiatramp.test", "https", 443},
		{"https://api.fiatramp.test:8443/gw", "api.fiatramp.test", "https", 8443},
		{"https://api.fiatramp.test:443", "api.fiatramp.test", "https", 443},
		{"https://api.fiatramp.test:", "api.fiatramp.test", "https", 443},
		{"http://api.fiatramp.test", "api.fiatramp.test", "http", 80},
		{"http://127.0.0.1:8080", "127.0.0.1", "http", 8080},
		{"http://[::1]", "::1", "http", 80},
		{"https://[2001:db8::1]:9443", "2001:db8::1", "https", 9443},
	}
	for _, tc := range cases {
		t.Run(tc.base, func(t *testing.T) {
			rec := new(recorder)
			var hosts []string
			transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				hosts = append(hosts, r.URL.Host)
				return cannedTransport{ok(gotPayout)}.RoundTrip(r)
			})
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(tc.base), fiatramp.WithInsecureHTTP(),
				fiatramp.WithHTTPClient(&http.Client{Transport: transport}), fiatramp.WithObserver(rec))
			require.NoError(t, err)
			for range 2 {
				_, err := c.Payouts.Get(context.Background(), payoutID)
				require.NoError(t, err)
			}
			want := fiatramp.CallInfo{Operation: "Payouts.Get", Method: http.MethodGet, Route: "/pos/api/v1/payout/{payout_id}",
				Server: tc.server, ServerPort: tc.port, Scheme: tc.scheme}
			assert.Equal(t, []fiatramp.CallInfo{want, want}, rec.calls)
			require.Len(t, rec.attempts, 2)
			assert.Equal(t, want, rec.attempts[1].CallInfo)
			assert.Equal(t, want, rec.results[1].CallInfo)
			require.Len(t, hosts, 2, "both calls were sent")
		})
	}
}

// TestBaseURLPortOutOfRange: a port no request could go to is refused at
// New, naming the port, rather than failing every call.
func TestBaseURLPortOutOfRange(t *testing.T) {
	for _, base := range []string{
		"https://api.fiatramp.test:0",
		"https://api.fiatramp.test:65536",
		"https://api.fiatramp.test:99999999999999999999",
	} {
		_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(base))
		require.Error(t, err, base)
		assert.Contains(t, err.Error(), "port", base)
		assert.Contains(t, err.Error(), "between 1 and 65535", base)
	}
	_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL("https://api.fiatramp.test:65535"))
	assert.NoError(t, err)
}

// limiterFunc is a RateLimiter made of a function, as a caller might write.
type limiterFunc func(ctx context.Context) error

func (f limiterFunc) Wait(ctx context.Context) error { return f(ctx) }

// TestTypedNilObserverAndLimiterRefused: a nil pointer (or func) in the
// interface is not "no Observer": its methods would panic at the first
// call, so New refuses it and names the option and the type. nil itself
// still means none.
func TestTypedNilObserverAndLimiterRefused(t *testing.T) {
	var nilRecorder *recorder
	var nilLimiter *fakeLimiter
	var nilFunc limiterFunc
	cases := []struct {
		opt  fiatramp.Option
		want string
	}{
		{fiatramp.WithObserver(nilRecorder), "fiatramp: WithObserver: nil *fiatramp_test.recorder"},
		{fiatramp.WithRateLimiter(nilLimiter), "fiatramp: WithRateLimiter: nil *fiatramp_test.fakeLimiter"},
		{fiatramp.WithRateLimiter(nilFunc), "fiatramp: WithRateLimiter: nil fiatramp_test.limiterFunc"},
	}
	for _, tc := range cases {
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase), tc.opt)
		require.Error(t, err, tc.want)
		assert.Nil(t, c)
		assert.Contains(t, err.Error(), tc.want)
	}

	// nil itself, and working values, are accepted; the calls go out.
	var sent int
	transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent++
		return cannedTransport{ok(gotPayout)}.RoundTrip(r)
	})
	waited := 0
	for _, opts := range [][]fiatramp.Option{
		{fiatramp.WithObserver(nil), fiatramp.WithRateLimiter(nil)},
		{fiatramp.WithObserver(new(recorder)), fiatramp.WithRateLimiter(limiterFunc(func(context.Context) error { waited++; return nil }))},
	} {
		c, err := fiatramp.New(testKey, testSecret, append([]fiatramp.Option{fiatramp.WithBaseURL(testBase),
			fiatramp.WithHTTPClient(&http.Client{Transport: transport})}, opts...)...)
		require.NoError(t, err)
		_, err = c.Payouts.Get(context.Background(), payoutID)
		require.NoError(t, err)
	}
	assert.Equal(t, 2, sent)
	assert.Equal(t, 1, waited)
}

// TestRetryBudgetCapacityBelowACost: a bucket smaller than what a retry
// costs could never pay for one, which would switch retries off without a
// word; WithRetryBudget refuses it and names the field. A bucket of
// exactly one retry is allowed, and pays for it.
func TestRetryBudgetCapacityBelowACost(t *testing.T) {
	cases := []struct {
		budget fiatramp.RetryBudget
		want   string
	}{
		{fiatramp.RetryBudget{Capacity: 4, RetryCost: 5, TimeoutCost: 4}, "fiatramp: WithRetryBudget: Capacity 4 is below RetryCost 5"},
		{fiatramp.RetryBudget{Capacity: 3}, "fiatramp: WithRetryBudget: Capacity 3 is below RetryCost 5"},
		{fiatramp.RetryBudget{Capacity: 8, RetryCost: 2}, "fiatramp: WithRetryBudget: Capacity 8 is below TimeoutCost 10"},
		{fiatramp.RetryBudget{Capacity: 20, TimeoutCost: 21}, "fiatramp: WithRetryBudget: Capacity 20 is below TimeoutCost 21"},
		{fiatramp.RetryBudget{RetryCost: fiatramp.DefaultRetryBudgetCapacity + 1}, "fiatramp: WithRetryBudget: Capacity 500 is below RetryCost 501"},
		{fiatramp.RetryBudget{RetryCost: -1}, "fiatramp: WithRetryBudget: RetryCost -1 is negative"},
		{fiatramp.RetryBudget{SuccessRefill: -2}, "fiatramp: WithRetryBudget: SuccessRefill -2 is negative"},
	}
	for _, tc := range cases {
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(testBase), fiatramp.WithRetryBudget(tc.budget))
		require.Error(t, err, "%+v", tc.budget)
		assert.Nil(t, c)
		assert.Contains(t, err.Error(), tc.want)
	}

	h, _ := retryHarness(t, fiatramp.RetryPolicy{},
		fiatramp.WithRetryBudget(fiatramp.RetryBudget{Capacity: 5, RetryCost: 5, TimeoutCost: 5}))
	rec := h.script(http.MethodGet, payoutGetPath,
		mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 200, body: ok(gotPayout)},
		mockReply{status: 503, body: bodyUnavailable}, mockReply{status: 503, body: bodyUnavailable})
	_, err := h.client.Payouts.Get(context.Background(), payoutID)
	require.NoError(t, err, "the one retry the bucket holds is paid")
	_, err = h.client.Payouts.Get(context.Background(), payoutID)
	assert.ErrorIs(t, err, fiatramp.ErrRetryBudgetExhausted, "the success refunded the retry, which this call spent; then none")
	assert.EqualValues(t, 4, rec.hits.Load())
}
