package payoutjobs

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// worker is the River worker of payout jobs: it reads the job's recovery
// point and runs the steps from there.
type worker struct {
	river.WorkerDefaults[Args]
	p *Pipeline
}

// maxSteps bounds the steps of one run; a run that takes more (a job
// moved by others under it again and again) is snoozed and run again.
const maxSteps = 16

// expiryMargin is how long before its expiry a quotation is no longer
// used for a create: the create must reach the service before it expires.
const expiryMargin = 10 * time.Second

// Work runs the job from its recorded phase until it waits (a snooze) or
// ends. Every step writes its result before the next step calls out, with
// compare-and-set on the job's version: a step that lost the race to
// another run (a rescued job, a webhook) reads the job again and goes on
// from what the other recorded.
func (w *worker) Work(ctx context.Context, rj *river.Job[Args]) error {
	p := w.p
	for range maxSteps {
		j, err := p.Get(ctx, rj.Args.Reference)
		if errors.Is(err, ErrNotFound) {
			return river.JobCancel(err)
		}
		if err != nil {
			return err
		}
		switch j.Phase {
		case PhaseQuote:
			err = p.quote(ctx, j, rj)
		case PhaseCreate:
			err = p.create(ctx, j, rj)
		case PhaseSent:
			err = p.settle(ctx, j, rj, false)
		case PhaseLink:
			err = p.link(ctx, j)
		case PhaseAwait:
			return p.await(ctx, j, rj)
		case PhaseFinal, PhaseRefused:
			return nil
		default:
			return river.JobCancel(fmt.Errorf("payoutjobs: job %q: unknown phase %q", j.Reference, j.Phase))
		}
		if err != nil {
			var snooze *river.JobSnoozeError
			if !errors.As(err, &snooze) {
				p.noteError(ctx, j, err)
			}
			return err
		}
	}
	return river.JobSnooze(0)
}

// NextRetry is when a run that failed (the service or the database
// unreachable, a run cut short) runs again: ReconcileInterval after the
// first failure, doubling up to PollInterval, with up to a tenth added at
// random so that replicas do not retry in step. River's own policy grows
// to hours, which would leave a job idle long after an outage ended.
func (w *worker) NextRetry(rj *river.Job[Args]) time.Time {
	d := w.p.backoff(rj.Attempt - 1)
	return time.Now().Add(d + rand.N(d/10+1))
}

// crashPoint calls the test hook at a recovery point.
func (p *Pipeline) crashPoint(point string) {
	if p.cfg.crash != nil {
		p.cfg.crash(point)
	}
}

// move sets the job's columns (set, with $3... for args) and bumps its
// version, if the job is still at j.Version and has not ended; moved is
// false when another run (or a webhook) moved it first, and the caller
// must then read the job again rather than go on from what it knew.
func (p *Pipeline) move(ctx context.Context, q interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
}, j *Job, set string, args ...any) (moved bool, err error) {
	tag, err := q.Exec(ctx, `UPDATE `+p.table()+` SET `+set+`, version = version + 1, updated_at = now()
WHERE reference = $1 AND version = $2 AND phase NOT IN ('final', 'refused')`, append([]any{j.Reference, j.Version}, args...)...)
	if err != nil {
		return false, fmt.Errorf("payoutjobs: job %q: recording: %w", j.Reference, err)
	}
	return tag.RowsAffected() == 1, nil
}

// noteError records a step's failure on the job, for Get and dashboards.
func (p *Pipeline) noteError(ctx context.Context, j *Job, err error) {
	msg := err.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	_, _ = p.pool.Exec(context.WithoutCancel(ctx), `UPDATE `+p.table()+` SET last_error = $2 WHERE reference = $1`, j.Reference, msg)
}

