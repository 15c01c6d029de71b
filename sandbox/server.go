package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// Server is a Sandbox served over HTTP on a local address.
type Server struct {
	// URL is the base URL of the service, e.g. http://127.0.0.1:41234,
	// with no trailing slash: give it to fiatramp.WithBaseURL.
	URL string

	sandbox *Sandbox
	srv     *http.Server
	done    chan struct{}
	// controlToken returns the admin token ("" when the control plane is
	// off); a closure, so that no formatting of a Server prints it.
	controlToken func() string
}

// ServerSettings are the limits a Server holds its connections to, so that
// slow, idle or numerous connections cannot hold it. A zero duration or
// MaxConns means no limit (a zero IdleTimeout falls back to ReadTimeout, as
// in net/http); negative values are refused.
type ServerSettings struct {
	// ReadHeaderTimeout is how long a connection may take to send a
	// request's headers, counted from the request's first byte or, for a
	// new connection, from when it is accepted (default 10 seconds).
	ReadHeaderTimeout time.Duration
	// ReadTimeout is how long a connection may take to send a whole
	// request, headers and body (default 30 seconds). A body cut off by it
	// is answered 408 and the connection is closed; nothing is done.
	ReadTimeout time.Duration
	// WriteTimeout is how long a request may take from the end of its
	// headers to the end of the answer (default 60 seconds). The wait of a
	// FaultDelay does not count against it.
	WriteTimeout time.Duration
	// IdleTimeout is how long a kept-alive connection may wait for its next
	// request before it is closed (default 120 seconds).
	IdleTimeout time.Duration
	// MaxConns is the most connections served at once (default 256). A
	// connection over the cap waits to be accepted until another closes.
	MaxConns int
	// Control serves the control plane under ControlPrefix, guarded by
	// ControlToken (generated when empty); off by default. See
	// WithControl.
	Control      bool
	ControlToken string
}

// DefaultServerSettings returns the limits NewServer and Listen use when no
// ServerOption changes them.
func DefaultServerSettings() ServerSettings {
	return ServerSettings{
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxConns:          256,
	}
}

// ServerOption changes the limits a Server is started with.
type ServerOption func(*ServerSettings)

// check refuses negative limits.
func (st ServerSettings) check() error {
	for name, d := range map[string]time.Duration{
		"ReadHeaderTimeout": st.ReadHeaderTimeout, "ReadTimeout": st.ReadTimeout,
		"WriteTimeout": st.WriteTimeout, "IdleTimeout": st.IdleTimeout,
	} {
		if d < 0 {
			return fmt.Errorf("sandbox: Listen: %s %v is negative", name, d)
		}
	}
	if st.MaxConns < 0 {
		return fmt.Errorf("sandbox: Listen: MaxConns %d is negative", st.MaxConns)
	}
	return nil
}

// NewServer serves sb on a free loopback port until Close, with
// DefaultServerSettings changed by opts.
func NewServer(sb *Sandbox, opts ...ServerOption) (*Server, error) {
	return Listen(sb, "127.0.0.1:0", opts...)
}

// Listen serves sb on addr (host:port; port 0 picks a free one) until
// Close, with DefaultServerSettings changed by opts.
func Listen(sb *Sandbox, addr string, opts ...ServerOption) (*Server, error) {
	if sb == nil {
		return nil, errors.New("sandbox: Listen: nil Sandbox")
	}
	st := DefaultServerSettings()
	for _, o := range opts {
		o(&st)
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	var h http.Handler = sb
	if st.WriteTimeout > 0 {
		h = writeTimeoutHandler{sb, st.WriteTimeout}
	}
	var token string
	if st.Control {
		ctl, t, err := newControl(sb, st.ControlToken, h, st.WriteTimeout)
		if err != nil {
			return nil, err
		}
		h, token = ctl, t
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if st.MaxConns > 0 {
		ln = newLimitListener(ln, st.MaxConns)
	}
	s := &Server{
		URL:     "http://" + ln.Addr().String(),
		sandbox: sb,
		srv: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: st.ReadHeaderTimeout,
			ReadTimeout:       st.ReadTimeout,
			WriteTimeout:      st.WriteTimeout,
			IdleTimeout:       st.IdleTimeout,
			ErrorLog:          log.New(io.Discard, "", 0),
		},
		done:         make(chan struct{}),
		controlToken: func() string { return token },
	}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return s, nil
}

// writeTimeoutKey is the request context key of the server's WriteTimeout.
type writeTimeoutKey struct{}

// writeTimeoutHandler tells the sandbox the server's WriteTimeout, so a
// FaultDelay can give the answer its full time after the delay.
type writeTimeoutHandler struct {
	sb *Sandbox
	d  time.Duration
}

func (h writeTimeoutHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.sb.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), writeTimeoutKey{}, h.d)))
}

// limitListener accepts at most cap(sem) connections at once: Accept
// waits while that many are open.
type limitListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func newLimitListener(ln net.Listener, n int) *limitListener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, n), done: make(chan struct{})}
}

// Accept waits for a free slot, then for a connection.
func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

// Close stops accepting, also for an Accept waiting for a slot.
func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn frees its listener slot when closed (once).
type limitConn struct {
	net.Conn
	release func()
	once    sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// CloseWrite half-closes the connection when the underlying one can, as
// net/http does before closing a connection it refused.
func (c *limitConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// Sandbox returns the sandbox s serves.
func (s *Server) Sandbox() *Sandbox { return s.sandbox }

// Client returns a client of s signing as organization o, with its clock
// set to the sandbox's, so SetTime and Advance never push its timestamps
// out of the signature window. opts come after these, so they may change
// anything (fiatramp.WithClock(time.Now) gives the real clock back). The
// client retries with the default policy, which waits a second and more
// between attempts; tests that inject faults usually want
// fiatramp.WithRetry with a millisecond InitialBackoff, or MaxAttempts 1.
func (s *Server) Client(o Organization, opts ...fiatramp.Option) (*fiatramp.Client, error) {
	all := append([]fiatramp.Option{fiatramp.WithBaseURL(s.URL), fiatramp.WithClock(s.sandbox.Now)}, opts...)
	return fiatramp.New(o.APIKey, o.APISecret, all...)
}

// Close stops serving, closes every connection and stops the sandbox's
// webhook deliveries (Sandbox.Close).
func (s *Server) Close() error {
	err := s.srv.Close()
	<-s.done
	_ = s.sandbox.Close()
	return err
}
