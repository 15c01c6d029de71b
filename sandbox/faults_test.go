package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

const faultKYCPrefix = "/cms/api/v1/kyc/configuration/"

// faultInject injects f or fails the test.
func faultInject(t testing.TB, sb *sandbox.Sandbox, f sandbox.Fault) {
	t.Helper()
	require.NoError(t, sb.InjectFault(f))
}

// faultGet is a KYC configuration call through the env client, with its
// response captured.
func faultGet(t testing.TB, e *env, opts ...fiatramp.RequestOption) (fiatramp.Response, error) {
	t.Helper()
	var resp fiatramp.Response
	_, err := e.client.KYC.GetConfiguration(ctx(t), e.cust.ID, append(opts, fiatramp.CaptureResponse(&resp))...)
	return resp, err
}

// faultRaw sends an unsigned GET of path on a connection of its own
// (no keep-alive, so a dropped connection is never retried by the
// transport) and returns the status, the body and the transport error.
func faultRaw(t testing.TB, e *env, method, path string) (int, http.Header, []byte, error) {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	req, err := http.NewRequestWithContext(ctx(t), method, e.srv.URL+path, nil)
	require.NoError(t, err)
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, raw, nil
}

// faultPayout creates a standard payout of q with reference ref.
func faultPayout(t testing.TB, e *env, c *fiatramp.Client, q sandbox.Quotation, ref string) (*types.Payout, error) {
	t.Helper()
	return c.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID, ClientReferenceID: ref})
}

// faultTransportError asserts err is a transport failure: no response,
// so no *APIError.
// unknownOutcome requires err to be an *OutcomeUnknownError, as a payout
// create that may have acted ends, and returns its last attempt's error.
func unknownOutcome(t testing.TB, err error) error {
	t.Helper()
	var unknown *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &unknown)
	require.ErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
	return unknown.Err
}

func faultTransportError(t testing.TB, err error) {
	t.Helper()
	require.Error(t, err)
	var apiErr *fiatramp.APIError
	assert.False(t, errors.As(err, &apiErr), "want a transport error, got %v", err)
}

func TestFaultRateLimit(t *testing.T) {
	e := newEnv(t)
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultRateLimit, Count: 1})
	resp, err := faultGet(t, e)
	apiErr := refused(t, err, http.StatusTooManyRequests, "Too many requests.", fiatramp.ErrRateLimited)
	assert.Empty(t, apiErr.Code)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"), "default Settings.RetryAfter")
	assert.False(t, errors.Is(err, fiatramp.ErrUnauthorized))

	_, err = faultGet(t, e)
	require.NoError(t, err, "Count 1: the next call is served")

	// Custom Retry-After, rounded up to whole seconds.
	for retry, want := range map[time.Duration]string{
		time.Second: "1", 1500 * time.Millisecond: "2", 3 * time.Second: "3", time.Millisecond: "1", time.Minute: "60",
	} {
		faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultRateLimit, Count: 1, RetryAfter: retry})
		resp, err := faultGet(t, e)
		require.True(t, errors.Is(err, fiatramp.ErrRateLimited), "%v", err)
		assert.Equal(t, want, resp.Header.Get("Retry-After"), "RetryAfter %v", retry)
	}

	// The settings' default, rounded up too.
	e2 := newEnv(t, func(s *sandbox.Settings) { s.RetryAfter = 2500 * time.Millisecond })
	faultInject(t, e2.sb, sandbox.Fault{Kind: sandbox.FaultRateLimit, Count: 1})
	status, hdr, raw, err := faultRaw(t, e2, http.MethodGet, faultKYCPrefix+e2.cust.ID.String())
	require.NoError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, status)
	assert.Equal(t, "3", hdr.Get("Retry-After"))
	assert.Equal(t, "application/json", hdr.Get("Content-Type"))
	assert.JSONEq(t, `{"status":false,"message":"Too many requests.","data":null}`, string(raw))
}

