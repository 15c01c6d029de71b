package fiatramp_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

var reconcileSoakCreations = flag.Int("reconcile.soak.creations", 0,
	"TestReconcileSoak: make this many payout creations per run (default 300, 150 under -short; 2,000 with FIATRAMP_RECONCILE_SOAK)")

const (
	reconcileSoakDefault = 300
	reconcileSoakShort   = 150
	reconcileSoakLong    = 2000
	reconcileSoakCallers = 16
	reconcileSoakSeed    = 20261127
	// reconcileSoakTries is how often a job creates again, with the same
	// reference, after a reconciliation proved that nothing was created.
	reconcileSoakTries = 3
)

// reconcileSoakHistories are the numbers of payouts the soak's customer
// has before the soak: CI runs the first two, FIATRAMP_RECONCILE_SOAK
// all three.
var reconcileSoakHistories = []int{10, 1_000, 100_000}

// handlerTransport serves requests with a handler in process: the soak
// seeds its prior payouts through it, without loopback.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, req)
	return rec.Result(), nil
}

// seedPayouts creates n payouts of customer (who owns bank), each on a
// quotation of its own, through the sandbox's handler: a thousand a day
// (within the customer's daily limit), the last on the day before the
// sandbox clock's.
func seedPayouts(t *testing.T, sb *sandbox.Sandbox, org sandbox.Organization, customer, bank uuid.UUID, n int) {
	t.Helper()
	c, err := fiatramp.New(org.APIKey, org.APISecret, fiatramp.WithBaseURL("http://127.0.0.1:1"),
		fiatramp.WithHTTPClient(&http.Client{Transport: handlerTransport{sb}}), fiatramp.WithClock(sb.Now))
	require.NoError(t, err)
	for i := range n {
		q, err := sb.AddQuotation(sandbox.Quotation{CustomerID: customer, BankID: bank, SendingAmount: decimal.New(int64(1000+i%9000), -2)})
		require.NoError(t, err)
		_, err = c.Payouts.Create(context.Background(), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: customer, ClientReferenceID: fmt.Sprintf("prior-%d", i)})
		require.NoError(t, err)
		if (i+1)%1000 == 0 {
			sb.Advance(24 * time.Hour)
		}
	}
	sb.Advance(24 * time.Hour)
}

// reconcileSoakFaults spoil 20% of the payout creates (each kind 4%) and
// 20% of the payout reads (each kind about 6.7%).
var (
	reconcileSoakCreateFaults = []sandbox.FaultKind{
		sandbox.FaultDropBefore, sandbox.FaultDropAfter, sandbox.FaultInternalError,
		sandbox.FaultUnavailable, sandbox.FaultRateLimit,
	}
	reconcileSoakReadFaults = []sandbox.FaultKind{
		sandbox.FaultInternalError, sandbox.FaultUnavailable, sandbox.FaultRateLimit,
	}
)

// reconcileSoakGetsKey is the context key of the *int that counts a
// call's GET requests: inside a create, those of its reconciliation.
type reconcileSoakGetsKey struct{}

type reconcileSoakTransport struct{ base http.RoundTripper }

func (t reconcileSoakTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if n, ok := req.Context().Value(reconcileSoakGetsKey{}).(*int); ok && req.Method == http.MethodGet {
		*n++ // http.Client calls RoundTrip on the caller's goroutine
	}
	return t.base.RoundTrip(req)
}

// reconcileSoakResult is what one run found.
type reconcileSoakResult struct {
	creations, prior            int
	succeeded, unknown, refused int
	recreated                   int // creates again after ErrNotCreated
	doubles                     int // quotations or references holding two payouts or more
	silent                      int // a refused job whose reference holds a payout
	missing                     int // a success whose payout is not stored
	falseProofs                 int // a create after ErrNotCreated refused as a duplicate
	reconGets                   map[int]int
	faults                      map[sandbox.FaultKind]int
}

