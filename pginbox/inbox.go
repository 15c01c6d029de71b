// Package pginbox keeps a fiatramp webhook receiver's record of handled
// events in PostgreSQL, shared by every replica of the receiver.
//
// It works in two modes over one table:
//
//   - as a webhook.Deduper (Inbox itself, for webhook.WithDeduper): a claim
//     row with a token and a lease per event, taken over when its holder
//     died; the receiver's function writes wherever it likes, and runs at
//     least once and, barring a crash between its effect and the record,
//     once;
//   - transactionally (Inbox.Run, Handler): the function receives the
//     transaction in which the event's "done" record is written, so that
//     its writes and the record commit together or not at all. A function
//     that writes only through that transaction has exactly-once effects,
//     whatever crashes.
//
// In the transactional mode each running function holds a connection:
// the Inbox keeps one connection of a *pgxpool.Pool free, so that a
// repeat of an event is answered at once (WithMaxHolders), and ends each
// run with its lease (WithLease). Stats counts the deliveries of both
// modes.
//
// The table is created by Migrate (idempotent; MigrationSQL returns the
// statements for those who run migrations themselves) and trimmed by
// Vacuum.
package pginbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fiatramp/fiatramp-go/webhook"
)

// DefaultTable is the table an Inbox uses unless WithTable names another.
const DefaultTable = "fiatramp_webhook_inbox"

// DefaultLease is how long a claim holds unless WithLease sets another.
const DefaultLease = 2 * time.Minute

