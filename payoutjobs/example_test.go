package payoutjobs_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/rivercontrib/otelriver"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/payoutjobs"
)

// A replica: the pipeline works payout jobs and receives the webhooks that
// finish them. Run as many replicas as you like on one database.
func ExampleNew() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres://payouts@localhost/payouts")
	if err != nil {
		log.Fatal(err)
	}
	client, err := fiatramp.NewFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	credit := func(ctx context.Context, tx pgx.Tx, j payoutjobs.Job) error {
		switch {
		case j.Status == "SUCCESS":
			_, err := tx.Exec(ctx, `UPDATE withdrawals SET paid = true WHERE id = $1`, j.Reference)
			return err
		case j.Status == "FAILED": // never paid; the funds come back later, with REFUNDED
			_, err := tx.Exec(ctx, `UPDATE withdrawals SET failed = true WHERE id = $1`, j.Reference)
			return err
		}
		// REFUNDED, CANCELLED or refused: give the user the money back.
		_, err := tx.Exec(ctx, `UPDATE withdrawals SET returned = true WHERE id = $1`, j.Reference)
		return err
	}
	p, err := payoutjobs.New(pool, payoutjobs.Config{Client: client, OnFinal: credit, Workers: 10})
	if err != nil {
		log.Fatal(err)
	}
	if err := p.Migrate(ctx); err != nil { // River's tables, the jobs', the inbox's
		log.Fatal(err)
	}
	if err := p.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer p.Stop(ctx) //nolint:errcheck
	mux := http.NewServeMux()
	mux.Handle("/webhooks/fiatramp", p.WebhookHandler("org_key", "org_secret", nil))
	srv := &http.Server{Addr: ":8080", Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// Submitting inside the caller's own transaction: the withdrawal and its
// payout job commit together, or neither does. Submitting the same
// reference again returns the existing job.
func ExamplePipeline_Submit() {
	ctx := context.Background()
	var (
		pool *pgxpool.Pool        // the application's pool
		p    *payoutjobs.Pipeline // from payoutjobs.New
		in   = payoutjobs.Instruction{
			Reference:  "withdrawal-8812",
			CustomerID: customerID, BankID: bankID,
			Asset: "USDT", Fiat: "INR", Amount: decimal.RequireFromString("125.50"),
			ExchangeOrderID: "EX-8812",
		}
	)
	tx, err := pool.Begin(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, `INSERT INTO withdrawals (id, amount) VALUES ($1, $2)`, in.Reference, in.Amount); err != nil {
		log.Fatal(err)
	}
	job, created, err := p.Submit(ctx, tx, in)
	if err != nil {
		log.Fatal(err) // *fiatramp.ValidationError, or ErrReferenceConflict
	}
	if err := tx.Commit(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Println(job.Reference, job.Phase, created)
}

// Where a job stands, and the counts a dashboard shows.
func ExamplePipeline_Counts() {
	ctx := context.Background()
	var p *payoutjobs.Pipeline // from payoutjobs.New
	job, err := p.Get(ctx, "withdrawal-8812")
	if err != nil {
		log.Fatal(err) // payoutjobs.ErrNotFound for an unknown reference
	}
	fmt.Println(job.Phase, job.PayoutID, job.Status, job.Refusal)
	c, err := p.Counts(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("submitted", c.Submitted, "running", c.Running, "unknown", c.Unknown,
		"awaiting", c.Awaiting, "final", c.Final, "refused", c.Refused)
}

// OpenTelemetry: a span per job run from River's middleware (otelriver,
// on the global tracer and meter providers unless its config names
// others), beside the client's spans per call and attempt (give
// Config.Client the otel module's observer with fiatramp.WithObserver).
func ExampleConfig_river() {
	var (
		pool   *pgxpool.Pool    // the application's pool
		client *fiatramp.Client // with fiatramp.WithObserver(fiatrampotel.NewObserver(...))
	)
	p, err := payoutjobs.New(pool, payoutjobs.Config{
		Client: client, Workers: 10,
		River: func(c *river.Config) {
			c.Middleware = append(c.Middleware, otelriver.NewMiddleware(nil))
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	_ = p
}

// Ids of the examples' customer and bank account.
var customerID, bankID = uuid.MustParse("1f0e6c36-3f5a-4a8e-9a55-2c9f4c6b8d01"), uuid.MustParse("7d3b2a10-6c4e-4f0b-8e2d-9a1b3c4d5e6f")
