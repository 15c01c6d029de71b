// Command twoworkers runs the payout pipeline against the embedded
// sandbox and a local PostgreSQL, with two worker processes: it submits
// payouts, settles them as the bank would, and prints each job's end and
// the dashboard counts.
//
//	go run ./examples/twoworkers -dsn postgres://postgres@127.0.0.1:5432/postgres
//
// The same binary, started with -worker, is a worker process: the parent
// starts two of them, and passes the sandbox's address and keys through
// the environment. River's web UI reads the same database:
//
//	DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres go run riverqueue.com/riverui/cmd/riverui@v0.22.0
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/payoutjobs"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

func main() {
	dsn := flag.String("dsn", envOr("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "PostgreSQL to run on")
	n := flag.Int("payouts", 20, "payouts to submit")
	worker := flag.Bool("worker", false, "run as a worker process (the parent starts two)")
	flag.Parse()
	log.SetFlags(0)
	var err error
	if *worker {
		err = runWorker(*dsn)
	} else {
		err = runParent(*dsn, *n)
	}
	if err != nil {
		log.Fatal(err)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// The parent passes these to the workers.
const (
	envSandbox = "TWOWORKERS_SANDBOX_URL"
	envKey     = "TWOWORKERS_API_KEY"
	envSecret  = "TWOWORKERS_API_SECRET"
)

// onFinal is the effect of a job's end: a line in the example's ledger,
// in the transaction that records the end.
func onFinal(ctx context.Context, tx pgx.Tx, j payoutjobs.Job) error {
	outcome := string(j.Status)
	if j.Phase == payoutjobs.PhaseRefused {
		outcome = "refused: " + j.Refusal
	}
	_, err := tx.Exec(ctx, `INSERT INTO twoworkers_ledger (reference, outcome) VALUES ($1, $2)`, j.Reference, outcome)
	return err
}

func newPipeline(ctx context.Context, dsn string, client *fiatramp.Client, workers int) (*payoutjobs.Pipeline, *pgxpool.Pool, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	p, err := payoutjobs.New(pool, payoutjobs.Config{
		Client: client, OnFinal: onFinal, Workers: workers,
		PollInterval: 2 * time.Second, ReconcileInterval: 200 * time.Millisecond,
	})
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	return p, pool, nil
}

func runParent(dsn string, n int) error {
	ctx := context.Background()
	sb := sandbox.New()
	defer sb.Close()
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		return err
	}
	defer srv.Close()
	demo, err := sb.SeedDemo()
	if err != nil {
		return err
	}
	client, err := srv.Client(demo.Organization)
	if err != nil {
		return err
	}
	p, pool, err := newPipeline(ctx, dsn, client, 0)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := p.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate (is PostgreSQL running at -dsn?): %w", err)
	}
	if _, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS twoworkers_ledger (reference TEXT NOT NULL, outcome TEXT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
		return err
	}

	// Two worker processes; webhooks go to either through a small proxy.
	var workers []*child
	for range 2 {
		c, err := startChild(srv.URL, demo.Organization, dsn)
		if err != nil {
			return err
		}
		defer c.stop()
		workers = append(workers, c)
	}
	proxy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	var next atomic.Int64
	go func() {
		_ = http.Serve(proxy, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			forward(w, r, workers[next.Add(1)%int64(len(workers))].port)
		}))
	}()
	if err := sb.SetWebhookURL(demo.Organization.ID, "http://"+proxy.Addr().String()+"/webhooks"); err != nil {
		return err
	}

	// Submit, each payout in its own transaction with a business record.
	run := strconv.FormatInt(time.Now().Unix(), 36)
	var refs []string
	for i := range n {
		in := payoutjobs.Instruction{
			Reference:  fmt.Sprintf("demo-%s-%03d", run, i),
			CustomerID: demo.Customer.ID, BankID: demo.BankAccount.ID,
			Asset: "USDT", Fiat: "INR", Amount: decimal.NewFromInt(int64(10 + i)),
			ExchangeOrderID: fmt.Sprintf("EX-%s-%03d", run, i), ExchangeTransferID: fmt.Sprintf("TR-%s-%03d", run, i),
		}
		tx, err := pool.Begin(ctx)
		if err != nil {
			return err
		}
		if _, _, err := p.Submit(ctx, tx, in); err != nil {
			_ = tx.Rollback(ctx)
			return err
		}
		if err := tx.Commit(ctx); err != nil {
			return err
		}
		refs = append(refs, in.Reference)
	}
	fmt.Printf("submitted %d payouts; two worker processes (pids %d, %d) work them\n", n, workers[0].cmd.Process.Pid, workers[1].cmd.Process.Pid)

	// The bank settles each payout: every fifth fails, and its funds come
	// back (REFUNDED).
	deadline := time.Now().Add(2 * time.Minute)
	for {
		for _, po := range sb.Payouts(demo.Organization.ID) {
			if po.Status == types.PayoutFailed { // the funds come back
				if err := sb.SetPayoutStatus(po.ID, types.PayoutRefunded); err != nil {
					return err
				}
				continue
			}
			if po.Status != types.PayoutProcessing || po.ClientReferenceID == nil {
				continue
			}
			to := types.PayoutSuccess
			if strings.HasSuffix(*po.ClientReferenceID, "4") || strings.HasSuffix(*po.ClientReferenceID, "9") {
				to = types.PayoutFailed
			}
			if _, err := client.Payouts.SimulateStatus(ctx, po.ID, to); err != nil {
				return err
			}
		}
		done := 0
		for _, ref := range refs {
			j, err := p.Get(ctx, ref)
			if err != nil {
				return err
			}
			if j.Phase.Done() {
				done++
			}
		}
		if done == len(refs) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d jobs ended after two minutes", done, len(refs))
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, ref := range refs {
		j, _ := p.Get(ctx, ref)
		fmt.Printf("%s  %-6s %-8s payout %s  by %s\n", j.Reference, j.Phase, j.Status, j.PayoutID, j.FinalBy)
	}
	c, err := p.Counts(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("counts: submitted %d, running %d, unknown %d, awaiting %d, failed %d, final %v, refused %v\n",
		c.Submitted, c.Running, c.Unknown, c.Awaiting, c.Failed, c.Final, c.Refused)
	fmt.Println("River's UI on the same database: DATABASE_URL=" + dsn + " go run riverqueue.com/riverui/cmd/riverui@v0.22.0")
	return nil
}

// child is a worker process.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	port  int
}

func startChild(sandboxURL string, org sandbox.Organization, dsn string) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-worker", "-dsn", dsn)
	cmd.Env = append(os.Environ(), envSandbox+"="+sandboxURL, envKey+"="+org.APIKey, envSecret+"="+org.APISecret)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("worker process: %w", err)
	}
	port, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "PORT ")))
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("worker process said %q", line)
	}
	return &child{cmd: cmd, stdin: stdin, port: port}, nil
}

