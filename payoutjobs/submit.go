package payoutjobs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

// Args are the River job's arguments: the reference alone. Everything
// else is in the jobs' table, read afresh by every run.
type Args struct {
	Reference string `json:"reference" river:"unique"`
}

// Kind is the River job kind of a payout job.
func (Args) Kind() string { return "fiatramp_payout" }

// ErrReferenceConflict matches a *ConflictError.
var ErrReferenceConflict = errors.New("payoutjobs: reference already submitted with other contents")

// ConflictError refuses a submission whose reference a job already holds
// with other contents: a reference names one payout, never two.
type ConflictError struct {
	Reference string
	// Fields names the instruction's fields (JSON names) that differ.
	Fields []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("payoutjobs: reference %q already submitted with other %s", e.Reference, strings.Join(e.Fields, ", "))
}

// Is reports whether target is ErrReferenceConflict.
func (e *ConflictError) Is(target error) bool { return target == ErrReferenceConflict }

// Submit records the instruction and enqueues its job inside tx, the
// caller's transaction: both commit with the caller's own writes, or
// neither does. It returns the job and whether this call created it.
//
// A reference submitted before (committed, or earlier in tx) returns the
// existing job, created false, when the contents are the same; with other
// contents the submission is refused with a *ConflictError
// (ErrReferenceConflict) naming the fields that differ, never merged. A
// concurrent submission of the same reference waits for the first to
// commit or roll back. An instruction missing its reference, amount or
// destination is refused before anything is stored, with a
// *fiatramp.ValidationError naming the field.
func (p *Pipeline) Submit(ctx context.Context, tx pgx.Tx, in Instruction) (*Job, bool, error) {
	if tx == nil {
		return nil, false, errors.New("payoutjobs: Submit needs the caller's transaction")
	}
	in, err := in.normalized()
	if err != nil {
		return nil, false, err
	}
	contents, err := in.contents()
	if err != nil {
		return nil, false, err
	}
	j, err := scanJob(tx.QueryRow(ctx, p.sql.insert, in.Reference, string(in.Kind), contents))
	switch {
	case errors.Is(err, pgx.ErrNoRows): // the reference is taken
		return p.existing(ctx, tx, in.Reference, contents)
	case err != nil:
		return nil, false, fmt.Errorf("payoutjobs: submit %q: %w", in.Reference, err)
	}
	res, err := p.river.InsertTx(ctx, tx, Args{Reference: in.Reference}, &river.InsertOpts{
		Queue:       p.cfg.Queue,
		MaxAttempts: maxAttempts,
		UniqueOpts:  river.UniqueOpts{ByArgs: true},
	})
	if err != nil {
		return nil, false, fmt.Errorf("payoutjobs: submit %q: enqueue: %w", in.Reference, err)
	}
	if _, err := tx.Exec(ctx, p.sql.setRiverJob, in.Reference, res.Job.ID); err != nil {
		return nil, false, fmt.Errorf("payoutjobs: submit %q: %w", in.Reference, err)
	}
	j.RiverJobID = res.Job.ID
	return j, true, nil
}

// existing returns the job holding reference, if its contents are these.
func (p *Pipeline) existing(ctx context.Context, tx pgx.Tx, reference, contents string) (*Job, bool, error) {
	var stored string
	if err := tx.QueryRow(ctx, `SELECT instruction FROM `+p.table()+` WHERE reference = $1`, reference).Scan(&stored); err != nil {
		return nil, false, fmt.Errorf("payoutjobs: submit %q: reading the existing job: %w", reference, err)
	}
	if stored != contents {
		return nil, false, &ConflictError{Reference: reference, Fields: differences(stored, contents)}
	}
	j, err := scanJob(tx.QueryRow(ctx, p.sql.selectOne, reference))
	if err != nil {
		return nil, false, fmt.Errorf("payoutjobs: submit %q: reading the existing job: %w", reference, err)
	}
	return j, false, nil
}

// table is the jobs' table, quoted.
func (p *Pipeline) table() string {
	return pgx.Identifier(strings.Split(p.cfg.Table, ".")).Sanitize()
}
