package sandbox

import (
	"errors"
	"io"
	"log"
	"net"
	"net/http"
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
}

// NewServer serves sb on a free loopback port until Close.
func NewServer(sb *Sandbox) (*Server, error) {
	return Listen(sb, "127.0.0.1:0")
}

// Listen serves sb on addr (host:port; port 0 picks a free one) until
// Close.
func Listen(sb *Sandbox, addr string) (*Server, error) {
	if sb == nil {
		return nil, errors.New("sandbox: Listen: nil Sandbox")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{
		URL:     "http://" + ln.Addr().String(),
		sandbox: sb,
		srv: &http.Server{
			Handler:           sb,
			ReadHeaderTimeout: 10 * time.Second,
			ErrorLog:          log.New(io.Discard, "", 0),
		},
		done: make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return s, nil
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