func TestFaultInternalError(t *testing.T) {
	e := newEnv(t)
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultInternalError, Count: 2})

	status, _, raw, err := faultRaw(t, e, http.MethodGet, faultKYCPrefix+e.cust.ID.String())
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, status)
	assert.JSONEq(t, `{"success":false,"message":"Internal Server Error","err_code":"SYS_INTERNAL_ERROR",`+
		`"errors":"Internal Server Error","data":null}`, string(raw))
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	assert.NotContains(t, m, "status", "success-shaped: no status member")

	_, err = faultGet(t, e)
	apiErr := refused(t, err, http.StatusInternalServerError, "Internal Server Error", fiatramp.ErrInternal)
	assert.Equal(t, sandbox.CodeInternalError, apiErr.Code)
	assert.Equal(t, "Internal Server Error", apiErr.ErrorText)
	assert.False(t, errors.Is(err, fiatramp.ErrMalformedResponse), "a 500 without status is understood")

	_, err = faultGet(t, e)
	require.NoError(t, err)
}

func TestFaultUnavailable(t *testing.T) {
	e := newEnv(t)
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultUnavailable, Count: 1})
	_, err := faultGet(t, e)
	apiErr := refused(t, err, http.StatusServiceUnavailable, "Service unavailable", fiatramp.ErrUnavailable)
	assert.Empty(t, apiErr.Code)
	assert.False(t, errors.Is(err, fiatramp.ErrInternal))
	_, err = faultGet(t, e)
	require.NoError(t, err)
}

// A connection dropped before the operation: the caller hears nothing and
// nothing happened, so a retry is safe.
func TestFaultDropBefore(t *testing.T) {
	e := newEnv(t)
	q := e.quotation()
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDropBefore, Method: http.MethodPost, Count: 1})
	_, err := faultPayout(t, e, e.client, q, "drop-before-1")
	faultTransportError(t, err)
	assert.Empty(t, e.sb.Payouts(e.org.ID), "no payout stored")
	_, found := e.sb.PayoutByReference(e.org.ID, "drop-before-1")
	assert.False(t, found)

	p, err := faultPayout(t, e, e.client, q, "drop-before-1")
	require.NoError(t, err, "the retry goes through")
	assert.Equal(t, types.PayoutProcessing, p.Status)
	assert.Len(t, e.sb.Payouts(e.org.ID), 1)

	// Raw: the connection closes without a status line.
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDropBefore, Count: 1})
	_, _, _, err = faultRaw(t, e, http.MethodGet, faultKYCPrefix+e.cust.ID.String())
	require.Error(t, err)
	assert.Equal(t, 2, e.sb.Stats().Faults[sandbox.FaultDropBefore])
}