// DB is what an Inbox needs of a database: *pgxpool.Pool has it. It must be
// safe for concurrent use (a single *pgx.Conn is not), and its Begin must
// start a real transaction (a pgx.Tx would give savepoints, which commit
// nothing on their own).
type DB interface {
	Begin(ctx context.Context) (pgx.Tx, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Option configures an Inbox.
type Option func(*Inbox) error

// WithTable sets the table's name, optionally schema-qualified
// ("schema.table"); each part is quoted, so it is taken as written.
func WithTable(name string) Option {
	return func(ib *Inbox) error {
		parts := strings.Split(name, ".")
		if len(parts) > 2 {
			return fmt.Errorf("pginbox: table name %q has more than a schema and a name", name)
		}
		for _, p := range parts {
			if p == "" || strings.ContainsRune(p, 0) {
				return fmt.Errorf("pginbox: table name %q has an empty or invalid part", name)
			}
		}
		ib.ident = pgx.Identifier(parts)
		return nil
	}
}

// WithLease sets how long a claim holds (default DefaultLease). It must be
// longer than the receiver's function can run.
//
// As a Deduper: a claim older than the lease belongs to a holder presumed
// dead and is given to the next delivery (the old holder's Complete then
// fails with webhook.ErrClaimLost); the function's context ends with the
// lease (webhook.Handler does that). The function's writes are its own:
// the lease does not undo them.
//
// In the transactional mode (Run, Handler) the lease bounds the whole run
// of the function, counted from the claim: its context ends at the lease,
// after which the transaction can no longer commit (Run returns the
// context's error; nothing is recorded). On the database, a statement of
// the transaction that runs longer than the lease is cancelled
// (statement_timeout) and a transaction idle longer than the lease is
// ended with its session (idle_in_transaction_session_timeout). So a
// holder that hangs, or vanishes without closing its connection, loses
// its claim and its writes: once idle for a lease, or once the statement
// it was in has run for a lease, so at the latest two leases after the
// claim. A holder whose process dies loses them at once with its
// connection, or, inside a statement, when the statement ends.
func WithLease(d time.Duration) Option {
	return func(ib *Inbox) error {
		if d < time.Millisecond {
			return fmt.Errorf("pginbox: lease %s is shorter than a millisecond", d)
		}
		ib.lease = d
		return nil
	}
}

// WithMaxHolders caps the events the Inbox runs at once in the
// transactional mode (Run, Handler): each holds a transaction, and so a
// connection of db, while its function runs. A delivery past the cap is
// answered Busy at once (503, nothing run), never queued for a
// connection.
//
// The default, for a *pgxpool.Pool, is its MaxConns less one: one
// connection always stays free to answer a repeat of an event (200 when
// done, 503 when held by another replica) at once. A pool of one
// connection leaves none: Run refuses to run and Handler panics, saying
// so. For another DB there is no cap unless this sets one; then size its
// connections at n plus one. New refuses an n that would leave a pool no
// free connection. The Deduper mode holds no connection while the
// function runs, and is not capped.
//
// A repeat of an event this Inbox is running is answered InProgress from
// memory, without a connection, whatever the pool.
func WithMaxHolders(n int) Option {
	return func(ib *Inbox) error {
		if n < 1 {
			return fmt.Errorf("pginbox: WithMaxHolders(%d): at least one holder is needed", n)
		}
		ib.maxHolders = n
		return nil
	}
}

// Inbox is a record of handled webhook events in one PostgreSQL table. It
// is a webhook.Deduper, and runs functions transactionally with Run. It is
// safe for concurrent use, by any number of processes sharing the table.
type Inbox struct {
	db         DB
	ident      pgx.Identifier
	lease      time.Duration
	q          queries
	maxHolders int // WithMaxHolders; 0: the default
	// holdErr, when set, says why the transactional mode cannot run on db.
	holdErr error
	holders *holders
	counts  counters
}

var _ webhook.Deduper = (*Inbox)(nil)

// New returns an Inbox on db. It does not touch the database: call Migrate
// once at start-up (or run MigrationSQL's statements yourself).
func New(db DB, opts ...Option) (*Inbox, error) {
	if db == nil {
		return nil, errors.New("pginbox: New called with a nil DB")
	}
	ib := &Inbox{db: db, ident: pgx.Identifier{DefaultTable}, lease: DefaultLease}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(ib); err != nil {
			return nil, err
		}
	}
	ib.q = newQueries(ib.ident)
	max, err := holderCap(db, ib.maxHolders)
	if err != nil {
		return nil, err
	}
	if max < 0 {
		ib.holdErr = errors.New("pginbox: the pool has a single connection: the transactional mode holds one " +
			"while a function runs and needs another to answer a repeat at once; give the pool at least 2 (pool_max_conns)")
	}
	ib.holders = newHolders(max)
	return ib, nil
}

// poolSize returns the pool's MaxConns; false for a pool not made by
// pgxpool.New or NewWithConfig (a zero Pool, whose Stat panics).
func poolSize(pool *pgxpool.Pool) (size int, ok bool) {
	defer func() {
		if recover() != nil {
			size, ok = 0, false
		}
	}()
	return int(pool.Stat().MaxConns()), true
}

// holderCap returns the most transactions the Inbox may hold at once on
// db (0: no cap; -1: none at all), given WithMaxHolders' n (0 when not
// set). A *pgxpool.Pool keeps one connection free.
func holderCap(db DB, n int) (int, error) {
	pool, ok := db.(*pgxpool.Pool)
	if !ok {
		return n, nil
	}
	size, ok := poolSize(pool)
	if !ok {
		return n, nil
	}
	free := size - 1
	switch {
	case n > free && n > 0:
		return 0, fmt.Errorf("pginbox: WithMaxHolders(%d) on a pool of %d connections leaves none to answer a repeat; at most %d",
			n, free+1, max(free, 0))
	case n > 0:
		return n, nil
	case free < 1:
		return -1, nil
	}
	return free, nil
}

// migrateLockKey serializes concurrent Migrate calls: CREATE TABLE IF NOT
// EXISTS is not safe against itself in PostgreSQL (two sessions may both
// try to create the table's type and one fails).
const migrateLockKey = 0x66726d70 // "frmp"

// MigrationSQL returns the statements that create the table and its index,
// each idempotent:
//
//	CREATE TABLE IF NOT EXISTS "fiatramp_webhook_inbox" (
//	    key         TEXT PRIMARY KEY,          -- webhook.Event.DedupeKey()
//	    done        BOOLEAN NOT NULL DEFAULT false,
//	    token       TEXT,                      -- the live claim's token (Deduper mode)
//	    lease_until TIMESTAMPTZ NOT NULL DEFAULT '-infinity',
//	    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
//	    done_at     TIMESTAMPTZ
//	);
//	CREATE INDEX IF NOT EXISTS "fiatramp_webhook_inbox_created_at_idx"
//	    ON "fiatramp_webhook_inbox" (created_at);
func (ib *Inbox) MigrationSQL() []string {
	return []string{ib.q.createTable, ib.q.createIndex}
}

// Migrate creates the table and its index if they do not exist. Several
// processes may call it at once.
func (ib *Inbox) Migrate(ctx context.Context) (err error) {
	tx, err := ib.db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("pginbox: migrate: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
	}()
	if _, err = tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLockKey)); err != nil {
		return fmt.Errorf("pginbox: migrate: %w", err)
	}
	for _, s := range ib.MigrationSQL() {
		if _, err = tx.Exec(ctx, s); err != nil {
			return fmt.Errorf("pginbox: migrate: %w", err)
		}
	}
	if err = tx.Commit(ctx); err != nil {
		return fmt.Errorf("pginbox: migrate: %w", err)
	}
	return nil
}

