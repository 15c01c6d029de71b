package sandbox_test

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// scheduledWork starts a sandbox on a running clock holding one of each
// kind of work that waits on the clock: a webhook retry (its receiver
// answers 500), an automatic KYC decision and a bank verification, all an
// hour away (and the account that one is for). It returns the sandbox, its server, the customer awaiting a
// decision and the receiver.
func scheduledWork(t *testing.T) (*sandbox.Sandbox, *sandbox.Server, sandbox.Customer, *httptest.Server) {
	t.Helper()
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	t.Cleanup(hooks.Close)
	sb := sandbox.New(func(s *sandbox.Settings) {
		s.KYCAutoDecision = time.Hour
		s.BankVerificationDelay = time.Hour
		s.WebhookInitialBackoff = time.Hour
		s.WebhookMaxBackoff = time.Hour
	})
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	o, err := sb.AddOrganization(sandbox.Organization{Name: "Waits", WebhookURL: hooks.URL})
	require.NoError(t, err)
	verified, err := sb.AddCustomer(sandbox.Customer{OrganizationID: o.ID, Name: "Verified"})
	require.NoError(t, err)
	waiting, err := sb.AddCustomer(sandbox.Customer{OrganizationID: o.ID, Name: "Waiting", KYCStatus: types.KYCUnverified})
	require.NoError(t, err)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	client, err := srv.Client(o, fiatramp.WithHTTPClient(&http.Client{Transport: tr}), fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)

	_, err = client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: verified.ID, VPA: "waits@upi"})
	require.NoError(t, err)
	require.NoError(t, sb.SetKYCStatus(waiting.ID, types.KYCUnverified))
	require.NoError(t, client.Do(ctx(t), http.MethodPost, "/cms/api/v1/kyc/add-kyc-data", map[string]any{
		"customer_id": waiting.ID.String(), "full_name": "Waiting", "phone": "+919800000001",
		"full_address": "1 Road", "dob": "01-01-1990", "tax_number": "ABCDE1234F",
		"document_type": "PASSPORT", "document_front_image_url": "https://example.com/f.png",
		"document_details": map[string]any{"document_number": "P1234567"},
	}, nil))
	simulated, err := client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: verified.ID, VPA: "simulated@upi"})
	require.NoError(t, err)
	_, err = client.Customers.SimulateBankVerification(ctx(t), verified.ID, simulated.ID, types.BankAccountVerified)
	require.NoError(t, err)
	// The BANK webhook fails once and waits an hour for its retry.
	require.Eventually(t, func() bool {
		_, ok := sb.NextDeliveryDue()
		return ok
	}, 5*time.Second, time.Millisecond)
	tr.CloseIdleConnections()
	return sb, srv, waiting, hooks
}

// TestSchedulerOneTimer: however many kinds and pieces of work wait on
// the clock, one timer waits for the earliest.
func TestSchedulerOneTimer(t *testing.T) {
	sb, _, _, _ := scheduledWork(t)
	assert.Equal(t, 1, sandbox.Timers(sb))
	sb.SetTime(sb.Now())
	assert.Equal(t, 0, sandbox.Timers(sb), "a stopped clock needs no timer: SetTime and Advance run what comes due")
}

// TestSchedulerCloseStopsEverything: after Close no timer is set and no
// goroutine of the sandbox is left; work that was waiting never runs,
// even when the clock is moved past it.
func TestSchedulerCloseStopsEverything(t *testing.T) {
	sb, srv, waiting, hooks := scheduledWork(t)
	require.Equal(t, 1, sandbox.Timers(sb))
	require.NoError(t, srv.Close())
	hooks.Close()
	assert.Equal(t, 0, sandbox.Timers(sb))
	sb.Advance(2 * time.Hour)
	assert.Equal(t, 0, sandbox.Timers(sb), "nothing is scheduled after Close")
	c, _ := sb.Customer(waiting.ID)
	assert.Equal(t, types.KYCProcessing, c.KYCStatus, "the decision was dropped")
	var left []string
	assert.Eventually(t, func() bool { left = sandboxGoroutines(); return len(left) == 0 }, 5*time.Second, 10*time.Millisecond)
	assert.Empty(t, left, "goroutines running the sandbox's code after Close")
}

// sandboxGoroutines returns the stacks of the goroutines running the
// sandbox package's own code (not its tests').
func sandboxGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "fiatramp-go/sandbox.") && !strings.Contains(g, "sandbox_test.") {
			out = append(out, g)
		}
	}
	return out
}

// TestSchedulerResetStopsEverything: Reset drops what waits on the clock
// with the state it belonged to.
func TestSchedulerResetStopsEverything(t *testing.T) {
	sb, _, _, _ := scheduledWork(t)
	sb.Reset()
	assert.Equal(t, 0, sandbox.Timers(sb))
	_, ok := sb.NextDeliveryDue()
	assert.False(t, ok)
	sb.Advance(2 * time.Hour)
	assert.Equal(t, 0, sandbox.Timers(sb))
	assert.Empty(t, sb.Deliveries())
}

// TestSchedulerRunsDueWork: moving the clock past the waits runs each
// kind: the decision, the verification and the retry.
func TestSchedulerRunsDueWork(t *testing.T) {
	sb, _, waiting, _ := scheduledWork(t)
	sb.Advance(time.Hour + time.Second)
	c, _ := sb.Customer(waiting.ID)
	assert.Equal(t, types.KYCVerified, c.KYCStatus)
	require.NoError(t, sb.DeliverDue(ctx(t)))
	var retried, verified bool
	for _, d := range sb.Deliveries() {
		if d.Event == string(types.BankAccountVerified) && len(d.Attempts) == 2 {
			retried = true
		}
		if d.Event == string(types.KYCVerified) && d.Type == sandbox.EventTypeCustomer {
			verified = true
		}
	}
	assert.True(t, retried, "the failed delivery was attempted again")
	assert.True(t, verified, "the decision's webhook was sent")
	n := 0
	for _, d := range sb.Deliveries() {
		if d.Type == sandbox.EventTypeBank {
			n++
		}
	}
	assert.Equal(t, 2, n, "the simulated account's, then the one the clock verified; the simulated one is not verified again")
}
