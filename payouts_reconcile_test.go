package fiatramp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
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

func TestOutcomeUnknownCarriesTheAttempt(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	before := e.sb.Now()
	u := e.unknown(t, sandbox.FaultDropAfter, q, "ref-carries")
	assert.Equal(t, "ref-carries", u.ClientReferenceID)
	assert.Equal(t, q.ID, u.QuotationID)
	assert.Equal(t, q.CustomerID, u.CustomerID)
	assert.False(t, u.Started.IsZero())
	assert.False(t, u.Started.Before(before.Truncate(time.Second)), "Started %v is on the client's (the sandbox's) clock", u.Started)
	assert.False(t, u.Ended.Before(u.Started))
}

// A LINKED quotation sends the reconciliation to the newest page of the
// history: two requests.
func TestPayoutsReconcileCreated(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropAfter, q, "ref-created")
	require.False(t, u.ProbablyCreated)

	r, err := e.client.Payouts.ReconcileOutcome(context.Background(), u)
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
	require.NotNil(t, r.Payout)
	require.NotNil(t, r.Payout.ClientReferenceID)
	assert.Equal(t, "ref-created", *r.Payout.ClientReferenceID)
	assert.Equal(t, q.ID, r.Payout.QuotationID)
	stored := e.sb.Payouts(e.demo.Organization.ID)
	require.Len(t, stored, 1)
	assert.Equal(t, stored[0].ID, r.Payout.ID)
	assert.Equal(t, types.QuotationLinked, r.Quotation.Status)
	assert.Equal(t, 2, r.Requests, "the quotation and the newest page")
	assert.NoError(t, r.Err)
}

// An attempt refused as a duplicate after one that may have acted
// (ProbablyCreated) reads the newest page first: one request.
func TestPayoutsReconcileLikelyCreated(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: http.MethodPost, Path: "/pos/api/v1/payout/initiate", Count: 1}))
	_, err := e.client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: q.ID, CustomerID: q.CustomerID, ClientReferenceID: "ref-likely",
	})
	var u *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &u)
	require.True(t, u.ProbablyCreated, "the retry was refused as a duplicate")

	r, err := e.client.Payouts.ReconcileOutcome(context.Background(), err)
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
	assert.Equal(t, 1, r.Requests, "the newest page alone")
	assert.Nil(t, r.Quotation, "never read")
}

func TestPayoutsReconcileNotCreatedUnlinked(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropBefore, q, "ref-unlinked")

	r, err := e.client.Payouts.ReconcileOutcome(context.Background(), u)
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileNotCreated, r.Verdict, r.Reason)
	assert.Nil(t, r.Payout)
	require.NotNil(t, r.Quotation)
	assert.Equal(t, types.QuotationUnlinked, r.Quotation.Status)
	assert.Contains(t, r.Reason, "UNLINKED")
	assert.Equal(t, 1, r.Requests, "the quotation alone")
	assert.Empty(t, e.sb.Payouts(e.demo.Organization.ID))

	// Safe to create again with the same reference: exactly one payout.
	p, err := e.create(q, "ref-unlinked")
	require.NoError(t, err)
	assert.Equal(t, "ref-unlinked", *p.ClientReferenceID)
	assert.Len(t, e.sb.Payouts(e.demo.Organization.ID), 1)
}

func TestPayoutsReconcileNotCreatedExpired(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropBefore, q, "ref-expired")
	e.sb.Advance(time.Hour)

	r, err := e.client.Payouts.ReconcileOutcome(context.Background(), u)
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileNotCreated, r.Verdict, r.Reason)
	assert.Equal(t, types.QuotationExpired, r.Quotation.Status)
	assert.Contains(t, r.Reason, "EXPIRED")
	assert.Equal(t, 1, r.Requests)
}

func TestPayoutsReconcileQuotationLinkedToAnotherReference(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropBefore, q, "ref-lost")
	// Another job used the quotation meanwhile.
	other, err := e.create(q, "ref-other")
	require.NoError(t, err)

	r, err := e.client.Payouts.ReconcileOutcome(context.Background(), u)
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileNotCreated, r.Verdict, r.Reason)
	assert.Equal(t, types.QuotationLinked, r.Quotation.Status)
	assert.Contains(t, r.Reason, other.ID.String())
	assert.Equal(t, 2, r.Requests)
}

