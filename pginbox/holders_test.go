package pginbox_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/pginbox"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// atOnce is how soon a refused delivery must be answered: well under the
// time a holder keeps its connection in these tests.
const atOnce = 300 * time.Millisecond

// poolOf opens a pool of n connections on a new database with the inbox's
// table and the effects table.
func poolOf(t *testing.T, n int, opts ...pginbox.Option) (*pginbox.Inbox, *pgxpool.Pool) {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(newDatabase(t))
	require.NoError(t, err)
	cfg.MaxConns = int32(n)
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	ib, err := pginbox.New(pool, opts...)
	require.NoError(t, err)
	require.NoError(t, ib.Migrate(testCtx(t)))
	makeEffects(t, pool)
	return ib, pool
}

// hold runs key in ib until release is closed, and returns when fn is
// inside its transaction; the returned channel gets Run's error.
func hold(t *testing.T, ib *pginbox.Inbox, key string, release <-chan struct{}) <-chan error {
	t.Helper()
	inside := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := ib.Run(testCtx(t), key, func(ctx context.Context, tx pgx.Tx) error {
			if err := insertEffect(ctx, tx, key); err != nil {
				return err
			}
			close(inside)
			<-release
			return nil
		})
		done <- err
	}()
	select {
	case <-inside:
	case err := <-done:
		t.Fatalf("the holder did not get in: %v", err)
	}
	return done
}

// timedRun runs key once with a function that must not run, and says how
// long the answer took.
func timedRun(t *testing.T, ib *pginbox.Inbox, key string) (pginbox.Outcome, time.Duration) {
	t.Helper()
	start := time.Now()
	out, err := ib.Run(testCtx(t), key, func(context.Context, pgx.Tx) error {
		t.Errorf("%s ran while held", key)
		return nil
	})
	require.NoError(t, err)
	return out, time.Since(start)
}

// With the smallest pool the transactional mode takes (two connections),
// a repeat of a held event is answered InProgress at once, an event
// already handled AlreadyHandled at once, and a new event Busy at once:
// none waits for the holder's connection.
func TestInboxAnswersAtOnceWithTwoConnections(t *testing.T) {
	ib, pool := poolOf(t, 2)
	ctx := testCtx(t)
	_, err := ib.Run(ctx, "old", func(ctx context.Context, tx pgx.Tx) error { return insertEffect(ctx, tx, "old") })
	require.NoError(t, err)

	release := make(chan struct{})
	done := hold(t, ib, "e", release)
	for _, tc := range []struct {
		key  string
		want pginbox.Outcome
	}{{"e", pginbox.InProgress}, {"old", pginbox.AlreadyHandled}, {"new", pginbox.Busy}} {
		out, took := timedRun(t, ib, tc.key)
		assert.Equal(t, tc.want, out, tc.key)
		assert.Less(t, took, atOnce, "%s answered at once", tc.key)
	}

	// Even with the free connection taken by someone else, a repeat of
	// the held event is answered from memory.
	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	out, took := timedRun(t, ib, "e")
	assert.Equal(t, pginbox.InProgress, out)
	assert.Less(t, took, atOnce)
	conn.Release()

	close(release)
	require.NoError(t, <-done)
	out, err = ib.Run(ctx, "new", func(ctx context.Context, tx pgx.Tx) error { return insertEffect(ctx, tx, "new") })
	require.NoError(t, err)
	assert.Equal(t, pginbox.Handled, out, "the slot is free again")
	assert.Equal(t, 1, effectCount(t, pool, "e"))
	assert.Equal(t, pginbox.Stats{Handled: 3, AlreadyHandled: 1, InProgress: 2, Busy: 1}, ib.Stats())
}

// The same through HTTP: pginbox.Handler answers a repeat of a held event
// 503 at once on a pool of two, and the Stats count each delivery.
func TestHandlerAnswersRepeatAtOnceWithTwoConnections(t *testing.T) {
	ib, pool := poolOf(t, 2)
	inside, release := make(chan struct{}), make(chan struct{})
	h := pginbox.Handler(testKey, testSecret, ib, func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		if err := insertEffect(ctx, tx, ev.ID); err != nil {
			return err
		}
		if ev.ID == "slow" {
			close(inside)
			<-release
		}
		return nil
	})
	body := func(id string) string {
		return `{"type":"PAYOUT","id":"` + id + `","event":"SUCCESS","timestamp":null,"metadata":{}}`
	}
	first := make(chan int, 1)
	go func() { first <- post(t, h, body("slow")).Code }()
	<-inside
	for range 3 {
		start := time.Now()
		assert.Equal(t, http.StatusServiceUnavailable, post(t, h, body("slow")).Code)
		assert.Less(t, time.Since(start), atOnce)
	}
	assert.Equal(t, http.StatusServiceUnavailable, post(t, h, body("other")).Code, "busy: no connection to hold")
	close(release)
	assert.Equal(t, http.StatusOK, <-first)
	assert.Equal(t, http.StatusOK, post(t, h, body("slow")).Code)
	assert.Equal(t, http.StatusOK, post(t, h, body("other")).Code)
	assert.Equal(t, 1, effectCount(t, pool, "slow"))
	assert.Equal(t, pginbox.Stats{Handled: 2, AlreadyHandled: 1, InProgress: 3, Busy: 1}, ib.Stats())
}

