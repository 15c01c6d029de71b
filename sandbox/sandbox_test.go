package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// epoch is the frozen sandbox time every env starts at.
var epoch = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

// env is a sandbox served on loopback with one prefunded organization, a
// verified customer with a bank account and a UPI address, and a client
// signing as that organization whose clock follows the sandbox's.
type env struct {
	t      testing.TB
	sb     *sandbox.Sandbox
	srv    *sandbox.Server
	org    sandbox.Organization
	client *fiatramp.Client
	cust   sandbox.Customer
	bank   sandbox.BankAccount // type bank_account, VERIFIED
	vpa    sandbox.BankAccount // type vpa, VERIFIED
}

// newEnv starts an env; the server closes when the test ends.
func newEnv(t testing.TB, opts ...sandbox.Option) *env {
	t.Helper()
	sb := sandbox.New(opts...)
	sb.SetTime(epoch)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	e := &env{t: t, sb: sb, srv: srv}
	e.org = e.must(sb.AddOrganization(sandbox.Organization{
		Name: "Acme Payouts", Prefunded: true,
		Balances: map[string]decimal.Decimal{"USDT": decimal.NewFromInt(1000)},
	})).(sandbox.Organization)
	e.client = e.clientFor(e.org)
	e.cust = e.customer(e.org, sandbox.Customer{Name: "Asha Rao"})
	e.bank = e.must(sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, AccountName: "Asha Rao"})).(sandbox.BankAccount)
	e.vpa = e.must(sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, Type: types.BankAccountTypeVPA, VPA: "asha@upi"})).(sandbox.BankAccount)
	return e
}

// must fails the test on err and returns v.
func (e *env) must(v any, err error) any {
	e.t.Helper()
	require.NoError(e.t, err)
	return v
}

// clientFor returns a client signing as o, on the sandbox clock. Retries
// are off, so that each call is one request and a fault reaches the test;
// the soak test covers the retries against the sandbox.
func (e *env) clientFor(o sandbox.Organization, opts ...fiatramp.Option) *fiatramp.Client {
	e.t.Helper()
	base := []fiatramp.Option{fiatramp.WithClock(e.sb.Now), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1})}
	c, err := e.srv.Client(o, append(base, opts...)...)
	require.NoError(e.t, err)
	return c
}

// customer adds c to o.
func (e *env) customer(o sandbox.Organization, c sandbox.Customer) sandbox.Customer {
	e.t.Helper()
	c.OrganizationID = o.ID
	return e.must(e.sb.AddCustomer(c)).(sandbox.Customer)
}

// org adds another organization.
func (e *env) otherOrg(prefunded bool) sandbox.Organization {
	e.t.Helper()
	return e.must(e.sb.AddOrganization(sandbox.Organization{Name: "Other Org", Prefunded: prefunded})).(sandbox.Organization)
}

// quotation adds a payout quotation of 10 USDT for the env's customer,
// paying to its bank account, changed by mod.
func (e *env) quotation(mod ...func(*sandbox.Quotation)) sandbox.Quotation {
	e.t.Helper()
	q := sandbox.Quotation{
		CustomerID:    e.cust.ID,
		BankID:        e.bank.ID,
		SendingAmount: decimal.RequireFromString("10.5"),
		Rate:          decimal.RequireFromString("88.25"),
		Fees: sandbox.Fees{
			ServiceFee: decimal.RequireFromString("4.5"),
			ServiceGST: decimal.RequireFromString("0.81"),
			TDS:        decimal.RequireFromString("9.27"),
		},
	}
	for _, m := range mod {
		m(&q)
	}
	return e.must(e.sb.AddQuotation(q)).(sandbox.Quotation)
}

// ctx returns a context for one call.
func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

// refused asserts err is an *APIError with status and message (exactly,
// as the sandbox wrote it) that matches every sentinel of want.
func refused(t testing.TB, err error, status int, message string, want ...error) *fiatramp.APIError {
	t.Helper()
	var apiErr *fiatramp.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, status, apiErr.StatusCode, "status")
	assert.Equal(t, message, apiErr.Message, "message")
	for _, w := range want {
		assert.True(t, errors.Is(err, w), "errors.Is(err, %v) for %v", w, err)
	}
	return apiErr
}

// rawData returns the data member of a captured success body.
func rawData(t testing.TB, body []byte) map[string]json.RawMessage {
	t.Helper()
	var env struct {
		Status bool                       `json:"status"`
		Data   map[string]json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &env), string(body))
	require.True(t, env.Status, string(body))
	return env.Data
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

var _ = uuid.Nil

func TestClock(t *testing.T) {
	// A new sandbox runs on real time.
	sb := sandbox.New()
	before := time.Now()
	now := sb.Now()
	assert.False(t, now.Before(before.Add(-time.Second)))
	assert.False(t, now.After(time.Now().Add(time.Second)))
	time.Sleep(20 * time.Millisecond)
	assert.True(t, sb.Now().After(now), "running")

	// Advance moves a running clock, which keeps running.
	sb.Advance(time.Hour)
	ahead := time.Until(sb.Now())
	assert.InDelta(t, float64(time.Hour), float64(ahead), float64(time.Second))
	sb.Advance(-2 * time.Hour)
	behind := time.Since(sb.Now())
	assert.InDelta(t, float64(time.Hour), float64(behind), float64(time.Second))
	t1 := sb.Now()
	time.Sleep(20 * time.Millisecond)
	assert.True(t, sb.Now().After(t1), "still running")

	// SetTime freezes.
	at := time.Date(2030, 1, 2, 3, 4, 5, 6000, time.UTC)
	sb.SetTime(at)
	assert.Equal(t, at, sb.Now())
	time.Sleep(20 * time.Millisecond)
	assert.Equal(t, at, sb.Now(), "frozen")

	// Advance moves a frozen clock exactly, and it stays frozen.
	sb.Advance(90 * time.Second)
	assert.Equal(t, at.Add(90*time.Second), sb.Now())
	sb.Advance(-time.Hour)
	assert.Equal(t, at.Add(90*time.Second-time.Hour), sb.Now())
	time.Sleep(10 * time.Millisecond)
	assert.Equal(t, at.Add(90*time.Second-time.Hour), sb.Now())

	// SetTime again replaces the time.
	sb.SetTime(at)
	assert.Equal(t, at, sb.Now())
}

// The clock governs quotation expiry and the fixture defaults.
func TestClockDrivesExpiry(t *testing.T) {
	e := newEnv(t)
	q := e.quotation() // expires at epoch + 10 min
	assert.Equal(t, epoch.Add(10*time.Minute), q.ExpiresAt)
	e.sb.Advance(10*time.Minute + time.Second)
	_, err := faultPayout(t, e, e.client, q, "")
	refused(t, err, http.StatusBadRequest, "Quotation has expired", fiatramp.ErrQuotationExpired)
	e.sb.SetTime(epoch)
	p, err := faultPayout(t, e, e.client, q, "")
	require.NoError(t, err)
	assert.Equal(t, epoch, p.CreatedAt.UTC(), "created at the sandbox time")
}