// runReconcileSoak makes n payout creations on quotations of their own,
// all for one customer who already has prior payouts, from
// reconcileSoakCallers goroutines against a sandbox spoiling 20% of the
// payout requests; with reconcile, each create asks WithReconcile and
// creates again with the same reference after ErrNotCreated; with
// oneAttempt, each create makes a single attempt, so that every fault that
// may have acted leaves its outcome to reconciliation.
func runReconcileSoak(t *testing.T, n, prior int, reconcile, oneAttempt bool) reconcileSoakResult {
	sb := sandbox.New(func(s *sandbox.Settings) { s.Seed = reconcileSoakSeed })
	sb.SetTime(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	org, err := sb.AddOrganization(sandbox.Organization{Name: "Reconcile Soak"})
	require.NoError(t, err)
	customer, err := sb.AddCustomer(sandbox.Customer{OrganizationID: org.ID, Name: "Busy Exchange"})
	require.NoError(t, err)
	bank, err := sb.AddBankAccount(sandbox.BankAccount{CustomerID: customer.ID})
	require.NoError(t, err)
	seedPayouts(t, sb, org, customer.ID, bank.ID, prior)
	quotations := make([]sandbox.Quotation, n)
	for i := range quotations {
		quotations[i], err = sb.AddQuotation(sandbox.Quotation{CustomerID: customer.ID, BankID: bank.ID, SendingAmount: decimal.New(int64(1000+i%9000), -2)})
		require.NoError(t, err)
	}
	inject := func(method, path string, kinds []sandbox.FaultKind) {
		share := 0.20 / float64(len(kinds))
		for i, kind := range kinds {
			require.NoError(t, sb.InjectFault(sandbox.Fault{
				Kind: kind, Method: method, Path: path, Fraction: share / (1 - share*float64(i)),
			}))
		}
	}
	inject(http.MethodPost, "/pos/api/v1/payout/initiate", reconcileSoakCreateFaults)
	inject(http.MethodGet, "/pos/api/v1/payout/*", reconcileSoakReadFaults)

	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	base := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 2 * reconcileSoakCallers,
	}
	t.Cleanup(base.CloseIdleConnections)
	client, err := srv.Client(org,
		fiatramp.WithHTTPClient(&http.Client{Transport: reconcileSoakTransport{base}}),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}))
	require.NoError(t, err)

	res := reconcileSoakResult{creations: n, prior: prior, reconGets: map[int]int{}}
	type outcome struct {
		ref        string
		err        error
		payoutID   uuid.UUID
		recreated  int
		falseProof bool
		gets       []int // GETs of each reconciling create
	}
	outcomes := make([]outcome, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range reconcileSoakCallers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				q := quotations[i]
				o := &outcomes[i]
				o.ref = fmt.Sprintf("soak-%d", i)
				for try := 0; try < reconcileSoakTries; try++ {
					gets := 0
					ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), reconcileSoakGetsKey{}, &gets), time.Minute)
					var opts []fiatramp.RequestOption
					if reconcile {
						opts = append(opts, fiatramp.WithReconcile())
					}
					if oneAttempt {
						opts = append(opts, fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
					}
					p, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: q.CustomerID, ClientReferenceID: o.ref}, opts...)
					cancel()
					if gets > 0 {
						o.gets = append(o.gets, gets)
					}
					o.err = err
					if err == nil {
						o.payoutID = p.ID
					}
					if try > 0 && (errors.Is(err, fiatramp.ErrClientReferenceExists) || errors.Is(err, fiatramp.ErrQuotationAlreadyLinked)) {
						o.falseProof = true
					}
					if !errors.Is(err, fiatramp.ErrNotCreated) {
						break
					}
					o.recreated++
				}
			}
		}()
	}
	wg.Wait()

	stored := sb.Payouts(org.ID)[prior:] // the prior ones come first
	byRef := map[string][]sandbox.Payout{}
	byQuotation := map[uuid.UUID]int{}
	for _, p := range stored {
		byQuotation[p.QuotationID]++
		if p.ClientReferenceID != nil {
			byRef[*p.ClientReferenceID] = append(byRef[*p.ClientReferenceID], p)
		}
	}
	for _, c := range byQuotation {
		if c > 1 {
			res.doubles++
		}
	}
	for _, ps := range byRef {
		if len(ps) > 1 {
			res.doubles++
		}
	}
	for _, o := range outcomes {
		res.recreated += o.recreated
		if o.falseProof {
			res.falseProofs++
		}
		for _, g := range o.gets {
			res.reconGets[g]++
		}
		switch {
		case o.err == nil:
			res.succeeded++
			if ps := byRef[o.ref]; len(ps) != 1 || ps[0].ID != o.payoutID {
				res.missing++
			}
		case errors.Is(o.err, fiatramp.ErrOutcomeUnknown):
			res.unknown++
		default:
			res.refused++
			if len(byRef[o.ref]) > 0 { // ErrNotCreated included: its proof was wrong
				res.silent++
			}
		}
	}
	res.faults = sb.Stats().Faults
	return res
}

