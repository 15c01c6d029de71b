package fiatramp_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
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

// reconEnv is a sandbox with the demo organization served on loopback, and
// a client of it that makes one attempt per create (so that one fault
// leaves the outcome unknown) and retries reads without waiting.
type reconEnv struct {
	sb     *sandbox.Sandbox
	demo   sandbox.Demo
	client *fiatramp.Client
}

func newReconEnv(t *testing.T) *reconEnv {
	t.Helper()
	sb := sandbox.New()
	sb.SetTime(time.Date(2026, 11, 27, 23, 58, 0, 0, time.UTC)) // the attempts straddle midnight
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	c, err := srv.Client(demo.Organization,
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}))
	require.NoError(t, err)
	return &reconEnv{sb: sb, demo: demo, client: c}
}

// create makes a payout create on the demo's quotation q with reference
// ref, in one attempt.
func (e *reconEnv) create(q sandbox.Quotation, ref string, opts ...fiatramp.RequestOption) (*types.Payout, error) {
	opts = append([]fiatramp.RequestOption{fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 1})}, opts...)
	return e.client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: q.ID, CustomerID: q.CustomerID, ClientReferenceID: ref,
	}, opts...)
}

// unknown makes a create that meets fault kind and returns its
// *OutcomeUnknownError.
func (e *reconEnv) unknown(t *testing.T, kind sandbox.FaultKind, q sandbox.Quotation, ref string) *fiatramp.OutcomeUnknownError {
	t.Helper()
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: kind, Method: http.MethodPost, Path: "/pos/api/v1/payout/initiate", Count: 1}))
	_, err := e.create(q, ref)
	var unknown *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &unknown)
	return unknown
}

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

func TestReconcileCreated(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropAfter, q, "ref-created")

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
	assert.Equal(t, 1, r.Requests, "one history page settles it")
	assert.NoError(t, r.Err)
}

func TestReconcileNotCreatedUnlinked(t *testing.T) {
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
	assert.Equal(t, 2, r.Requests, "a history page and the quotation")
	assert.Empty(t, e.sb.Payouts(e.demo.Organization.ID))

	// Safe to create again with the same reference: exactly one payout.
	p, err := e.create(q, "ref-unlinked")
	require.NoError(t, err)
	assert.Equal(t, "ref-unlinked", *p.ClientReferenceID)
	assert.Len(t, e.sb.Payouts(e.demo.Organization.ID), 1)
}

func TestReconcileNotCreatedExpired(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropBefore, q, "ref-expired")
	e.sb.Advance(time.Hour)

	r, err := e.client.Payouts.ReconcileOutcome(context.Background(), u)
	require.NoError(t, err)
	require.Equal(t, fiatramp.ReconcileNotCreated, r.Verdict, r.Reason)
	assert.Equal(t, types.QuotationExpired, r.Quotation.Status)
	assert.Contains(t, r.Reason, "EXPIRED")
}

func TestReconcileQuotationLinkedToAnotherReference(t *testing.T) {
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
}

func TestReconcileWithoutQuotationProvesNothing(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropBefore, q, "ref-noquote")

	r, err := e.client.Payouts.Reconcile(context.Background(), fiatramp.PayoutAttempt{
		ClientReferenceID: u.ClientReferenceID, CustomerID: u.CustomerID,
	})
	require.NoError(t, err)
	assert.Equal(t, fiatramp.ReconcileUnknown, r.Verdict)
	assert.Contains(t, r.Reason, "without the quotation id")
	assert.Equal(t, 1, r.Requests)

	// Found without one, once it exists.
	_, err = e.create(q, "ref-noquote")
	require.NoError(t, err)
	r, err = e.client.Payouts.Reconcile(context.Background(), fiatramp.PayoutAttempt{
		ClientReferenceID: u.ClientReferenceID, CustomerID: u.CustomerID,
	})
	require.NoError(t, err)
	assert.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
}

func TestReconcileReadsFailing(t *testing.T) {
	e := newReconEnv(t)
	q := e.demo.Quotations[0]
	u := e.unknown(t, sandbox.FaultDropBefore, q, "ref-unreadable")
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultUnavailable, Method: http.MethodGet, Path: "/pos/api/v1/payout/history"}))

	r, err := e.client.Payouts.ReconcileOutcome(context.Background(), u)
	require.NoError(t, err)
	assert.Equal(t, fiatramp.ReconcileUnknown, r.Verdict)
	assert.ErrorIs(t, r.Err, fiatramp.ErrUnavailable)
	assert.Contains(t, r.Reason, "history")
	assert.Equal(t, 3*fiatramp.DefaultMaxAttempts, r.Requests, "three rounds of a read retried to the policy's end")

	// The quotation's refusal is final: one round.
	e.sb.ClearFaults()
	r, err = e.client.Payouts.Reconcile(context.Background(), fiatramp.PayoutAttempt{
		ClientReferenceID: "ref-unreadable", CustomerID: q.CustomerID, QuotationID: uuid.New(),
	})
	require.NoError(t, err)
	assert.Equal(t, fiatramp.ReconcileUnknown, r.Verdict)
	assert.ErrorIs(t, r.Err, fiatramp.ErrQuotationNotFound)
	assert.Equal(t, 2, r.Requests)
}