// quote makes a quotation and records it: PhaseQuote -> PhaseCreate. A
// crash before the record leaves an unused quotation, which expires.
func (p *Pipeline) quote(ctx context.Context, j *Job, rj *river.Job[Args]) error {
	p.crashPoint("quote.call")
	q, err := p.cfg.Client.Payouts.CreateQuotation(ctx, j.Instruction.quotationRequest())
	if err != nil {
		if isRefusal(err) {
			return p.refuse(ctx, j, rj, err)
		}
		return fmt.Errorf("payoutjobs: job %q: quotation: %w", j.Reference, err)
	}
	p.crashPoint("quote.answered")
	expires := q.ExpiryTime
	if expires.IsZero() {
		expires = time.Now().Add(time.Minute)
	}
	moved, err := p.move(ctx, p.pool, j, `phase = 'create', quotation_id = $3, quotation_expires_at = $4,
quotations = quotations + 1, sent_at = NULL, last_error = NULL`, q.ID, expires)
	if err != nil || !moved {
		return err
	}
	// Recorded: go on to the create without reading back what was written.
	j.Version++
	j.Phase, j.QuotationID, j.QuotationExpiresAt, j.SentAt = PhaseCreate, q.ID, expires, time.Time{}
	j.Quotations++
	return p.create(ctx, j, rj)
}

// create records PhaseSent, then creates the payout under the job's
// reference on the recorded quotation. Only this step sends a create, and
// only from PhaseCreate: once PhaseSent is written, every later run
// reconciles before anything else.
func (p *Pipeline) create(ctx context.Context, j *Job, rj *river.Job[Args]) error {
	if time.Now().Add(expiryMargin).After(j.QuotationExpiresAt) {
		// No create on this quotation may have reached the service since
		// the last proof: a new quotation is safe.
		_, err := p.move(ctx, p.pool, j, `phase = 'quote'`)
		return err
	}
	moved, err := p.move(ctx, p.pool, j, `phase = 'sent', sent_at = COALESCE(sent_at, now()), creates = creates + 1`)
	if err != nil || !moved {
		return err
	}
	j.Version++
	j.Phase = PhaseSent
	p.crashPoint("create.call")
	payoutID, status, err := p.send(ctx, j)
	p.crashPoint("create.answered")
	switch {
	case err == nil:
		return p.created(ctx, j, payoutID, status)
	case p.cfg.requoteAfterUnknown:
		// The broken variant: a refusal (the reference held, say) ends
		// the job; anything else gets a new quotation, as if nothing had
		// been sent.
		if isRefusal(err) {
			return p.refuse(ctx, j, rj, err)
		}
		_, merr := p.move(ctx, p.pool, j, `phase = 'quote', sent_at = NULL`)
		return errors.Join(merr, fmt.Errorf("payoutjobs: job %q: create: %w", j.Reference, err))
	case errors.Is(err, fiatramp.ErrOutcomeUnknown),
		errors.Is(err, fiatramp.ErrClientReferenceExists),
		errors.Is(err, fiatramp.ErrQuotationAlreadyLinked):
		// It may have acted, or the reference or the quotation is
		// already held: reconcile now, and again later if that settles
		// nothing.
		moved, merr := p.move(ctx, p.pool, j, `unknown_since = COALESCE(unknown_since, now())`)
		if merr != nil || !moved {
			return merr
		}
		j.Version++
		return p.settle(ctx, j, rj, errors.Is(err, fiatramp.ErrClientReferenceExists))
	case errors.Is(err, fiatramp.ErrQuotationExpired):
		// Refused: this create did not act, and none before it may have
		// (the job came from PhaseCreate). A new quotation is safe.
		_, merr := p.move(ctx, p.pool, j, `phase = 'quote', sent_at = NULL`)
		return merr
	case isRefusal(err):
		return p.refuse(ctx, j, rj, err)
	}
	// Nothing proves that no attempt acted: the job stays PhaseSent and
	// the next run reconciles first.
	return fmt.Errorf("payoutjobs: job %q: create: %w", j.Reference, err)
}

