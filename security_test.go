package fiatramp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// hitCounter is an httptest handler that counts the requests it gets and
// answers them all with a successful payout.
type hitCounter struct{ hits atomic.Int32 }

func (h *hitCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.hits.Add(1)
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, ok(`{"id":"`+payoutID.String()+`","status":"PROCESSING"}`))
}

// countingTransport counts the round trips of the caller's own client.
type countingTransport struct {
	n    atomic.Int32
	base http.RoundTripper
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

// TestRedirectsNotFollowed: a signed request meets a 3xx. The answer is an
// *APIError matching ErrRedirect that names the Location, nothing is sent
// to the redirect target (which would receive X-API-KEY, X-SIGNATURE and,
// on 307/308, the body), and the caller's http.Client is left as it was.
func TestRedirectsNotFollowed(t *testing.T) {
	target := new(hitCounter)
	targetSrv := httptest.NewServer(target)
	defer targetSrv.Close()
	location := targetSrv.URL + "/pos/api/v1/payout/" + payoutID.String()

	for _, status := range []int{301, 302, 303, 307, 308} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			t.Run(fmt.Sprintf("%d %s", status, method), func(t *testing.T) {
				var originHits atomic.Int32
				origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					originHits.Add(1)
					w.Header().Set("Location", location)
					w.WriteHeader(status)
					_, _ = io.WriteString(w, "<html>Moved</html>")
				}))
				defer origin.Close()

				transport := &countingTransport{base: origin.Client().Transport}
				callers := &http.Client{Transport: transport}
				c, err := fiatramp.New(testKey, testSecret,
					fiatramp.WithBaseURL(origin.URL),
					fiatramp.WithHTTPClient(callers),
					// Retries on: a redirect must not be retried either.
					fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond}))
				require.NoError(t, err)
				assert.Nil(t, callers.CheckRedirect, "New leaves the caller's client alone")

				ctx := context.Background()
				if method == http.MethodGet {
					p, err2 := c.Payouts.Get(ctx, payoutID)
					assert.Nil(t, p)
					err = err2
				} else {
					p, err2 := c.Payouts.Create(ctx, types.CreatePayoutRequest{
						QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: "redirect-1",
					})
					assert.Nil(t, p)
					err = err2
				}
				if method == http.MethodPost {
					// A 303 is how a server says it processed a POST, and
					// any 3xx may come after the service acted: a create
					// answered by one has an unknown outcome.
					var ou *fiatramp.OutcomeUnknownError
					require.ErrorAs(t, err, &ou)
					assert.NotErrorIs(t, err, fiatramp.ErrRedirect, "an outcome unknown is never a plain redirect")
					assert.Equal(t, "redirect-1", ou.ClientReferenceID)
					assert.Equal(t, 1, ou.Attempts)
					err = ou.Err
				} else {
					assert.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown, "nothing ran for a read")
				}
				require.ErrorIs(t, err, fiatramp.ErrRedirect)
				assert.NotErrorIs(t, err, fiatramp.ErrMalformedResponse)
				var apiErr *fiatramp.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, status, apiErr.StatusCode)
				assert.Contains(t, err.Error(), location, "Error names the Location")
				assert.Contains(t, err.Error(), "not followed")
				assert.Contains(t, err.Error(), "follow no redirects")

				assert.Zero(t, target.hits.Load(), "the redirect target receives nothing")
				assert.Equal(t, int32(1), originHits.Load(), "one request, no retry")
				assert.Equal(t, int32(1), transport.n.Load(), "sent through the caller's transport")
				assert.Nil(t, callers.CheckRedirect, "still untouched after the call")
			})
		}
	}

	t.Run("a caller's CheckRedirect that follows is not used", func(t *testing.T) {
		origin := httptest.NewServer(http.RedirectHandler(location, http.StatusTemporaryRedirect))
		defer origin.Close()
		var consulted atomic.Int32
		callers := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
			consulted.Add(1)
			return nil // follow
		}}
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(origin.URL), fiatramp.WithHTTPClient(callers),
			fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		require.NoError(t, err)
		err = c.Do(context.Background(), http.MethodPost, "/cms/api/v1/wallet/add", map[string]string{"wallet_address": "0xabc"}, nil)
		var ou *fiatramp.OutcomeUnknownError
		require.ErrorAs(t, err, &ou, "a POST answered by a 3xx may have acted")
		require.ErrorIs(t, ou.Err, fiatramp.ErrRedirect)
		assert.Zero(t, target.hits.Load())
		assert.Zero(t, consulted.Load(), "the library's own policy decides")
		require.NotNil(t, callers.CheckRedirect)
		assert.NoError(t, callers.CheckRedirect(nil, nil), "the caller's function is still the caller's")
	})
}

