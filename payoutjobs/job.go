package payoutjobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/fiatramp/fiatramp-go/types"
)

// Phase is a job's recovery point: what is known, and so which step runs
// next. Each move is written, in its own transaction, before the next
// call to the service, so that a worker killed anywhere resumes from the
// last phase written and never repeats a step that may have acted.
type Phase string

// Phases, in the order a job usually takes them.
const (
	// PhaseQuote: no live quotation, and no create may have reached the
	// service on an earlier one: the next step makes a quotation.
	PhaseQuote Phase = "quote"
	// PhaseCreate: a quotation is recorded, and no create on it may have
	// reached the service: the next step records PhaseSent, then creates.
	PhaseCreate Phase = "create"
	// PhaseSent: a create may have reached the service and its answer is
	// not recorded. The next step reconciles with reads only (never a new
	// quotation, never a new reference): created, proved not created
	// (back to PhaseCreate, or PhaseQuote once the quotation expired), or
	// still unknown (snoozed and reconciled again).
	PhaseSent Phase = "sent"
	// PhaseLink: the payout exists; its exchange transfer id is linked
	// next (Standard instructions with one).
	PhaseLink Phase = "link"
	// PhaseAwait: the payout exists; its final status comes from a
	// webhook, or from polling when no event comes. A FAILED payout waits
	// here for its REFUNDED.
	PhaseAwait Phase = "await"
	// PhaseFinal: the payout reached a final status (SUCCESS, REFUNDED,
	// CANCELLED), recorded in the same transaction as the user's OnFinal.
	PhaseFinal Phase = "final"
	// PhaseRefused: the service refused the instruction, and no payout
	// holds its reference; Refusal names the refusal. OnFinal ran in the
	// same transaction.
	PhaseRefused Phase = "refused"
)

// Done reports whether the phase is an end: PhaseFinal or PhaseRefused.
func (p Phase) Done() bool { return p == PhaseFinal || p == PhaseRefused }

// Job is a payout instruction and what the pipeline has done with it, as
// recorded.
type Job struct {
	// Reference is the instruction's reference, the payout's
	// client_reference_id.
	Reference string
	// Instruction is the instruction as submitted (normalized: the kind
	// filled in, asset and fiat in lower case).
	Instruction Instruction
	// Phase is the recovery point.
	Phase Phase
	// Version counts the job's moves.
	Version int64
	// QuotationID is the quotation last made (uuid.Nil before the first),
	// QuotationExpiresAt its expiry; Quotations counts the quotations made.
	QuotationID        uuid.UUID
	QuotationExpiresAt time.Time
	Quotations         int
	// Creates counts the creates sent; SentAt is when the first create
	// since the last proof that none took effect was sent.
	Creates int
	SentAt  time.Time
	// UnknownSince is when the job began waiting on an unknown outcome
	// (zero when it is not waiting); Reconciles counts reconciliations.
	UnknownSince time.Time
	Reconciles   int
	// PayoutID is the payout made (uuid.Nil before it is known), Status
	// its status as last learnt.
	PayoutID uuid.UUID
	Status   types.PayoutStatus
	// Refusal is the refusal's sentinel name ("ErrInsufficientBalance"),
	// RefusalMessage the service's message (PhaseRefused).
	Refusal        string
	RefusalMessage string
	// LastError is the last failure a step met and will retry.
	LastError string
	// FinalBy says how the job ended: "webhook", "poll" or "refusal".
	FinalBy string
	// RiverJobID is the River job working the instruction.
	RiverJobID int64
	// SubmittedAt, UpdatedAt and FinalAt are on the database's clock.
	SubmittedAt, UpdatedAt, FinalAt time.Time
}

// ErrNotFound is returned by Get for a reference no job has.
var ErrNotFound = errors.New("payoutjobs: no job with this reference")