// stop closes the worker's stdin, which stops it gracefully.
func (c *child) stop() {
	_ = c.stdin.Close()
	_ = c.cmd.Wait()
}

var forwardClient = &http.Client{Timeout: 10 * time.Second}

func forward(w http.ResponseWriter, r *http.Request, port int) {
	out, err := http.NewRequestWithContext(r.Context(), r.Method, "http://127.0.0.1:"+strconv.Itoa(port)+r.URL.Path, r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out.Header = r.Header.Clone()
	resp, err := forwardClient.Do(out)
	if err != nil {
		http.Error(w, "worker unreachable", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

func runWorker(dsn string) error {
	ctx := context.Background()
	client, err := fiatramp.New(os.Getenv(envKey), os.Getenv(envSecret), fiatramp.WithBaseURL(os.Getenv(envSandbox)))
	if err != nil {
		return err
	}
	p, pool, err := newPipeline(ctx, dsn, client, 4)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := p.Start(ctx); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/webhooks", p.WebhookHandler(os.Getenv(envKey), os.Getenv(envSecret), nil))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Print(err)
		}
	}()
	fmt.Println("PORT", ln.Addr().(*net.TCPAddr).Port)
	_, _ = io.Copy(io.Discard, os.Stdin) // until the parent closes stdin
	stop, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_ = hs.Shutdown(stop)
	wg.Wait()
	return p.Stop(stop)
}