// The cost does not grow with the customer's history: with 45 payouts
// before the lost one (page size 10), on earlier days and on the same
// day, the payout is on the newest page.
func TestPayoutsReconcileCostDoesNotGrowWithHistory(t *testing.T) {
	e := newReconEnv(t)
	for i := range 45 {
		q, err := e.sb.AddQuotation(sandbox.Quotation{CustomerID: e.demo.Customer.ID, BankID: e.demo.BankAccount.ID, SendingAmount: decimal.NewFromInt(10)})
		require.NoError(t, err)
		_, err = e.create(q, fmt.Sprintf("prior-%d", i))
		require.NoError(t, err)
		if i < 30 {
			e.sb.Advance(6 * time.Hour) // 30 over a week, 15 on the day of the lost one
		}
	}
	q, err := e.sb.AddQuotation(sandbox.Quotation{CustomerID: e.demo.Customer.ID, BankID: e.demo.BankAccount.ID, SendingAmount: decimal.NewFromInt(10)})
	require.NoError(t, err)
	u := e.unknown(t, sandbox.FaultDropAfter, q, "ref-busy")

	r, err := e.client.Payouts.ReconcileOutcome(context.Background(), u)
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
	assert.Equal(t, "ref-busy", *r.Payout.ClientReferenceID)
	assert.Equal(t, 2, r.Requests, "the quotation and the newest page, whatever came before")
}

func TestPayoutsReconcileWithoutQuotationProvesNothing(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropBefore, q, "ref-noquote")

	a := fiatramp.PayoutAttempt{ClientReferenceID: u.ClientReferenceID, CustomerID: u.CustomerID, From: u.Started, To: u.Ended}
	r, err := e.client.Payouts.Reconcile(context.Background(), a)
	require.NoError(t, err)
	assert.Equal(t, fiatramp.ReconcileUnknown, r.Verdict)
	assert.Contains(t, r.Reason, "without the quotation id")
	assert.Equal(t, 1, r.Requests)

	// Found without one, once it exists.
	_, err = e.create(q, "ref-noquote")
	require.NoError(t, err)
	r, err = e.client.Payouts.Reconcile(context.Background(), a)
	require.NoError(t, err)
	assert.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
}

// A read that fails after the Client's retries is made again: one failed
// page does not end the reconciliation. One that keeps failing leaves it
// unknown, with its error; a refusal is final.
func TestPayoutsReconcileReadsFailing(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropAfter, q, "ref-unreadable")
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{
		Kind: sandbox.FaultUnavailable, Method: http.MethodGet, Path: "/pos/api/v1/payout/history", Count: fiatramp.DefaultMaxAttempts,
	}))
	r, err := e.client.Payouts.ReconcileOutcome(context.Background(), u)
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
	assert.Equal(t, 1+fiatramp.DefaultMaxAttempts+1, r.Requests, "the quotation, a page failing every attempt, the page again")

	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultUnavailable, Method: http.MethodGet, Path: "/pos/api/v1/payout/history"}))
	r, err = e.client.Payouts.ReconcileOutcome(context.Background(), u)
	require.NoError(t, err)
	assert.Equal(t, fiatramp.ReconcileUnknown, r.Verdict)
	assert.ErrorIs(t, r.Err, fiatramp.ErrUnavailable)
	assert.Contains(t, r.Reason, "history")
	assert.Equal(t, 1+3*fiatramp.DefaultMaxAttempts, r.Requests, "the quotation, then the page three times, each retried to the policy's end")

	// The quotation's refusal is final.
	e.sb.ClearFaults()
	r, err = e.client.Payouts.Reconcile(context.Background(), fiatramp.PayoutAttempt{
		ClientReferenceID: "ref-unreadable", CustomerID: q.CustomerID, QuotationID: uuid.New(),
	})
	require.NoError(t, err)
	assert.Equal(t, fiatramp.ReconcileUnknown, r.Verdict)
	assert.ErrorIs(t, r.Err, fiatramp.ErrQuotationNotFound)
	assert.Equal(t, 1, r.Requests)
}