func TestBaseURLRequiresHTTPS(t *testing.T) {
	t.Run("plain http on a remote host is refused", func(t *testing.T) {
		for _, base := range []string{"http://api.example.com", "http://api.example.com:8080/gateway", "http://10.0.0.1", "HTTP://api.example.com"} {
			c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(base))
			assert.Nil(t, c, base)
			require.Error(t, err, base)
			assert.Contains(t, err.Error(), "plain http", base)
			assert.Contains(t, err.Error(), "WithInsecureHTTP", base)
			assert.NotContains(t, err.Error(), testSecret)
		}
	})
	t.Run("WithInsecureHTTP allows it", func(t *testing.T) {
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL("http://api.example.com"), fiatramp.WithInsecureHTTP())
		require.NoError(t, err)
		assert.Equal(t, "http://api.example.com", c.BaseURL())
	})
	t.Run("loopback hosts need no option", func(t *testing.T) {
		for _, base := range []string{"http://127.0.0.1:8080", "http://[::1]:80", "http://localhost", "http://LOCALHOST:9000/base", "http://127.0.0.2"} {
			_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(base))
			assert.NoError(t, err, base)
		}
	})
	t.Run("names that only look local are not loopback", func(t *testing.T) {
		for _, base := range []string{"http://localhost.example.com", "http://127.0.0.1.nip.io", "http://0.0.0.0", "http://[::]"} {
			_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(base))
			assert.Error(t, err, base)
		}
	})
	t.Run("https anywhere", func(t *testing.T) {
		_, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL("https://api.example.com"))
		assert.NoError(t, err)
	})
}

