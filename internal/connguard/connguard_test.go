package connguard

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	must "github.com/stretchr/testify/require"
)

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeClock) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) set(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = t
}

// pipeListener hands out the server ends of in-memory connections.
type pipeListener struct {
	conns  chan net.Conn
	errs   chan error
	closed chan struct{}
	once   sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn, 16), errs: make(chan error, 1), closed: make(chan struct{})}
}

func (p *pipeListener) Accept() (net.Conn, error) {
	select {
	case err := <-p.errs:
		return nil, err
	default:
	}
	select {
	case c := <-p.conns:
		return c, nil
	case <-p.closed:
		return nil, net.ErrClosed
	}
}

func (p *pipeListener) Close() error {
	p.once.Do(func() { close(p.closed) })
	return nil
}

func (p *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// dial queues a connection for Accept and returns its client end.
func (p *pipeListener) dial(t *testing.T) net.Conn {
	t.Helper()
	server, client := net.Pipe()
	t.Cleanup(func() { _ = client.Close(); _ = server.Close() })
	p.conns <- server
	return client
}

// pipeTracker is a Listener over a pipeListener, on clock.
func pipeTracker(t *testing.T, max int, minRate int64, grace, minAge time.Duration, clock *fakeClock) (*Listener, *pipeListener) {
	t.Helper()
	pl := newPipeListener()
	l := New(pl, max, minRate, grace, minAge, clock.now)
	t.Cleanup(func() { _ = l.Close() })
	return l, pl
}

// accept accepts the next connection of l, failing the test when Accept
// does not return within a few seconds.
func accept(t *testing.T, l *Listener) *trackedConn {
	t.Helper()
	type result struct {
		c   net.Conn
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := l.Accept()
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		must.NoError(t, r.err)
		return r.c.(*trackedConn)
	case <-time.After(5 * time.Second):
		t.Fatal("Accept did not return")
		return nil
	}
}

// readN has the server end c read n bytes the client end writes.
func readN(t *testing.T, c *trackedConn, client net.Conn, n int) {
	t.Helper()
	go func() { _, _ = client.Write(make([]byte, n)) }()
	buf := make([]byte, n)
	_, err := io.ReadFull(c, buf)
	must.NoError(t, err)
}

// closedByServer reports whether the server closed the other end of
// client: a read ends in EOF rather than waiting.
func closedByServer(client net.Conn) bool {
	_ = client.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	_, err := client.Read(make([]byte, 1))
	return errors.Is(err, io.EOF)
}

func TestRateDeadline(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		got   int64
		rate  int64
		grace time.Duration
		want  time.Duration
	}{
		{0, 500, 5 * time.Second, 5 * time.Second},
		{250, 500, 5 * time.Second, 5500 * time.Millisecond},
		{500, 500, 5 * time.Second, 6 * time.Second},
		{1000, 500, 5 * time.Second, 7 * time.Second},
		{3, 100, 300 * time.Millisecond, 330 * time.Millisecond},
	} {
		assert.Equal(t, t0.Add(tc.want), rateDeadline(t0, tc.got, tc.rate, tc.grace), "%+v", tc)
	}
}

