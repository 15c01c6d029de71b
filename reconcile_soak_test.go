package fiatramp_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
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
	"TestReconcileSoak: make this many payout creations (default 600, 200 under -short)")

const (
	reconcileSoakDefault = 600
	reconcileSoakShort   = 200
	reconcileSoakCallers = 16
	reconcileSoakSeed    = 20261127
	// reconcileSoakPerCustomer is how many creations share a customer,
	// and so a history to walk.
	reconcileSoakPerCustomer = 8
	// reconcileSoakTries is how often a job creates again, with the same
	// reference, after a reconciliation proved that nothing was created.
	reconcileSoakTries = 3
)

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
	creations, succeeded, unknown, refused int
	recreated                              int // creates again after ErrNotCreated
	doubles                                int // quotations or references holding two payouts or more
	silent                                 int // a refused job whose reference holds a payout
	missing                                int // a success whose payout is not stored
	falseProofs                            int // a create after ErrNotCreated refused as a duplicate
	reconGets                              map[int]int
	faults                                 map[sandbox.FaultKind]int
}

// runReconcileSoak makes n payout creations on quotations of their own
// from reconcileSoakCallers goroutines against a sandbox spoiling 20% of
// the payout requests; with reconcile, each create asks WithReconcile and
// creates again with the same reference after ErrNotCreated; with
// oneAttempt, each create makes a single attempt, so that every fault that
// may have acted leaves its outcome to reconciliation.
func runReconcileSoak(t *testing.T, n int, reconcile, oneAttempt bool) reconcileSoakResult {
	sb := sandbox.New(func(s *sandbox.Settings) { s.Seed = reconcileSoakSeed })
	sb.SetTime(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	org, err := sb.AddOrganization(sandbox.Organization{Name: "Reconcile Soak"})
	require.NoError(t, err)
	quotations := make([]sandbox.Quotation, n)
	var customer sandbox.Customer
	for i := range quotations {
		if i%reconcileSoakPerCustomer == 0 {
			customer, err = sb.AddCustomer(sandbox.Customer{OrganizationID: org.ID, Name: fmt.Sprintf("Soak %d", i)})
			require.NoError(t, err)
			_, err = sb.AddBankAccount(sandbox.BankAccount{CustomerID: customer.ID})
			require.NoError(t, err)
		}
		quotations[i], err = sb.AddQuotation(sandbox.Quotation{CustomerID: customer.ID, SendingAmount: decimal.New(int64(1000+i%9000), -2)})
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

	res := reconcileSoakResult{creations: n, reconGets: map[int]int{}}
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

	stored := sb.Payouts(org.ID)
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

func (r reconcileSoakResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d creations: %d succeeded, %d unknown (%.2f per 1,000), %d refused; %d created again after ErrNotCreated; double payouts %d",
		r.creations, r.succeeded, r.unknown, 1000*float64(r.unknown)/float64(r.creations), r.refused, r.recreated, r.doubles)
	if len(r.reconGets) > 0 {
		keys := make([]int, 0, len(r.reconGets))
		total, count := 0, 0
		for k, c := range r.reconGets {
			keys = append(keys, k)
			total += k * c
			count += c
		}
		sort.Ints(keys)
		b.WriteString("; reconciliation requests (requests: reconciliations):")
		for _, k := range keys {
			fmt.Fprintf(&b, " %d:%d", k, r.reconGets[k])
		}
		fmt.Fprintf(&b, " (mean %.2f)", float64(total)/float64(count))
	}
	fmt.Fprintf(&b, "; faults %v", r.faults)
	return b.String()
}

// TestReconcileSoak makes payout creations, each on its own quotation,
// from 16 goroutines against a sandbox that spoils 20% of the payout
// creates (connections dropped before and after the payout is stored, 500,
// 503, 429) and 20% of the payout reads (500, 503, 429), once without
// reconciliation and once with WithReconcile (creating again with the same
// reference after ErrNotCreated), and once more with reconciliation and
// creates of a single attempt. Every way no quotation and no reference
// may hold two payouts, a success must hold its payout and a refusal none;
// with reconciliation at most 1 in 1,000 outcomes may stay unknown, and
// no proof of absence may be contradicted by the create it allows. It
// logs the figures and the distribution of the reconciliations' requests.
//
// CI runs 600 creations per run (200 under -short); a full run:
//
//	go test -run TestReconcileSoak -v . -args -reconcile.soak.creations=20000
func TestReconcileSoak(t *testing.T) {
	n := reconcileSoakDefault
	switch {
	case *reconcileSoakCreations > 0:
		n = *reconcileSoakCreations
	case testing.Short():
		n = reconcileSoakShort
	}
	before := runReconcileSoak(t, n, false, false)
	t.Logf("before (no reconciliation): %v", before)
	after := runReconcileSoak(t, n, true, false)
	t.Logf("after (WithReconcile): %v", after)
	single := runReconcileSoak(t, n, true, true)
	t.Logf("after, creates of one attempt (WithReconcile): %v", single)

	for name, r := range map[string]reconcileSoakResult{"before": before, "after": after, "one attempt": single} {
		require.Zero(t, r.doubles, "%s: double payouts", name)
		require.Zero(t, r.missing, "%s: a success without its payout", name)
		require.Zero(t, r.silent, "%s: a refusal whose reference holds a payout", name)
		require.Zero(t, r.falseProofs, "%s: a create allowed by ErrNotCreated was refused as a duplicate", name)
	}
	for name, r := range map[string]reconcileSoakResult{"after": after, "one attempt": single} {
		require.LessOrEqual(t, r.unknown*1000, n, "%s: at most 1 in 1,000 outcomes unknown after reconciliation", name)
	}
	require.Greater(t, before.unknown, 0, "the faults leave outcomes unknown without reconciliation")
	require.Greater(t, single.recreated, 0, "reconciliation proves some creates absent")
}
