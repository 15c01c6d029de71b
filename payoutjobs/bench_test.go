package payoutjobs

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// benchWorkers is how many jobs each benchmark replica works at once.
const benchWorkers = 4

// BenchmarkPayoutsPerSecond measures payouts per second from submit to
// created (the payout's id recorded) with 1, 2 and 4 replicas, each a
// Pipeline with its own pool and River client (River's settings as New
// makes them) working benchWorkers jobs at once, against the sandbox on
// loopback and the test PostgreSQL. The jobs are submitted as an
// application does, each in its own transaction, by as many goroutines
// as the replicas have workers, while the replicas work. Beside it two
// floors at the same concurrency: the same payouts (a quotation, then a
// create under a reference) made by a plain loop of library calls, and
// by a hand-written durable loop that records them as the pipeline must
// (benchDurableFloor). Metrics: payouts/s of each, ratio and
// durable-ratio (pipeline over each floor: 1.0 is the floor's speed),
// the p50 and p99 of submit-to-created (the wait in the queue included),
// and the database round trips per job of the replicas' pools (River's
// fetches, completions and snoozes included; the submissions' are not).
func BenchmarkPayoutsPerSecond(b *testing.B) {
	for _, replicas := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
			h := newHarness(b)
			n, conc := b.N, replicas*benchWorkers
			wcfg, err := pgxpool.ParseConfig(h.dsn)
			require.NoError(b, err)
			wcfg.MaxConns = int32(conc)
			wide, err := pgxpool.NewWithConfig(context.Background(), wcfg)
			require.NoError(b, err)
			b.Cleanup(wide.Close)
			floor := benchFloor(b, h, n, conc)
			durable := benchDurableFloor(b, h, wide, n, conc)

			var trips atomic.Int64
			var ps []*Pipeline
			for range replicas {
				cfg, err := pgxpool.ParseConfig(h.dsn)
				require.NoError(b, err)
				cfg.MaxConns = benchWorkers + 4
				cfg.ConnConfig.Tracer = &tripCounter{n: &trips}
				pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
				require.NoError(b, err)
				b.Cleanup(pool.Close)
				hh := *h
				hh.pool = pool
				ps = append(ps, hh.pipeline(Config{Workers: benchWorkers, PollInterval: time.Hour}))
			}
			ctx := context.Background()
			b.ResetTimer()
			trips.Store(0)
			start := time.Now()
			submit(b, conc, func(i int) error {
				in := h.instruction(i)
				in.Reference = fmt.Sprintf("bench-%d-%06d", replicas, i)
				in.ExchangeOrderID = "P" + in.ExchangeOrderID // the floors used the instruction's own
				return pgx.BeginFunc(ctx, wide, func(tx pgx.Tx) error {
					_, _, err := ps[0].Submit(ctx, tx, in)
					return err
				})
			}, n)
			var lat []time.Duration
			for {
				rows, err := h.pool.Query(ctx, `SELECT updated_at - submitted_at FROM `+ps[0].table()+` WHERE phase = 'await'`)
				require.NoError(b, err)
				lat, err = pgx.CollectRows(rows, pgx.RowTo[time.Duration])
				require.NoError(b, err)
				if len(lat) == n {
					break
				}
				var ended int
				require.NoError(b, h.pool.QueryRow(ctx, `SELECT count(*) FROM `+ps[0].table()+` WHERE phase IN ('final', 'refused')`).Scan(&ended))
				require.Zero(b, ended, "jobs ended before created (refused?)")
				if time.Since(start) > 5*time.Minute {
					b.Fatalf("%d of %d created after 5 minutes", len(lat), n)
				}
				time.Sleep(5 * time.Millisecond)
			}
			elapsed := time.Since(start)
			b.StopTimer()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			rate := float64(n) / elapsed.Seconds()
			b.ReportMetric(rate, "payouts/s")
			b.ReportMetric(floor, "floor-payouts/s")
			b.ReportMetric(rate/floor, "ratio")
			b.ReportMetric(durable, "durable-floor-payouts/s")
			b.ReportMetric(rate/durable, "durable-ratio")
			b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
			b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Milliseconds()), "p99-ms")
			b.ReportMetric(float64(trips.Load())/float64(n), "db-trips/job")
		})
	}
}

