// Package connguard is the sandbox server's guard over its connections:
// a listener that holds them to a cap and to a minimum read rate, so that
// slow, idle or numerous connections cannot keep the server from
// answering other callers. It uses nothing of the sandbox.
package connguard

import (
	"container/list"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"
)

// connPhase is where a served connection is in its request cycle.
type connPhase int

const (
	// phaseHead: a request head is arriving (a new connection starts here).
	phaseHead connPhase = iota
	// phaseBody: the handler is reading the request body.
	phaseBody
	// phaseHandling: the request has arrived and is being answered.
	phaseHandling
	// phaseIdle: a kept-alive connection waits for its next request and
	// has sent none of it yet.
	phaseIdle
)

// Listener is a listener that holds its connections to a cap and to a
// minimum read rate. At the cap, a new connection closes an open one
// instead of waiting behind it, as victimLocked chooses: idle ones first,
// then slow ones. Only when every open connection has a request being
// answered, or is spared for now, does the new one wait, unserved, until
// one closes, falls idle or stops being spared; the connections not yet
// accepted wait in the kernel's queue. The open connections, and the
// memory they hold, so stay at most max plus the one waiting. When the
// process runs out of file descriptors, an accept closes an idle or slow
// connection in the same way, however young, and tries again.
//
// A request head or body is given up when, once grace has passed since it
// began, fewer than minRate bytes per second of the time past grace have
// arrived: the read waiting for it fails as a timed-out read does, and so
// does every later read of the connection.
type Listener struct {
	net.Listener
	max     int           // 0: no cap
	minRate int64         // bytes per second; 0: no minimum
	grace   time.Duration // before minRate applies; 0: no minimum
	minAge  time.Duration // on a list before it may be closed to make room
	now     func() time.Time

	// mu guards the tracker and every field of its connections but the
	// embedded net.Conn.
	mu    sync.Mutex
	open  int           // connections accepted and not closed
	peak  int           // most connections open at once
	idle  list.List     // *trackedConn in phaseIdle, longest idle first
	slow  list.List     // *trackedConn in phaseHead or phaseBody
	wake  chan struct{} // a slot may have freed; capacity 1
	done  chan struct{} // closed by Close
	close sync.Once
}

// New returns a Listener over ln: at most max connections open (0: no
// cap), request heads and bodies arriving at minRate bytes per second or
// more once grace has passed (either 0: no minimum), a connection idle or
// slow for minAge before it may be closed to make room, time read from
// now.
func New(ln net.Listener, max int, minRate int64, grace, minAge time.Duration, now func() time.Time) *Listener {
	return &Listener{
		Listener: ln, max: max, minRate: minRate, grace: grace, minAge: minAge, now: now,
		wake: make(chan struct{}, 1),
		done: make(chan struct{}),
	}
}

// signal wakes an Accept waiting for a slot.
func (l *Listener) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Accept accepts a connection and makes room for it: at the cap it
// closes the connection victimLocked chooses, or waits for one.
func (l *Listener) Accept() (net.Conn, error) {
	raw, err := l.Listener.Accept()
	for err != nil {
		if !errors.Is(err, syscall.EMFILE) && !errors.Is(err, syscall.ENFILE) {
			return nil, err
		}
		// Out of file descriptors: free one held by an idle or slow
		// connection, however young, else let the server back off and
		// call again.
		l.mu.Lock()
		v, _ := l.victimLocked(0)
		l.mu.Unlock()
		if v == nil {
			return nil, err
		}
		_ = v.Close()
		raw, err = l.Listener.Accept()
	}
	for {
		l.mu.Lock()
		if l.max == 0 || l.open < l.max {
			break
		}
		v, retry := l.victimLocked(l.minAge)
		l.mu.Unlock()
		if v != nil {
			_ = v.Close()
			continue
		}
		var timeout <-chan time.Time
		var timer *time.Timer
		if !retry.IsZero() {
			timer = time.NewTimer(retry.Sub(l.now()))
			timeout = timer.C
		}
		closed := false
		select {
		case <-l.wake:
		case <-timeout:
		case <-l.done:
			closed = true
		}
		if timer != nil {
			timer.Stop()
		}
		if closed {
			_ = raw.Close()
			return nil, net.ErrClosed
		}
	}
	// l.mu is held. A new connection cannot be judged slow before the
	// server has tried to read it: it is listed at its first read.
	c := &trackedConn{Conn: raw, t: l, phase: phaseHead, since: l.now()}
	l.open++
	l.peak = max(l.peak, l.open)
	l.mu.Unlock()
	return c, nil
}

