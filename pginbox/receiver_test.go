package pginbox_test

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/pginbox"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// The receiver processes of the crash test are this test binary, started
// again with receiverEnv set: TestMain then runs receiverMain instead of
// the tests.
const (
	receiverEnv      = "PGINBOX_TEST_RECEIVER" // the receiver's number
	receiverDSNEnv   = "PGINBOX_TEST_DSN"
	receiverKeyEnv   = "PGINBOX_TEST_API_KEY"
	receiverSecEnv   = "PGINBOX_TEST_API_SECRET"
	receiverCrashEnv = "PGINBOX_TEST_CRASH_AFTER" // hang inside the nth run, to be killed
)

// counterShards spreads the effect counter over rows, so that receivers
// do not all queue on one row lock.
const counterShards = 16

// makeUserTables creates the receivers' own tables: one effect row per
// run of the function, and a counter that a second run of an event would
// push past the number of events.
func makeUserTables(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, `
CREATE TABLE effects (event_key TEXT NOT NULL, receiver INT NOT NULL, payout_id TEXT NOT NULL);
CREATE TABLE counters (shard INT PRIMARY KEY, n BIGINT NOT NULL);
INSERT INTO counters SELECT s, 0 FROM generate_series(0, `+strconv.Itoa(counterShards-1)+`) s;`)
	return err
}

func shardOf(key string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return int(h.Sum32() % counterShards)
}

// effect is the receivers' function: it writes only through tx.
func effect(ctx context.Context, tx pgx.Tx, ev *webhook.Event, receiver int) error {
	key := ev.DedupeKey()
	if _, err := tx.Exec(ctx, `INSERT INTO effects (event_key, receiver, payout_id) VALUES ($1, $2, $3)`, key, receiver, ev.ID); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE counters SET n = n + 1 WHERE shard = $1`, shardOf(key))
	return err
}

// receiverMain serves pginbox.Handler on a loopback port, which it prints
// as "LISTEN addr". With receiverCrashEnv=n, its nth run writes its effect,
// prints "INTX key" and hangs inside its transaction until it is killed.
func receiverMain() int {
	id, _ := strconv.Atoi(os.Getenv(receiverEnv))
	crashAfter, _ := strconv.ParseInt(os.Getenv(receiverCrashEnv), 10, 64)
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(os.Getenv(receiverDSNEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cfg.MaxConns = 40
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ib, err := pginbox.New(pool)
	if err == nil {
		err = ib.Migrate(ctx)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var runs atomic.Int64
	fn := func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		if err := effect(ctx, tx, ev, id); err != nil {
			return err
		}
		if crashAfter > 0 && runs.Add(1) == crashAfter {
			fmt.Println("INTX", ev.DedupeKey())
			time.Sleep(time.Hour) // killed here, inside the transaction
		}
		return nil
	}
	h := pginbox.Handler(os.Getenv(receiverKeyEnv), os.Getenv(receiverSecEnv), ib, fn)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("LISTEN", ln.Addr().String())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second}
	err = srv.Serve(ln)
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// receiverProc is a running receiver process.
type receiverProc struct {
	cmd  *exec.Cmd
	addr string
	intx chan string // the key it hangs on, when it was told to crash
	dead chan struct{}
}

// startReceiver starts receiver number id on dsn; it is killed when the
// test ends.
func startReceiver(t testing.TB, id int, dsn, apiKey, apiSecret string, crashAfter int) *receiverProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(),
		receiverEnv+"="+strconv.Itoa(id), receiverDSNEnv+"="+dsn,
		receiverKeyEnv+"="+apiKey, receiverSecEnv+"="+apiSecret,
		receiverCrashEnv+"="+strconv.Itoa(crashAfter))
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &receiverProc{cmd: cmd, intx: make(chan string, 1), dead: make(chan struct{})}
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			switch f := strings.Fields(sc.Text()); {
			case len(f) == 2 && f[0] == "LISTEN":
				listening <- f[1]
			case len(f) == 2 && f[0] == "INTX":
				p.intx <- f[1]
			}
		}
		_ = cmd.Wait()
		close(p.dead)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.dead
	})
	select {
	case p.addr = <-listening:
	case <-p.dead:
		t.Fatalf("receiver %d exited before listening", id)
	case <-time.After(30 * time.Second):
		t.Fatalf("receiver %d not listening after 30 s", id)
	}
	return p
}