// queries are an Inbox's statements, with its table's name in place.
type queries struct {
	createTable, createIndex string
	begin, complete, release string
	ensure, lock, markDone   string
	vacuum                   string
}

func newQueries(ident pgx.Identifier) queries {
	t := ident.Sanitize()
	idx := pgx.Identifier{ident[len(ident)-1] + "_created_at_idx"}.Sanitize()
	r := strings.NewReplacer("$T", t, "$I", idx)
	return queries{
		createTable: r.Replace(`CREATE TABLE IF NOT EXISTS $T (
    key         TEXT PRIMARY KEY,
    done        BOOLEAN NOT NULL DEFAULT false,
    token       TEXT,
    lease_until TIMESTAMPTZ NOT NULL DEFAULT '-infinity',
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    done_at     TIMESTAMPTZ
)`),
		createIndex: r.Replace(`CREATE INDEX IF NOT EXISTS $I ON $T (created_at)`),
		// Insert a claim, or take over one whose lease ran out; otherwise
		// say what the row holds (no row: it was released in between).
		begin: r.Replace(`WITH c AS (
    INSERT INTO $T AS r (key, token, lease_until)
    VALUES ($1, $2, clock_timestamp() + $3::float8 * interval '1 second')
    ON CONFLICT (key) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until
    WHERE NOT r.done AND r.lease_until <= clock_timestamp()
    RETURNING 1 AS state)
SELECT state FROM c
UNION ALL
SELECT CASE WHEN done THEN 2 ELSE 3 END FROM $T WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM c)`),
		complete: r.Replace(`UPDATE $T SET done = true, done_at = clock_timestamp(), token = NULL
WHERE key = $1 AND token = $2 AND NOT done`),
		release: r.Replace(`DELETE FROM $T WHERE key = $1 AND token = $2 AND NOT done`),
		// The row exists (committed) before any transaction locks it, so
		// that a duplicate never waits on another's uncommitted insert.
		ensure: r.Replace(`WITH i AS (INSERT INTO $T (key) VALUES ($1) ON CONFLICT (key) DO NOTHING)
SELECT done FROM $T WHERE key = $1`),
		lock: r.Replace(`SELECT done, lease_until > clock_timestamp(),
       set_config('idle_in_transaction_session_timeout', $2, true),
       set_config('statement_timeout', $2, true)
FROM $T WHERE key = $1 FOR UPDATE SKIP LOCKED`),
		markDone: r.Replace(`UPDATE $T SET done = true, done_at = clock_timestamp(), token = NULL, lease_until = '-infinity'
WHERE key = $1`),
		vacuum: r.Replace(`WITH v AS (
    SELECT key FROM $T
    WHERE created_at < now() - $1::float8 * interval '1 second'
      AND CASE WHEN done THEN done_at < now() - $1::float8 * interval '1 second'
               ELSE lease_until < clock_timestamp() END
    ORDER BY created_at
    LIMIT $2
    FOR UPDATE SKIP LOCKED)
DELETE FROM $T t USING v WHERE t.key = v.key`),
	}
}

