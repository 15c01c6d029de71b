package fiatramp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// skewSandbox is a sandbox whose clock stands still on a whole second (so
// that the skew a refusal reports is exact), seeded with the demo.
func skewSandbox(t *testing.T) (*sandbox.Sandbox, sandbox.Demo) {
	t.Helper()
	sb := sandbox.New()
	sb.SetTime(time.Now().UTC().Truncate(time.Second))
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	return sb, demo
}

// skewServer serves sb on loopback; wrap, when not nil, stands between the
// network and the sandbox.
func skewServer(t *testing.T, sb *sandbox.Sandbox, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	var h http.Handler = sb
	if wrap != nil {
		h = wrap(sb)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// skewedClient signs as the demo organization with a clock off from the
// sandbox's by skew.
func skewedClient(t *testing.T, sb *sandbox.Sandbox, demo sandbox.Demo, base string, skew time.Duration, opts ...fiatramp.Option) *fiatramp.Client {
	t.Helper()
	all := append([]fiatramp.Option{
		fiatramp.WithBaseURL(base),
		fiatramp.WithClock(func() time.Time { return sb.Now().Add(skew) }),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond}),
	}, opts...)
	c, err := fiatramp.New(demo.Organization.APIKey, demo.Organization.APISecret, all...)
	require.NoError(t, err)
	return c
}

// requests counts what the sandbox received from here on.
func requests(sb *sandbox.Sandbox) func() int {
	start := sb.Stats().Requests
	return func() int { return sb.Stats().Requests - start }
}

func TestClockSkewWithoutCorrection(t *testing.T) {
	for name, tc := range map[string]struct {
		skew       time.Duration
		side, amnt string
	}{
		"10 minutes ahead":  {10 * time.Minute, "ahead of", "10m0s"},
		"10 minutes behind": {-10 * time.Minute, "behind", "10m0s"},
		"301 s ahead":       {301 * time.Second, "ahead of", "5m1s"},
	} {
		t.Run(name, func(t *testing.T) {
			sb, demo := skewSandbox(t)
			c := skewedClient(t, sb, demo, skewServer(t, sb, nil), tc.skew)
			n := requests(sb)
			cfg, err := c.KYC.GetConfiguration(context.Background(), demo.Customer.ID)
			assert.Nil(t, cfg)
			require.ErrorIs(t, err, fiatramp.ErrClockSkew)
			require.ErrorIs(t, err, fiatramp.ErrUnauthorized)
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusUnauthorized, apiErr.StatusCode)
			assert.Equal(t, sandbox.CodeTimestampExpired, apiErr.Code)

			msg := err.Error()
			assert.Contains(t, msg, "clock skew")
			assert.Contains(t, msg, tc.amnt+" "+tc.side+" the service's Date", "says by how much and which way")
			assert.Contains(t, msg, "WithClockCorrection", "names the remedy")
			assert.NotContains(t, strings.ToLower(msg), "signature", "not presented as a bad signature")
			assert.Equal(t, 1, n(), "a refused timestamp is not retried without correction")
		})
	}
	t.Run("299 s off is inside the window", func(t *testing.T) {
		sb, demo := skewSandbox(t)
		c := skewedClient(t, sb, demo, skewServer(t, sb, nil), 299*time.Second)
		_, err := c.KYC.GetConfiguration(context.Background(), demo.Customer.ID)
		require.NoError(t, err)
	})
}

