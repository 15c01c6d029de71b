package payoutjobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/pginbox"
)

// DefaultQueue is the River queue of payout jobs unless Config.Queue names
// another.
const DefaultQueue = "fiatramp_payouts"

// Defaults of Config.
const (
	DefaultPollInterval      = time.Minute
	DefaultReconcileInterval = 5 * time.Second
	DefaultJobTimeout        = time.Minute
	DefaultRescueAfter       = 5 * time.Minute
)

// fetchCooldown is the least time between two fetches of jobs by one
// replica. River's own default (100 ms) caps a replica at Config.Workers
// jobs per 100 ms whatever their length: with 4 workers, 40 payouts a
// second where the same replica makes over 150 at this setting. A fetch
// is one statement, run only when a job was inserted (River's insert
// notification), a worker came free or the poll (FetchPollInterval)
// fired, so an idle replica does not fetch any more often. Config.River
// may set another.
const fetchCooldown = 5 * time.Millisecond

// OnFinalFunc is the user's effect of a decided outcome: it runs in the
// transaction that records it (PhaseFinal with the payout's final status;
// PhaseAwait with FAILED, never paid, whose funds come back later with
// REFUNDED; PhaseRefused with the refusal's name), and must write only
// through tx, neither committing nor rolling it back. Its writes and the
// record commit together, once per status the job reaches, whatever
// crashes or duplicate deliveries happen; an error rolls both back, and
// the status is recorded again later (by the next webhook delivery or
// poll).
type OnFinalFunc func(ctx context.Context, tx pgx.Tx, j Job) error

// Config configures a Pipeline.
type Config struct {
	// Client makes the calls to the service (required). Give it a retry
	// policy and, for tracing, the otel module's observer: the pipeline
	// adds neither.
	Client *fiatramp.Client
	// OnFinal runs once per decided status of a job (its end; FAILED
	// before its REFUNDED), in the transaction that records it. Nil
	// records the statuses alone.
	OnFinal OnFinalFunc
	// Workers is how many jobs this process works at once; zero makes
	// a process that submits and reads but works nothing (Start refuses).
	Workers int
	// Queue is the River queue (default DefaultQueue); Table the jobs'
	// table, optionally "schema.table" (default DefaultTable).
	Queue, Table string
	// PollInterval is how long a created payout waits for its webhook
	// before its status is read (default DefaultPollInterval); every
	// PollInterval after that it is read again until final.
	PollInterval time.Duration
	// ReconcileInterval is the first wait before an unknown outcome is
	// reconciled again (default DefaultReconcileInterval); it doubles up
	// to PollInterval.
	ReconcileInterval time.Duration
	// JobTimeout bounds one run of a job (default DefaultJobTimeout);
	// RescueAfter is how long a job a dead worker held waits before
	// another worker takes it (default DefaultRescueAfter, more than
	// JobTimeout).
	JobTimeout, RescueAfter time.Duration
	// Inbox records handled webhook events (default: pginbox.New on the
	// pool, its default table).
	Inbox *pginbox.Inbox
	// Logger receives River's log (default: none).
	Logger *slog.Logger
	// River, when set, adjusts River's configuration before the client is
	// made: middleware (OpenTelemetry through rivercontrib/otelriver),
	// hooks, error handlers, more queues and workers. The payout queue
	// and worker are already in it.
	River func(*river.Config)

	// requoteAfterUnknown is the deliberately broken variant the soak
	// must catch: an unknown outcome answered with a new quotation and a
	// new create instead of a reconciliation.
	requoteAfterUnknown bool
	// crash, when set, is called at each recovery point of a step (tests
	// kill the process there).
	crash func(point string)
}

// Pipeline submits payout instructions and works them to their end on
// River and PostgreSQL. It is safe for concurrent use; run one per
// process, as many processes as you like on one database.
type Pipeline struct {
	pool  *pgxpool.Pool
	cfg   Config
	sql   statements
	river *river.Client[pgx.Tx]
	inbox *pginbox.Inbox
}