// send makes the create the instruction asks for.
func (p *Pipeline) send(ctx context.Context, j *Job) (uuid.UUID, types.PayoutStatus, error) {
	in := j.Instruction
	if in.Kind == Prefunded {
		po, err := p.cfg.Client.Payouts.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{
			QuotationID:       j.QuotationID,
			Customer:          types.PrefundedCustomer{Sender: types.CustomerRef{ID: in.SenderID}, Receiver: types.CustomerRef{ID: in.CustomerID}},
			ClientReferenceID: j.Reference,
		})
		if err != nil {
			return uuid.Nil, "", err
		}
		return po.ID, po.Status, nil
	}
	po, err := p.cfg.Client.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: j.QuotationID, CustomerID: in.CustomerID, ClientReferenceID: j.Reference,
		ExchangeOrderID: in.ExchangeOrderID, TransactionHash: in.TransactionHash,
	})
	if err != nil {
		return uuid.Nil, "", err
	}
	return po.ID, po.Status, nil
}

// created records the payout: -> PhaseLink when a transfer id is to be
// linked, else PhaseAwait.
func (p *Pipeline) created(ctx context.Context, j *Job, payoutID uuid.UUID, status types.PayoutStatus) error {
	next := PhaseAwait
	if j.Instruction.ExchangeTransferID != "" {
		next = PhaseLink
	}
	if !status.MayStillPay() {
		// Already decided (a reconciliation found it settled): the status
		// is recorded when the job ends, with OnFinal, not here.
		status = ""
	}
	moved, err := p.move(ctx, p.pool, j, `phase = $3, payout_id = $4, status = $5, unknown_since = NULL, last_error = NULL`,
		string(next), payoutID, string(status))
	if err != nil || !moved {
		return err
	}
	j.Version++
	j.Phase, j.PayoutID, j.Status = next, payoutID, status
	if next == PhaseLink {
		return p.link(ctx, j)
	}
	return river.JobSnooze(p.cfg.PollInterval) // the first poll, unless the webhook comes first
}

// settle reconciles a create that may have reached the service, with
// reads only: the payout holding the reference (-> created), proof that
// none does (-> PhaseCreate, or PhaseQuote once the quotation expired),
// or nothing settled (snoozed, reconciled again later). It never makes a
// quotation and never sends a create.
func (p *Pipeline) settle(ctx context.Context, j *Job, rj *river.Job[Args], held bool) error {
	if p.cfg.requoteAfterUnknown {
		_, err := p.move(ctx, p.pool, j, `phase = 'quote', sent_at = NULL`)
		return err
	}
	from := j.SentAt
	if from.IsZero() {
		from = j.SubmittedAt
	}
	r, err := p.reconcile(ctx, fiatramp.PayoutAttempt{
		ClientReferenceID: j.Reference, CustomerID: j.Instruction.CustomerID,
		QuotationID: j.QuotationID, From: from, To: time.Now(),
	})
	p.crashPoint("settle.answered")
	if err != nil {
		return fmt.Errorf("payoutjobs: job %q: reconcile: %w", j.Reference, err)
	}
	if held && r.Verdict == fiatramp.ReconcileNotCreated {
		// The service said the reference is held: nothing on this
		// quotation proves no payout holds it. Look for it by reference
		// since the job began; never create again on this proof.
		r, err = p.reconcile(ctx, fiatramp.PayoutAttempt{
			ClientReferenceID: j.Reference, CustomerID: j.Instruction.CustomerID, From: j.SubmittedAt, To: time.Now(),
		})
		if err != nil {
			return fmt.Errorf("payoutjobs: job %q: reconcile: %w", j.Reference, err)
		}
	}
	switch r.Verdict {
	case fiatramp.ReconcileCreated:
		moved, err := p.move(ctx, p.pool, j, `reconciles = reconciles + 1`)
		if err != nil || !moved {
			return err
		}
		j.Version++
		return p.created(ctx, j, r.Payout.ID, r.Payout.Status)
	case fiatramp.ReconcileNotCreated:
		next := PhaseCreate
		if time.Now().Add(expiryMargin).After(j.QuotationExpiresAt) ||
			(r.Quotation != nil && strings.EqualFold(string(r.Quotation.Status), string(types.QuotationExpired))) {
			next = PhaseQuote
		}
		_, err := p.move(ctx, p.pool, j, `phase = $3, sent_at = NULL, unknown_since = NULL, reconciles = reconciles + 1, last_error = NULL`, string(next))
		return err
	}
	moved, err := p.move(ctx, p.pool, j, `unknown_since = COALESCE(unknown_since, now()), reconciles = reconciles + 1, last_error = $3`,
		"outcome unknown: "+r.Reason)
	if err != nil || !moved {
		return err
	}
	return river.JobSnooze(p.backoff(j.Reconciles))
}