// scanJob reads a row of columns.
func scanJob(row pgx.Row) (*Job, error) {
	var (
		j                                  Job
		kind, instruction, phase           string
		quotationID, payoutID              *uuid.UUID
		expires, sent, unknown, final      *time.Time
		status, refusal, refusalMsg, lastE *string
		finalBy                            *string
		riverID                            *int64
	)
	err := row.Scan(&j.Reference, &kind, &instruction, &phase, &j.Version, &quotationID, &expires,
		&j.Quotations, &j.Creates, &sent, &unknown, &j.Reconciles, &payoutID, &status, &refusal,
		&refusalMsg, &lastE, &finalBy, &riverID, &j.SubmittedAt, &j.UpdatedAt, &final)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(instruction), &j.Instruction); err != nil {
		return nil, fmt.Errorf("payoutjobs: job %q: stored instruction unreadable: %w", j.Reference, err)
	}
	j.Phase = Phase(phase)
	j.QuotationID = deref(quotationID)
	j.PayoutID = deref(payoutID)
	j.QuotationExpiresAt, j.SentAt, j.UnknownSince, j.FinalAt = deref(expires), deref(sent), deref(unknown), deref(final)
	j.Status = types.PayoutStatus(deref(status))
	j.Refusal, j.RefusalMessage, j.LastError, j.FinalBy = deref(refusal), deref(refusalMsg), deref(lastE), deref(finalBy)
	j.RiverJobID = deref(riverID)
	return &j, nil
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// Get returns the job of reference, or ErrNotFound.
func (p *Pipeline) Get(ctx context.Context, reference string) (*Job, error) {
	j, err := scanJob(p.pool.QueryRow(ctx, p.sql.selectOne, reference))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("payoutjobs: get %q: %w", reference, err)
	}
	return j, nil
}

// Counts are the numbers a dashboard shows, read in one statement.
type Counts struct {
	// Submitted: waiting for their first quotation.
	Submitted int
	// Running: quoted, being created, or linking their transfer id.
	Running int
	// Unknown: a create whose outcome is unknown, being reconciled.
	Unknown int
	// Awaiting: created, waiting for their final status.
	Awaiting int
	// Failed: FAILED (never paid), waiting for the funds to come back
	// (REFUNDED).
	Failed int
	// Final counts the jobs ended by the payout's final status.
	Final map[types.PayoutStatus]int
	// Refused counts the jobs ended by a refusal, by sentinel name.
	Refused map[string]int
}

// Total is the number of jobs counted.
func (c Counts) Total() int {
	n := c.Submitted + c.Running + c.Unknown + c.Awaiting + c.Failed
	for _, v := range c.Final {
		n += v
	}
	for _, v := range c.Refused {
		n += v
	}
	return n
}

// Counts returns the jobs counted by where they stand.
func (p *Pipeline) Counts(ctx context.Context) (Counts, error) {
	c := Counts{Final: map[types.PayoutStatus]int{}, Refused: map[string]int{}}
	rows, err := p.pool.Query(ctx, p.sql.counts)
	if err != nil {
		return c, fmt.Errorf("payoutjobs: counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var phase, status, refusal string
		var unknown, fresh bool
		var n int
		if err := rows.Scan(&phase, &status, &refusal, &unknown, &fresh, &n); err != nil {
			return c, fmt.Errorf("payoutjobs: counts: %w", err)
		}
		switch Phase(phase) {
		case PhaseQuote:
			if fresh {
				c.Submitted += n
			} else {
				c.Running += n // a quotation to replace
			}
		case PhaseSent:
			if unknown {
				c.Unknown += n
			} else {
				c.Running += n
			}
		case PhaseCreate, PhaseLink:
			c.Running += n
		case PhaseAwait:
			if types.PayoutStatus(status) == types.PayoutFailed {
				c.Failed += n
			} else {
				c.Awaiting += n
			}
		case PhaseFinal:
			c.Final[types.PayoutStatus(status)] += n
		case PhaseRefused:
			c.Refused[refusal] += n
		}
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("payoutjobs: counts: %w", err)
	}
	return c, nil
}
