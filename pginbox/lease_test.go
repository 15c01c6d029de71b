package pginbox_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/pginbox"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// In the transactional mode the function's context ends with the lease,
// counted from the claim.
func TestInboxRunLeaseEndsTheContext(t *testing.T) {
	const lease = 2 * time.Second
	ib, _ := newInbox(t, pginbox.WithLease(lease))
	start := time.Now()
	_, err := ib.Run(testCtx(t), "e", func(ctx context.Context, _ pgx.Tx) error {
		deadline, ok := ctx.Deadline()
		require.True(t, ok, "the function's context has the lease's deadline")
		assert.WithinDuration(t, start.Add(lease), deadline, lease/2)
		return nil
	})
	require.NoError(t, err)
}

// A holder inside one long statement loses its claim with the lease: Run
// returns when the lease ends, not when the statement would, nothing of
// its transaction commits, and a redelivery runs the function within two
// leases of the claim (the server cancels the statement at the lease).
func TestInboxRunLeaseEndsALongStatement(t *testing.T) {
	const lease = 500 * time.Millisecond
	ib, pool := newInbox(t, pginbox.WithLease(lease))
	makeEffects(t, pool)
	ctx := testCtx(t)
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := ib.Run(ctx, "e", func(ctx context.Context, tx pgx.Tx) error {
			if err := insertEffect(ctx, tx, "e"); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `SELECT pg_sleep(30)`)
			return err
		})
		done <- err
	}()
	select {
	case err := <-done:
		require.Error(t, err)
		assert.Less(t, time.Since(start), lease+time.Second, "Run returned with the lease")
	case <-time.After(10 * time.Second):
		t.Fatal("the holder ran on past its lease, inside its statement")
	}
	require.Eventually(t, func() bool {
		out, err := ib.Run(ctx, "e", func(ctx context.Context, tx pgx.Tx) error { return insertEffect(ctx, tx, "e") })
		return err == nil && out == pginbox.Handled
	}, 5*time.Second, 20*time.Millisecond)
	assert.Less(t, time.Since(start), 2*lease+time.Second, "claim free within two leases")
	assert.Equal(t, 1, effectCount(t, pool, "e"), "the first holder's write did not commit")

	// The server bounds the statement on its own, whatever the caller's
	// context: a session that never cancels is stopped too.
	_, err := ib.Run(ctx, "f", func(_ context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(context.Background(), `SELECT pg_sleep(30)`)
		return err
	})
	require.ErrorContains(t, err, "statement timeout")
}

// Through pginbox.Handler the lease ends the function's context too: a
// function stuck in a statement is answered 500 with the lease, and the
// next delivery handles the event.
func TestHandlerLeaseEndsALongStatement(t *testing.T) {
	const lease = 500 * time.Millisecond
	ib, pool := newInbox(t, pginbox.WithLease(lease))
	makeEffects(t, pool)
	slow := true
	h := pginbox.Handler(testKey, testSecret, ib, func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		if err := insertEffect(ctx, tx, ev.ID); err != nil {
			return err
		}
		if slow {
			_, err := tx.Exec(ctx, `SELECT pg_sleep(30)`)
			return err
		}
		return nil
	})
	body := `{"type":"PAYOUT","id":"p","event":"SUCCESS","timestamp":null,"metadata":{}}`
	start := time.Now()
	assert.Equal(t, http.StatusInternalServerError, post(t, h, body).Code)
	assert.Less(t, time.Since(start), lease+time.Second)
	slow = false
	require.Eventually(t, func() bool { return post(t, h, body).Code == http.StatusOK }, 5*time.Second, 20*time.Millisecond)
	assert.Equal(t, 1, effectCount(t, pool, "p"))
}