// benchFloor makes n payouts with a plain loop of library calls on
// workers goroutines and returns payouts per second.
func benchFloor(b *testing.B, h *harness, n, workers int) float64 {
	b.Helper()
	c := h.client()
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				in := h.instruction(i)
				q, err := c.Payouts.CreateQuotation(ctx, in.quotationRequest())
				if err != nil {
					b.Error(err)
					return
				}
				_, err = c.Payouts.Create(ctx, types.CreatePayoutRequest{
					QuotationID: q.ID, CustomerID: in.CustomerID, ClientReferenceID: fmt.Sprintf("floor-%d-%06d", workers, i),
					ExchangeOrderID: in.ExchangeOrderID,
				})
				if err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return float64(n) / time.Since(start).Seconds()
}

// benchDurableFloor makes n payouts like benchFloor, each recorded as a
// hand-written durable loop must: a row inserted before the quotation,
// the quotation recorded before the create is sent, the sending recorded
// before it, and the payout's id after it (four statements on h.pool,
// each committed). It returns payouts per second.
func benchDurableFloor(b *testing.B, h *harness, pool *pgxpool.Pool, n, workers int) float64 {
	b.Helper()
	c := h.client()
	ctx := context.Background()
	_, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS floor_jobs (reference TEXT PRIMARY KEY, phase TEXT NOT NULL,
quotation_id UUID, payout_id UUID, updated_at TIMESTAMPTZ NOT NULL DEFAULT now())`)
	require.NoError(b, err)
	start := time.Now()
	submit(b, workers, func(i int) error {
		return benchDurablePayout(ctx, pool, c, h.instruction(i), fmt.Sprintf("durable-%d-%d-%06d", workers, n, i))
	}, n)
	return float64(n) / time.Since(start).Seconds()
}

// submit runs do(0) ... do(n-1) on workers goroutines, failing b on an
// error.
func submit(b *testing.B, workers int, do func(i int) error, n int) {
	b.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := do(i); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// benchDurablePayout is one payout of benchDurableFloor.
func benchDurablePayout(ctx context.Context, pool *pgxpool.Pool, c *fiatramp.Client, in Instruction, ref string) error {
	if _, err := pool.Exec(ctx, `INSERT INTO floor_jobs (reference, phase) VALUES ($1, 'quote')`, ref); err != nil {
		return err
	}
	q, err := c.Payouts.CreateQuotation(ctx, in.quotationRequest())
	if err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, `UPDATE floor_jobs SET phase = 'create', quotation_id = $2, updated_at = now() WHERE reference = $1`, ref, q.ID); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, `UPDATE floor_jobs SET phase = 'sent', updated_at = now() WHERE reference = $1`, ref); err != nil {
		return err
	}
	po, err := c.Payouts.Create(ctx, types.CreatePayoutRequest{
		QuotationID: q.ID, CustomerID: in.CustomerID, ClientReferenceID: ref, ExchangeOrderID: "D" + in.ExchangeOrderID,
	})
	if err != nil {
		return err
	}
	_, err = pool.Exec(ctx, `UPDATE floor_jobs SET phase = 'await', payout_id = $2, updated_at = now() WHERE reference = $1`, ref, po.ID)
	return err
}

// tripCounter counts a pool's round trips: each statement, and each batch
// once.
type tripCounter struct{ n *atomic.Int64 }

func (t *tripCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	t.n.Add(1)
	return ctx
}

func (t *tripCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (t *tripCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	t.n.Add(1)
	return ctx
}

func (t *tripCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (t *tripCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}