// newToken returns a claim token no other claim has had: 128 random bits.
func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("pginbox: claim token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// Begin claims key; see webhook.Deduper. A claim's lease runs on the
// database's clock; the Claim's Expires is a conservative estimate of it
// on the caller's clock.
func (ib *Inbox) Begin(ctx context.Context, key string) (webhook.Claim, error) {
	token, err := newToken()
	if err != nil {
		return webhook.Claim{}, err
	}
	expires := time.Now().Add(ib.lease)
	var state int
	err = ib.db.QueryRow(ctx, ib.q.begin, key, token, ib.lease.Seconds()).Scan(&state)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		// Released between the two reads: the service delivers again.
		ib.counts.count(InProgress, nil)
		return webhook.Claim{Key: key, State: webhook.InProgress}, nil
	case err != nil:
		ib.counts.count(0, err)
		return webhook.Claim{}, fmt.Errorf("pginbox: begin: %w", err)
	}
	switch state {
	case 1:
		return webhook.Claim{Key: key, State: webhook.Claimed, Token: token, Expires: expires}, nil
	case 2:
		ib.counts.count(AlreadyHandled, nil)
		return webhook.Claim{Key: key, State: webhook.AlreadyDone}, nil
	default:
		ib.counts.count(InProgress, nil)
		return webhook.Claim{Key: key, State: webhook.InProgress}, nil
	}
}

// Complete records the key of c as handled; see webhook.Deduper. It
// counts as Handled in Stats when it succeeds, as Failed when it does not.
func (ib *Inbox) Complete(ctx context.Context, c webhook.Claim) error {
	err := ib.end(ctx, ib.q.complete, c, "complete")
	ib.counts.count(Handled, err)
	return err
}

// Release forgets the claim c; see webhook.Deduper. The delivery counts as
// Failed in Stats: the function did not succeed.
func (ib *Inbox) Release(ctx context.Context, c webhook.Claim) error {
	ib.counts.count(0, errors.New("released"))
	return ib.end(ctx, ib.q.release, c, "release")
}

func (ib *Inbox) end(ctx context.Context, query string, c webhook.Claim, what string) error {
	if c.Token == "" {
		return webhook.ErrClaimLost
	}
	tag, err := ib.db.Exec(ctx, query, c.Key, c.Token)
	if err != nil {
		return fmt.Errorf("pginbox: %s: %w", what, err)
	}
	if tag.RowsAffected() != 1 {
		return webhook.ErrClaimLost
	}
	return nil
}

// Outcome is what Run did with an event.
type Outcome int

