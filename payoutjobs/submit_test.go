package payoutjobs

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// A submission commits with the caller's own writes, or not at all: the
// job row and its River job are in the caller's transaction.
func TestSubmitCommitsWithTheCallersTransaction(t *testing.T) {
	h := newHarness(t)
	p := h.pipeline(Config{})
	ctx := context.Background()
	_, err := h.pool.Exec(ctx, `CREATE TABLE orders (id TEXT PRIMARY KEY)`)
	require.NoError(t, err)

	// Rolled back: neither the order, nor the job, nor the River job.
	tx, err := h.pool.Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `INSERT INTO orders VALUES ('order-00001')`)
	require.NoError(t, err)
	j, created, err := p.Submit(ctx, tx, h.instruction(1))
	require.NoError(t, err)
	assert.True(t, created)
	assert.Equal(t, PhaseQuote, j.Phase)
	rivertest.RequireInsertedTx[*riverpgxv5.Driver](ctx, t, tx, Args{Reference: "order-00001"}, &rivertest.RequireInsertedOpts{Queue: DefaultQueue})
	require.NoError(t, tx.Rollback(ctx))
	_, err = p.Get(ctx, "order-00001")
	assert.ErrorIs(t, err, ErrNotFound)
	rivertest.RequireNotInserted[*riverpgxv5.Driver](ctx, t, riverpgxv5.New(h.pool), Args{}, nil)

	// Committed: all three.
	tx, err = h.pool.Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `INSERT INTO orders VALUES ('order-00001')`)
	require.NoError(t, err)
	j, created, err = p.Submit(ctx, tx, h.instruction(1))
	require.NoError(t, err)
	assert.True(t, created)
	require.NoError(t, tx.Commit(ctx))
	got, err := p.Get(ctx, "order-00001")
	require.NoError(t, err)
	assert.Equal(t, j.RiverJobID, got.RiverJobID)
	assert.NotZero(t, got.RiverJobID)
	rj := rivertest.RequireInserted[*riverpgxv5.Driver](ctx, t, riverpgxv5.New(h.pool), Args{Reference: "order-00001"}, &rivertest.RequireInsertedOpts{Queue: DefaultQueue, MaxAttempts: maxAttempts})
	assert.Equal(t, got.RiverJobID, rj.ID)
}

// The same reference with the same contents returns the existing job,
// never a second one, however many submit it at once.
func TestSubmitSameReferenceReturnsTheExistingJob(t *testing.T) {
	h := newHarness(t)
	p := h.pipeline(Config{})
	ctx := context.Background()
	first := h.submit(p, h.instruction(7))

	const n = 8
	var wg sync.WaitGroup
	createdCount := make(chan bool, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tx, err := h.pool.Begin(ctx)
			if !assert.NoError(t, err) {
				return
			}
			defer tx.Rollback(ctx) //nolint:errcheck
			in := h.instruction(7)
			in.Asset, in.Fiat = "usdt", "inr" // normalized alike
			j, created, err := p.Submit(ctx, tx, in)
			if assert.NoError(t, err) {
				assert.Equal(t, first.RiverJobID, j.RiverJobID)
				createdCount <- created
			}
			assert.NoError(t, tx.Commit(ctx))
		}()
	}
	wg.Wait()
	close(createdCount)
	for c := range createdCount {
		assert.False(t, c)
	}
	var jobs, riverJobs int
	require.NoError(t, h.pool.QueryRow(ctx, `SELECT count(*) FROM `+p.table()).Scan(&jobs))
	require.NoError(t, h.pool.QueryRow(ctx, `SELECT count(*) FROM river_job`).Scan(&riverJobs))
	assert.Equal(t, 1, jobs)
	assert.Equal(t, 1, riverJobs)

	// Concurrent first submissions of a new reference: one creates it.
	var wins sync.WaitGroup
	created := make(chan bool, n)
	for range n {
		wins.Add(1)
		go func() {
			defer wins.Done()
			tx, err := h.pool.Begin(ctx)
			if !assert.NoError(t, err) {
				return
			}
			defer tx.Rollback(ctx) //nolint:errcheck
			_, c, err := p.Submit(ctx, tx, h.instruction(8))
			if assert.NoError(t, err) && assert.NoError(t, tx.Commit(ctx)) {
				created <- c
			}
		}()
	}
	wins.Wait()
	close(created)
	wonBy := 0
	for c := range created {
		if c {
			wonBy++
		}
	}
	assert.Equal(t, 1, wonBy)
	require.NoError(t, h.pool.QueryRow(ctx, `SELECT count(*) FROM river_job`).Scan(&riverJobs))
	assert.Equal(t, 2, riverJobs)
}