// reconcile settles a payout attempt with the library's reconciliation
// (reads only: the customer's payouts and the quotation).
func (p *Pipeline) reconcile(ctx context.Context, a fiatramp.PayoutAttempt) (*fiatramp.PayoutReconciliation, error) {
	return p.cfg.Client.Payouts.Reconcile(ctx, a)
}

// backoff is the wait before the n+1st reconciliation of a job.
func (p *Pipeline) backoff(n int) time.Duration {
	d := p.cfg.ReconcileInterval
	for range min(n, 20) {
		d *= 2
		if d >= p.cfg.PollInterval {
			return p.cfg.PollInterval
		}
	}
	return min(d, p.cfg.PollInterval)
}

// link links the exchange transfer id to the payout's exchange order:
// PhaseLink -> PhaseAwait. Linking again sets the same value, so a crash
// before the record only repeats it. A refusal is recorded and the job
// goes on: the payout exists whatever the link's fate.
func (p *Pipeline) link(ctx context.Context, j *Job) error {
	in := j.Instruction
	_, err := p.cfg.Client.Payouts.LinkTransfer(ctx, types.LinkTransferRequest{
		ExchangeOrderID: in.ExchangeOrderID, ExchangeTransferID: in.ExchangeTransferID,
	})
	p.crashPoint("link.answered")
	switch {
	case err == nil:
		moved, err := p.move(ctx, p.pool, j, `phase = 'await', last_error = NULL`)
		if err != nil || !moved {
			return err
		}
		return river.JobSnooze(p.cfg.PollInterval)
	case isRefusal(err):
		moved, err := p.move(ctx, p.pool, j, `phase = 'await', last_error = $3`, "linking the transfer id was refused: "+err.Error())
		if err != nil || !moved {
			return err
		}
		return river.JobSnooze(p.cfg.PollInterval)
	}
	return fmt.Errorf("payoutjobs: job %q: link transfer id: %w", j.Reference, err)
}

// await polls a created payout whose final status no webhook brought:
// the first read comes PollInterval after the job began waiting, then one
// every PollInterval. A final status ends the job, with OnFinal, in one
// transaction that also completes the River job.
func (p *Pipeline) await(ctx context.Context, j *Job, rj *river.Job[Args]) error {
	if wait := p.cfg.PollInterval - time.Since(j.UpdatedAt); wait > 0 {
		return river.JobSnooze(wait)
	}
	po, err := p.cfg.Client.Payouts.Get(ctx, j.PayoutID)
	p.crashPoint("await.answered")
	if err != nil {
		p.noteError(ctx, j, err)
		return river.JobSnooze(p.cfg.PollInterval)
	}
	if po.Status.MayStillPay() || po.Status == j.Status {
		// Nothing decided yet, or FAILED already recorded (its refund
		// is still to come).
		if po.Status != j.Status {
			moved, err := p.move(ctx, p.pool, j, `status = $3`, string(po.Status))
			if err != nil || !moved {
				return err
			}
		}
		return river.JobSnooze(p.cfg.PollInterval)
	}
	ended, err := p.end(ctx, rj, j.Reference, func(ctx context.Context, tx pgx.Tx, cur *Job) (bool, error) {
		moved, err := p.finish(ctx, tx, cur, po.ID, po.Status, "poll")
		return moved && po.Status.IsFinal(), err
	})
	switch {
	case err != nil:
		return err
	case ended:
		return nil
	case !po.Status.IsFinal():
		return river.JobSnooze(p.cfg.PollInterval) // FAILED: until REFUNDED
	}
	// Moved by another (a webhook) meanwhile: read the job again, never
	// complete the River job of a job that has not ended.
	return river.JobSnooze(0)
}

