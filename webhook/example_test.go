package webhook_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/fiatramp/fiatramp-go/webhook"
)

func ExampleHandler() {
	apiKey, apiSecret := "org_key", "org_secret" // the organization's own

	mux := http.NewServeMux()
	mux.Handle("/webhooks/fiatramp", webhook.Handler(apiKey, apiSecret,
		func(ctx context.Context, ev *webhook.Event) error {
			switch {
			case ev.Type == webhook.TypePayout && ev.Event == webhook.EventSuccess:
				utr := ""
				if ev.Metadata.UTR != nil {
					utr = *ev.Metadata.UTR
				}
				fmt.Println("payout", ev.ID, "paid, UTR", utr)
			case ev.Type == webhook.TypePayout && ev.Event == webhook.EventFailed:
				fmt.Println("payout", ev.ID, "failed")
			}
			return nil // an error answers 500 and the service delivers again
		}))

	// The service delivers an event, then repeats it: the function runs once.
	utr := "UTR0001"
	for range 2 {
		req, err := webhook.NewTestDelivery(apiKey, apiSecret, "http://localhost/webhooks/fiatramp",
			webhook.Event{Type: webhook.TypePayout, ID: "6f1c", Event: webhook.EventSuccess,
				Metadata: webhook.Metadata{UTR: &utr}}, time.Now())
		if err != nil {
			log.Fatal(err)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		fmt.Println(rec.Code)
	}
	// Output:
	// payout 6f1c paid, UTR UTR0001
	// 200
	// 200
}

func ExampleVerify() {
	apiKey, apiSecret := "org_key", "org_secret"

	receive := func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, webhook.DefaultMaxBodyBytes))
		if err != nil {
			http.Error(w, "body unreadable", http.StatusBadRequest)
			return
		}
		ev, err := webhook.Verify(apiKey, apiSecret, r.Header, body, time.Now())
		switch {
		case errors.Is(err, webhook.ErrInvalidSignature), errors.Is(err, webhook.ErrStaleTimestamp):
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		case err != nil: // webhook.ErrMalformed
			http.Error(w, "malformed", http.StatusBadRequest)
			return
		}
		fmt.Println(ev.Type, ev.ID, ev.Event)
		w.WriteHeader(http.StatusOK)
	}

	ev := webhook.Event{Type: webhook.TypeCustomer, ID: "c-42", Event: webhook.EventVerified}
	good, _ := webhook.NewTestDelivery(apiKey, apiSecret, "http://localhost/hook", ev, time.Now())
	forged, _ := webhook.NewTestDelivery(apiKey, "guessed_secret", "http://localhost/hook", ev, time.Now())
	for _, req := range []*http.Request{good, forged} {
		rec := httptest.NewRecorder()
		receive(rec, req)
		fmt.Println(rec.Code)
	}
	// Output:
	// CUSTOMER c-42 VERIFIED
	// 200
	// 401
}

func ExampleNewTestDelivery() {
	apiKey, apiSecret := "test_key", "test_secret"
	var handled []string
	receiver := webhook.Handler(apiKey, apiSecret, func(ctx context.Context, ev *webhook.Event) error {
		handled = append(handled, ev.DedupeKey())
		return nil
	})

	reason := "account closed"
	req, err := webhook.NewTestDelivery(apiKey, apiSecret, "http://localhost/webhooks",
		webhook.Event{Type: webhook.TypePayout, ID: "p-1", Event: webhook.EventFailed,
			Metadata: webhook.Metadata{FailureReason: &reason}}, time.Now())
	if err != nil {
		log.Fatal(err)
	}
	rec := httptest.NewRecorder()
	receiver.ServeHTTP(rec, req)
	fmt.Println(rec.Code, handled)

	// A delivery signed ten minutes ago is refused as a replay.
	old, _ := webhook.NewTestDelivery(apiKey, apiSecret, "http://localhost/webhooks",
		webhook.Event{Type: webhook.TypePayout, ID: "p-2", Event: webhook.EventSuccess}, time.Now().Add(-10*time.Minute))
	rec = httptest.NewRecorder()
	receiver.ServeHTTP(rec, old)
	fmt.Println(rec.Code, handled)
	// Output:
	// 200 [PAYOUT/FAILED/p-1]
	// 401 [PAYOUT/FAILED/p-1]
}