func TestPayoutsReconcileRefusesBadInput(t *testing.T) {
	e := newReconEnv(t)
	ctx := context.Background()
	now := time.Now()
	for name, a := range map[string]fiatramp.PayoutAttempt{
		"client_reference_id": {CustomerID: uuid.New()},
		"customer_id":         {ClientReferenceID: "r"},
		"to":                  {ClientReferenceID: "r", CustomerID: uuid.New(), From: now},
		"from":                {ClientReferenceID: "r", QuotationID: uuid.New(), To: now},
	} {
		_, err := e.client.Payouts.Reconcile(ctx, a)
		var ve *fiatramp.ValidationError
		require.ErrorAs(t, err, &ve, name)
		assert.Equal(t, name, ve.Field)
	}
	_, err := e.client.Payouts.Reconcile(ctx, fiatramp.PayoutAttempt{ClientReferenceID: "r", CustomerID: uuid.New(), From: now, To: now.Add(-time.Hour)})
	assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
	_, err = e.client.Payouts.ReconcileOutcome(ctx, nil)
	assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
	_, err = e.client.Payouts.ReconcileOutcome(ctx, fmt.Errorf("wrapped: %w", fiatramp.ErrQuotationExpired))
	assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest, "no *OutcomeUnknownError")
	_, err = e.client.Payouts.ReconcileOutcome(ctx, &fiatramp.OutcomeUnknownError{Method: "POST", Path: "/x"})
	assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest, "a Do call has no reference")

	// A payin initiate's outcome is the payins' to reconcile.
	pq := e.payinQuote(t)
	pu := e.initiateUnknown(t, sandbox.FaultDropAfter, pq, "pin-x", "412345678911")
	_, err = e.client.Payouts.ReconcileOutcome(ctx, pu)
	var ve *fiatramp.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Contains(t, ve.Error(), "Payins.Initiate")
}

// Reconcile and ReconcileOutcome are on PayoutsAPI: code that reconciles
// takes a fake.
type reconcilingFake struct {
	fiatramp.PayoutsAPI
	verdict fiatramp.ReconcileVerdict
}

func (f reconcilingFake) ReconcileOutcome(context.Context, error, ...fiatramp.RequestOption) (*fiatramp.PayoutReconciliation, error) {
	return &fiatramp.PayoutReconciliation{Verdict: f.verdict, Reason: "fake"}, nil
}

func TestPayoutsReconcileFake(t *testing.T) {
	settle := func(p fiatramp.PayoutsAPI, err error) fiatramp.ReconcileVerdict {
		r, rerr := p.ReconcileOutcome(context.Background(), err)
		require.NoError(t, rerr)
		return r.Verdict
	}
	assert.Equal(t, fiatramp.ReconcileNotCreated, settle(reconcilingFake{verdict: fiatramp.ReconcileNotCreated}, &fiatramp.OutcomeUnknownError{}))
}

// A create whose answer was lost is settled with reads only: the
// quotation, and, when it is LINKED, the newest page of the payout history.
func ExamplePayoutsService_Reconcile() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization,
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	_ = sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pos/api/v1/payout/initiate", Count: 1})

	ctx := context.Background()
	_, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID, ClientReferenceID: "order-1002",
	})
	if !errors.Is(err, fiatramp.ErrOutcomeUnknown) {
		fmt.Println("settled by the call:", err)
		return
	}
	r, err := client.Payouts.ReconcileOutcome(ctx, err)
	if err != nil {
		fmt.Println("cannot reconcile:", err)
		return
	}
	switch r.Verdict {
	case fiatramp.ReconcileCreated:
		fmt.Println("created:", *r.Payout.ClientReferenceID, r.Payout.Status, "in", r.Requests, "requests")
	case fiatramp.ReconcileNotCreated:
		fmt.Println("not created: create again with the same reference")
	default:
		fmt.Println("still unknown:", r.Reason)
	}

	// An unused quotation proves that nothing was created on it.
	r, _ = client.Payouts.Reconcile(ctx, fiatramp.PayoutAttempt{
		ClientReferenceID: "order-1003", QuotationID: demo.Quotations[1].ID,
	})
	fmt.Println(r.Verdict, r.Quotation.Status, "in", r.Requests, "request")
	// Output:
	// created: order-1002 PROCESSING in 2 requests
	// not_created UNLINKED in 1 request
}

// offsetPayouts is a payout service whose history pages by limit/offset,
// newest first, and ignores any page parameter (page=last included): it
// answers the first page, with a next link and no previous one. Its
// quotation is LINKED to the payout holding the reference, which is on the
// second page.
type offsetPayouts struct {
	quotation, customer uuid.UUID
	quotedAt            time.Time
	refs                []string // newest first; the target is last; "" is sent as null
	base                string
	emptyFirst          bool // the first page is empty, with a next link
}

