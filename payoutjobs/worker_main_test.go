package payoutjobs

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// workerEnv, when set, makes the test binary a worker process of the
// soak instead of running tests; the other soakEnv* variables configure
// it.
const (
	workerEnv        = "PAYOUTJOBS_SOAK_WORKER"
	soakEnvDSN       = "PAYOUTJOBS_SOAK_DSN"
	soakEnvSandbox   = "PAYOUTJOBS_SOAK_SANDBOX"
	soakEnvKey       = "PAYOUTJOBS_SOAK_KEY"
	soakEnvSecret    = "PAYOUTJOBS_SOAK_SECRET"
	soakEnvBroken    = "PAYOUTJOBS_SOAK_BROKEN"
	soakEnvCrashRate = "PAYOUTJOBS_SOAK_CRASH_RATE"
)

// workerMain is a soak worker process: a Pipeline working jobs, its
// webhook handler on a loopback port (printed as "PORT n"), killing
// itself with SIGKILL at a recovery point now and then (printed as
// "CRASH point" first). It stops gracefully when its stdin closes.
func workerMain() int {
	ctx := context.Background()
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	cfg, err := pgxpool.ParseConfig(os.Getenv(soakEnvDSN))
	if err != nil {
		return fail(err)
	}
	cfg.MaxConns = 16
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fail(err)
	}
	defer pool.Close()
	client, err := fiatramp.New(os.Getenv(soakEnvKey), os.Getenv(soakEnvSecret), soakClientOptions(os.Getenv(soakEnvSandbox))...)
	if err != nil {
		return fail(err)
	}
	rate, _ := strconv.ParseFloat(os.Getenv(soakEnvCrashRate), 64)
	var outMu sync.Mutex
	say := func(a ...any) {
		outMu.Lock()
		defer outMu.Unlock()
		fmt.Fprintln(os.Stdout, a...)
	}
	p, err := New(pool, soakConfig(Config{
		Client:              client,
		OnFinal:             recordEffect,
		Workers:             4,
		requoteAfterUnknown: os.Getenv(soakEnvBroken) == "1",
		crash: func(point string) {
			if rand.Float64() < rate {
				say("CRASH", point)
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {} // the signal is on its way
			}
		},
	}))
	if err != nil {
		return fail(err)
	}
	if err := p.Start(ctx); err != nil {
		return fail(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	srv := &http.Server{Handler: p.WebhookHandler(os.Getenv(soakEnvKey), os.Getenv(soakEnvSecret), nil), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	say("PORT", ln.Addr().(*net.TCPAddr).Port)
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until stdin closes
	stop, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(stop)
	_ = p.Stop(stop)
	return 0
}

// soakClientOptions are the soak workers' client options: retries quick,
// and a timeout shorter than the sandbox's delay faults, so that a
// delayed create is an unknown outcome.
func soakClientOptions(baseURL string) []fiatramp.Option {
	return []fiatramp.Option{
		fiatramp.WithBaseURL(baseURL),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 3, InitialBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond}),
		fiatramp.WithTimeout(soakClientTimeout),
	}
}

// soakClientTimeout is the soak workers' per-attempt timeout; the delay
// faults last longer.
const soakClientTimeout = 400 * time.Millisecond

// soakConfig fills in the soak's intervals: quick polls and
// reconciliations, and a short rescue so that a killed worker's job is
// taken over within the run.
func soakConfig(c Config) Config {
	c.PollInterval = 700 * time.Millisecond
	c.ReconcileInterval = 100 * time.Millisecond
	c.JobTimeout = 3 * time.Second
	c.RescueAfter = 4 * time.Second
	return c
}