// victimLocked returns the connection to close to make room: the one idle
// longest, if idle for minAge; else, of the connections in a request head
// or body, the one whose bytes have arrived the slowest since it began
// (the longest in it among those with none). A connection listed less
// than minAge ago is spared: the server may have read it just before its
// client wrote, or just before it read the rest of a head. It takes
// the victim off its list, so that no other caller chooses it too. When
// there is none, it returns when one will be, or the zero time when no
// connection is listed: every open one has a request being answered, or
// has not been read yet.
func (l *Listener) victimLocked(minAge time.Duration) (*trackedConn, time.Time) {
	now := l.now()
	var retry time.Time
	later := func(at time.Time) {
		if retry.IsZero() || at.Before(retry) {
			retry = at
		}
	}
	if e := l.idle.Front(); e != nil {
		c := e.Value.(*trackedConn)
		if at := c.listed.Add(minAge); now.Before(at) {
			later(at)
		} else {
			l.leaveLocked(c)
			c.shed = true
			return c, time.Time{}
		}
	}
	var v *trackedConn
	var vRate float64
	for e := l.slow.Front(); e != nil; e = e.Next() {
		c := e.Value.(*trackedConn)
		if at := c.listed.Add(minAge); now.Before(at) {
			later(at)
			continue
		}
		rate := float64(c.got) / max(now.Sub(c.since).Seconds(), 1e-9)
		if v == nil || rate < vRate || (rate == vRate && c.since.Before(v.since)) {
			v, vRate = c, rate
		}
	}
	if v == nil {
		return nil, retry
	}
	l.leaveLocked(v)
	v.shed = true
	return v, time.Time{}
}

// Close stops accepting, also for an Accept waiting for a slot.
func (l *Listener) Close() error {
	l.close.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// ConnState follows the server's view of each connection; it is the
// http.Server's ConnState hook.
func (l *Listener) ConnState(nc net.Conn, st http.ConnState) {
	c, ok := nc.(*trackedConn)
	if !ok {
		return
	}
	switch st {
	case http.StateActive:
		c.enter(phaseHandling)
	case http.StateIdle:
		c.enter(phaseIdle)
	case http.StateHijacked:
		l.mu.Lock()
		l.leaveLocked(c)
		c.phase = phaseHandling // no longer the server's to close
		l.mu.Unlock()
	}
}

// leaveLocked takes c off the idle and slow lists.
func (l *Listener) leaveLocked(c *trackedConn) {
	if c.elem != nil {
		c.list.Remove(c.elem)
		c.elem, c.list = nil, nil
	}
}

// enterLocked starts phase p of c, and holds a read already waiting to
// its deadline.
func (l *Listener) enterLocked(c *trackedConn, p connPhase) {
	if c.closed || c.shed {
		return
	}
	l.leaveLocked(c)
	c.phase, c.since, c.got = p, l.now(), 0
	switch p {
	case phaseIdle:
		c.list = &l.idle
	case phaseHead, phaseBody:
		c.list = &l.slow
	}
	if c.list != nil {
		c.elem, c.listed = c.list.PushBack(c), c.since
		l.signal() // one more connection that can make room
	}
	_, _ = c.applyDeadlineLocked()
}

// trackedConnKey is the request context key of the request's trackedConn.
type trackedConnKey struct{}

// ConnContext puts the connection into its requests' context; it is the
// http.Server's ConnContext hook.
func (l *Listener) ConnContext(ctx context.Context, nc net.Conn) context.Context {
	if c, ok := nc.(*trackedConn); ok {
		return context.WithValue(ctx, trackedConnKey{}, c)
	}
	return ctx
}

// BodyRate wraps h so that the minimum read rate applies to each request
// body while the handler reads it, counted from when the handler starts.
func (l *Listener) BodyRate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := r.Context().Value(trackedConnKey{}).(*trackedConn)
		if !ok || r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		c.enter(phaseBody)
		defer c.enter(phaseHandling)
		r.Body = &rateBody{ReadCloser: r.Body, c: c}
		h.ServeHTTP(w, r)
	})
}

// rateBody ends its connection's body phase when the body ends.
type rateBody struct {
	io.ReadCloser
	c *trackedConn
}

func (b *rateBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.c.enter(phaseHandling)
	}
	return n, err
}

func (b *rateBody) Close() error {
	b.c.enter(phaseHandling)
	return b.ReadCloser.Close()
}

