package payoutjobs

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// waitPhase waits until the job of ref is in one of phases.
func (h *harness) waitPhase(p *Pipeline, ref string, d time.Duration, phases ...Phase) *Job {
	h.t.Helper()
	deadline := time.Now().Add(d)
	for {
		j, err := p.Get(context.Background(), ref)
		require.NoError(h.t, err)
		for _, ph := range phases {
			if j.Phase == ph {
				return j
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("job %s in phase %s after %s, want %v (last error %q)", ref, j.Phase, d, phases, j.LastError)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A job goes quote, create, link, await; its final status comes by
// webhook, recorded with the user's effect once.
func TestJobLifeFinishedByWebhook(t *testing.T) {
	h := newHarness(t)
	p := h.pipeline(Config{Workers: 2, PollInterval: time.Hour})
	h.receiver(p)
	in := h.instruction(1)
	in.ExchangeTransferID = "TR-1"
	h.submit(p, in)
	j := h.waitPhase(p, in.Reference, 10*time.Second, PhaseAwait)
	assert.Equal(t, 1, j.Quotations)
	assert.Equal(t, 1, j.Creates)
	assert.NotEqual(t, uuid.Nil, j.PayoutID)
	assert.Equal(t, types.PayoutProcessing, j.Status)
	po, ok := h.sb.Payout(j.PayoutID)
	require.True(t, ok)
	assert.Equal(t, "TR-1", po.ExchangeTransferID, "transfer id linked")
	assert.Equal(t, in.Reference, *po.ClientReferenceID)
	assert.Equal(t, j.QuotationID, po.QuotationID)

	_, err := h.client().Payouts.SimulateStatus(context.Background(), j.PayoutID, types.PayoutSuccess)
	require.NoError(t, err)
	j = h.waitPhase(p, in.Reference, 10*time.Second, PhaseFinal)
	assert.Equal(t, types.PayoutSuccess, j.Status)
	assert.Equal(t, "webhook", j.FinalBy)
	assert.Equal(t, map[string][]string{in.Reference: {"SUCCESS"}}, h.effects())

	// A repeated delivery changes nothing.
	require.NoError(t, h.sb.WaitDeliveries(context.Background()))
	assert.Equal(t, map[string][]string{in.Reference: {"SUCCESS"}}, h.effects())
}

// Without a webhook the job is finished by polling.
func TestJobFinishedByPollingWithoutWebhook(t *testing.T) {
	h := newHarness(t)
	p := h.pipeline(Config{Workers: 1, PollInterval: 200 * time.Millisecond})
	in := h.instruction(2)
	h.submit(p, in)
	j := h.waitPhase(p, in.Reference, 10*time.Second, PhaseAwait)
	_, err := h.client().Payouts.SimulateStatus(context.Background(), j.PayoutID, types.PayoutFailed)
	require.NoError(t, err)
	// FAILED is decided (never paid) but not final: recorded, with its
	// effect, and the job waits for the funds to come back.
	deadline := time.Now().Add(10 * time.Second)
	for len(h.effects()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	assert.Equal(t, map[string][]string{in.Reference: {"FAILED"}}, h.effects())
	c, err := p.Counts(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, c.Failed)
	assert.Equal(t, 1, c.Total())
	require.NoError(t, h.sb.SetPayoutStatus(j.PayoutID, types.PayoutRefunded))
	j = h.waitPhase(p, in.Reference, 10*time.Second, PhaseFinal)
	assert.Equal(t, types.PayoutRefunded, j.Status)
	assert.Equal(t, "poll", j.FinalBy)
	assert.Equal(t, map[string][]string{in.Reference: {"FAILED", "REFUNDED"}}, h.effects())
	c, err = p.Counts(context.Background())
	require.NoError(t, err)
	assert.Equal(t, map[types.PayoutStatus]int{types.PayoutRefunded: 1}, c.Final)
	assert.Equal(t, 1, c.Total())
	// The River job is completed in the transaction that ended the job.
	var state string
	require.NoError(t, h.pool.QueryRow(context.Background(), `SELECT state FROM river_job WHERE id = $1`, j.RiverJobID).Scan(&state))
	assert.Equal(t, "completed", state)
}

// A create whose answer is lost after it took effect is reconciled: the
// payout the lost attempt made is adopted, never a second quotation.
func TestUnknownOutcomeReconciledNotRequoted(t *testing.T) {
	h := newHarness(t)
	// Every create attempt is dropped after it ran: the first creates the
	// payout, the retries are refused (reference exists) behind a drop too.
	require.NoError(t, h.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: "POST", Path: "/pos/api/v1/payout/initiate", Count: 3}))
	p := h.pipeline(Config{Workers: 1, PollInterval: time.Hour})
	in := h.instruction(3)
	h.submit(p, in)
	j := h.waitPhase(p, in.Reference, 10*time.Second, PhaseAwait)
	assert.Equal(t, 1, j.Quotations, "no second quotation after an unknown outcome")
	assert.Equal(t, 1, j.Creates)
	assert.GreaterOrEqual(t, j.Reconciles, 1)
	po, ok := h.sb.PayoutByReference(h.org.ID, in.Reference)
	require.True(t, ok)
	assert.Equal(t, po.ID, j.PayoutID)
	assert.Len(t, h.sb.Payouts(h.org.ID), 1)
}

// A create that never reached the service (dropped before it ran) is
// proved not created by reconciliation and sent again on the same
// quotation, under the same reference.
func TestNotCreatedProvedThenCreatedAgain(t *testing.T) {
	h := newHarness(t)
	require.NoError(t, h.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultUnavailable, Method: "POST", Path: "/pos/api/v1/payout/initiate", Count: 3}))
	p := h.pipeline(Config{Workers: 1, PollInterval: time.Hour})
	in := h.instruction(4)
	h.submit(p, in)
	j := h.waitPhase(p, in.Reference, 10*time.Second, PhaseAwait)
	assert.Equal(t, 1, j.Quotations)
	assert.Equal(t, 2, j.Creates)
	assert.Len(t, h.sb.Payouts(h.org.ID), 1)
}

// A quotation that expired before the create is replaced: no create on it
// may have reached the service.
func TestExpiredQuotationReplacedBeforeAnyCreate(t *testing.T) {
	h := newHarness(t)
	// The create is refused "expired" once: this create did not act.
	p := h.pipeline(Config{Workers: 1, PollInterval: time.Hour})
	in := h.instruction(5)
	ctx := context.Background()
	j := h.submit(p, in)
	// Put the job at PhaseCreate on a quotation already past its expiry.
	q, err := h.client().Payouts.CreateQuotation(ctx, in.quotationRequest())
	require.NoError(t, err)
	_, err = h.pool.Exec(ctx, `UPDATE `+p.table()+` SET phase = 'create', quotation_id = $2, quotation_expires_at = now() - interval '1 minute', quotations = 1 WHERE reference = $1`, j.Reference, q.ID)
	require.NoError(t, err)
	_ = p.Stop(ctx)
	p2 := h.pipeline(Config{Workers: 1, PollInterval: time.Hour})
	j = h.waitPhase(p2, in.Reference, 10*time.Second, PhaseAwait)
	assert.Equal(t, 2, j.Quotations)
	assert.NotEqual(t, q.ID, j.QuotationID)
	assert.Equal(t, 1, j.Creates)
}

// A refusal ends the job with its sentinel's name, with the user's
// effect, and no payout.
func TestRefusalEndsTheJobWithItsSentinelName(t *testing.T) {
	h := newHarness(t)
	p := h.pipeline(Config{Workers: 1})
	in := h.instruction(6)
	in.Kind = Prefunded
	in.ExchangeOrderID = ""
	in.SenderID = h.cust.ID
	in.Amount = decimal.NewFromInt(4000)
	require.NoError(t, h.sb.SetBalance(h.org.ID, "USDT", decimal.NewFromInt(5)))
	h.submit(p, in)
	j := h.waitPhase(p, in.Reference, 10*time.Second, PhaseRefused)
	assert.Equal(t, "ErrInsufficientBalance", j.Refusal)
	assert.Equal(t, "refusal", j.FinalBy)
	assert.Equal(t, map[string][]string{in.Reference: {"refused:ErrInsufficientBalance"}}, h.effects())
	assert.Empty(t, h.sb.Payouts(h.org.ID))
	c, err := p.Counts(context.Background())
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"ErrInsufficientBalance": 1}, c.Refused)
}

// A job whose reference a payout on another quotation already holds (a
// create on an earlier quotation that landed late, or a payout made outside
// the pipeline) must end with that payout. The create is
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
	j := h.waitPhase(p, in.Reference, 8*time.Second, PhaseAwait, PhaseFinal, PhaseLink)
	assert.Equal(t, po.ID, j.PayoutID, "the job records the payout that holds its reference")
	assert.LessOrEqual(t, j.Creates, 1, "no create after the refusal proved the reference held")
}