func TestClockCorrection(t *testing.T) {
	for name, skew := range map[string]time.Duration{
		"10 minutes ahead":  10 * time.Minute,
		"10 minutes behind": -10 * time.Minute,
		"a day ahead":       24 * time.Hour,
	} {
		t.Run(name, func(t *testing.T) {
			sb, demo := skewSandbox(t)
			c := skewedClient(t, sb, demo, skewServer(t, sb, nil), skew, fiatramp.WithClockCorrection())
			ctx := context.Background()

			n := requests(sb)
			cfg, err := c.KYC.GetConfiguration(ctx, demo.Customer.ID)
			require.NoError(t, err, "the first call succeeds")
			require.NotNil(t, cfg)
			assert.Equal(t, 2, n(), "refused once, learned the offset from Date, re-sent once")

			later := []func() error{
				func() error { _, err := c.KYC.GetConfiguration(ctx, demo.Customer.ID); return err },
				func() error { _, err := c.Customers.ListBankAccounts(ctx, demo.Customer.ID); return err },
				func() error { return c.Do(ctx, http.MethodGet, "/pos/api/v1/payout/balance", nil, nil) },
			}
			for i, call := range later {
				n = requests(sb)
				require.NoError(t, call(), "call %d", i)
				assert.Equal(t, 1, n(), "call %d uses the learned offset: one request", i)
			}
		})
	}

	t.Run("with retries off the re-send still happens", func(t *testing.T) {
		// send re-sends a timestamp refusal outside the retry budget: the
		// refused attempt ran nothing, and the re-send is signed afresh.
		sb, demo := skewSandbox(t)
		c := skewedClient(t, sb, demo, skewServer(t, sb, nil), 10*time.Minute,
			fiatramp.WithClockCorrection(), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		n := requests(sb)
		_, err := c.Customers.ListBankAccounts(context.Background(), demo.Customer.ID)
		require.NoError(t, err)
		assert.Equal(t, 2, n())
	})

	t.Run("a payout create pays once", func(t *testing.T) {
		for _, policy := range []fiatramp.RetryPolicy{{MaxAttempts: 1}, {InitialBackoff: time.Millisecond}} {
			sb, demo := skewSandbox(t)
			c := skewedClient(t, sb, demo, skewServer(t, sb, nil), 10*time.Minute,
				fiatramp.WithClockCorrection(), fiatramp.WithRetry(policy))
			n := requests(sb)
			p, err := c.Payouts.Create(context.Background(), types.CreatePayoutRequest{
				QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID, ClientReferenceID: "skew-1",
			})
			require.NoError(t, err, "%+v", policy)
			assert.Equal(t, 2, n(), "%+v", policy)
			payouts := sb.Payouts(demo.Organization.ID)
			require.Len(t, payouts, 1, "exactly one payout")
			assert.Equal(t, p.ID, payouts[0].ID)
		}
	})

	t.Run("no Date header: no re-send", func(t *testing.T) {
		sb, demo := skewSandbox(t)
		base := skewServer(t, sb, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(noDateWriter{w}, r)
			})
		})
		c := skewedClient(t, sb, demo, base, 10*time.Minute, fiatramp.WithClockCorrection())
		n := requests(sb)
		var resp fiatramp.Response
		_, err := c.KYC.GetConfiguration(context.Background(), demo.Customer.ID, fiatramp.CaptureResponse(&resp))
		require.ErrorIs(t, err, fiatramp.ErrClockSkew)
		require.ErrorIs(t, err, fiatramp.ErrUnauthorized)
		assert.Empty(t, resp.Header.Values("Date"), "the server really sent no Date")
		assert.Equal(t, 1, n(), "nothing to learn from, so no re-send")
		assert.Contains(t, err.Error(), "clock skew")
		assert.NotContains(t, err.Error(), "WithClockCorrection", "already on: not suggested")
	})

	t.Run("a lying Date: one re-send, then the refusal", func(t *testing.T) {
		// The Date says an hour later than the clock the sandbox checks
		// against: the corrected timestamp is refused again, and the client
		// must give up rather than chase it.
		sb, demo := skewSandbox(t)
		base := skewServer(t, sb, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(fixedDateWriter{w, sb.Now().Add(time.Hour)}, r)
			})
		})
		c := skewedClient(t, sb, demo, base, 10*time.Minute, fiatramp.WithClockCorrection())
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		n := requests(sb)
		_, err := c.KYC.GetConfiguration(ctx, demo.Customer.ID)
		require.ErrorIs(t, err, fiatramp.ErrClockSkew)
		assert.False(t, errors.Is(err, context.DeadlineExceeded))
		assert.Equal(t, 2, n(), "exactly one re-send")
	})

	t.Run("no correction without the option", func(t *testing.T) {
		sb, demo := skewSandbox(t)
		c := skewedClient(t, sb, demo, skewServer(t, sb, nil), 10*time.Minute)
		for range 2 {
			_, err := c.KYC.GetConfiguration(context.Background(), demo.Customer.ID)
			require.ErrorIs(t, err, fiatramp.ErrClockSkew, "Date headers are not learned from")
		}
	})
}

// noDateWriter sends the response without a Date header (net/http adds one
// unless the header is present and nil).
type noDateWriter struct{ http.ResponseWriter }

func (w noDateWriter) WriteHeader(code int) {
	w.Header()["Date"] = nil
	w.ResponseWriter.WriteHeader(code)
}

func (w noDateWriter) Write(b []byte) (int, error) {
	w.Header()["Date"] = nil
	return w.ResponseWriter.Write(b)
}

// fixedDateWriter replaces the Date header with at.
type fixedDateWriter struct {
	http.ResponseWriter
	at time.Time
}

func (w fixedDateWriter) WriteHeader(code int) {
	w.Header().Set("Date", w.at.UTC().Format(http.TimeFormat))
	w.ResponseWriter.WriteHeader(code)
}

func (w fixedDateWriter) Write(b []byte) (int, error) {
	w.Header().Set("Date", w.at.UTC().Format(http.TimeFormat))
	return w.ResponseWriter.Write(b)
}