// Each read is held to the earlier of the server's deadline and the
// minimum rate's, the latter only while a head or body arrives.
func TestTrackedConnReadDeadline(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := &fakeClock{t: t0}
	l, pl := pipeTracker(t, 0, 500, 5*time.Second, 0, clock)
	pl.dial(t)
	c := accept(t, l)
	deadline := func() (time.Time, bool) {
		l.mu.Lock()
		defer l.mu.Unlock()
		return c.readDeadlineLocked()
	}

	dl, rate := deadline()
	assert.Equal(t, t0.Add(5*time.Second), dl, "a new connection's head is counted from accept")
	assert.True(t, rate)
	must.NoError(t, c.SetReadDeadline(t0.Add(10*time.Second)))
	l.mu.Lock()
	c.got = 500
	l.mu.Unlock()
	dl, _ = deadline()
	assert.Equal(t, t0.Add(6*time.Second), dl, "500 bytes buy a second")
	must.NoError(t, c.SetReadDeadline(t0.Add(3*time.Second)))
	dl, rate = deadline()
	assert.Equal(t, t0.Add(3*time.Second), dl, "the server's earlier deadline")
	assert.False(t, rate)

	must.NoError(t, c.SetReadDeadline(t0.Add(time.Hour)))
	clock.set(t0.Add(time.Minute))
	c.enter(phaseBody)
	dl, _ = deadline()
	assert.Equal(t, t0.Add(time.Minute+5*time.Second), dl, "a body is counted from its start, bytes of the head forgotten")
	for _, p := range []connPhase{phaseHandling, phaseIdle} {
		c.enter(p)
		dl, rate = deadline()
		assert.Equal(t, t0.Add(time.Hour), dl, "phase %d: the server's deadline alone", p)
		assert.False(t, rate)
	}

	// Off: a zero rate or grace.
	for _, tr := range []*Listener{
		New(newPipeListener(), 0, 0, time.Second, 0, clock.now),
		New(newPipeListener(), 0, 500, 0, 0, clock.now),
	} {
		c := &trackedConn{t: tr, phase: phaseHead, since: t0, deadline: t0.Add(time.Hour)}
		dl, rate := c.readDeadlineLocked()
		assert.Equal(t, t0.Add(time.Hour), dl)
		assert.False(t, rate)
	}
}

// A read that the minimum rate cuts off fails as a timed-out read, and
// every read after it fails at once; bytes that arrive in time are counted,
// and a kept-alive connection's next head starts at its first byte.
func TestTrackedConnMinRate(t *testing.T) {
	real := time.Now()
	clock := &fakeClock{t: real.Add(-time.Hour)} // accepted an hour ago: long past the grace
	l, pl := pipeTracker(t, 0, 500, 5*time.Second, 0, clock)
	client := pl.dial(t)
	c := accept(t, l)
	clock.set(real.Add(time.Hour))
	_, err := c.Read(make([]byte, 1))
	must.ErrorIs(t, err, os.ErrDeadlineExceeded)
	c.enter(phaseHandling)
	c.enter(phaseBody) // a fresh phase, whose own deadline is an hour away
	go func(client net.Conn) { _, _ = client.Write([]byte("late")) }(client)
	_, err = c.Read(make([]byte, 4))
	must.ErrorIs(t, err, os.ErrDeadlineExceeded, "given up for good")

	clock.set(real) // accepted now: within the grace
	client2 := pl.dial(t)
	c = accept(t, l)
	readN(t, c, client2, 3)
	l.mu.Lock()
	assert.Equal(t, int64(3), c.got)
	l.mu.Unlock()

	c.enter(phaseHandling)
	c.enter(phaseIdle)
	later := real.Add(time.Minute)
	clock.set(later)
	readN(t, c, client2, 2)
	l.mu.Lock()
	assert.Equal(t, phaseHead, c.phase, "the next request's first bytes start its head")
	assert.Equal(t, later, c.since)
	assert.Equal(t, int64(2), c.got)
	l.mu.Unlock()
}

// At the cap, a new connection closes the one idle longest, then a slow
// one; never one whose request is being answered, nor one the server has
// not read yet, nor one idle for less than minAge: then it waits.
func TestConnTrackerShedOrder(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := &fakeClock{t: t0}
	l, pl := pipeTracker(t, 3, 0, 0, 100*time.Millisecond, clock)
	ca, cb, cc := pl.dial(t), pl.dial(t), pl.dial(t)
	a, b, c := accept(t, l), accept(t, l), accept(t, l)
	clock.set(t0.Add(time.Second))
	l.ConnState(a, http.StateIdle)
	clock.set(t0.Add(2 * time.Second))
	readN(t, b, cb, 1) // b's head has begun
	l.ConnState(c, http.StateActive)

	clock.set(t0.Add(3 * time.Second))
	cd := pl.dial(t)
	d := accept(t, l)
	assert.True(t, closedByServer(ca), "the idle connection goes first")
	ce := pl.dial(t)
	accept(t, l)
	assert.True(t, closedByServer(cb), "then the slow one")

	// Open: c (answering), d and e (not read yet). f waits.
	pl.dial(t)
	done := make(chan net.Conn, 1)
	go func() {
		f, err := l.Accept()
		if err == nil {
			done <- f
		}
	}()
	select {
	case <-done:
		t.Fatal("a connection answering a request, or not read yet, was closed to make room")
	case <-time.After(100 * time.Millisecond):
	}
	l.ConnState(d, http.StateIdle) // idle since t0+3s, spared until t0+3.1s
	select {
	case <-done:
		t.Fatal("a connection idle for less than minAge was closed to make room")
	case <-time.After(100 * time.Millisecond):
	}
	clock.set(t0.Add(4 * time.Second))
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Accept did not close the connection idle past minAge")
	}
	assert.True(t, closedByServer(cd))
	assert.False(t, closedByServer(cc), "the connection answering a request is open")
	assert.False(t, closedByServer(ce), "the connection not read yet is open")
	l.mu.Lock()
	assert.Equal(t, 3, l.open)
	assert.Equal(t, 3, l.peak)
	l.mu.Unlock()
}