// meanRequests is the mean number of requests of a reconciliation.
func (r reconcileSoakResult) meanRequests() float64 {
	total, count := 0, 0
	for k, c := range r.reconGets {
		total += k * c
		count += c
	}
	if count == 0 {
		return 0
	}
	return float64(total) / float64(count)
}

func (r reconcileSoakResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d prior payouts, %d creations: %d succeeded, %d unknown (%.2f per 1,000), %d refused; %d created again after ErrNotCreated; double payouts %d",
		r.prior, r.creations, r.succeeded, r.unknown, 1000*float64(r.unknown)/float64(r.creations), r.refused, r.recreated, r.doubles)
	if len(r.reconGets) > 0 {
		keys := make([]int, 0, len(r.reconGets))
		for k := range r.reconGets {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		b.WriteString("; reconciliation requests (requests: reconciliations):")
		for _, k := range keys {
			fmt.Fprintf(&b, " %d:%d", k, r.reconGets[k])
		}
		fmt.Fprintf(&b, " (mean %.2f)", r.meanRequests())
	}
	fmt.Fprintf(&b, "; faults %v", r.faults)
	return b.String()
}

// TestReconcileSoak makes payout creations, each on its own quotation,
// all for one customer who already has 10 or 1,000 payouts (and 100,000
// with FIATRAMP_RECONCILE_SOAK), from 16 goroutines against a sandbox that
// spoils 20% of the payout creates (connections dropped before and after
// the payout is stored, 500, 503, 429) and 20% of the payout reads (500,
// 503, 429): once without reconciliation (the smallest history only), once
// with WithReconcile (creating again with the same reference after
// ErrNotCreated), and once more with WithReconcile and creates of a single
// attempt, so that every fault that may have acted is reconciled. Every
// way no quotation and no reference may hold two payouts, a success must
// hold its payout and a refusal none; with reconciliation at most 1 in
// 1,000 outcomes may stay unknown, a reconciliation costs at most 2
// requests on average (retries of failed reads included), and no proof of
// absence may be contradicted by the create it allows. It logs the figures
// and the distribution of the reconciliations' requests per history size.
//
// CI runs 300 creations per run (150 under -short); the full soak, 2,000
// creations per run and the 100,000-payout history:
//
//	FIATRAMP_RECONCILE_SOAK=1 go test -run TestReconcileSoak -v -timeout 30m .
func TestReconcileSoak(t *testing.T) {
	n, histories := reconcileSoakDefault, reconcileSoakHistories[:2]
	if testing.Short() {
		n = reconcileSoakShort
	}
	if os.Getenv("FIATRAMP_RECONCILE_SOAK") != "" {
		n, histories = reconcileSoakLong, reconcileSoakHistories
	}
	if *reconcileSoakCreations > 0 {
		n = *reconcileSoakCreations
	}
	for i, prior := range histories {
		runs := map[string]reconcileSoakResult{}
		if i == 0 {
			runs["before"] = runReconcileSoak(t, n, prior, false, false)
			t.Logf("before (no reconciliation): %v", runs["before"])
			require.Greater(t, runs["before"].unknown, 0, "the faults leave outcomes unknown without reconciliation")
		}
		runs["after"] = runReconcileSoak(t, n, prior, true, false)
		t.Logf("after (WithReconcile): %v", runs["after"])
		runs["one attempt"] = runReconcileSoak(t, n, prior, true, true)
		t.Logf("after, creates of one attempt (WithReconcile): %v", runs["one attempt"])

		for name, r := range runs {
			require.Zero(t, r.doubles, "%d prior, %s: double payouts", prior, name)
			require.Zero(t, r.missing, "%d prior, %s: a success without its payout", prior, name)
			require.Zero(t, r.silent, "%d prior, %s: a refusal whose reference holds a payout", prior, name)
			require.Zero(t, r.falseProofs, "%d prior, %s: a create allowed by ErrNotCreated was refused as a duplicate", prior, name)
		}
		for _, name := range []string{"after", "one attempt"} {
			r := runs[name]
			require.LessOrEqual(t, r.unknown*1000, n, "%d prior, %s: at most 1 in 1,000 outcomes unknown after reconciliation", prior, name)
			require.LessOrEqual(t, r.meanRequests(), 2.0, "%d prior, %s: at most 2 requests per reconciliation on average", prior, name)
		}
		require.Greater(t, runs["one attempt"].recreated, 0, "reconciliation proves some creates absent")
	}
}