func (s *offsetPayouts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/pos/api/v1/payout/quotation/" + s.quotation.String():
		_, _ = io.WriteString(w, ok(fmt.Sprintf(`{"id":%q,"customer_id":%q,"status":"LINKED","created_at":%q,"expiry_time":%q}`,
			s.quotation, s.customer, s.quotedAt.Format(time.RFC3339), s.quotedAt.Add(5*time.Minute).Format(time.RFC3339))))
		return
	case "/pos/api/v1/payout/history":
	default:
		w.WriteHeader(http.StatusNotFound)
		return
	}
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	const limit = 10
	if s.emptyFirst && offset == 0 {
		// A page emptied by a filter or a gateway, with more behind it.
		_, _ = io.WriteString(w, ok(fmt.Sprintf(`{"count":%d,"next":%s,"previous":null,"results":[]}`,
			len(s.refs), jsonQuote(s.base+"/pos/api/v1/payout/history?limit=10&offset=1000"))))
		return
	}
	if offset >= 1000 {
		offset -= 1000
	}
	var results []string
	for i := offset; i < min(offset+limit, len(s.refs)); i++ {
		q := uuid.New()
		if i == len(s.refs)-1 {
			q = s.quotation
		}
		at := s.quotedAt.Add(time.Duration(len(s.refs)-i) * time.Second)
		ref := jsonQuote(s.refs[i])
		if s.refs[i] == "" {
			ref = "null" // an edition that leaves the reference out
		}
		results = append(results, fmt.Sprintf(`{"id":%q,"quotation_id":%q,"customer_id":%q,"client_reference_id":%s,"status":"PROCESSING","created_at":%q}`,
			uuid.New(), q, s.customer, ref, at.Format(time.RFC3339Nano)))
	}
	next := "null"
	if offset+limit < len(s.refs) {
		next = jsonQuote(s.base + "/pos/api/v1/payout/history?limit=10&offset=" + strconv.Itoa(offset+limit))
	}
	_, _ = io.WriteString(w, ok(fmt.Sprintf(`{"count":%d,"next":%s,"previous":null,"results":[%s]}`,
		len(s.refs), next, strings.Join(results, ","))))
}

// A history that ignores page=last answers its first page, and the search
// stops there (no previous link) as if it had read everything: the payout
// on the second page is never found, and a LINKED quotation's payout stays
// unknown for ever (a pipeline that waits for the verdict never records
// the payout it made).
func TestPayoutsReconcileHistoryIgnoringPageReadsOn(t *testing.T) {
	s := &offsetPayouts{quotation: uuid.New(), customer: uuid.New(), quotedAt: time.Now().Add(-time.Hour).UTC().Truncate(time.Second)}
	for i := range 12 {
		s.refs = append(s.refs, "other-"+strconv.Itoa(i))
	}
	s.refs = append(s.refs, "po-target")
	srv := httptest.NewServer(s)
	defer srv.Close()
	s.base = srv.URL
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}))
	require.NoError(t, err)
	r, err := c.Payouts.Reconcile(context.Background(), fiatramp.PayoutAttempt{ClientReferenceID: "po-target", QuotationID: s.quotation})
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
}

// reconcileOffset reconciles the attempt of reference ref on s's quotation.
func reconcileOffset(t *testing.T, s *offsetPayouts, ref string) *fiatramp.PayoutReconciliation {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.base = srv.URL
	c, err := fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL(srv.URL),
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}))
	require.NoError(t, err)
	r, err := c.Payouts.Reconcile(context.Background(), fiatramp.PayoutAttempt{ClientReferenceID: ref, QuotationID: s.quotation})
	require.NoError(t, err)
	return r
}

// A payout on the attempt's quotation that shows no reference may be the
// attempt's own (an edition that leaves the member out): it proves
// nothing, and above all not that the attempt created nothing, which
// would invite a second payout.
func TestPayoutsReconcileReferenceNotShownProvesNothing(t *testing.T) {
	s := &offsetPayouts{quotation: uuid.New(), customer: uuid.New(), quotedAt: time.Now().Add(-time.Hour).UTC().Truncate(time.Second),
		refs: []string{"other-1", ""}}
	r := reconcileOffset(t, s, "po-target")
	require.Equal(t, fiatramp.ReconcileUnknown, r.Verdict, r.Reason)
	assert.Contains(t, r.Reason, "shows no reference")
}

// An empty page that still links to the next is not the end of the
// history: the search reads on and finds the payout.
func TestPayoutsReconcileEmptyPageWithLinkReadsOn(t *testing.T) {
	s := &offsetPayouts{quotation: uuid.New(), customer: uuid.New(), quotedAt: time.Now().Add(-time.Hour).UTC().Truncate(time.Second),
		refs: []string{"other-1", "po-target"}, emptyFirst: true}
	r := reconcileOffset(t, s, "po-target")
	require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
}
