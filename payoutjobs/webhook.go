package payoutjobs

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/fiatramp/fiatramp-go/pginbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// WebhookHandler returns the http.Handler to register as the
// organization's webhook URL: pginbox.Handler on the pipeline's inbox
// with HandleEvent, so that each event's "done" record, the job's final
// status and the user's OnFinal commit in one transaction, and a
// delivery is answered 200 only after that commit. other, when not nil,
// runs (in the same transaction) for the events that are not a payout
// job's. opts are webhook.Handler's options.
func (p *Pipeline) WebhookHandler(apiKey, apiSecret string, other pginbox.TxFunc, opts ...webhook.Option) http.Handler {
	return pginbox.Handler(apiKey, apiSecret, p.inbox, func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		return p.HandleEvent(ctx, tx, ev, other)
	}, opts...)
}

// HandleEvent applies a verified webhook event inside tx, for receivers
// that run their own pginbox.Handler: a PAYOUT event whose payout or
// client_reference_id is a job's and whose status is final ends that job
// (PhaseFinal, OnFinal in tx), once; a repeat, a non-final status or the
// event of a job already ended changes nothing, except that a payout
// event for a job that ended refused is recorded on it (PayoutID, Status,
// LastError): a lost create that landed after its reconciliation proved
// none had, which the books must hear of. An event that is no job's goes
// to other (nil: ignored).
//
// An event may come before the create's answer was recorded: the job is
// found by the reference in the event's metadata, and the run still
// waiting on the create reads the job again and finds it ended.
func (p *Pipeline) HandleEvent(ctx context.Context, tx pgx.Tx, ev *webhook.Event, other pginbox.TxFunc) error {
	pass := func() error {
		if other == nil {
			return nil
		}
		return other(ctx, tx, ev)
	}
	if ev.Type != webhook.TypePayout {
		return pass()
	}
	payoutID, _ := uuid.Parse(ev.ID)
	ref := eventReference(ev)
	if payoutID == uuid.Nil && ref == "" {
		return pass()
	}
	cur, err := scanJob(tx.QueryRow(ctx, p.sql.selectByPayout, payoutID, ref))
	if errors.Is(err, pgx.ErrNoRows) {
		return pass()
	}
	if err != nil {
		return fmt.Errorf("payoutjobs: webhook: %w", err)
	}
	if cur.PayoutID != uuid.Nil && payoutID != uuid.Nil && cur.PayoutID != payoutID {
		// The reference is the job's but the payout is not: not this job's
		// payout (the job knows its own).
		return pass()
	}
	if cur.Phase == PhaseRefused && payoutID != uuid.Nil {
		// A payout holds the reference of a job that ended refused: a
		// create whose answer was lost landed after its reconciliation
		// proved none had. The refusal's effect has run and is not undone
		// here; the job records the payout, for Get and for whoever
		// reconciles the books.
		_, err := tx.Exec(ctx, `UPDATE `+p.table()+` SET payout_id = COALESCE(payout_id, $2), status = $3, last_error = $4
WHERE reference = $1`, cur.Reference, payoutID, string(ev.Event),
			"payout "+payoutID.String()+" holds the reference of this refused job")
		return err
	}
	status := types.PayoutStatus(ev.Event)
	if status.MayStillPay() { // fiat outcome not decided yet (FAILED is decided, though REFUNDED may follow)
		return nil
	}
	_, err = p.finish(ctx, tx, cur, payoutID, status, "webhook")
	return err
}

// eventReference is the client_reference_id an event's metadata carries,
// or "".
func eventReference(ev *webhook.Event) string {
	if ev.Metadata.ClientReferenceID == nil {
		return ""
	}
	return *ev.Metadata.ClientReferenceID
}
