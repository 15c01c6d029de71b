package fiatramptest

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
)

// Balance is the prefunded balance, in USDT, of the organization NewClient
// adds.
const Balance = 1000

// Sandbox is the service behind a client of NewClient: the in-memory
// sandbox (embedded: its fixtures, faults, clock and webhook deliveries),
// the server it is served on over loopback, and the organization the
// client signs as.
type Sandbox struct {
	*sandbox.Sandbox
	// Server serves the sandbox on a loopback port; Server.URL is the
	// client's base URL.
	Server *sandbox.Server
	// Organization is the organization the client signs as: prefunded
	// with Balance USDT, with no webhook URL until the test sets one
	// (SetWebhookURL).
	Organization sandbox.Organization
}

// NewClient starts a sandbox with one prefunded organization, serves it
// on a loopback port and returns a client signing as that organization,
// with fiatramp's options opts applied last (so they may change anything;
// see sandbox.Server.Client for the defaults). The client's clock is the
// sandbox's, so sb.Advance never pushes its signatures out of the window.
// Both stop when the test ends. A failure to start fails the test at once.
func NewClient(t testing.TB, opts ...fiatramp.Option) (*fiatramp.Client, *Sandbox) {
	t.Helper()
	sb := sandbox.New()
	org, err := sb.AddOrganization(sandbox.Organization{
		Name:      "Test Organization",
		Prefunded: true,
		Balances:  map[string]decimal.Decimal{"USDT": decimal.NewFromInt(Balance)},
	})
	if err != nil {
		_ = sb.Close()
		t.Fatalf("fiatramptest: add organization: %v", err)
	}
	srv, err := sandbox.NewServer(sb)
	if err != nil {
		_ = sb.Close()
		t.Fatalf("fiatramptest: serve the sandbox: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	client, err := srv.Client(org, opts...)
	if err != nil {
		t.Fatalf("fiatramptest: new client: %v", err)
	}
	return client, &Sandbox{Sandbox: sb, Server: srv, Organization: org}
}
