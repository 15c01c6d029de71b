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

func newReconEnv(t *testing.T, opts ...fiatramp.Option) *reconEnv {
	t.Helper()
	sb := sandbox.New()
	sb.SetTime(time.Date(2026, 11, 27, 23, 58, 0, 0, time.UTC)) // the attempts straddle midnight
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	c, err := srv.Client(demo.Organization, append([]fiatramp.Option{
		fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond})}, opts...)...)
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

func TestNotCreatedError(t *testing.T) {
	last := errors.New("EOF")
	err := &fiatramp.NotCreatedError{ClientReferenceID: "r\n1", QuotationID: uuid.Nil, Reason: "the quotation EXPIRED unused", Attempts: 2, Err: last}
	assert.ErrorIs(t, err, fiatramp.ErrNotCreated)
	assert.NotErrorIs(t, err, last, "never unwraps to the last attempt's error")
	assert.Equal(t, `fiatramp: not created: client_reference_id "r 1": the quotation EXPIRED unused; safe to create again with the same reference (last attempt: EOF)`, err.Error())
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

// WithReconcile settles every kind of create: each returns what its own
// call returns, and an Observer sees it end as what it is.
func TestCreateWithReconcile(t *testing.T) {
	fault := func(e *reconEnv, kind sandbox.FaultKind) {
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: kind, Method: http.MethodPost, Count: 1}))
	}
	one := fiatramp.WithCallRetry(fiatramp.RetryPolicy{MaxAttempts: 1})
	t.Run("standard: created", func(t *testing.T) {
		rec := &recorder{}
		e := newReconEnv(t, fiatramp.WithObserver(rec))
		q := e.demo.Quotations[0]
		fault(e, sandbox.FaultDropAfter)
		p, err := e.create(q, "ref-auto", fiatramp.WithReconcile())
		require.NoError(t, err)
		assert.Equal(t, "ref-auto", *p.ClientReferenceID)
		assert.Equal(t, e.sb.Payouts(e.demo.Organization.ID)[0].ID, p.ID)

		// The reads are calls of their own, inside the create's; the
		// create ends as a success settled by reconciliation.
		require.Len(t, rec.results, 3)
		assert.Equal(t, "Payouts.GetQuotation", rec.results[0].Operation)
		assert.Equal(t, "Payouts.List", rec.results[1].Operation)
		create := rec.results[2]
		assert.Equal(t, "Payouts.Create", create.Operation)
		assert.Equal(t, fiatramp.OutcomeSuccess, create.Outcome)
		assert.True(t, create.Reconciled)
		assert.Empty(t, create.ErrorClass)
		require.Equal(t, []string{"start", "attempt 1", "end 1", "start", "attempt 1", "end 1", "done", "start", "attempt 1", "end 1", "done", "done"}, rec.events)
		assert.Equal(t, "Payouts.Create/", rec.ctxSeen[3], "the reads start inside the create's call")
	})
	t.Run("standard: not created", func(t *testing.T) {
		rec := &recorder{}
		e := newReconEnv(t, fiatramp.WithObserver(rec))
		q := e.demo.Quotations[0]
		fault(e, sandbox.FaultDropBefore)
		_, err := e.create(q, "ref-auto", fiatramp.WithReconcile())
		require.ErrorIs(t, err, fiatramp.ErrNotCreated)
		assert.NotErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
		var nc *fiatramp.NotCreatedError
		require.ErrorAs(t, err, &nc)
		assert.Equal(t, "ref-auto", nc.ClientReferenceID)
		assert.Equal(t, q.ID, nc.QuotationID)
		assert.Contains(t, err.Error(), "same reference")
		assert.Empty(t, e.sb.Payouts(e.demo.Organization.ID))
		create := rec.results[len(rec.results)-1]
		assert.Equal(t, fiatramp.OutcomeFailure, create.Outcome)
		assert.True(t, create.Reconciled)
		assert.Equal(t, fiatramp.ErrorClassConnection, create.ErrorClass, "the last attempt's")
	})
	t.Run("standard: unsettled", func(t *testing.T) {
		rec := &recorder{}
		e := newReconEnv(t, fiatramp.WithObserver(rec))
		q := e.demo.Quotations[0]
		fault(e, sandbox.FaultDropBefore)
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultUnavailable, Method: http.MethodGet}))
		_, err := e.create(q, "ref-auto", fiatramp.WithReconcile())
		var u *fiatramp.OutcomeUnknownError
		require.ErrorAs(t, err, &u)
		assert.Contains(t, u.Unsettled, "quotation")
		assert.Contains(t, err.Error(), "reconciliation left it unknown")
		create := rec.results[len(rec.results)-1]
		assert.Equal(t, fiatramp.OutcomeUnknown, create.Outcome)
		assert.False(t, create.Reconciled)
	})
	t.Run("not asked", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[0]
		fault(e, sandbox.FaultDropAfter)
		start := e.sb.Stats().Requests
		_, err := e.create(q, "ref-plain")
		require.ErrorIs(t, err, fiatramp.ErrOutcomeUnknown)
		assert.Equal(t, 1, e.sb.Stats().Requests-start, "no read without WithReconcile")
	})
	t.Run("prefunded: a *types.PrefundedPayout", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[1]
		fault(e, sandbox.FaultDropAfter)
		p, err := e.client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{
			QuotationID: q.ID, ClientReferenceID: "pre-auto",
			Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: e.demo.Customer.ID}, Receiver: types.CustomerRef{ID: q.CustomerID}},
		}, one, fiatramp.WithReconcile())
		require.NoError(t, err)
		stored := e.sb.Payouts(e.demo.Organization.ID)
		require.Len(t, stored, 1)
		assert.Equal(t, stored[0].ID, p.ID)
		assert.Equal(t, "pre-auto", *p.ClientReferenceID)
		assert.Equal(t, q.ID, p.QuotationID)
		assert.Equal(t, types.PayoutProcessing, p.Status)
		require.NotNil(t, p.Customer.Receiver.ID)
		assert.Equal(t, q.CustomerID, *p.Customer.Receiver.ID)
		require.NotNil(t, p.Customer.Sender.ID)
		assert.Equal(t, e.demo.Customer.ID, *p.Customer.Sender.ID)
		assert.NotEmpty(t, p.Raw)
	})
	t.Run("prefunded: not created", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[1]
		fault(e, sandbox.FaultDropBefore)
		_, err := e.client.Payouts.CreatePrefunded(context.Background(), types.CreatePrefundedPayoutRequest{
			QuotationID: q.ID, ClientReferenceID: "pre-auto",
			Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: e.demo.Customer.ID}, Receiver: types.CustomerRef{ID: q.CustomerID}},
		}, one, fiatramp.WithReconcile())
		require.ErrorIs(t, err, fiatramp.ErrNotCreated)
	})
	t.Run("remittance: a *types.RemittancePayout", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.demo.Quotations[2]
		fault(e, sandbox.FaultDropAfter)
		p, err := e.client.Payouts.CreateRemittance(context.Background(), types.CreateRemittancePayoutRequest{
			QuotationID: q.ID, CustomerID: q.CustomerID, RemitterID: e.demo.Remitter.ID, ClientReferenceID: "rem-auto",
		}, one, fiatramp.WithReconcile())
		require.NoError(t, err)
		stored := e.sb.Payouts(e.demo.Organization.ID)
		require.Len(t, stored, 1)
		assert.Equal(t, stored[0].ID, p.ID)
		assert.Equal(t, "rem-auto", *p.ClientReferenceID)
		assert.Equal(t, q.CustomerID, p.CustomerID)
		assert.Equal(t, e.demo.Remitter.ID, p.RemitterID)
	})
}