// Outcomes of Run.
const (
	// Handled: the function ran and its transaction, with the event's
	// "done" record, committed.
	Handled Outcome = iota + 1
	// AlreadyHandled: the event's "done" record was there; nothing ran.
	AlreadyHandled
	// InProgress: another delivery of the event holds it right now;
	// nothing ran. The caller should answer so that the service delivers
	// again later (webhook.Handler answers 503).
	InProgress
	// Busy: every connection the Inbox may hold is held by a running
	// function (WithMaxHolders); nothing ran. Answered as InProgress.
	Busy
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case Handled:
		return "handled"
	case AlreadyHandled:
		return "already handled"
	case InProgress:
		return "in progress"
	case Busy:
		return "busy"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Run handles the event of key exactly once: unless its "done" record is
// there or another holder has it, it runs fn inside a transaction that
// then records the event as done and commits. fn's writes through tx and
// the record commit together; when fn fails (or panics, or the process
// dies), neither does, and the next delivery runs fn again. fn must not
// commit or roll back tx. fn's context ends with the lease (WithLease
// says what else the lease bounds).
//
// A concurrent duplicate is answered InProgress at once, never queued
// behind the holder: from memory when this Inbox holds the event, else
// by the database (the event's row is locked with FOR UPDATE SKIP
// LOCKED), on a connection kept free for it (WithMaxHolders); when none
// is free to hold, the delivery is answered Busy. An error is either fn's,
// returned as is, or the store's, wrapped; after a commit whose answer was
// lost, the next delivery finds the record. Stats counts every call.
func (ib *Inbox) Run(ctx context.Context, key string, fn func(ctx context.Context, tx pgx.Tx) error) (Outcome, error) {
	if ib.holdErr != nil {
		return 0, ib.holdErr
	}
	tx, out, err := ib.claimTx(ctx, key)
	if err != nil || out != Handled {
		ib.counts.count(out, err)
		return out, err
	}
	defer ib.holders.leave(key)
	lctx, cancel := context.WithTimeout(ctx, ib.lease)
	defer cancel()
	if err := ib.runTx(lctx, tx, key, fn); err != nil {
		ib.counts.count(0, err)
		return 0, err
	}
	ib.counts.count(Handled, nil)
	return Handled, nil
}

// claimTx locks the event's row in a new transaction. It answers Handled
// with the transaction when the caller is to run the function, having
// entered key in ib.holders with a slot (the caller leaves when the
// transaction ends), or the reason it is not, with no transaction and
// nothing held.
func (ib *Inbox) claimTx(ctx context.Context, key string) (_ pgx.Tx, _ Outcome, err error) {
	if !ib.holders.enter(key) {
		return nil, InProgress, nil
	}
	held := false
	defer func() {
		if !held {
			ib.holders.leave(key)
		}
	}()
	var done bool
	err = ib.db.QueryRow(ctx, ib.q.ensure, key).Scan(&done)
	switch {
	case err == nil && done:
		return nil, AlreadyHandled, nil
	case err != nil && !errors.Is(err, pgx.ErrNoRows):
		// No row: inserted by this very statement, or by a concurrent one.
		return nil, 0, fmt.Errorf("pginbox: claim: %w", err)
	}
	if !ib.holders.slot(key) {
		return nil, Busy, nil
	}
	tx, err := ib.db.Begin(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("pginbox: claim: %w", err)
	}
	var live bool
	var idleSetting, statementSetting string
	// The server takes at most 2^31-1 ms (about 24.8 days) for either
	// timeout; a longer lease is held to that.
	limit := strconv.FormatInt(min(ib.lease.Milliseconds(), math.MaxInt32), 10)
	err = tx.QueryRow(ctx, ib.q.lock, key, limit).Scan(&done, &live, &idleSetting, &statementSetting)
	out := Handled
	switch {
	case errors.Is(err, pgx.ErrNoRows): // held by another, or vacuumed just now
		out = InProgress
	case err != nil:
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return nil, 0, fmt.Errorf("pginbox: claim: %w", err)
	case done:
		out = AlreadyHandled
	case live: // a Deduper-mode claim on the same table
		out = InProgress
	}
	if out != Handled {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return nil, out, nil
	}
	held = true
	return tx, Handled, nil
}

// rollbackTimeout bounds a rollback, which runs even when the caller's
// context has ended.
const rollbackTimeout = 10 * time.Second

// runTx runs fn in tx, then records key as done and commits; on fn's
// failure or panic it rolls back.
func (ib *Inbox) runTx(ctx context.Context, tx pgx.Tx, key string, fn func(context.Context, pgx.Tx) error) (err error) {
	committed := false
	defer func() {
		if !committed {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
			defer cancel()
			_ = tx.Rollback(rctx)
		}
	}()
	if err := fn(ctx, tx); err != nil {
		return err
	}
	tag, err := tx.Exec(ctx, ib.q.markDone, key)
	if err != nil {
		return fmt.Errorf("pginbox: record done: %w", err)
	}
	if tag.RowsAffected() != 1 {
		return errors.New("pginbox: record done: the event's row is gone")
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("pginbox: commit: %w", err)
	}
	committed = true
	return nil
}

// vacuumBatch is how many rows one statement of Vacuum deletes at most, so
// that no statement holds many locks for long.
const vacuumBatch = 5000

// Vacuum deletes the records older than olderThan: handled events whose
// record is older, and claims abandoned that long ago (their lease over).
// It returns how many it deleted. A delivery of a deleted handled event
// runs the function again, so olderThan must exceed how long the service
// goes on delivering an event (and webhook.Handler's timestamp tolerance);
// DefaultVacuumAge is a safe choice. Rows in use are skipped, never
// waited for. Run it periodically, from one replica or several.
func (ib *Inbox) Vacuum(ctx context.Context, olderThan time.Duration) (int64, error) {
	if olderThan <= 0 {
		return 0, fmt.Errorf("pginbox: vacuum: age %s is not positive", olderThan)
	}
	var total int64
	for {
		tag, err := ib.db.Exec(ctx, ib.q.vacuum, olderThan.Seconds(), vacuumBatch)
		if err != nil {
			return total, fmt.Errorf("pginbox: vacuum: %w", err)
		}
		total += tag.RowsAffected()
		if tag.RowsAffected() < vacuumBatch {
			return total, nil
		}
	}
}

// DefaultVacuumAge is a record age for Vacuum: as long as
// webhook.MemoryDeduper remembers a handled event by default.
const DefaultVacuumAge = webhook.DefaultDedupeTTL