// TestPaginationStaysOnBase complements TestCustomersBankAccountsIterator
// (customers_test.go, httpmock) with real servers: a next link that leaves
// the base address is refused before any request, and neither the other
// host nor the other path of the same host ever sees a request.
func TestPaginationStaysOnBase(t *testing.T) {
	listPath := "/gateway/cms/api/v1/bank/list/" + customerID.String()

	foreign := new(hitCounter)
	foreignSrv := httptest.NewServer(foreign)
	defer foreignSrv.Close()

	type served struct {
		mu    sync.Mutex
		paths []string // RequestURI of every request
	}
	start := func(t *testing.T, next string) (*fiatramp.Client, *served, string) {
		t.Helper()
		got := new(served)
		var base string
		api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got.mu.Lock()
			got.paths = append(got.paths, r.RequestURI)
			runaway := len(got.paths) > 10
			got.mu.Unlock()
			if runaway { // a client that loops on a repeated link fails, not hangs
				w.WriteHeader(http.StatusTeapot)
				return
			}
			if r.URL.Path != listPath {
				w.WriteHeader(http.StatusNotFound)
				return
			}
			link := strings.ReplaceAll(next, "{base}", base)
			link = strings.ReplaceAll(link, "{host}", strings.TrimPrefix(base, "https://"))
			switch r.URL.RawQuery {
			case "":
				_, _ = io.WriteString(w, bankPage(9, jsonQuote(link), 1))
			default: // page 2 and on, for the positive control
				_, _ = io.WriteString(w, bankPage(9, "null", 2))
			}
		}))
		t.Cleanup(api.Close)
		base = api.URL
		c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(api.URL+"/gateway"),
			fiatramp.WithHTTPClient(api.Client()), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
		require.NoError(t, err)
		return c, got, api.URL
	}

	t.Run("control: a link on the base address is followed", func(t *testing.T) {
		c, got, _ := start(t, "{base}"+listPath+"?page=2")
		items, err := collect(t, c)
		require.NoError(t, err)
		assert.Equal(t, []string{"001", "002"}, items)
		assert.Equal(t, []string{listPath, listPath + "?page=2"}, got.paths)
	})

	t.Run("control: escapes outside the path are followed", func(t *testing.T) {
		c, got, _ := start(t, "{base}"+listPath+"?page=2&after=a%2Fb%2e%2e")
		items, err := collect(t, c)
		require.NoError(t, err)
		assert.Equal(t, []string{"001", "002"}, items)
		assert.Equal(t, []string{listPath, listPath + "?page=2&after=a%2Fb%2e%2e"}, got.paths)
	})

	for name, next := range map[string]string{
		"another host":               foreignSrv.URL + listPath + "?page=2",
		"scheme-relative other host": "//" + strings.TrimPrefix(foreignSrv.URL, "http://") + listPath + "?page=2",
		"https to http, same host":   "http://{host}" + listPath + "?page=2",
		"outside the base path":      "/other/cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"dot segments out of base":   "{base}/gateway/../other/cms/api/v1/bank/list/x?page=2",
		"base path as a mere prefix": "{base}/gatewayX/cms/api/v1/bank/list/x?page=2",
		"the base path itself":       "{base}/gateway",
		"user info":                  "https://user:pass@{host}" + listPath + "?page=2",
		"another port":               "https://127.0.0.1:1" + listPath + "?page=2",
		"not a URL":                  "https://{host}" + listPath + "?page=%zz\x7f",
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			before := foreign.hits.Load()
			c, got, _ := start(t, next)
			items, err := collect(t, c)
			assert.Equal(t, []string{"001"}, items, "the first page is yielded")
			require.ErrorIs(t, err, fiatramp.ErrPagination)
			assert.Equal(t, []string{listPath}, got.paths, "no request for the refused link")
			assert.Equal(t, before, foreign.hits.Load(), "the other host receives nothing")
		})
	}

	t.Run("refuses a link that repeats an earlier page", func(t *testing.T) {
		c, got, _ := start(t, "{base}"+listPath)
		items, err := collect(t, c)
		assert.Equal(t, []string{"001"}, items)
		require.ErrorIs(t, err, fiatramp.ErrPagination)
		assert.Contains(t, err.Error(), "repeats")
		assert.Equal(t, []string{listPath}, got.paths)
	})

	// An escaped dot segment: net/url keeps "%2e%2e" as it is (it is not a
	// dot segment to ResolveReference), the decoded Path still starts with
	// /gateway/, and the request goes out as /gateway/%2e%2e/other/...,
	// which RFC 3986 normalisation (nginx, most gateways) turns into
	// /other/...: outside the base path.
	for name, next := range map[string]string{
		"escaped dot segments":    "{base}/gateway/%2e%2e/other/cms/api/v1/bank/list/x?page=2",
		"escaped slash and dots":  "{base}/gateway/..%2f..%2fother/cms/api/v1/bank/list/x?page=2",
		"upper-case escaped dots": "{base}/gateway/%2E%2E/other/cms/api/v1/bank/list/x?page=2",
		"escaped backslash":       "{base}/gateway/..%5c..%5cother/cms/api/v1/bank/list/x?page=2",
		"escaped single dot":      "{base}/gateway/%2e/cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		// An escaped slash: the decoded path /gateway/other/... passes a
		// prefix check, but the request goes out as /gateway%2Fother/...,
		// which a gateway routing by raw path sends outside /gateway.
		"escaped slash out of the base":    "{base}/gateway%2Fother/cms/api/v1/bank/list/x?page=2",
		"lower-case escaped slash":         "{base}/gateway%2fother/cms/api/v1/bank/list/x?page=2",
		"escaped slash under the base":     "{base}/gateway/cms%2Fapi/v1/bank/list/" + customerID.String() + "?page=2",
		"escaped base path":                "{base}/%67ateway/cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"mixed-case escaped dots":          "{base}/gateway/%2E%2e/other/cms/api/v1/bank/list/x?page=2",
		"half-escaped dots":                "{base}/gateway/.%2E/other/cms/api/v1/bank/list/x?page=2",
		"plain dots that stay in the base": "{base}/gateway/cms/../cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"plain single dot":                 "{base}/gateway/./cms/api/v1/bank/list/" + customerID.String() + "?page=2",
		"relative link with dots":          "../list/" + customerID.String() + "?page=2",
		"dots with a path parameter":       "{base}/gateway/..;/other/cms/api/v1/bank/list/x?page=2",
		"double-escaped dots":              "{base}/gateway/%252e%252e/other/cms/api/v1/bank/list/x?page=2",
		"escaped backslash alone":          "{base}/gateway/cms%5capi/v1/bank/list/" + customerID.String() + "?page=2",
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			c, got, _ := start(t, next)
			_, err := collect(t, c)
			require.ErrorIs(t, err, fiatramp.ErrPagination)
			assert.Equal(t, []string{listPath}, got.paths, "no request for the refused link")
		})
	}
}