func TestReconcileRefusesBadInput(t *testing.T) {
	e := newReconEnv(t)
	ctx := context.Background()
	now := time.Now()
	for name, a := range map[string]fiatramp.PayoutAttempt{
		"client_reference_id": {CustomerID: uuid.New()},
		"customer_id":         {ClientReferenceID: "r"},
		"to":                  {ClientReferenceID: "r", CustomerID: uuid.New(), From: now},
		"from":                {ClientReferenceID: "r", CustomerID: uuid.New(), To: now},
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
	_, err = e.client.Payouts.ReconcileOutcome(ctx, &fiatramp.OutcomeUnknownError{Method: "POST", Path: "/x"})
	assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest, "a Do call has no reference")
}

func TestCreateWithReconcile(t *testing.T) {
	t.Run("created", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[0]
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: http.MethodPost, Count: 1}))
		p, err := e.create(q, "ref-auto", fiatramp.WithReconcile())
		require.NoError(t, err)
		assert.Equal(t, "ref-auto", *p.ClientReferenceID)
		assert.Equal(t, e.sb.Payouts(e.demo.Organization.ID)[0].ID, p.ID)
	})
	t.Run("not created", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[0]
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropBefore, Method: http.MethodPost, Count: 1}))
		_, err := e.create(q, "ref-auto", fiatramp.WithReconcile())
		require.ErrorIs(t, err, fiatramp.ErrNotCreated)
		assert.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
		var nc *fiatramp.NotCreatedError
		require.ErrorAs(t, err, &nc)
		assert.Equal(t, "ref-auto", nc.ClientReferenceID)
		assert.Equal(t, q.ID, nc.QuotationID)
		assert.Contains(t, err.Error(), "same reference")
		assert.Empty(t, e.sb.Payouts(e.demo.Organization.ID))
	})
	t.Run("unsettled", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[0]
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropBefore, Method: http.MethodPost, Count: 1}))
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultUnavailable, Method: http.MethodGet}))
		_, err := e.create(q, "ref-auto", fiatramp.WithReconcile())
		var u *fiatramp.OutcomeUnknownError
		require.ErrorAs(t, err, &u)
		assert.Contains(t, u.Unsettled, "history")
		assert.Contains(t, err.Error(), "reconciliation left it unknown")
	})
	t.Run("not asked", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[0]
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: http.MethodPost, Count: 1}))
		start := e.sb.Stats().Requests
		_, err := e.create(q, "ref-plain")
		require.ErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
		assert.Equal(t, 1, e.sb.Stats().Requests-start, "no read without WithReconcile")
	})
}

func TestNotCreatedError(t *testing.T) {
	last := errors.New("EOF")
	err := &fiatramp.NotCreatedError{ClientReferenceID: "r\n1", QuotationID: uuid.Nil, Reason: "the quotation EXPIRED unused", Attempts: 2, Err: last}
	assert.ErrorIs(t, err, fiatramp.ErrNotCreated)
	assert.NotErrorIs(t, err, last, "never unwraps to the last attempt's error")
	assert.Equal(t, `fiatramp: not created: client_reference_id "r 1": the quotation EXPIRED unused; safe to create again with the same reference (last attempt: EOF)`, err.Error())
}

// A create whose answer was lost is settled with reads only: the
// customer's payout history over the attempts' days, and the quotation.
func ExamplePayoutsService_Reconcile() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization,
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: 10 * time.Millisecond}))
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
		fmt.Println("created:", *r.Payout.ClientReferenceID, r.Payout.Status)
	case fiatramp.ReconcileNotCreated:
		fmt.Println("not created: create again with the same reference")
	default:
		fmt.Println("still unknown:", r.Reason)
	}

	// An unused quotation proves that nothing holds another reference.
	r, _ = client.Payouts.Reconcile(ctx, fiatramp.PayoutAttempt{
		ClientReferenceID: "order-1003", CustomerID: demo.Customer.ID, QuotationID: demo.Quotations[1].ID,
	})
	fmt.Println(r.Verdict, r.Quotation.Status)
	// Output:
	// created: order-1002 PROCESSING
	// not_created UNLINKED
}

// WithReconcile settles an unknown outcome before the create returns.
func ExampleWithReconcile() {
	sb := sandbox.New()
	demo, _ := sb.SeedDemo()
	srv, _ := sandbox.NewServer(sb)
	defer srv.Close()
	client, _ := srv.Client(demo.Organization,
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: 10 * time.Millisecond}))
	_ = sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pos/api/v1/payout/initiate", Count: 1})

	p, err := client.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID, ClientReferenceID: "order-1004",
	}, fiatramp.WithReconcile())
	switch {
	case err == nil:
		fmt.Println("paid once:", *p.ClientReferenceID, p.Status)
	case errors.Is(err, fiatramp.ErrNotCreated):
		fmt.Println("not created: create again with the same reference")
	case errors.Is(err, fiatramp.ErrOutcomeUnknown):
		fmt.Println("still unknown: reconcile later")
	default:
		fmt.Println("refused:", err)
	}
	// Output:
	// paid once: order-1004 PROCESSING
}