// refuse ends the job with the refusal's name: PhaseRefused, with
// OnFinal, in one transaction that also completes the River job.
func (p *Pipeline) refuse(ctx context.Context, j *Job, rj *river.Job[Args], refusal error) error {
	msg := refusal.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	name := refusalName(refusal)
	ended, err := p.end(ctx, rj, j.Reference, func(ctx context.Context, tx pgx.Tx, cur *Job) (bool, error) {
		if cur.Version != j.Version {
			return false, nil // moved by another run meanwhile
		}
		moved, err := p.move(ctx, tx, cur, `phase = 'refused', refusal = $3, refusal_message = $4, final_by = 'refusal',
final_at = now(), unknown_since = NULL`, name, msg)
		if err != nil || !moved {
			return false, err
		}
		return true, p.onFinal(ctx, tx, cur.Reference)
	})
	if err != nil || ended {
		return err
	}
	return river.JobSnooze(0) // moved by another meanwhile: read it again
}

// end runs fn on the job, locked, in a transaction that completes the
// River job when fn ended the job, and commits; ended says whether it
// did.
func (p *Pipeline) end(ctx context.Context, rj *river.Job[Args], reference string, fn func(context.Context, pgx.Tx, *Job) (bool, error)) (ended bool, err error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("payoutjobs: job %q: %w", reference, err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
	}()
	cur, err := scanJob(tx.QueryRow(ctx, p.sql.selectForUpdate, reference))
	if err != nil {
		return false, fmt.Errorf("payoutjobs: job %q: %w", reference, err)
	}
	ended, err = fn(ctx, tx, cur)
	if err != nil {
		return false, err
	}
	if ended {
		if _, err = river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, rj); err != nil {
			return false, fmt.Errorf("payoutjobs: job %q: completing the River job: %w", reference, err)
		}
	}
	if err = tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("payoutjobs: job %q: commit: %w", reference, err)
	}
	p.crashPoint("end.committed")
	return ended, nil
}

// finish records a decided status of the job cur, locked in tx, and runs
// OnFinal in tx: SUCCESS, REFUNDED and CANCELLED end the job
// (PhaseFinal); FAILED is decided (never paid) but not final, since
// REFUNDED follows when the funds come back, so the job records it and
// waits on (PhaseAwait). OnFinal thus runs once per decided status the
// job reaches (FAILED, then REFUNDED). A status already recorded, one the
// job's status cannot move to, or a job already ended changes nothing
// (false).
func (p *Pipeline) finish(ctx context.Context, tx pgx.Tx, cur *Job, payoutID uuid.UUID, status types.PayoutStatus, by string) (bool, error) {
	if cur.Phase.Done() || status.MayStillPay() || (status == cur.Status && !status.IsFinal()) {
		return false, nil
	}
	if !cur.Status.MayStillPay() && cur.Status != status && !cur.Status.CanMoveTo(status) {
		return false, nil // an older event than what is recorded
	}
	if !status.IsFinal() {
		moved, err := p.move(ctx, tx, cur, `phase = 'await', payout_id = COALESCE(payout_id, $3), status = $4,
unknown_since = NULL`, payoutID, string(status))
		if err != nil || !moved {
			return false, err
		}
		return true, p.onFinal(ctx, tx, cur.Reference)
	}
	moved, err := p.move(ctx, tx, cur, `phase = 'final', payout_id = COALESCE(payout_id, $3), status = $4, final_by = $5,
final_at = now(), unknown_since = NULL`, payoutID, string(status), by)
	if err != nil || !moved {
		return false, err
	}
	return true, p.onFinal(ctx, tx, cur.Reference)
}

// onFinal runs the user's OnFinal on the job as just recorded in tx.
func (p *Pipeline) onFinal(ctx context.Context, tx pgx.Tx, reference string) error {
	if p.cfg.OnFinal == nil {
		return nil
	}
	j, err := scanJob(tx.QueryRow(ctx, p.sql.selectOne, reference))
	if err != nil {
		return fmt.Errorf("payoutjobs: job %q: %w", reference, err)
	}
	return p.cfg.OnFinal(ctx, tx, *j)
}