// trackedConn is a connection of a Listener: it counts what arrives in
// its current phase and holds each read to the earlier of the server's
// read deadline and the one the minimum rate sets. Its fields are guarded
// by the tracker's mu.
type trackedConn struct {
	net.Conn
	t *Listener

	phase    connPhase
	since    time.Time     // start of the phase
	got      int64         // bytes read in the phase
	deadline time.Time     // the server's read deadline
	list     *list.List    // the tracker list c is on, or nil
	elem     *list.Element // c's element of list
	listed   time.Time     // when c was put on list
	read     bool          // the server has tried to read c
	shed     bool          // chosen to be closed to make room
	tooSlow  bool          // a head or body fell below the minimum rate
	closed   bool
	// applied is the read deadline last set on the connection, valid when
	// isApplied: setting the same one again is skipped.
	applied   time.Time
	isApplied bool
}

// rateDeadline is when a head or body that began at since, with got bytes
// arrived, falls below rate bytes per second counted after grace: the
// time by which its next byte must arrive.
func rateDeadline(since time.Time, got int64, rate int64, grace time.Duration) time.Time {
	return since.Add(grace + time.Duration(got)*time.Second/time.Duration(rate))
}

// readDeadlineLocked is the deadline the next read is held to, and
// whether it is the minimum rate's.
func (c *trackedConn) readDeadlineLocked() (time.Time, bool) {
	if c.tooSlow {
		return time.Unix(1, 0), true // long past: every read fails at once
	}
	if c.t.minRate == 0 || c.t.grace == 0 || (c.phase != phaseHead && c.phase != phaseBody) {
		return c.deadline, false
	}
	rd := rateDeadline(c.since, c.got, c.t.minRate, c.t.grace)
	if c.deadline.IsZero() || rd.Before(c.deadline) {
		return rd, true
	}
	return c.deadline, false
}

// applyDeadlineLocked holds the reads of c to readDeadlineLocked.
func (c *trackedConn) applyDeadlineLocked() (bool, error) {
	dl, rate := c.readDeadlineLocked()
	if c.isApplied && dl.Equal(c.applied) {
		return rate, nil
	}
	err := c.Conn.SetReadDeadline(dl)
	c.applied, c.isApplied = dl, err == nil
	return rate, err
}

// enter starts phase p, unless c is already in it.
func (c *trackedConn) enter(p connPhase) {
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	if c.phase != p {
		c.t.enterLocked(c, p)
	}
}

func (c *trackedConn) Read(p []byte) (int, error) {
	c.t.mu.Lock()
	if !c.read {
		c.read = true
		if c.phase == phaseHead && !c.closed && !c.shed {
			c.list, c.elem, c.listed = &c.t.slow, c.t.slow.PushBack(c), c.t.now()
			c.t.signal()
		}
	}
	_, _ = c.applyDeadlineLocked()
	c.t.mu.Unlock()
	n, err := c.Conn.Read(p)
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	if n > 0 {
		if c.phase == phaseIdle {
			// The next request's first bytes: its head begins now.
			c.t.enterLocked(c, phaseHead)
		}
		c.got += int64(n)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// Cut off by the minimum rate, rather than by the server's own
		// deadline (which may have been moved while the read waited, as
		// net/http does to end its background read): given up for good.
		// What the server would still read of this request (the rest of
		// a body) fails at once, and the connection closes.
		if dl, rate := c.readDeadlineLocked(); rate && !c.t.now().Before(dl) {
			c.tooSlow = true
		}
	}
	return n, err
}

// SetReadDeadline sets the server's read deadline; reads are held to it
// or to the minimum rate's, whichever is earlier.
func (c *trackedConn) SetReadDeadline(t time.Time) error {
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	c.deadline = t
	_, err := c.applyDeadlineLocked()
	return err
}

func (c *trackedConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.Conn.SetWriteDeadline(t)
}

// Close closes the connection and frees its slot.
func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	l := c.t
	l.mu.Lock()
	if !c.closed {
		c.closed = true
		l.leaveLocked(c)
		l.open--
	}
	l.mu.Unlock()
	l.signal()
	return err
}

// CloseWrite half-closes the connection when the underlying one can, as
// net/http does before closing a connection it refused.
func (c *trackedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ShedMinAge is how long a connection is idle, or in a request head or
// body, before it may be closed to make room for a new one: time enough
// for a client on a busy machine to send its next bytes.
const ShedMinAge = 100 * time.Millisecond

// Peak returns the most connections open at once so far.
func (l *Listener) Peak() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.peak
}