// payinQuote creates a payin quotation of the demo customer, paid by UPI.
func (e *reconEnv) payinQuote(t *testing.T) *types.PayinQuotation {
	t.Helper()
	q, err := e.client.Payins.CreateQuotation(context.Background(), types.CreatePayinQuotationRequest{
		Asset: "USDT", Fiat: "INR", SendingAmount: decimal.RequireFromString("2600.50"),
		CustomerID: e.demo.Customer.ID, BankID: e.demo.VPA.ID, PaymentMethod: types.PaymentMethodUPI,
	})
	require.NoError(t, err)
	return q
}

// initiate makes a payin initiate of q in one attempt.
func (e *reconEnv) initiate(q *types.PayinQuotation, ref, utr string, opts ...fiatramp.RequestOption) (*types.Payin, error) {
	opts = append([]fiatramp.RequestOption{fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 1})}, opts...)
	return e.client.Payins.Initiate(context.Background(), types.InitiatePayinRequest{
		QuotationID: q.ID, CustomerID: q.CustomerID, UTR: utr, ClientReferenceID: ref,
	}, opts...)
}

// initiateUnknown makes an initiate that meets fault kind and returns its
// *OutcomeUnknownError.
func (e *reconEnv) initiateUnknown(t *testing.T, kind sandbox.FaultKind, q *types.PayinQuotation, ref, utr string) *fiatramp.OutcomeUnknownError {
	t.Helper()
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: kind, Method: http.MethodPost, Path: "/pis/api/v1/payin/initiate", Count: 1}))
	_, err := e.initiate(q, ref, utr)
	var unknown *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, utr, unknown.UTR)
	assert.Equal(t, q.CustomerID, unknown.CustomerID)
	return unknown
}

func TestReconcilePayin(t *testing.T) {
	t.Run("created", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		u := e.initiateUnknown(t, sandbox.FaultDropAfter, q, "pin-1", "412345678901")
		r, err := e.client.Payins.ReconcileOutcome(context.Background(), u)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
		assert.Equal(t, "412345678901", r.Payin.UTR)
		assert.Equal(t, "pin-1", *r.Payin.ClientReferenceID)
		assert.Equal(t, 1, r.Requests)
	})
	t.Run("found by the UTR alone", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		e.initiateUnknown(t, sandbox.FaultDropAfter, q, "pin-2", "412345678902")
		r, err := e.client.Payins.Reconcile(context.Background(), fiatramp.PayinAttempt{UTR: "412345678902", CustomerID: q.CustomerID})
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
	})
	t.Run("unknown while the quotation is valid, not created once it expired", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		u := e.initiateUnknown(t, sandbox.FaultDropBefore, q, "pin-3", "412345678903")
		r, err := e.client.Payins.ReconcileOutcome(context.Background(), u)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileUnknown, r.Verdict, r.Reason)
		assert.Contains(t, r.Reason, "still valid")
		assert.Equal(t, 2, r.Requests)

		e.sb.Advance(time.Hour)
		r, err = e.client.Payins.ReconcileOutcome(context.Background(), u)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileNotCreated, r.Verdict, r.Reason)
		assert.Contains(t, r.Reason, "EXPIRED unused", "the fetched quotation says EXPIRED")
	})
	t.Run("the UTR held under another reference", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		u := e.initiateUnknown(t, sandbox.FaultDropBefore, q, "pin-4", "412345678904")
		other, err := e.initiate(q, "pin-other", "412345678904")
		require.NoError(t, err)
		r, err := e.client.Payins.ReconcileOutcome(context.Background(), u)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileNotCreated, r.Verdict, r.Reason)
		assert.Contains(t, r.Reason, other.ID.String())
	})
	t.Run("bad input", func(t *testing.T) {
		e := newReconEnv(t)
		_, err := e.client.Payins.Reconcile(context.Background(), fiatramp.PayinAttempt{CustomerID: uuid.New()})
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		_, err = e.client.Payins.Reconcile(context.Background(), fiatramp.PayinAttempt{UTR: "412345678901"})
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		_, err = e.client.Payins.ReconcileOutcome(context.Background(), nil)
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
	})
}

func TestInitiateWithReconcile(t *testing.T) {
	e := newReconEnv(t)
	q := e.payinQuote(t)
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: http.MethodPost, Path: "/pis/api/v1/payin/initiate", Count: 1}))
	p, err := e.initiate(q, "pin-auto", "412345678905", fiatramp.WithReconcile())
	require.NoError(t, err)
	assert.Equal(t, "412345678905", p.UTR)

	q2 := e.payinQuote(t)
	require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropBefore, Method: http.MethodPost, Path: "/pis/api/v1/payin/initiate", Count: 1}))
	_, err = e.initiate(q2, "pin-auto-2", "412345678906", fiatramp.WithReconcile())
	var u *fiatramp.OutcomeUnknownError
	require.ErrorAs(t, err, &u)
	assert.Contains(t, u.Unsettled, "still valid")
}
