package payoutjobs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"
)

// requireEnv makes a missing PostgreSQL a failure instead of a skip (CI
// sets it).
const requireEnv = "FIATRAMP_REQUIRE_POSTGRES"

// testPG is the server the tests share, started by TestMain; nil with
// skipReason when none could be started.
var testPG struct {
	srv        *pgServer
	skipReason string
	dbs        atomic.Int64 // databases made so far, for unique names
}

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		os.Exit(workerMain())
	}
	srv, err := startPostgres()
	if err != nil {
		testPG.skipReason = "no PostgreSQL server could be started: " + err.Error()
	}
	testPG.srv = srv
	code := m.Run()
	if srv != nil {
		srv.stop()
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
	conn, err := pgx.Connect(ctx, testPG.srv.dsn("postgres"))
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	return testPG.srv.dsn(name)
}

// newPool opens a pool on dsn, closed when the test ends.
func newPool(t testing.TB, dsn string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

// pgServer is a PostgreSQL server in a temporary directory.
type pgServer struct {
	dir  string
	port int
	cmd  *exec.Cmd
	done chan struct{} // closed when the server process has exited
}

func (s *pgServer) dsn(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// pgBinDir finds the directory of initdb and postgres: on PATH, or the
// newest of Debian's /usr/lib/postgresql/*/bin.
func pgBinDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return pgVersion(dirs[i]) > pgVersion(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("initdb is neither on PATH nor in /usr/lib/postgresql/*/bin (Debian: apt-get install postgresql)")
}

func pgVersion(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// startPostgres makes a cluster with initdb in a temporary directory and
// starts it on a free loopback port, its unix socket in that directory.
// PostgreSQL refuses to run as root: then both run as the user nobody.
func startPostgres() (_ *pgServer, err error) {
	bin, err := pgBinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "payoutjobs-test-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(dir)
		}
	}()
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			return nil, fmt.Errorf("running as root and no user nobody to run PostgreSQL as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	run := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LC_ALL=C", "TZ=UTC")
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
		return cmd
	}
	if err := run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync").Run(); err != nil {
		return nil, fmt.Errorf("initdb: %w: %s", err, tail(filepath.Join(dir, "server.log")))
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := run("postgres", "-D", data, "-p", strconv.Itoa(port), "-k", dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300",
		// A throwaway cluster: durability would only slow the tests.
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &pgServer{dir: dir, port: port, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, cerr := pgx.Connect(ctx, s.dsn("postgres"))
		if cerr == nil {
			_ = conn.Close(ctx)
			cancel()
			return s, nil
		}
		cancel()
		select {
		case <-s.done:
			return nil, fmt.Errorf("postgres exited: %s", tail(filepath.Join(dir, "server.log")))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("postgres not ready after 30 s: %v: %s", cerr, tail(filepath.Join(dir, "server.log")))
		}
	}
}

// stop shuts the server down (fast shutdown) and removes its directory.
func (s *pgServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	_ = os.RemoveAll(s.dir)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// tail returns the end of a log file, for an error message.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = s[len(s)-2000:]
	}
	return s
}