// A pool of one connection cannot keep the promise: Run refuses and
// Handler panics, saying how to size the pool; the Deduper mode, which
// holds no connection, still works. WithMaxHolders may not take the free
// connection either.
func TestInboxChecksThePoolSize(t *testing.T) {
	ib, _ := poolOf(t, 1)
	ctx := testCtx(t)
	_, err := ib.Run(ctx, "e", func(context.Context, pgx.Tx) error { t.Error("ran"); return nil })
	require.ErrorContains(t, err, "give the pool at least 2")
	assert.PanicsWithValue(t, err.Error(), func() {
		pginbox.Handler(testKey, testSecret, ib, func(context.Context, pgx.Tx, *webhook.Event) error { return nil })
	})
	c, err := ib.Begin(ctx, "d")
	require.NoError(t, err)
	require.Equal(t, webhook.Claimed, c.State)
	require.NoError(t, ib.Complete(ctx, c))

	_, err = pginbox.New(unconnectedPool(t, 4), pginbox.WithMaxHolders(4))
	require.ErrorContains(t, err, "at most 3")
	_, err = pginbox.New(unconnectedPool(t, 4), pginbox.WithMaxHolders(3))
	require.NoError(t, err)
}

// WithMaxHolders caps the holders below the pool's default.
func TestInboxMaxHolders(t *testing.T) {
	ib, _ := poolOf(t, 10, pginbox.WithMaxHolders(2))
	release := make(chan struct{})
	var done []<-chan error
	for i := range 2 {
		done = append(done, hold(t, ib, "h"+strconv.Itoa(i), release))
	}
	out, took := timedRun(t, ib, "third")
	assert.Equal(t, pginbox.Busy, out)
	assert.Less(t, took, atOnce)
	close(release)
	for _, d := range done {
		require.NoError(t, <-d)
	}
	assert.Equal(t, "busy", pginbox.Busy.String())
}

// Stats count the Deduper mode too: completed, already done, held by
// another, released.
func TestInboxStatsDeduperMode(t *testing.T) {
	ib, _ := newInbox(t)
	ctx := testCtx(t)
	c, err := ib.Begin(ctx, "a")
	require.NoError(t, err)
	again, err := ib.Begin(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, webhook.InProgress, again.State)
	require.NoError(t, ib.Complete(ctx, c))
	done, err := ib.Begin(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, webhook.AlreadyDone, done.State)
	c, err = ib.Begin(ctx, "b")
	require.NoError(t, err)
	require.NoError(t, ib.Release(ctx, c))
	assert.Equal(t, pginbox.Stats{Handled: 1, AlreadyHandled: 1, InProgress: 1, Failed: 1}, ib.Stats())

	// A failing function counts as Failed in the transactional mode.
	_, err = ib.Run(ctx, "c", func(context.Context, pgx.Tx) error { return errors.New("boom") })
	require.Error(t, err)
	assert.EqualValues(t, 2, ib.Stats().Failed)
}

// uncappedDB hides the pool from New, so the Inbox knows no pool size and
// keeps no connection free: the deliberately broken variant of the
// sizing rule.
type uncappedDB struct{ *pgxpool.Pool }

// Without the cap, holders take every connection of a pool of two and a
// repeat of a handled event waits for one of them to end, as the issue
// measured: what TestInboxAnswersAtOnceWithTwoConnections holds against.
func TestInboxWithoutHolderCapQueuesRepeats(t *testing.T) {
	_, pool := poolOf(t, 2)
	ib, err := pginbox.New(uncappedDB{pool})
	require.NoError(t, err)
	ctx := testCtx(t)
	_, err = ib.Run(ctx, "old", func(ctx context.Context, tx pgx.Tx) error { return insertEffect(ctx, tx, "old") })
	require.NoError(t, err)

	release := make(chan struct{})
	a, b := hold(t, ib, "a", release), hold(t, ib, "b", release)
	time.AfterFunc(2*atOnce, func() { close(release) })
	out, took := timedRun(t, ib, "old")
	assert.Equal(t, pginbox.AlreadyHandled, out)
	assert.GreaterOrEqual(t, took, atOnce, "the repeat waited for a holder's connection")
	require.NoError(t, <-a)
	require.NoError(t, <-b)
}