// Of the connections in a head or body, the one whose bytes arrive the
// slowest goes first, not the oldest; one read less than minAge ago is
// spared.
func TestConnTrackerShedsSlowestRate(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := &fakeClock{t: t0}
	l, pl := pipeTracker(t, 2, 0, 0, 100*time.Millisecond, clock)
	cx, cy := pl.dial(t), pl.dial(t)
	x := accept(t, l) // since t0
	clock.set(t0.Add(5 * time.Second))
	y := accept(t, l) // since t0+5s
	clock.set(t0.Add(10 * time.Second))
	readN(t, x, cx, 100)
	readN(t, y, cy, 10)
	clock.set(t0.Add(11 * time.Second)) // x: 9 bytes/s; y: 1.7 bytes/s
	cz := pl.dial(t)
	z := accept(t, l)
	assert.True(t, closedByServer(cy), "the slower one")
	assert.False(t, closedByServer(cx), "the older, faster one")

	// x's request is being answered; z is read but has sent nothing:
	// spared for minAge, then closed.
	l.ConnState(x, http.StateActive)
	go func() { _, _ = z.Read(make([]byte, 1)) }()
	must.Eventually(t, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return z.list != nil
	}, 5*time.Second, time.Millisecond)
	pl.dial(t)
	done := make(chan struct{})
	go func() {
		if _, err := l.Accept(); err == nil {
			close(done)
		}
	}()
	select {
	case <-done:
		t.Fatal("a connection just read, with nothing sent yet, was closed to make room")
	case <-time.After(100 * time.Millisecond):
	}
	clock.set(t0.Add(12 * time.Second))
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Accept did not close the silent connection past minAge")
	}
	assert.True(t, closedByServer(cz))
}

// Out of file descriptors, Accept closes an idle or slow connection,
// however young, and accepts again; with none, it returns the error.
func TestConnTrackerOutOfFiles(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l, pl := pipeTracker(t, 0, 0, 0, time.Hour, clock)
	emfile := &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept", syscall.EMFILE)}

	ca := pl.dial(t)
	a := accept(t, l)
	pl.errs <- emfile
	_, err := l.Accept()
	must.ErrorIs(t, err, syscall.EMFILE, "nothing to close: the server backs off")

	l.ConnState(a, http.StateIdle)
	pl.errs <- emfile
	pl.dial(t)
	accept(t, l)
	assert.True(t, closedByServer(ca), "the idle connection made room")
}

// A read the server's own deadline ends (net/http moves it to the past to
// end its background read, which may start while the body phase has not
// ended yet) does not count as too slow: the connection serves on.
func TestTrackedConnServerDeadlineIsNotTooSlow(t *testing.T) {
	clock := &fakeClock{t: time.Now()}
	l, pl := pipeTracker(t, 0, 500, 5*time.Second, 0, clock)
	client := pl.dial(t)
	c := accept(t, l)
	c.enter(phaseBody)
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 1))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond) // let the read wait
	must.NoError(t, c.SetReadDeadline(time.Unix(1, 0)))
	select {
	case err := <-done:
		must.ErrorIs(t, err, os.ErrDeadlineExceeded)
	case <-time.After(5 * time.Second):
		t.Fatal("the read did not end at the server's deadline")
	}
	l.mu.Lock()
	assert.False(t, c.tooSlow)
	l.mu.Unlock()

	must.NoError(t, c.SetReadDeadline(time.Time{}))
	readN(t, c, client, 4)
}
