package pginbox_test

import (
	"context"
	"log"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fiatramp/fiatramp-go/pginbox"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// The transactional mode: the function writes through tx, and its writes
// and the event's "done" record commit together.
func ExampleHandler() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres://receiver@localhost/payouts")
	if err != nil {
		log.Fatal(err)
	}
	inbox, err := pginbox.New(pool)
	if err != nil {
		log.Fatal(err)
	}
	if err := inbox.Migrate(ctx); err != nil { // CREATE TABLE IF NOT EXISTS
		log.Fatal(err)
	}
	settle := func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		if ev.Type != webhook.TypePayout || ev.Event != webhook.EventSuccess {
			return nil
		}
		_, err := tx.Exec(ctx, `UPDATE payouts SET settled = true WHERE id = $1`, ev.ID)
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/webhooks/fiatramp", pginbox.Handler("org_key", "org_secret", inbox, settle))
	srv := &http.Server{Addr: ":8080", Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// The Deduper mode: webhook.Handler with a claim record shared by every
// replica; the function writes wherever it likes.
func ExampleInbox_deduper() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres://receiver@localhost/payouts")
	if err != nil {
		log.Fatal(err)
	}
	inbox, err := pginbox.New(pool, pginbox.WithLease(5*time.Minute))
	if err != nil {
		log.Fatal(err)
	}
	if err := inbox.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	handle := func(ctx context.Context, ev *webhook.Event) error { return nil }
	http.Handle("/webhooks/fiatramp", webhook.Handler("org_key", "org_secret", handle, webhook.WithDeduper(inbox)))
}

// Vacuum, run periodically from any replica, deletes records older than
// the service goes on delivering an event.
func ExampleInbox_Vacuum() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres://receiver@localhost/payouts")
	if err != nil {
		log.Fatal(err)
	}
	inbox, err := pginbox.New(pool)
	if err != nil {
		log.Fatal(err)
	}
	for range time.Tick(time.Hour) {
		if n, err := inbox.Vacuum(ctx, pginbox.DefaultVacuumAge); err != nil {
			log.Print(err)
		} else {
			log.Printf("vacuumed %d records", n)
		}
	}
}

// Stats, read periodically, feed a dashboard: deliveries handled, repeats
// of handled events, and refusals (another delivery holds the event, or
// every connection the inbox may hold is held).
func ExampleInbox_Stats() {
	ctx := context.Background()
	// Ten connections: nine functions may run at once, one stays free to
	// answer repeats.
	pool, err := pgxpool.New(ctx, "postgres://receiver@localhost/payouts?pool_max_conns=10")
	if err != nil {
		log.Fatal(err)
	}
	inbox, err := pginbox.New(pool)
	if err != nil {
		log.Fatal(err)
	}
	for range time.Tick(time.Minute) {
		s := inbox.Stats()
		log.Printf("handled=%d already_handled=%d refused=%d failed=%d",
			s.Handled, s.AlreadyHandled, s.InProgress+s.Busy, s.Failed)
	}
}
