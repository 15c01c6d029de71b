package sandbox

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
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

// connTracker is a listener that holds its connections to a cap and to a
// minimum read rate. At the cap, a new connection closes an open one
// instead of waiting behind it: the connection idle longest between
// requests, else the one longest in the middle of a request head or body.
// Only when every open connection has a request being answered does the
// new one wait, unserved, until one closes or falls idle; the connections
// not yet accepted wait in the kernel's queue. The open connections, and
// the memory they hold, so stay at most max plus the one waiting.
//
// A request head or body is given up when, once grace has passed since it
// began, fewer than minRate bytes per second of the time past grace have
// arrived: the read waiting for it fails as a timed-out read does.
type connTracker struct {
	net.Listener
	max     int           // 0: no cap
	minRate int64         // bytes per second; 0: no minimum
	grace   time.Duration // before minRate applies
	now     func() time.Time

	mu    sync.Mutex
	conns map[*trackedConn]struct{}
	peak  int // most connections open at once

	wake      chan struct{} // a slot may have freed; capacity 1
	done      chan struct{} // closed by Close
	closeOnce sync.Once
}

func newConnTracker(ln net.Listener, max int, minRate int64, grace time.Duration, now func() time.Time) *connTracker {
	return &connTracker{
		Listener: ln, max: max, minRate: minRate, grace: grace, now: now,
		conns: make(map[*trackedConn]struct{}),
		wake:  make(chan struct{}, 1),
		done:  make(chan struct{}),
	}
}

// signal wakes an Accept waiting for a slot.
func (l *connTracker) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Accept accepts a connection and makes room for it: at the cap it
// closes the victim chosen by victimLocked, or waits for one.
func (l *connTracker) Accept() (net.Conn, error) {
	raw, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c := &trackedConn{Conn: raw, t: l}
	for {
		l.mu.Lock()
		if l.max == 0 || len(l.conns) < l.max {
			break
		}
		victim := l.victimLocked(l.now())
		if victim != nil {
			delete(l.conns, victim)
			l.mu.Unlock()
			_ = victim.Conn.Close()
			continue
		}
		l.mu.Unlock()
		select {
		case <-l.wake:
		case <-l.done:
			_ = raw.Close()
			return nil, net.ErrClosed
		}
	}
	// l.mu is held.
	c.mu.Lock()
	c.phase, c.since = phaseHead, l.now()
	c.mu.Unlock()
	l.conns[c] = struct{}{}
	l.peak = max(l.peak, len(l.conns))
	l.mu.Unlock()
	return c, nil
}

// victimLocked returns the connection to close to make room, or nil when
// every connection has a request being answered: the one idle longest,
// else the one longest in its request head or body.
func (l *connTracker) victimLocked(now time.Time) *trackedConn {
	var idle, slow *trackedConn
	var idleSince, slowSince time.Time
	for c := range l.conns {
		c.mu.Lock()
		phase, since := c.phase, c.since
		c.mu.Unlock()
		switch phase {
		case phaseIdle:
			if idle == nil || since.Before(idleSince) {
				idle, idleSince = c, since
			}
		case phaseHead, phaseBody:
			if slow == nil || since.Before(slowSince) {
				slow, slowSince = c, since
			}
		}
	}
	if idle != nil {
		return idle
	}
	return slow
}

// Close stops accepting, also for an Accept waiting for a slot.
func (l *connTracker) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// connState follows the server's view of each connection; it is the
// http.Server's ConnState hook.
func (l *connTracker) connState(nc net.Conn, st http.ConnState) {
	c, ok := nc.(*trackedConn)
	if !ok {
		return
	}
	switch st {
	case http.StateActive:
		c.enter(phaseHandling)
	case http.StateIdle:
		c.enter(phaseIdle)
		l.signal()
	case http.StateHijacked, http.StateClosed:
		l.mu.Lock()
		delete(l.conns, c)
		l.mu.Unlock()
		l.signal()
	}
}

// trackedConnKey is the request context key of the request's trackedConn.
type trackedConnKey struct{}

// connContext puts the connection into its requests' context; it is the
// http.Server's ConnContext hook.
func (l *connTracker) connContext(ctx context.Context, nc net.Conn) context.Context {
	if c, ok := nc.(*trackedConn); ok {
		return context.WithValue(ctx, trackedConnKey{}, c)
	}
	return ctx
}

// bodyRate wraps h so that the minimum read rate applies to each request
// body while the handler reads it, counted from when the handler starts.
func (l *connTracker) bodyRate(h http.Handler) http.Handler {
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

// trackedConn is a connection of a connTracker: it counts what arrives in
// its current phase and holds each read to the earlier of the server's
// read deadline and the one the minimum rate sets.
type trackedConn struct {
	net.Conn
	t *connTracker

	mu       sync.Mutex
	phase    connPhase
	since    time.Time // start of the phase
	got      int64     // bytes read in the phase
	deadline time.Time // the server's read deadline
}

// rateDeadline is when a head or body that began at since, with got bytes
// arrived, falls below rate bytes per second counted after grace: the
// time by which its next byte must arrive.
func rateDeadline(since time.Time, got int64, rate int64, grace time.Duration) time.Time {
	return since.Add(grace + time.Duration(got)*time.Second/time.Duration(rate))
}

// readDeadlineLocked is the deadline the next read is held to.
func (c *trackedConn) readDeadlineLocked() time.Time {
	if c.t.minRate == 0 || c.t.grace == 0 || (c.phase != phaseHead && c.phase != phaseBody) {
		return c.deadline
	}
	rd := rateDeadline(c.since, c.got, c.t.minRate, c.t.grace)
	if c.deadline.IsZero() || rd.Before(c.deadline) {
		return rd
	}
	return c.deadline
}

// enter starts phase p, and holds a read already waiting to its deadline.
func (c *trackedConn) enter(p connPhase) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.phase == p {
		return
	}
	c.phase, c.since, c.got = p, c.t.now(), 0
	_ = c.Conn.SetReadDeadline(c.readDeadlineLocked())
	if p != phaseHandling {
		c.t.signal() // one more connection that may make room
	}
}

func (c *trackedConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	_ = c.Conn.SetReadDeadline(c.readDeadlineLocked())
	c.mu.Unlock()
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		if c.phase == phaseIdle {
			// The next request's first bytes: its head begins now.
			c.phase, c.since, c.got = phaseHead, c.t.now(), 0
		}
		c.got += int64(n)
		c.mu.Unlock()
	}
	return n, err
}

// SetReadDeadline sets the server's read deadline; reads are held to it
// or to the minimum rate's, whichever is earlier.
func (c *trackedConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.deadline = t
	return c.Conn.SetReadDeadline(c.readDeadlineLocked())
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
	c.t.mu.Lock()
	delete(c.t.conns, c)
	c.t.mu.Unlock()
	c.t.signal()
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
