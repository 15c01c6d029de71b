package payoutjobs

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
)

// harness is a test's world: a sandbox on loopback with one prefunded
// organization, a verified customer and bank account, and a new database
// on the test server with the pipeline's tables and an effects table.
type harness struct {
	t    testing.TB
	sb   *sandbox.Sandbox
	srv  *sandbox.Server
	org  sandbox.Organization
	cust sandbox.Customer
	bank sandbox.BankAccount
	dsn  string
	pool *pgxpool.Pool
}

// effectsTable is where the tests' OnFinal writes: one row per run, so
// that a doubled effect shows as two rows.
const effectsTable = `CREATE TABLE effects (
    reference TEXT NOT NULL,
    outcome   TEXT NOT NULL,
    payout_id UUID,
    at        TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
)`

// recordEffect is the tests' OnFinal: a row in effects.
func recordEffect(ctx context.Context, tx pgx.Tx, j Job) error {
	outcome := string(j.Status)
	if j.Phase == PhaseRefused {
		outcome = "refused:" + j.Refusal
	}
	_, err := tx.Exec(ctx, `INSERT INTO effects (reference, outcome, payout_id) VALUES ($1, $2, NULLIF($3, '00000000-0000-0000-0000-000000000000'::uuid))`,
		j.Reference, outcome, j.PayoutID)
	return err
}

func newHarness(t testing.TB, opts ...sandbox.Option) *harness {
	t.Helper()
	h := &harness{t: t, dsn: newDatabase(t)}
	opts = append([]sandbox.Option{func(st *sandbox.Settings) {
		st.PayoutLimits.Daily = decimal.NewFromInt(1_000_000_000_000)
		st.WebhookInitialBackoff = 50 * time.Millisecond
		st.WebhookMaxBackoff = 500 * time.Millisecond
		st.WebhookMaxAttempts = 8
		st.WebhookTimeout = 5 * time.Second
	}}, opts...)
	h.sb = sandbox.New(opts...)
	t.Cleanup(func() { _ = h.sb.Close() })
	srv, err := sandbox.NewServer(h.sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	h.srv = srv
	h.org, err = h.sb.AddOrganization(sandbox.Organization{
		Name: "Acme Payouts", Prefunded: true,
		Balances: map[string]decimal.Decimal{"USDT": decimal.NewFromInt(100_000_000)},
	})
	require.NoError(t, err)
	h.cust, err = h.sb.AddCustomer(sandbox.Customer{OrganizationID: h.org.ID, Name: "Asha Rao"})
	require.NoError(t, err)
	h.bank, err = h.sb.AddBankAccount(sandbox.BankAccount{CustomerID: h.cust.ID, AccountName: "Asha Rao",
		AccountNumber: "001234567890", IFSC: "SBIN0001234"})
	require.NoError(t, err)
	h.pool = newPool(t, h.dsn)
	_, err = h.pool.Exec(context.Background(), effectsTable)
	require.NoError(t, err)
	return h
}

// client returns a client of the organization with quick retries.
func (h *harness) client(opts ...fiatramp.Option) *fiatramp.Client {
	h.t.Helper()
	base := []fiatramp.Option{
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: 5 * time.Millisecond, MaxBackoff: 50 * time.Millisecond}),
		fiatramp.WithTimeout(2 * time.Second),
	}
	c, err := h.srv.Client(h.org, append(base, opts...)...)
	require.NoError(h.t, err)
	return c
}

// pipeline returns a migrated Pipeline with quick intervals, the tests'
// OnFinal, and cfg's other settings; started when it has workers.
func (h *harness) pipeline(cfg Config) *Pipeline {
	h.t.Helper()
	if cfg.Client == nil {
		cfg.Client = h.client()
	}
	if cfg.OnFinal == nil {
		cfg.OnFinal = recordEffect
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 300 * time.Millisecond
	}
	if cfg.ReconcileInterval == 0 {
		cfg.ReconcileInterval = 50 * time.Millisecond
	}
	if cfg.JobTimeout == 0 {
		cfg.JobTimeout = 10 * time.Second
	}
	p, err := New(h.pool, cfg)
	require.NoError(h.t, err)
	require.NoError(h.t, p.Migrate(context.Background()))
	if cfg.Workers > 0 {
		require.NoError(h.t, p.Start(context.Background()))
		h.t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = p.Stop(ctx)
		})
	}
	return p
}

// instruction is the i-th test instruction: a standard payout of 10+i
// USDT (the sandbox's coin limits start at 10).
func (h *harness) instruction(i int) Instruction {
	return Instruction{
		Reference:  fmt.Sprintf("order-%05d", i),
		CustomerID: h.cust.ID, BankID: h.bank.ID,
		Asset: "USDT", Fiat: "INR",
		Amount:          decimal.NewFromInt(int64(10 + i%100)),
		ExchangeOrderID: fmt.Sprintf("EX-%05d", i),
	}
}

// submit submits in in its own transaction and returns the job.
func (h *harness) submit(p *Pipeline, in Instruction) *Job {
	h.t.Helper()
	ctx := context.Background()
	tx, err := h.pool.Begin(ctx)
	require.NoError(h.t, err)
	defer tx.Rollback(ctx) //nolint:errcheck
	j, _, err := p.Submit(ctx, tx, in)
	require.NoError(h.t, err)
	require.NoError(h.t, tx.Commit(ctx))
	return j
}

// receiver serves p's webhook handler on loopback and registers it as the
// organization's webhook URL.
func (h *harness) receiver(p *Pipeline) {
	h.t.Helper()
	srv := httptest.NewServer(p.WebhookHandler(h.org.APIKey, h.org.APISecret, nil))
	h.t.Cleanup(srv.Close)
	require.NoError(h.t, h.sb.SetWebhookURL(h.org.ID, srv.URL))
}

// effects returns the effects recorded per reference.
func (h *harness) effects() map[string][]string {
	h.t.Helper()
	rows, err := h.pool.Query(context.Background(), `SELECT reference, outcome FROM effects ORDER BY at`)
	require.NoError(h.t, err)
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var ref, outcome string
		require.NoError(h.t, rows.Scan(&ref, &outcome))
		out[ref] = append(out[ref], outcome)
	}
	require.NoError(h.t, rows.Err())
	return out
}

// newTestClient is a client for tests that send nothing.
func newTestClient(t testing.TB) *fiatramp.Client {
	t.Helper()
	c, err := fiatramp.New("key", "secret", fiatramp.WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	return c
}
