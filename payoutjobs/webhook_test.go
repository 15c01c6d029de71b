package payoutjobs

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// A final webhook may arrive while the run that sent the create is still
// waiting on it (its answer lost): the webhook ends the job, and the run,
// finding the job moved, must not go on from what it knew (it did, once:
// it reconciled the ended job back to PhaseAwait and polled it to a
// second end, applying the user's effect twice).
func TestWebhookWhileCreateUnknownEndsTheJobOnce(t *testing.T) {
	h := newHarness(t)
	require.NoError(t, h.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Method: "POST", Path: "/pos/api/v1/payout/initiate", Count: 3}))
	in := h.instruction(11)
	var once sync.Once
	var p *Pipeline
	cfg := Config{Workers: 1, PollInterval: 200 * time.Millisecond}
	cfg.crash = func(point string) {
		if point != "create.answered" {
			return
		}
		once.Do(func() {
			// The payout exists (the create acted, its answer was lost);
			// the bank settles it and its webhook arrives now.
			po, ok := h.sb.PayoutByReference(h.org.ID, in.Reference)
			require.True(t, ok)
			_, err := h.client().Payouts.SimulateStatus(context.Background(), po.ID, types.PayoutSuccess)
			require.NoError(t, err)
			ev := &webhook.Event{Type: webhook.TypePayout, ID: po.ID.String(), Event: webhook.EventName(types.PayoutSuccess),
				Metadata: webhook.Metadata{ClientReferenceID: &in.Reference}}
			out, err := p.inbox.Run(context.Background(), ev.DedupeKey(), func(ctx context.Context, tx pgx.Tx) error {
				return p.HandleEvent(ctx, tx, ev, nil)
			})
			require.NoError(t, err)
			require.Equal(t, "handled", out.String())
		})
	}
	p = h.pipeline(cfg)
	h.submit(p, in)
	j := h.waitPhase(p, in.Reference, 10*time.Second, PhaseFinal)
	assert.Equal(t, "webhook", j.FinalBy)
	time.Sleep(600 * time.Millisecond) // past a poll, were the run to go on
	assert.Equal(t, map[string][]string{in.Reference: {"SUCCESS"}}, h.effects())
	j, err := p.Get(context.Background(), in.Reference)
	require.NoError(t, err)
	assert.Equal(t, PhaseFinal, j.Phase)
}

// Events that are not a job's go to the other function, in the same
// transaction; a non-final status of a job's payout changes nothing.
func TestHandleEventPassesOtherEvents(t *testing.T) {
	h := newHarness(t)
	p := h.pipeline(Config{})
	ctx := context.Background()
	var passed []string
	other := func(_ context.Context, _ pgx.Tx, ev *webhook.Event) error {
		passed = append(passed, string(ev.Type)+"/"+string(ev.Event))
		return nil
	}
	j := h.submit(p, h.instruction(12))
	for _, ev := range []*webhook.Event{
		{Type: webhook.TypeCustomer, ID: h.cust.ID.String(), Event: "VERIFIED"},
		{Type: webhook.TypePayout, ID: "6f1c8a52-0000-4000-8000-000000000001", Event: "SUCCESS"},
		{Type: webhook.TypePayout, ID: "6f1c8a52-0000-4000-8000-000000000002", Event: "IN_REVIEW",
			Metadata: webhook.Metadata{ClientReferenceID: &j.Reference}},
	} {
		tx, err := h.pool.Begin(ctx)
		require.NoError(t, err)
		require.NoError(t, p.HandleEvent(ctx, tx, ev, other))
		require.NoError(t, tx.Commit(ctx))
	}
	assert.Equal(t, []string{"CUSTOMER/VERIFIED", "PAYOUT/SUCCESS"}, passed)
	got, err := p.Get(ctx, j.Reference)
	require.NoError(t, err)
	assert.Equal(t, PhaseQuote, got.Phase)
	assert.Empty(t, h.effects())
}

// A payout event for a job that ended refused (a lost create that landed
// after the reconciliation proved none had) is recorded on the job, and
// the refusal's effect is not run again.
func TestPayoutAfterRefusalRecordedOnTheJob(t *testing.T) {
	h := newHarness(t)
	p := h.pipeline(Config{})
	ctx := context.Background()
	j := h.submit(p, h.instruction(13))
	_, err := h.pool.Exec(ctx, `UPDATE `+p.table()+` SET phase = 'refused', refusal = 'ErrQuotationExpired' WHERE reference = $1`, j.Reference)
	require.NoError(t, err)
	payout := uuid.New()
	tx, err := h.pool.Begin(ctx)
	require.NoError(t, err)
	require.NoError(t, p.HandleEvent(ctx, tx, &webhook.Event{Type: webhook.TypePayout, ID: payout.String(), Event: "SUCCESS",
		Metadata: webhook.Metadata{ClientReferenceID: &j.Reference}}, nil))
	require.NoError(t, tx.Commit(ctx))
	got, err := p.Get(ctx, j.Reference)
	require.NoError(t, err)
	assert.Equal(t, PhaseRefused, got.Phase)
	assert.Equal(t, payout, got.PayoutID)
	assert.Equal(t, types.PayoutSuccess, got.Status)
	assert.Contains(t, got.LastError, "holds the reference of this refused job")
	assert.Empty(t, h.effects())
}
