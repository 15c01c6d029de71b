package payoutjobs

import (
	"context"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/internal/pgserver"
)

// requireEnv makes a missing PostgreSQL a failure instead of a skip (CI
// sets it).
const requireEnv = "FIATRAMP_REQUIRE_POSTGRES"

// testPG is the server the tests share, started by TestMain; nil with
// skipReason when none could be started.
var testPG struct {
	srv        *pgserver.Server
	skipReason string
	dbs        atomic.Int64 // databases made so far, for unique names
}

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		os.Exit(workerMain())
	}
	srv, err := pgserver.Start("payoutjobs-test-", pgReady)
	if err != nil {
		testPG.skipReason = "no PostgreSQL server could be started: " + err.Error()
	}
	testPG.srv = srv
	code := m.Run()
	if srv != nil {
		srv.Stop()
	}
	os.Exit(code)
}

// newDatabase returns the address of a new, empty database on the test
// server, skipping the test (or failing it, under FIATRAMP_REQUIRE_POSTGRES=1)
// when there is no server.
func newDatabase(t testing.TB) string {
	t.Helper()
	if testPG.srv == nil {
		if os.Getenv(requireEnv) == "1" {
			t.Fatalf("%s (%s=1)", testPG.skipReason, requireEnv)
		}
		t.Skip(testPG.skipReason + " (set " + requireEnv + "=1 to fail instead)")
	}
	name := "t" + strconv.FormatInt(testPG.dbs.Add(1), 10)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, testPG.srv.DSN("postgres"))
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	return testPG.srv.DSN(name)
}

// newPool opens a pool on dsn, closed when the test ends.
func newPool(t testing.TB, dsn string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

// pgReady reports whether the server at dsn accepts a connection.
func pgReady(ctx context.Context, dsn string) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	return conn.Close(ctx)
}
