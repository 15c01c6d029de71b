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
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

// benchWorkers is how many jobs each benchmark replica works at once.
const benchWorkers = 4

// BenchmarkPayoutsPerSecond measures payouts per second from submit to
// created (the payout's id recorded) with 1, 2 and 4 replicas, each a
// Pipeline with its own pool and River client working benchWorkers jobs
// at once, against the sandbox on loopback and the test PostgreSQL;
// beside it the floor: the same payouts (a quotation, then a create
// under a reference) made by a plain loop of library calls at the same
// concurrency. Metrics: payouts/s of each, ratio (pipeline over floor:
// 1.0 is the floor's speed), the p50 and p99 of submit-to-created with
// every job submitted at once (so they include the wait in the queue),
// and the database round trips per job (statements and batches of the
// replicas' pools: River's fetches, completions and snoozes included).
func BenchmarkPayoutsPerSecond(b *testing.B) {
	for _, replicas := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
			h := newHarness(b)
			n := b.N
			floor := benchFloor(b, h, n, replicas*benchWorkers)

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
				ps = append(ps, hh.pipeline(Config{Workers: benchWorkers, PollInterval: time.Hour, River: func(c *river.Config) {
					c.FetchCooldown = 5 * time.Millisecond
					c.FetchPollInterval = 50 * time.Millisecond
				}}))
			}
			ctx := context.Background()
			b.ResetTimer()
			start := time.Now()
			tx, err := h.pool.Begin(ctx)
			require.NoError(b, err)
			for i := range n {
				in := h.instruction(i)
				in.Reference = fmt.Sprintf("bench-%d-%06d", replicas, i)
				in.ExchangeOrderID = "P" + in.ExchangeOrderID // the floor used the instruction's own
				_, _, err := ps[0].Submit(ctx, tx, in)
				require.NoError(b, err)
			}
			require.NoError(b, tx.Commit(ctx))
			trips.Store(0)
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