// ---- constant-time comparison ----

// ---- secrets never leak ----

// recordingTransport records every X-SIGNATURE and request body that leaves
// the client, without changing the request.
type recordingTransport struct {
	base   http.RoundTripper
	mu     sync.Mutex
	sigs   []string
	bodies []string
	trips  int
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.GetBody != nil {
		if rc, err := r.GetBody(); err == nil {
			body, _ = io.ReadAll(rc)
			_ = rc.Close()
		}
	}
	rt.mu.Lock()
	rt.trips++
	if s := r.Header.Get("X-SIGNATURE"); s != "" {
		rt.sigs = append(rt.sigs, s)
	}
	if len(body) > 0 {
		rt.bodies = append(rt.bodies, string(body))
	}
	rt.mu.Unlock()
	return rt.base.RoundTrip(r)
}

// leakOp is one operation of the client, with good or unknown ids.
type leakOp struct {
	name string
	run  func(ctx context.Context, c *fiatramp.Client, bad bool) error
}

// TestSecretsNeverLeak exercises every operation, succeeding and failing in
// every way (400, 401, 500 with retries, dropped connections, a redirect, a
// timeout), with a debug logger, and then looks for the API secret, every
// X-SIGNATURE sent and every request body in the log, in every error and
// in every fmt rendering of the client and the errors.
func TestSecretsNeverLeak(t *testing.T) {
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	org := demo.Organization
	const (
		wrongSecret  = "sk_WRONG-secret-0123456789"
		canaryWallet = "TQn9Y2khEsLJW1ChVWFMcanaryWallet"
		canaryHash   = "0xfeedcanaryhash"
		canaryIP     = "203.0.113.77"
		canaryDevice = "device-canary-42"
	)

	var redirecting atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if redirecting.Load() {
			http.Redirect(w, r, "/moved"+r.URL.Path, http.StatusTemporaryRedirect)
			return
		}
		sb.ServeHTTP(w, r)
	}))
	defer srv.Close()

	var logs bytes.Buffer
	var logMu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(&lockedWriter{w: &logs, mu: &logMu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rec := &recordingTransport{base: srv.Client().Transport}
	newClient := func(secret string, opts ...fiatramp.Option) *fiatramp.Client {
		c, err := fiatramp.New(org.APIKey, secret, append([]fiatramp.Option{
			fiatramp.WithBaseURL(srv.URL),
			fiatramp.WithClock(sb.Now),
			fiatramp.WithHTTPClient(&http.Client{Transport: rec}),
			fiatramp.WithLogger(logger),
			fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}),
		}, opts...)...)
		require.NoError(t, err)
		return c
	}
	good := newClient(org.APISecret)
	wrong := newClient(wrongSecret)
	impatient := newClient(org.APISecret, fiatramp.WithTimeout(20*time.Millisecond),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 2, InitialBackoff: time.Millisecond}))

	var payout, payinQuotation uuid.UUID
	id := func(bad bool, real uuid.UUID) uuid.UUID {
		if bad {
			return uuid.New()
		}
		return real
	}
	ops := []leakOp{
		{"Payouts.Create", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			p, err := c.Payouts.Create(ctx, types.CreatePayoutRequest{
				QuotationID: id(bad, demo.Quotations[0].ID), CustomerID: demo.Customer.ID, ClientReferenceID: "leak-1",
			})
			if err == nil {
				payout = p.ID
			}
			return err
		}},
		{"Payouts.CreatePrefunded", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payouts.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{
				QuotationID: id(bad, demo.Quotations[1].ID),
				Customer: types.PrefundedCustomer{
					Sender: types.CustomerRef{ID: demo.Customer.ID}, Receiver: types.CustomerRef{ID: demo.Customer.ID},
				},
				ClientReferenceID: "leak-2",
			})
			return err
		}},
		{"Payouts.CreateRemittance", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payouts.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{
				QuotationID: id(bad, demo.Quotations[2].ID), CustomerID: demo.Customer.ID,
				RemitterID: demo.Remitter.ID, ClientReferenceID: "leak-3", TransactionHash: canaryHash,
			})
			return err
		}},
		{"Payouts.Get", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payouts.Get(ctx, id(bad, payout))
			return err
		}},
		{"Payouts.SimulateStatus", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payouts.SimulateStatus(ctx, id(bad, payout), types.PayoutSuccess)
			return err
		}},
		{"Payins.CreateQuotation", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			q, err := c.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{
				Asset: "USDT", Fiat: "INR", SendingAmount: decimal.NewFromInt(5000),
				CustomerID: id(bad, demo.Customer.ID), BankID: demo.VPA.ID, PaymentMethod: types.PaymentMethodUPI,
				RiskParameters: types.RiskParameters{IPAddress: canaryIP, DeviceID: canaryDevice},
			})
			if err == nil {
				payinQuotation = q.ID
			}
			return err
		}},
		{"Payins.GetQuotation", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payins.GetQuotation(ctx, id(bad, payinQuotation))
			return err
		}},
		{"Customers.AddWallet", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Customers.AddWallet(ctx, types.AddWalletRequest{
				CustomerID: id(bad, demo.Customer.ID), WalletAddress: canaryWallet,
			})
			return err
		}},
		{"Customers.GetBankAccount", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Customers.GetBankAccount(ctx, demo.Customer.ID, id(bad, demo.BankAccount.ID))
			return err
		}},
		{"Customers.ListBankAccounts", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Customers.ListBankAccounts(ctx, id(bad, demo.Customer.ID))
			return err
		}},
		{"Customers.BankAccounts", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			n := 0
			for _, err := range c.Customers.BankAccounts(ctx, id(bad, demo.Customer.ID)) {
				if err != nil {
					return err
				}
				n++
			}
			if n == 0 {
				return errors.New("no bank accounts")
			}
			return nil
		}},
		{"KYC.GetConfiguration", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.KYC.GetConfiguration(ctx, id(bad, demo.Customer.ID))
			return err
		}},
		{"KYC.SimulateStatus", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.KYC.SimulateStatus(ctx, id(bad, demo.PendingCustomer.ID), types.KYCVerified)
			return err
		}},
		{"Do", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			path := "/pos/api/v1/payout/balance"
			if bad {
				path = "/pos/api/v1/payout/" + uuid.NewString()
			}
			return c.Do(ctx, http.MethodGet, path, nil, nil)
		}},
		{"Do POST", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			var out map[string]any
			return c.Do(ctx, http.MethodPost, "/cms/api/v1/wallet/add", map[string]string{
				"customer_id": id(bad, demo.Customer.ID).String(), "wallet_address": canaryWallet + "-do",
			}, &out)
		}},
	}

	ctx := context.Background()
	var errs []error
	for _, op := range ops {
		require.NoError(t, op.run(ctx, good, false), "%s succeeds", op.name)
	}
	failing := []struct {
		mode   string
		client *fiatramp.Client
		bad    bool
		setup  func()
	}{
		{"400 unknown ids", good, true, nil},
		{"401 wrong secret", wrong, false, nil},
		{"500 with retries", good, false, func() { require.NoError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultInternalError})) }},
		{"dropped before", good, false, func() { require.NoError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropBefore})) }},
		{"dropped after", good, true, func() { require.NoError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter})) }},
		{"redirect", good, false, func() { redirecting.Store(true) }},
		{"timeout", impatient, false, func() {
			require.NoError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDelay, Delay: 10 * time.Second}))
		}},
	}
	for _, f := range failing {
		if f.setup != nil {
			f.setup()
		}
		for _, op := range ops {
			err := op.run(ctx, f.client, f.bad)
			if !assert.Error(t, err, "%s: %s", f.mode, op.name) {
				continue
			}
			errs = append(errs, err)
			if f.mode == "401 wrong secret" {
				assert.ErrorIs(t, err, fiatramp.ErrUnauthorized, op.name)
			}
			if f.mode == "redirect" {
				var ou *fiatramp.OutcomeUnknownError
				if errors.As(err, &ou) { // a create or a Do POST
					err = ou.Err
				}
				assert.ErrorIs(t, err, fiatramp.ErrRedirect, op.name)
			}
		}
		sb.ClearFaults()
		redirecting.Store(false)
	}

	// What could carry a secret: the log, every error in every rendering,
	// the *APIError and *OutcomeUnknownError inside, and the clients.
	outputs := map[string]string{}
	var unknown, apiErrs int
	for i, err := range errs {
		outputs[fmt.Sprintf("error %d", i)] = err.Error() + "\n" + fmt.Sprintf("%v %+v %#v %s %q", err, err, err, err, err)
		var ou *fiatramp.OutcomeUnknownError
		if errors.As(err, &ou) {
			unknown++
			outputs[fmt.Sprintf("error %d outcome", i)] = fmt.Sprintf("%v %+v %#v", ou, ou, *ou)
		}
		var ae *fiatramp.APIError
		if errors.As(err, &ae) {
			apiErrs++
			outputs[fmt.Sprintf("error %d api", i)] = fmt.Sprintf("%v %+v %#v", ae, ae, *ae)
		}
	}
	for name, c := range map[string]*fiatramp.Client{"good": good, "wrong": wrong, "impatient": impatient} {
		outputs["client "+name] = fmt.Sprintf("%v %+v %#v %s", c, c, c, c) + fmt.Sprintf("%v %+v %#v", *c, *c, *c) +
			fmt.Sprintf("%+v %#v %+v %#v %+v %#v %+v %#v", c.Payouts, c.Payins, c.Customers, c.KYC, *c.Payouts, *c.Payins, *c.Customers, *c.KYC)
	}
	logger.Debug("the client itself", "client", good, "ptr", *wrong)
	logMu.Lock()
	outputs["log"] = logs.String()
	logMu.Unlock()

	rec.mu.Lock()
	sigs, bodies, trips := rec.sigs, rec.bodies, rec.trips
	rec.mu.Unlock()
	require.NotEmpty(t, sigs)
	require.NotEmpty(t, bodies)
	assert.Positive(t, unknown, "some failures are outcome-unknown payout creates")
	assert.Positive(t, apiErrs)

	// The whole bodies, and the values in them that nothing but a body
	// carries (ids and references may rightly appear in errors).
	secrets := map[string]string{"API secret": org.APISecret, "wrong secret": wrongSecret,
		"wallet address": canaryWallet, "transaction hash": canaryHash, "IP address": canaryIP, "device id": canaryDevice}
	for i, s := range sigs {
		secrets[fmt.Sprintf("signature %d", i)] = s
	}
	for i, b := range bodies {
		secrets[fmt.Sprintf("request body %d", i)] = b
	}
	for where, out := range outputs {
		for what, secret := range secrets {
			if strings.Contains(out, secret) {
				t.Errorf("%s contains the %s %q", where, what, secret)
			}
		}
	}

	records := strings.Count(outputs["log"], `"msg":"fiatramp request"`)
	assert.GreaterOrEqual(t, records, trips, "at least one log record per request sent")
	assert.Greater(t, trips, len(ops)*(len(failing)+1), "retries happened")
}

// jsonQuote returns s as a JSON string.
func jsonQuote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// lockedWriter serialises writes to a shared buffer.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