// A reference reused with other contents is refused, naming the fields,
// and the stored job is unchanged.
func TestSubmitReferenceWithOtherContentsRefused(t *testing.T) {
	h := newHarness(t)
	p := h.pipeline(Config{})
	ctx := context.Background()
	h.submit(p, h.instruction(3))

	in := h.instruction(3)
	in.Amount = in.Amount.Add(decimal.NewFromInt(1))
	in.BankID = uuid.New()
	tx, err := h.pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck
	_, _, err = p.Submit(ctx, tx, in)
	require.ErrorIs(t, err, ErrReferenceConflict)
	var ce *ConflictError
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, []string{"bank_id", "amount"}, ce.Fields)
	assert.Equal(t, `payoutjobs: reference "order-00003" already submitted with other bank_id, amount`, err.Error())

	j, err := p.Get(ctx, "order-00003")
	require.NoError(t, err)
	assert.Equal(t, h.instruction(3).Amount.String(), j.Instruction.Amount.String())

	// The same amount written otherwise is the same contents.
	same := h.instruction(3)
	same.Amount = decimal.RequireFromString(same.Amount.String() + ".00")
	_, created, err := p.Submit(ctx, tx, same)
	require.NoError(t, err)
	assert.False(t, created)
}

// Bad input is refused before anything is stored, naming the field.
func TestSubmitRefusesBadInputNamingTheField(t *testing.T) {
	h := newHarness(t)
	p := h.pipeline(Config{})
	ctx := context.Background()
	for _, tc := range []struct {
		field string
		edit  func(*Instruction)
	}{
		{"reference", func(in *Instruction) { in.Reference = "" }},
		{"reference", func(in *Instruction) { in.Reference = " order-1" }},
		{"customer_id", func(in *Instruction) { in.CustomerID = uuid.Nil }},
		{"bank_id", func(in *Instruction) { in.BankID = uuid.Nil }},
		{"asset", func(in *Instruction) { in.Asset = " " }},
		{"fiat", func(in *Instruction) { in.Fiat = "" }},
		{"amount", func(in *Instruction) { in.Amount = decimal.Zero }},
		{"amount", func(in *Instruction) { in.Amount = decimal.NewFromInt(-5) }},
		{"sender_id", func(in *Instruction) { in.SenderID = uuid.New() }},
		{"sender_id", func(in *Instruction) { in.Kind = Prefunded; in.ExchangeOrderID = "" }},
		{"kind", func(in *Instruction) { in.Kind = Prefunded; in.SenderID = uuid.New() }},
		{"kind", func(in *Instruction) { in.Kind = "remittance" }},
		{"exchange_order_id", func(in *Instruction) { in.ExchangeOrderID = ""; in.ExchangeTransferID = "T1" }},
	} {
		in := h.instruction(1)
		tc.edit(&in)
		tx, err := h.pool.Begin(ctx)
		require.NoError(t, err)
		_, _, err = p.Submit(ctx, tx, in)
		var ve *fiatramp.ValidationError
		if assert.True(t, errors.As(err, &ve), "%s: %v", tc.field, err) {
			assert.Equal(t, tc.field, ve.Field)
		}
		assert.ErrorIs(t, err, fiatramp.ErrInvalidRequest)
		require.NoError(t, tx.Commit(ctx))
	}
	var jobs, riverJobs int
	require.NoError(t, h.pool.QueryRow(ctx, `SELECT count(*) FROM `+p.table()).Scan(&jobs))
	require.NoError(t, h.pool.QueryRow(ctx, `SELECT count(*) FROM river_job`).Scan(&riverJobs))
	assert.Zero(t, jobs)
	assert.Zero(t, riverJobs)

	_, _, err := p.Submit(ctx, nil, h.instruction(1))
	assert.Error(t, err)
}