func ExampleSign() {
	// Any body, even one the library would never build, signed as the
	// service signs: here an event with an extra field and a duplicate key.
	body := []byte(`{"type":"PAYOUT","id":"p-3","event":"FAILED","event":"REFUNDED","new_field":1}`)
	headers, err := webhook.Sign("org_key", "org_secret", body, time.Now())
	if err != nil {
		log.Fatal(err)
	}
	ev, err := webhook.Verify("org_key", "org_secret", headers, body, time.Now())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ev.Event) // the last duplicate wins, as the service reads it
	// Output:
	// REFUNDED
}

// sqlDeduper is a Deduper shared by receivers on several machines, over
// one table:
//
//	CREATE TABLE webhook_events (
//	    key         TEXT PRIMARY KEY,
//	    done        BOOLEAN NOT NULL,
//	    token       TEXT,
//	    lease_until TIMESTAMPTZ NOT NULL
//	);
//
// Every claim carries a fresh token; completing or releasing it matches
// the token, so a receiver whose lease ran out cannot end the claim of the
// one that took over. The SQL is PostgreSQL's (its clock decides leases);
// other databases spell INSERT ... ON CONFLICT differently. Module
// github.com/fiatramp/fiatramp-go/pginbox is a complete PostgreSQL store,
// with a transactional mode.
type sqlDeduper struct {
	db *sql.DB
	// lease is how long a claim holds: longer than the receiver's function
	// can run. An older claim belongs to a receiver that died mid-run.
	lease time.Duration
}

func (d sqlDeduper) Begin(ctx context.Context, key string) (webhook.Claim, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return webhook.Claim{}, err
	}
	token := hex.EncodeToString(b[:])
	expires := time.Now().Add(d.lease)
	// Insert a claim, or take over one whose lease ran out.
	res, err := d.db.ExecContext(ctx,
		`INSERT INTO webhook_events AS e (key, done, token, lease_until)
		 VALUES ($1, false, $2, now() + $3 * interval '1 second')
		 ON CONFLICT (key) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until
		 WHERE NOT e.done AND e.lease_until < now()`, key, token, d.lease.Seconds())
	if err != nil {
		return webhook.Claim{}, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return webhook.Claim{}, err // a claim made here is taken over once its lease ends
	} else if n == 1 {
		return webhook.Claim{Key: key, State: webhook.Claimed, Token: token, Expires: expires}, nil
	}
	var done bool
	err = d.db.QueryRowContext(ctx, `SELECT done FROM webhook_events WHERE key = $1`, key).Scan(&done)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return webhook.Claim{Key: key, State: webhook.InProgress}, nil // released just now: the service delivers again
	case err != nil:
		return webhook.Claim{}, err
	case done:
		return webhook.Claim{Key: key, State: webhook.AlreadyDone}, nil
	}
	return webhook.Claim{Key: key, State: webhook.InProgress}, nil
}

func (d sqlDeduper) Complete(ctx context.Context, c webhook.Claim) error {
	return d.end(ctx, c, `UPDATE webhook_events SET done = true, token = NULL
		WHERE key = $1 AND token = $2 AND NOT done`)
}

func (d sqlDeduper) Release(ctx context.Context, c webhook.Claim) error {
	return d.end(ctx, c, `DELETE FROM webhook_events WHERE key = $1 AND token = $2 AND NOT done`)
}

func (d sqlDeduper) end(ctx context.Context, c webhook.Claim, query string) error {
	res, err := d.db.ExecContext(ctx, query, c.Key, c.Token)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return webhook.ErrClaimLost
	}
	return nil
}

// A receiver on several machines shares one Deduper, here over
// database/sql (see sqlDeduper in this file). Rows older than the service's
// retry horizon can be deleted by a periodic job.
func ExampleDeduper_sql() {
	db, err := sql.Open("pgx", "postgres://localhost/receiver") // any database/sql driver
	if err != nil {
		log.Fatal(err)
	}
	handle := func(ctx context.Context, ev *webhook.Event) error {
		// Record the event in the same database, in its own transaction.
		return nil
	}
	mux := http.NewServeMux()
	mux.Handle("/webhooks/fiatramp", webhook.Handler("org_key", "org_secret", handle,
		webhook.WithDeduper(sqlDeduper{db: db, lease: 10 * time.Minute})))
	// A ReadTimeout, so that a sender trickling its body cannot hold a
	// connection (Handler reads the whole body before verifying it).
	srv := &http.Server{Addr: ":8080", Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