// A connection dropped after the operation: the caller hears nothing, yet
// the payout exists; reconciling by reference finds it and a blind retry
// meets the duplicate reference.
func TestFaultDropAfter(t *testing.T) {
	e := newEnv(t)
	q := e.quotation()
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pos/api/v1/payout/initiate", Count: 1})
	_, err := faultPayout(t, e, e.client, q, "drop-after-1")
	faultTransportError(t, err)

	stored, found := e.sb.PayoutByReference(e.org.ID, "drop-after-1")
	require.True(t, found, "the payout is stored")
	assert.Equal(t, types.PayoutProcessing, stored.Status)
	assert.Equal(t, q.ID, stored.QuotationID)
	require.Len(t, e.sb.Payouts(e.org.ID), 1)

	_, err = faultPayout(t, e, e.client, q, "drop-after-1")
	refused(t, err, http.StatusBadRequest, "Client Reference ID already exists", fiatramp.ErrClientReferenceExists)
	got, err := e.client.Payouts.Get(ctx(t), stored.ID)
	require.NoError(t, err)
	assert.Equal(t, stored.ID, got.ID)

	// The prefunded flow reserves the balance before the drop.
	q2 := e.quotation()
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pos/api/v1/prefunded/*", Count: 1})
	_, err = e.client.Payouts.CreatePrefunded(ctx(t), types.CreatePrefundedPayoutRequest{
		QuotationID: q2.ID, ClientReferenceID: "drop-after-2",
		Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: e.cust.ID}, Receiver: types.CustomerRef{ID: e.cust.ID}},
	})
	faultTransportError(t, err)
	_, found = e.sb.PayoutByReference(e.org.ID, "drop-after-2")
	assert.True(t, found)
	assert.Equal(t, "989.5", e.sb.Balance(e.org.ID, "USDT").String(), "1000 - 10.5 reserved")
	assert.Equal(t, 2, e.sb.Stats().Faults[sandbox.FaultDropAfter])
}

func TestFaultDelay(t *testing.T) {
	e := newEnv(t)
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDelay, Delay: 300 * time.Millisecond, Count: 1})
	impatient := e.clientFor(e.org, fiatramp.WithTimeout(50*time.Millisecond))
	start := time.Now()
	_, err := impatient.KYC.GetConfiguration(ctx(t), e.cust.ID)
	faultTransportError(t, err)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
	assert.Less(t, time.Since(start), 250*time.Millisecond)

	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDelay, Delay: 300 * time.Millisecond, Count: 1})
	patient := e.clientFor(e.org, fiatramp.WithTimeout(5*time.Second))
	start = time.Now()
	cfg, err := patient.KYC.GetConfiguration(ctx(t), e.cust.ID)
	require.NoError(t, err, "served normally after the delay")
	assert.NotEmpty(t, cfg.SupportedDocumentTypes)
	assert.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)

	// A caller that gives up during the delay leaves no effect behind: the
	// operation never runs.
	q := e.quotation()
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDelay, Delay: 400 * time.Millisecond, Method: http.MethodPost, Count: 1})
	_, err = faultPayout(t, e, impatient, q, "delayed-1")
	assert.True(t, errors.Is(unknownOutcome(t, err), context.DeadlineExceeded), "%v", err)
	time.Sleep(600 * time.Millisecond) // past the delay: had it run, it would be stored
	_, found := e.sb.PayoutByReference(e.org.ID, "delayed-1")
	assert.False(t, found)
	assert.Equal(t, 3, e.sb.Stats().Faults[sandbox.FaultDelay])
}

// A payout create that took effect and was answered after the caller's
// timeout: the caller ends in an *OutcomeUnknownError, the payout exists
// from the first instant, and reconciling the error finds it. A caller
// that waits longer than the delay gets the answer.
func TestFaultDelayAfter(t *testing.T) {
	e := newEnv(t)
	q := e.quotation()
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDelayAfter, Path: "/pos/api/v1/payout/initiate", Delay: 400 * time.Millisecond, Count: 1})
	impatient := e.clientFor(e.org, fiatramp.WithTimeout(50*time.Millisecond))
	start := time.Now()
	_, err := faultPayout(t, e, impatient, q, "late-1")
	assert.Less(t, time.Since(start), 350*time.Millisecond, "the caller gave up before the answer")
	assert.True(t, errors.Is(unknownOutcome(t, err), context.DeadlineExceeded), "%v", err)
	stored, found := e.sb.PayoutByReference(e.org.ID, "late-1")
	require.True(t, found, "the payout was stored before the late answer")
	assert.Equal(t, q.ID, stored.QuotationID)

	var unknown *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &unknown)
	rec, err := e.client.Payouts.ReconcileOutcome(ctx(t), unknown)
	require.NoError(t, err)
	assert.Equal(t, fiatramp.ReconcileCreated, rec.Verdict, rec.Reason)
	require.NotNil(t, rec.Payout)
	assert.Equal(t, stored.ID, rec.Payout.ID)

	q2 := e.quotation()
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDelayAfter, Path: "/pos/api/v1/payout/initiate", Delay: 200 * time.Millisecond, Count: 1})
	start = time.Now()
	p, err := faultPayout(t, e, e.client, q2, "late-2")
	require.NoError(t, err, "a patient caller gets the late answer")
	assert.GreaterOrEqual(t, time.Since(start), 200*time.Millisecond)
	stored, found = e.sb.PayoutByReference(e.org.ID, "late-2")
	require.True(t, found)
	assert.Equal(t, stored.ID, p.ID)
	assert.Equal(t, 2, e.sb.Stats().Faults[sandbox.FaultDelayAfter])
}

// Count spoils exactly Count requests, then the rule is gone.
func TestFaultCount(t *testing.T) {
	e := newEnv(t)
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultUnavailable, Count: 3})
	for i := range 3 {
		_, err := faultGet(t, e)
		require.True(t, errors.Is(err, fiatramp.ErrUnavailable), "call %d: %v", i+1, err)
	}
	for i := range 5 {
		_, err := faultGet(t, e)
		require.NoError(t, err, "call %d", 4+i)
	}
	st := e.sb.Stats()
	assert.Equal(t, 3, st.Faults[sandbox.FaultUnavailable])
	assert.Equal(t, 8, st.Requests)

	// Count 0 (and no fraction): every matching request until ClearFaults.
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultInternalError})
	for range 10 {
		_, err := faultGet(t, e)
		require.True(t, errors.Is(err, fiatramp.ErrInternal), "%v", err)
	}
	e.sb.ClearFaults()
	_, err := faultGet(t, e)
	require.NoError(t, err)
	assert.Equal(t, 10, e.sb.Stats().Faults[sandbox.FaultInternalError], "ClearFaults keeps the counts")
}

// faultOutcomes sends n unsigned requests to an unknown path and returns
// which were faulted (503) rather than answered 404.
func faultOutcomes(t testing.TB, e *env, n int) []bool {
	t.Helper()
	out := make([]bool, n)
	for i := range out {
		status, _, _, err := faultRaw(t, e, http.MethodGet, "/fraction")
		require.NoError(t, err)
		require.Contains(t, []int{http.StatusServiceUnavailable, http.StatusNotFound}, status)
		out[i] = status == http.StatusServiceUnavailable
	}
	return out
}

func faultCount(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// Fraction draws from the seeded source: the same seed spoils the same
// requests.
func TestFaultFraction(t *testing.T) {
	seeded := func(seed uint64) sandbox.Option { return func(s *sandbox.Settings) { s.Seed = seed } }
	run := func(seed uint64, f sandbox.Fault, n int) []bool {
		e := newEnv(t, seeded(seed))
		faultInject(t, e.sb, f)
		out := faultOutcomes(t, e, n)
		assert.Equal(t, faultCount(out), e.sb.Stats().Faults[f.Kind])
		return out
	}
	half := sandbox.Fault{Kind: sandbox.FaultUnavailable, Fraction: 0.5}
	a, b := run(42, half, 200), run(42, half, 200)
	assert.Equal(t, a, b, "same seed, same requests spoiled")
	n := faultCount(a)
	assert.True(t, n > 60 && n < 140, "about half of 200 spoiled: %d", n)
	c := run(43, half, 200)
	assert.NotEqual(t, a, c, "another seed, another pattern")

	assert.Equal(t, 100, faultCount(run(7, sandbox.Fault{Kind: sandbox.FaultUnavailable, Fraction: 1}, 100)), "fraction 1: all")
	assert.Equal(t, 0, faultCount(run(7, sandbox.Fault{Kind: sandbox.FaultUnavailable, Fraction: 1e-9}, 200)), "tiny fraction: none")

	// With Count, the rule stops after Count spoiled requests.
	capped := run(42, sandbox.Fault{Kind: sandbox.FaultUnavailable, Fraction: 0.5, Count: 5}, 200)
	assert.Equal(t, 5, faultCount(capped))
	last := indexOfNth(capped, 5)
	assert.Equal(t, a[:last+1], capped[:last+1], "same draws until the cap")
	assert.Zero(t, faultCount(capped[last+1:]))
}

// indexOfNth is the index of the nth true of bs, or -1.
func indexOfNth(bs []bool, nth int) int {
	for i, b := range bs {
		if b {
			nth--
			if nth == 0 {
				return i
			}
		}
	}
	return -1
}

func TestFaultMatching(t *testing.T) {
	e := newEnv(t)
	other := e.customer(e.org, sandbox.Customer{Name: "Other"})
	kyc := func(id uuid.UUID) error {
		_, err := e.client.KYC.GetConfiguration(ctx(t), id)
		return err
	}
	wallet := func(addr string) error {
		_, err := e.client.Customers.AddWallet(ctx(t), types.AddWalletRequest{CustomerID: e.cust.ID, WalletAddress: addr})
		return err
	}
	unavailable := func(err error) bool { return errors.Is(err, fiatramp.ErrUnavailable) }

	// Method, in any case.
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultUnavailable, Method: "post"})
	assert.NoError(t, kyc(e.cust.ID))
	assert.True(t, unavailable(wallet("TM1")))
	e.sb.ClearFaults()

	// Exact path: that customer only, and not a longer path.
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultUnavailable, Path: faultKYCPrefix + e.cust.ID.String()})
	assert.True(t, unavailable(kyc(e.cust.ID)))
	assert.NoError(t, kyc(other.ID))
	assert.NoError(t, wallet("TM2"))
	e.sb.ClearFaults()
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultUnavailable, Path: "/cms/api/v1/kyc"})
	assert.NoError(t, kyc(e.cust.ID), "an exact path is no prefix")
	e.sb.ClearFaults()

	// Prefix.
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultUnavailable, Path: "/cms/api/v1/kyc/*"})
	assert.True(t, unavailable(kyc(e.cust.ID)))
	assert.True(t, unavailable(kyc(other.ID)))
	assert.NoError(t, wallet("TM3"))
	_, err := e.client.Payouts.Get(ctx(t), uuid.New())
	assert.False(t, unavailable(err), "/pos is not under the prefix: %v", err)
	e.sb.ClearFaults()

	// "*" alone: everything, authenticated or not, routed or not.
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultRateLimit, Path: "*"})
	assert.True(t, errors.Is(kyc(e.cust.ID), fiatramp.ErrRateLimited))
	assert.True(t, errors.Is(wallet("TM4"), fiatramp.ErrRateLimited))
	status, _, _, err := faultRaw(t, e, http.MethodDelete, "/no/such/path")
	require.NoError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, status, "faults come before routing and authentication")
	e.sb.ClearFaults()

	// Method and path together.
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultUnavailable, Method: http.MethodGet, Path: "/cms/*"})
	assert.True(t, unavailable(kyc(e.cust.ID)))
	assert.NoError(t, wallet("TM5"))
	e.sb.ClearFaults()
	assert.NoError(t, kyc(e.cust.ID))
}

// A request meets the first rule, in injection order, that matches it and
// has requests left.
func TestFaultFirstMatchOrder(t *testing.T) {
	e := newEnv(t)
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultInternalError, Method: http.MethodPost}) // never matches a GET
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultRateLimit, Count: 1})
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultUnavailable, Count: 2})
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultRateLimit, Path: faultKYCPrefix + "*", Count: 1})

	var got []int
	for range 6 {
		resp, err := faultGet(t, e)
		if err != nil {
			var apiErr *fiatramp.APIError
			require.ErrorAs(t, err, &apiErr)
		}
		got = append(got, resp.StatusCode)
	}
	assert.Equal(t, []int{429, 503, 503, 429, 200, 200}, got)
	assert.Equal(t, map[sandbox.FaultKind]int{sandbox.FaultRateLimit: 2, sandbox.FaultUnavailable: 2}, e.sb.Stats().Faults)
}

func TestFaultStats(t *testing.T) {
	e := newEnv(t)
	st := e.sb.Stats()
	assert.Zero(t, st.Requests)
	assert.Empty(t, st.Faults)

	_, err := faultGet(t, e)
	require.NoError(t, err)
	_, _, _, err = faultRaw(t, e, http.MethodGet, "/nowhere") // 404
	require.NoError(t, err)
	_, _, _, err = faultRaw(t, e, http.MethodGet, faultKYCPrefix+e.cust.ID.String()) // 401
	require.NoError(t, err)
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultUnavailable, Count: 1})
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDropBefore, Count: 1})
	_, _ = faultGet(t, e)
	_, _, _, err = faultRaw(t, e, http.MethodGet, "/dropped")
	require.Error(t, err)

	st = e.sb.Stats()
	assert.Equal(t, 5, st.Requests, "every request, faulted, refused or not found")
	assert.Equal(t, map[sandbox.FaultKind]int{sandbox.FaultUnavailable: 1, sandbox.FaultDropBefore: 1}, st.Faults)

	// A snapshot: changing it changes nothing.
	st.Faults[sandbox.FaultDelay] = 99
	st.Requests = 0
	again := e.sb.Stats()
	assert.Equal(t, 5, again.Requests)
	assert.NotContains(t, again.Faults, sandbox.FaultDelay)
}

func TestFaultInjectValidation(t *testing.T) {
	sb := sandbox.New()
	for _, tc := range []struct {
		f   sandbox.Fault
		msg string
	}{
		{sandbox.Fault{Kind: "explode"}, `sandbox: fault: unknown kind "explode"`},
		{sandbox.Fault{}, `sandbox: fault: unknown kind ""`},
		{sandbox.Fault{Kind: sandbox.FaultDelay}, "sandbox: fault: a delay fault needs a positive Delay"},
		{sandbox.Fault{Kind: sandbox.FaultDelay, Delay: -time.Second}, "sandbox: fault: a delay fault needs a positive Delay"},
		{sandbox.Fault{Kind: sandbox.FaultUnavailable, Count: -1}, "sandbox: fault: Count -1 is negative"},
		{sandbox.Fault{Kind: sandbox.FaultUnavailable, Fraction: -0.1}, "sandbox: fault: Fraction -0.1 is outside 0..1"},
		{sandbox.Fault{Kind: sandbox.FaultUnavailable, Fraction: 1.5}, "sandbox: fault: Fraction 1.5 is outside 0..1"},
		{sandbox.Fault{Kind: sandbox.FaultRateLimit, RetryAfter: -time.Second}, "sandbox: fault: RetryAfter -1s is negative"},
	} {
		assert.EqualError(t, sb.InjectFault(tc.f), tc.msg)
	}
	// Nothing was added: every request is served.
	assert.Empty(t, sb.Stats().Faults)
	assert.EqualError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDelayAfter}), "sandbox: fault: a delay_after fault needs a positive Delay")
	for _, k := range sandbox.FaultKind("").Values() {
		f := sandbox.Fault{Kind: k}
		if k == sandbox.FaultDelay || k == sandbox.FaultDelayAfter {
			f.Delay = time.Millisecond
		}
		assert.NoError(t, sb.InjectFault(f), k)
	}
	assert.Len(t, sandbox.FaultKind("").Values(), 7)
}

// Every fault kind through the client, on a POST (a dropped POST is never
// retried by the transport). Retries are off, so a payout create that may
// have acted ends in an *OutcomeUnknownError; a 429 did nothing and is a
// plain refusal.
func TestFaultEveryKindThroughClient(t *testing.T) {
	for _, k := range sandbox.FaultKind("").Values() {
		t.Run(string(k), func(t *testing.T) {
			e := newEnv(t)
			q := e.quotation()
			f := sandbox.Fault{Kind: k, Count: 1}
			if k == sandbox.FaultDelay || k == sandbox.FaultDelayAfter {
				f.Delay = 50 * time.Millisecond
			}
			faultInject(t, e.sb, f)
			_, err := faultPayout(t, e, e.client, q, "every-"+string(k))
			_, stored := e.sb.PayoutByReference(e.org.ID, "every-"+string(k))
			switch k {
			case sandbox.FaultRateLimit:
				assert.True(t, errors.Is(err, fiatramp.ErrRateLimited), "%v", err)
			case sandbox.FaultInternalError:
				assert.True(t, errors.Is(unknownOutcome(t, err), fiatramp.ErrInternal), "%v", err)
			case sandbox.FaultUnavailable:
				assert.True(t, errors.Is(unknownOutcome(t, err), fiatramp.ErrUnavailable), "%v", err)
			case sandbox.FaultDropBefore, sandbox.FaultDropAfter:
				faultTransportError(t, unknownOutcome(t, err))
			case sandbox.FaultDelay, sandbox.FaultDelayAfter:
				assert.NoError(t, err)
			}
			assert.Equal(t, k == sandbox.FaultDropAfter || k == sandbox.FaultDelay || k == sandbox.FaultDelayAfter, stored, "payout stored")
			assert.Equal(t, 1, e.sb.Stats().Faults[k])
		})
	}
}

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