// New returns a Pipeline on pool. It does not touch the database: call
// Migrate once at start-up.
func New(pool *pgxpool.Pool, cfg Config) (*Pipeline, error) {
	if pool == nil {
		return nil, errors.New("payoutjobs: New called with a nil pool")
	}
	if cfg.Client == nil {
		return nil, errors.New("payoutjobs: Config.Client is required")
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("payoutjobs: Config.Workers %d is negative", cfg.Workers)
	}
	if cfg.Queue == "" {
		cfg.Queue = DefaultQueue
	}
	if cfg.Table == "" {
		cfg.Table = DefaultTable
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.ReconcileInterval <= 0 {
		cfg.ReconcileInterval = DefaultReconcileInterval
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = DefaultJobTimeout
	}
	if cfg.RescueAfter <= 0 {
		cfg.RescueAfter = max(DefaultRescueAfter, 2*cfg.JobTimeout)
	}
	if cfg.RescueAfter <= cfg.JobTimeout {
		return nil, fmt.Errorf("payoutjobs: RescueAfter %s must exceed JobTimeout %s", cfg.RescueAfter, cfg.JobTimeout)
	}
	parts := strings.Split(cfg.Table, ".")
	if len(parts) > 2 {
		return nil, fmt.Errorf("payoutjobs: table name %q has more than a schema and a name", cfg.Table)
	}
	for _, s := range parts {
		if s == "" {
			return nil, fmt.Errorf("payoutjobs: table name %q has an empty part", cfg.Table)
		}
	}
	p := &Pipeline{pool: pool, cfg: cfg, sql: newStatements(pgx.Identifier(parts)), inbox: cfg.Inbox}
	if p.inbox == nil {
		ib, err := pginbox.New(pool)
		if err != nil {
			return nil, err
		}
		p.inbox = ib
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &worker{p: p})
	rc := &river.Config{
		Workers:              workers,
		JobTimeout:           cfg.JobTimeout,
		RescueStuckJobsAfter: cfg.RescueAfter,
		Logger:               cfg.Logger,
		MaxAttempts:          maxAttempts,
		FetchCooldown:        fetchCooldown,
	}
	if rc.Logger == nil {
		rc.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Workers > 0 {
		rc.Queues = map[string]river.QueueConfig{cfg.Queue: {MaxWorkers: cfg.Workers}}
	}
	if cfg.River != nil {
		cfg.River(rc)
	}
	rcl, err := river.NewClient(riverpgxv5.New(pool), rc)
	if err != nil {
		return nil, fmt.Errorf("payoutjobs: river: %w", err)
	}
	p.river = rcl
	return p, nil
}

// maxAttempts is how many failed runs River allows a job. Waiting (for a
// final status, for a reconciliation) snoozes and spends none; only
// failures count (the database or the service unreachable), one every
// PollInterval at most once they persist (see worker.NextRetry): at the
// default minute, a job outlives a week of outage.
const maxAttempts = 10000

// River returns the River client, to insert other jobs in the same
// transactions, subscribe to events, or read River's own job rows.
func (p *Pipeline) River() *river.Client[pgx.Tx] { return p.river }

// Inbox returns the webhook inbox the pipeline finishes jobs through.
func (p *Pipeline) Inbox() *pginbox.Inbox { return p.inbox }

// migrateLockKey serializes concurrent Migrate calls.
const migrateLockKey = 0x66726d706a // "frmpj"

// Migrate brings River's tables to the version this River needs (each
// River migration in its own transaction, as River requires), then
// creates the jobs' table and the inbox's table in one transaction.
// Several processes may call it at once: a session advisory lock makes
// them take turns.
func (p *Pipeline) Migrate(ctx context.Context) error {
	conn, err := p.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("payoutjobs: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(migrateLockKey)); err != nil {
		return fmt.Errorf("payoutjobs: migrate: %w", err)
	}
	defer func() {
		_, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrateLockKey))
	}()
	m, err := rivermigrate.New(riverpgxv5.New(p.pool), nil)
	if err != nil {
		return fmt.Errorf("payoutjobs: migrate: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("payoutjobs: migrate river: %w", err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("payoutjobs: migrate: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	for _, s := range append(p.MigrationSQL(), p.inbox.MigrationSQL()...) {
		if _, err := tx.Exec(ctx, s); err != nil {
			return fmt.Errorf("payoutjobs: migrate: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("payoutjobs: migrate: %w", err)
	}
	return nil
}

// MigrationSQL returns the statements that create the jobs' table and its
// indexes, each idempotent (River's own tables come from rivermigrate,
// the inbox's from pginbox).
func (p *Pipeline) MigrationSQL() []string {
	return []string{p.sql.createTable, p.sql.createPayoutIndex, p.sql.createPhaseIndex}
}

// Start starts working jobs in this process (Config.Workers at once)
// until Stop. A process with no workers cannot start.
func (p *Pipeline) Start(ctx context.Context) error {
	if p.cfg.Workers == 0 {
		return errors.New("payoutjobs: Start needs Config.Workers above zero")
	}
	if err := p.river.Start(ctx); err != nil {
		return fmt.Errorf("payoutjobs: start: %w", err)
	}
	return nil
}

// Stop stops taking jobs and waits for the running ones until ctx ends;
// a job cut short resumes, in any process, from its last recovery point.
func (p *Pipeline) Stop(ctx context.Context) error {
	if err := p.river.Stop(ctx); err != nil {
		return fmt.Errorf("payoutjobs: stop: %w", err)
	}
	return nil
}
