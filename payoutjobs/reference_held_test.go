package payoutjobs

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// A job whose reference a payout on another quotation already holds (a
// create on an earlier quotation that landed late, or a payout made outside
// the pipeline) must end: with that payout, or refused. The create is
// refused with ErrClientReferenceExists, the reconciliation reads the job's
// own quotation UNLINKED and says "not created", and the job must not go
// back to create on that proof alone: the refusal itself proves that a
// payout holding the reference exists.
func TestJobEndsWhenReferenceHeldOnAnotherQuotation(t *testing.T) {
	h := newHarness(t)
	c := h.client()
	in := h.instruction(7)
	ctx := context.Background()
	q, err := c.Payouts.CreateQuotation(ctx, in.quotationRequest())
	require.NoError(t, err)
	po, err := c.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: q.ID, CustomerID: in.CustomerID, ClientReferenceID: in.Reference,
		ExchangeOrderID: in.ExchangeOrderID,
	})
	require.NoError(t, err)

	p := h.pipeline(Config{Workers: 1})
	h.submit(p, in)
	deadline := time.Now().Add(8 * time.Second)
	var j *Job
	for time.Now().Before(deadline) {
		j, err = p.Get(ctx, in.Reference)
		require.NoError(t, err)
		if j.Phase == PhaseRefused || j.Phase == PhaseAwait || j.Phase == PhaseFinal || j.Phase == PhaseLink {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.Containsf(t, []Phase{PhaseRefused, PhaseAwait, PhaseFinal, PhaseLink}, j.Phase,
		"job still %s after %d creates and %d reconciles (the service holds payout %s under its reference); last error %q",
		j.Phase, j.Creates, j.Reconciles, po.ID, j.LastError)
}
