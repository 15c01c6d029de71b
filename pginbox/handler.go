package pginbox

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fiatramp/fiatramp-go/webhook"
)

// TxFunc is a receiver's function in the transactional mode: it handles
// ev, writing through tx, and must neither commit nor roll back tx.
type TxFunc func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error

// Handler returns an http.Handler that receives the service's webhook
// deliveries as webhook.Handler does (same answers: 405, 413, 401, 400;
// 200 for an event handled before; 503 with Retry-After while another
// delivery of the event runs or when the database fails; 500 when fn
// fails), and runs fn in the transactional mode of Run: fn's writes
// through tx and the event's "done" record commit together, and the
// delivery is answered 200 only after that commit. A failed commit is
// answered 500, so that the service delivers again.
//
// A repeat of an event in progress is answered 503 at once, never held
// for a connection (see WithMaxHolders); fn's context ends with the lease
// (see WithLease). Stats counts every delivery that reaches the Inbox.
//
// opts are webhook.Handler's options (WithClock, WithLogger,
// WithMaxBodyBytes...); a WithDeduper among them is overridden by ib.
// Handler panics, as webhook.Handler does, when fn or ib is nil or
// apiSecret is empty, and when ib's pool has a single connection (see
// WithMaxHolders).
func Handler(apiKey, apiSecret string, ib *Inbox, fn TxFunc, opts ...webhook.Option) http.Handler {
	if ib == nil {
		panic("pginbox: Handler called with a nil Inbox")
	}
	if fn == nil {
		panic("pginbox: Handler called with a nil function")
	}
	if ib.holdErr != nil {
		panic(ib.holdErr.Error())
	}
	d := &txDeduper{ib: ib, held: map[string]*heldTx{}}
	run := func(ctx context.Context, ev *webhook.Event) error {
		h, ok := d.get(ev.DedupeKey())
		if !ok {
			return errors.New("pginbox: no transaction held for the event")
		}
		err := ib.runTx(ctx, h.tx, ev.DedupeKey(), func(ctx context.Context, tx pgx.Tx) error {
			return fn(ctx, tx, ev)
		})
		ib.counts.count(Handled, err)
		return err
	}
	return webhook.Handler(apiKey, apiSecret, run, append(opts[:len(opts):len(opts)], webhook.WithDeduper(d))...)
}

// txDeduper adapts the transactional mode to webhook.Handler: Begin opens
// the event's transaction and locks its row, the Handler's function runs
// fn in it and commits, and Complete or Release forgets it (rolling it
// back if it is still open). One process holds at most one transaction
// per key: the row lock keeps every other claim of the key out.
type txDeduper struct {
	ib   *Inbox
	mu   sync.Mutex
	held map[string]*heldTx
}

type heldTx struct {
	token string
	tx    pgx.Tx
}

func (d *txDeduper) get(key string) (*heldTx, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	h, ok := d.held[key]
	return h, ok
}

// Begin claims key in the transactional mode; the claim expires with the
// lease, which ends the function's context in webhook.Handler.
func (d *txDeduper) Begin(ctx context.Context, key string) (webhook.Claim, error) {
	expires := time.Now().Add(d.ib.lease)
	tx, out, err := d.ib.claimTx(ctx, key)
	if err != nil || out != Handled {
		d.ib.counts.count(out, err)
	}
	if err != nil {
		return webhook.Claim{}, err
	}
	switch out {
	case AlreadyHandled:
		return webhook.Claim{Key: key, State: webhook.AlreadyDone}, nil
	case InProgress, Busy:
		return webhook.Claim{Key: key, State: webhook.InProgress}, nil
	}
	token, err := newToken()
	if err != nil {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		d.ib.holders.leave(key)
		d.ib.counts.count(0, err)
		return webhook.Claim{}, err
	}
	d.mu.Lock()
	_, busy := d.held[key]
	if !busy {
		d.held[key] = &heldTx{token: token, tx: tx}
	}
	d.mu.Unlock()
	if busy { // cannot happen while ib.holders and the row lock hold; never share a key
		_ = tx.Rollback(context.WithoutCancel(ctx))
		d.ib.counts.count(InProgress, nil)
		return webhook.Claim{Key: key, State: webhook.InProgress}, nil
	}
	return webhook.Claim{Key: key, State: webhook.Claimed, Token: token, Expires: expires}, nil
}

// take removes the transaction of c, if c holds it.
func (d *txDeduper) take(c webhook.Claim) (*heldTx, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	h, ok := d.held[c.Key]
	if !ok || c.Token == "" || h.token != c.Token {
		return nil, false
	}
	delete(d.held, c.Key)
	return h, true
}

// finish ends the transaction of h, then frees the event's holder entry
// and slot: the connection is back in the pool.
func (d *txDeduper) finish(ctx context.Context, key string, h *heldTx) error {
	defer d.ib.holders.leave(key)
	return h.tx.Rollback(ctx)
}

// Complete forgets the transaction, which the Handler's function has
// committed; one still open is rolled back (nothing was recorded).
func (d *txDeduper) Complete(ctx context.Context, c webhook.Claim) error {
	h, ok := d.take(c)
	if !ok {
		return webhook.ErrClaimLost
	}
	// Rollback of a committed transaction does nothing; of an open one it
	// undoes everything, and reports that the event was not recorded.
	if err := d.finish(ctx, c.Key, h); err == nil {
		return errors.New("pginbox: the event's transaction was still open: rolled back")
	}
	return nil
}

// Release rolls the transaction back.
func (d *txDeduper) Release(ctx context.Context, c webhook.Claim) error {
	h, ok := d.take(c)
	if !ok {
		return webhook.ErrClaimLost
	}
	if err := d.finish(ctx, c.Key, h); err != nil && !errors.Is(err, pgx.ErrTxClosed) {
		return err
	}
	return nil
}
