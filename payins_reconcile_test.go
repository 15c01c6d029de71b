package fiatramp_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestPayinsReconcile(t *testing.T) {
	t.Run("created", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		u := e.initiateUnknown(t, sandbox.FaultDropAfter, q, "pin-1", "412345678901")
		r, err := e.client.Payins.ReconcileOutcome(context.Background(), u)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
		assert.Equal(t, "412345678901", r.Payin.UTR)
		assert.Equal(t, "pin-1", *r.Payin.ClientReferenceID)
		assert.Equal(t, 2, r.Requests, "the quotation and the newest page")
	})
	t.Run("likely created: the newest page first", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		require.NoError(t, e.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: http.MethodPost, Path: "/pis/api/v1/payin/initiate", Count: 1}))
		_, err := e.client.Payins.Initiate(context.Background(), types.InitiatePayinRequest{
			QuotationID: q.ID, CustomerID: q.CustomerID, UTR: "412345678907", ClientReferenceID: "pin-7",
		})
		var u *fiatramp.OutcomeUnknownError
		require.ErrorAs(t, err, &u)
		require.True(t, u.ProbablyCreated)
		r, err := e.client.Payins.ReconcileOutcome(context.Background(), err)
		require.NoError(t, err)
		require.Equal(t, fiatramp.ReconcileCreated, r.Verdict, r.Reason)
		assert.Equal(t, 1, r.Requests)
	})
	t.Run("found by the UTR alone", func(t *testing.T) {
		e := newReconEnv(t)
		q := e.payinQuote(t)
		e.initiateUnknown(t, sandbox.FaultDropAfter, q, "pin-2", "412345678902")
		r, err := e.client.Payins.Reconcile(context.Background(), fiatramp.PayinAttempt{UTR: "412345678902", QuotationID: q.ID})
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
		assert.Equal(t, 1, r.Requests)
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
		pu := e.unknown(t, sandbox.FaultDropAfter, e.demo.Quotations[0], "ref-payout")
		_, err = e.client.Payins.ReconcileOutcome(context.Background(), pu)
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest, "a payout create's outcome")
	})
}
