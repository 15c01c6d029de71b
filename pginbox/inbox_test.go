package pginbox_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/pginbox"
	"github.com/fiatramp/fiatramp-go/webhook"
)

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newInbox makes an inbox with its table on a new database.
func newInbox(t testing.TB, opts ...pginbox.Option) (*pginbox.Inbox, *pgxpool.Pool) {
	t.Helper()
	pool := newPool(t, newDatabase(t))
	ib, err := pginbox.New(pool, opts...)
	require.NoError(t, err)
	require.NoError(t, ib.Migrate(testCtx(t)))
	return ib, pool
}

func TestInboxMigrateConcurrentlyAndTwice(t *testing.T) {
	pool := newPool(t, newDatabase(t))
	ctx := testCtx(t)
	ib, err := pginbox.New(pool, pginbox.WithTable("public.My Inbox"))
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- ib.Migrate(ctx) }()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.NoError(t, ib.Migrate(ctx))
	var n int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM "My Inbox"`).Scan(&n))
	assert.Zero(t, n)
	assert.Len(t, ib.MigrationSQL(), 2)
	assert.Contains(t, ib.MigrationSQL()[0], `CREATE TABLE IF NOT EXISTS "public"."My Inbox"`)
}

func TestNewRefusesBadSettings(t *testing.T) {
	_, err := pginbox.New(nil)
	assert.Error(t, err)
	pool := unconnectedPool(t, 4)
	for _, name := range []string{"", "a..b", "a.b.c", ".x"} {
		_, err := pginbox.New(pool, pginbox.WithTable(name))
		assert.Error(t, err, name)
	}
	_, err = pginbox.New(pool, pginbox.WithLease(0))
	assert.Error(t, err)
	_, err = pginbox.New(pool, pginbox.WithMaxHolders(0))
	assert.Error(t, err)
}

// unconnectedPool is a pool of maxConns connections to nowhere; it never
// connects unless used.
func unconnectedPool(t testing.TB, maxConns int) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig("postgres://nobody@127.0.0.1:1/none?pool_max_conns=" + strconv.Itoa(maxConns))
	require.NoError(t, err)
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

func TestInboxDeduperTokensAndLeases(t *testing.T) {
	ib, _ := newInbox(t, pginbox.WithLease(300*time.Millisecond))
	ctx := testCtx(t)

	old, err := ib.Begin(ctx, "k")
	require.NoError(t, err)
	require.Equal(t, webhook.Claimed, old.State)
	assert.Equal(t, "k", old.Key)
	assert.NotEmpty(t, old.Token)
	assert.False(t, old.Expires.IsZero())
	c, err := ib.Begin(ctx, "k")
	require.NoError(t, err)
	assert.Equal(t, webhook.InProgress, c.State, "within the lease")

	time.Sleep(400 * time.Millisecond) // the holder is presumed dead
	fresh, err := ib.Begin(ctx, "k")
	require.NoError(t, err)
	require.Equal(t, webhook.Claimed, fresh.State, "taken over after the lease")
	assert.NotEqual(t, old.Token, fresh.Token)

	// The old holder wakes up: it cannot end the new claim.
	assert.ErrorIs(t, ib.Release(ctx, old), webhook.ErrClaimLost)
	assert.ErrorIs(t, ib.Complete(ctx, old), webhook.ErrClaimLost)
	assert.ErrorIs(t, ib.Complete(ctx, webhook.Claim{Key: "k", State: webhook.Claimed}), webhook.ErrClaimLost)
	require.NoError(t, ib.Complete(ctx, fresh))
	assert.ErrorIs(t, ib.Complete(ctx, fresh), webhook.ErrClaimLost, "a claim ends once")
	c, err = ib.Begin(ctx, "k")
	require.NoError(t, err)
	assert.Equal(t, webhook.AlreadyDone, c.State)

	// Released: the next delivery claims it again.
	r, err := ib.Begin(ctx, "r")
	require.NoError(t, err)
	require.NoError(t, ib.Release(ctx, r))
	assert.ErrorIs(t, ib.Release(ctx, r), webhook.ErrClaimLost)
	r2, err := ib.Begin(ctx, "r")
	require.NoError(t, err)
	assert.Equal(t, webhook.Claimed, r2.State)
}

func TestInboxDeduperConcurrentBegin(t *testing.T) {
	ib, _ := newInbox(t)
	ctx := testCtx(t)
	var claimed atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := ib.Begin(ctx, "same")
			assert.NoError(t, err)
			if c.State == webhook.Claimed {
				claimed.Add(1)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), claimed.Load())
}

// effects is a user table written by the functions under test.
func makeEffects(t testing.TB, pool *pgxpool.Pool) {
	t.Helper()
	_, err := pool.Exec(testCtx(t), `CREATE TABLE effects (event_key TEXT NOT NULL, receiver INT NOT NULL)`)
	require.NoError(t, err)
}

func effectCount(t testing.TB, pool *pgxpool.Pool, key string) int {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(testCtx(t), `SELECT count(*) FROM effects WHERE event_key = $1`, key).Scan(&n))
	return n
}

func insertEffect(ctx context.Context, tx pgx.Tx, key string) error {
	_, err := tx.Exec(ctx, `INSERT INTO effects (event_key, receiver) VALUES ($1, 0)`, key)
	return err
}

func TestInboxRunCommitsEffectAndRecordTogether(t *testing.T) {
	ib, pool := newInbox(t)
	makeEffects(t, pool)
	ctx := testCtx(t)

	// A failure rolls the effect back and leaves the event to run again.
	out, err := ib.Run(ctx, "e1", func(ctx context.Context, tx pgx.Tx) error {
		require.NoError(t, insertEffect(ctx, tx, "e1"))
		return errors.New("failed after writing")
	})
	assert.EqualError(t, err, "failed after writing")
	assert.Zero(t, out)
	assert.Zero(t, effectCount(t, pool, "e1"))

	// A panic too.
	assert.Panics(t, func() {
		_, _ = ib.Run(ctx, "e1", func(ctx context.Context, tx pgx.Tx) error {
			require.NoError(t, insertEffect(ctx, tx, "e1"))
			panic("boom")
		})
	})
	assert.Zero(t, effectCount(t, pool, "e1"))

	out, err = ib.Run(ctx, "e1", func(ctx context.Context, tx pgx.Tx) error { return insertEffect(ctx, tx, "e1") })
	require.NoError(t, err)
	assert.Equal(t, pginbox.Handled, out)
	out, err = ib.Run(ctx, "e1", func(context.Context, pgx.Tx) error { t.Error("ran twice"); return nil })
	require.NoError(t, err)
	assert.Equal(t, pginbox.AlreadyHandled, out)
	assert.Equal(t, 1, effectCount(t, pool, "e1"))
	assert.Equal(t, "already handled", out.String())
}

func TestInboxRunAnswersInProgressToAConcurrentDuplicate(t *testing.T) {
	ib, pool := newInbox(t)
	makeEffects(t, pool)
	ctx := testCtx(t)
	inside, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := ib.Run(ctx, "e", func(ctx context.Context, tx pgx.Tx) error {
			if err := insertEffect(ctx, tx, "e"); err != nil {
				return err
			}
			close(inside)
			<-release
			return nil
		})
		done <- err
	}()
	<-inside
	start := time.Now()
	for range 5 {
		out, err := ib.Run(ctx, "e", func(context.Context, pgx.Tx) error { t.Error("ran concurrently"); return nil })
		require.NoError(t, err)
		assert.Equal(t, pginbox.InProgress, out)
	}
	assert.Less(t, time.Since(start), 2*time.Second, "answered at once, not queued")
	// The Deduper mode on the same table sees the transactional holder too.
	c, err := ib.Begin(ctx, "other")
	require.NoError(t, err)
	require.Equal(t, webhook.Claimed, c.State)
	out, err := ib.Run(ctx, "other", func(context.Context, pgx.Tx) error { t.Error("ran under a live claim"); return nil })
	require.NoError(t, err)
	assert.Equal(t, pginbox.InProgress, out)

	close(release)
	require.NoError(t, <-done)
	out, err = ib.Run(ctx, "e", func(context.Context, pgx.Tx) error { t.Error("ran twice"); return nil })
	require.NoError(t, err)
	assert.Equal(t, pginbox.AlreadyHandled, out)
	assert.Equal(t, 1, effectCount(t, pool, "e"))
}

// A holder that stops talking to the database for longer than the lease
// (a vanished machine) loses its transaction and its writes; the next
// delivery runs the function, and the effect is recorded once.
func TestInboxRunLeaseEndsAnIdleHolder(t *testing.T) {
	ib, pool := newInbox(t, pginbox.WithLease(200*time.Millisecond))
	makeEffects(t, pool)
	ctx := testCtx(t)
	inside := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := ib.Run(ctx, "e", func(ctx context.Context, tx pgx.Tx) error {
			if err := insertEffect(ctx, tx, "e"); err != nil {
				return err
			}
			close(inside)
			time.Sleep(time.Second) // idle in its transaction
			return nil
		})
		done <- err
	}()
	<-inside
	var out pginbox.Outcome
	require.Eventually(t, func() bool {
		var err error
		out, err = ib.Run(ctx, "e", func(ctx context.Context, tx pgx.Tx) error { return insertEffect(ctx, tx, "e") })
		return err == nil && out == pginbox.Handled
	}, 5*time.Second, 50*time.Millisecond)
	assert.Error(t, <-done, "the vanished holder's commit fails")
	assert.Equal(t, 1, effectCount(t, pool, "e"))
}

// A lease longer than PostgreSQL's idle_in_transaction_session_timeout
// can hold (2^31-1 ms, about 24.8 days) is accepted by WithLease, and the
// transactional mode still runs: the idle cap is the most the server takes.
func TestInboxRunLongLease(t *testing.T) {
	ib, pool := newInbox(t, pginbox.WithLease(30*24*time.Hour))
	makeEffects(t, pool)
	ctx := testCtx(t)
	out, err := ib.Run(ctx, "e", func(ctx context.Context, tx pgx.Tx) error { return insertEffect(ctx, tx, "e") })
	require.NoError(t, err)
	assert.Equal(t, pginbox.Handled, out)
	assert.Equal(t, 1, effectCount(t, pool, "e"))
}

func TestInboxVacuum(t *testing.T) {
	ib, pool := newInbox(t)
	ctx := testCtx(t)
	for i := range 12 {
		_, err := ib.Run(ctx, "old"+strconv.Itoa(i), func(context.Context, pgx.Tx) error { return nil })
		require.NoError(t, err)
	}
	_, err := ib.Run(ctx, "new", func(context.Context, pgx.Tx) error { return nil })
	require.NoError(t, err)
	live, err := ib.Begin(ctx, "live-claim")
	require.NoError(t, err)
	require.Equal(t, webhook.Claimed, live.State)
	abandoned, err := ib.Begin(ctx, "abandoned")
	require.NoError(t, err)
	require.Equal(t, webhook.Claimed, abandoned.State)
	_, err = pool.Exec(ctx, `UPDATE fiatramp_webhook_inbox SET created_at = now() - interval '4 days', done_at = now() - interval '4 days' WHERE key LIKE 'old%' OR key = 'live-claim'`)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `UPDATE fiatramp_webhook_inbox SET created_at = now() - interval '4 days', lease_until = now() - interval '3 days' WHERE key = 'abandoned'`)
	require.NoError(t, err)

	n, err := ib.Vacuum(ctx, pginbox.DefaultVacuumAge)
	require.NoError(t, err)
	assert.Equal(t, int64(13), n, "old handled records and the abandoned claim")
	var keys []string
	rows, err := pool.Query(ctx, `SELECT key FROM fiatramp_webhook_inbox ORDER BY key`)
	require.NoError(t, err)
	keys, err = pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	assert.Equal(t, []string{"live-claim", "new"}, keys, "a live claim is kept however old")
	_, err = ib.Vacuum(ctx, 0)
	assert.Error(t, err)
}
