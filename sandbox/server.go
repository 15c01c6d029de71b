package sandbox

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/internal/connguard"
)

// Server is a Sandbox served over HTTP on a local address.
type Server struct {
	// URL is the base URL of the service, e.g. http://127.0.0.1:41234,
	// with no trailing slash: give it to fiatramp.WithBaseURL.
	URL string

	sandbox *Sandbox
	srv     *http.Server
	conns   *connguard.Listener
	done    chan struct{}
	// controlToken returns the admin token ("" when the control plane is
	// off); a closure, so that no formatting of a Server prints it.
	controlToken func() string
}

// ServerSettings are the limits a Server holds its connections to, so that
// slow, idle or numerous connections cannot hold it, nor keep it from
// answering other callers. A zero duration, MaxConns or MinReadRate means
// no limit (a zero IdleTimeout falls back to ReadTimeout, as in net/http;
// a zero ReadRateGrace turns the minimum rate off); negative values are
// refused.
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
	// FaultDelay or FaultDelayAfter does not count against it.
	WriteTimeout time.Duration
	// IdleTimeout is how long a kept-alive connection may wait for its next
	// request before it is closed (default 120 seconds).
	IdleTimeout time.Duration
	// MaxConns is the most connections open at once (default 4096): it
	// bounds the memory they hold, about 20 KB each, some 80 MB at the
	// default. A new connection over the cap closes an open one to make
	// room: the kept-alive connection idle longest between requests, once
	// idle 100 ms; else, of the connections sending a request head or
	// body, the one whose bytes have arrived the slowest since it began,
	// once it has been at it for 100 ms (a new connection counts from the
	// server's first read), time for a client to write. Only while every
	// open connection has its request being answered, or is spared, does
	// a new one wait to be accepted. So idle and slow connections cannot
	// keep another caller from being served. Beyond the cap, a caller also
	// waits for the connections queued before its own to be accepted in
	// turn, at worst 100 ms for every MaxConns of them (with 2,000 idle
	// and slow connections held against a cap of 256, 0.7 s). When the
	// process runs out of file descriptors, accepting closes an idle or
	// slow connection in the same way, however young.
	MaxConns int
	// MinReadRate is the slowest, in bytes per second, that a request head
	// or body may arrive once ReadRateGrace has passed (default 500). A
	// head is counted from when a new connection is accepted, or from the
	// first byte of a kept-alive connection's next request; a body from
	// the end of its head. When fewer than MinReadRate bytes per second of
	// the time past the grace have arrived, the server gives up on it: a
	// head by closing the connection, a body as ReadTimeout does, with a
	// 408. With the defaults, a connection that sends nothing is closed
	// after 5 seconds, and a 1,000-byte head must be in within 7 seconds.
	MinReadRate int
	// ReadRateGrace is how long a request head or body may take before
	// MinReadRate applies to it (default 5 seconds).
	ReadRateGrace time.Duration
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
		MaxConns:          4096,
		MinReadRate:       500,
		ReadRateGrace:     5 * time.Second,
	}
}

// ServerOption changes the limits a Server is started with.
type ServerOption func(*ServerSettings)

// check refuses negative limits.
func (st ServerSettings) check() error {
	for name, d := range map[string]time.Duration{
		"ReadHeaderTimeout": st.ReadHeaderTimeout, "ReadTimeout": st.ReadTimeout,
		"WriteTimeout": st.WriteTimeout, "IdleTimeout": st.IdleTimeout,
		"ReadRateGrace": st.ReadRateGrace,
	} {
		if d < 0 {
			return fmt.Errorf("sandbox: Listen: %s %v is negative", name, d)
		}
	}
	if st.MaxConns < 0 {
		return fmt.Errorf("sandbox: Listen: MaxConns %d is negative", st.MaxConns)
	}
	if st.MinReadRate < 0 {
		return fmt.Errorf("sandbox: Listen: MinReadRate %d is negative", st.MinReadRate)
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
		if sb.isAPISecret(t) {
			return nil, errors.New("sandbox: control token: is an organization's API secret; the admin token must be its own")
		}
		h, token = ctl, t
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	conns := connguard.New(ln, st.MaxConns, int64(st.MinReadRate), st.ReadRateGrace, connguard.ShedMinAge, time.Now)
	s := &Server{
		URL:     "http://" + ln.Addr().String(),
		sandbox: sb,
		conns:   conns,
		srv: &http.Server{
			Handler:           conns.BodyRate(h),
			ConnState:         conns.ConnState,
			ConnContext:       conns.ConnContext,
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
		_ = s.srv.Serve(conns) // returns http.ErrServerClosed on Close
	}()
	return s, nil
}

// writeTimeoutHandler tells the sandbox the server's WriteTimeout, so a
// FaultDelay or FaultDelayAfter can give the answer its full time after
// the delay.
type writeTimeoutHandler struct {
	sb *Sandbox
	d  time.Duration
}

func (h writeTimeoutHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.sb.serveHTTP(w, r, h.d)
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

// isAPISecret reports whether token is the API secret of an organization
// s holds (compared in constant time).
func (s *Sandbox) isAPISecret(token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.st.orgs {
		if subtle.ConstantTimeCompare([]byte(o.APISecret), []byte(token)) == 1 {
			return true
		}
	}
	return false
}
