package sandbox_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// hook is one POST a receiver got.
type hook struct {
	host   string // the request's Host
	header http.Header
	body   string
	at     time.Time
	status int // what the receiver answered
}

// receiver is a webhook receiver on loopback that records every POST and
// answers what answer says (n counts the POSTs from 1).
type receiver struct {
	t      testing.TB
	srv    *httptest.Server
	mu     sync.Mutex
	got    []hook
	answer func(n int, h hook, r *http.Request) int
}

func newReceiver(t testing.TB, answer func(n int, h hook, r *http.Request) int) *receiver {
	t.Helper()
	rc := &receiver{t: t, answer: answer}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		h := hook{host: r.Host, header: r.Header.Clone(), body: string(body), at: time.Now()}
		rc.mu.Lock()
		n := len(rc.got) + 1
		rc.got = append(rc.got, h)
		rc.mu.Unlock()
		status := http.StatusOK
		if rc.answer != nil {
			status = rc.answer(n, h, r)
		}
		rc.mu.Lock()
		rc.got[n-1].status = status
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) hooks() []hook {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := make([]hook, len(rc.got))
	copy(out, rc.got)
	return out
}

// signedBy reports whether h carries the signature of o over its body,
// computed here independently of fiatramp.Sign.
func signedBy(o sandbox.Organization, h hook) bool {
	m := hmac.New(sha256.New, []byte(o.APISecret))
	m.Write([]byte(o.APIKey + "|" + h.header.Get("X-TIMESTAMP") + "|" + h.body))
	return h.header.Get("X-SIGNATURE") == base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// fastHooks makes retries quick.
func fastHooks(st *sandbox.Settings) {
	st.WebhookInitialBackoff = time.Millisecond
	st.WebhookMaxBackoff = 4 * time.Millisecond
}

// hookEnv is an env whose organization's webhooks go to a receiver.
func hookEnv(t *testing.T, answer func(n int, h hook, r *http.Request) int, opts ...sandbox.Option) (*env, *receiver) {
	t.Helper()
	e := newEnv(t, append([]sandbox.Option{fastHooks}, opts...)...)
	rc := newReceiver(t, answer)
	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, rc.srv.URL+"/hooks"))
	return e, rc
}

// settle delivers everything pending: retries and delays wait on the
// sandbox clock, which tests stop, so it delivers what is due, then moves
// the clock to the next due time, until nothing is pending.
func settle(t testing.TB, sb *sandbox.Sandbox) {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		require.NoError(t, sb.DeliverDue(c))
		next, waiting := sb.NextDeliveryDue()
		if !waiting {
			break
		}
		sb.Advance(next.Sub(sb.Now()))
	}
	require.NoError(t, sb.WaitDeliveries(c))
}

// payout creates a standard payout of the env's customer.
func (e *env) payout() *types.Payout {
	e.t.Helper()
	return e.payout2(e.client)
}

// payout2 creates a standard payout of the env's customer through c.
func (e *env) payout2(c *fiatramp.Client) *types.Payout {
	e.t.Helper()
	q := e.quotation()
	p, err := c.Payouts.Create(ctx(e.t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID})
	require.NoError(e.t, err)
	return p
}

// body is the canonical webhook body: keys sorted, meta already canonical.
func body(typ, id, event, meta string) string {
	return fmt.Sprintf(`{"event":%q,"id":%q,"metadata":%s,"timestamp":"2026-11-21T09:30:00.000000Z","type":%q}`, event, id, meta, typ)
}

func TestWebhookEveryEvent(t *testing.T) {
	e, rc := hookEnv(t, nil)
	var want []string

	for _, to := range []types.PayoutStatus{types.PayoutSuccess, types.PayoutFailed, types.PayoutRefunded, types.PayoutInReview} {
		p := e.payout()
		_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, to)
		require.NoError(t, err)
		stored, _ := e.sb.Payout(p.ID)
		ref := *stored.ClientReferenceID
		var meta string
		switch to {
		case types.PayoutSuccess:
			meta = fmt.Sprintf(`{"client_reference_id":%q,"utr":%q}`, ref, *stored.UTR)
		case types.PayoutFailed:
			meta = fmt.Sprintf(`{"client_reference_id":%q,"failure_reason":%q}`, ref, *stored.FailureReason)
		case types.PayoutRefunded:
			meta = fmt.Sprintf(`{"client_reference_id":%q,"failure_reason":%q,"refund_reason":"Simulated refund: the reserved amount was returned"}`, ref, *stored.FailureReason)
		case types.PayoutInReview:
			meta = fmt.Sprintf(`{"client_reference_id":%q,"rfi_link":"https://rfi.sandbox.invalid/payouts/%s"}`, ref, p.ID)
		}
		want = append(want, body("PAYOUT", p.ID.String(), string(to), meta))
	}

	// KYC: VERIFIED and the failed statuses send events; UNVERIFIED none.
	for _, to := range []types.KYCStatus{types.KYCVerified, types.KYCUnverified, types.KYCTaxVerificationFailed, types.KYCDocumentVerificationFailed} {
		c := e.customer(e.org, sandbox.Customer{Name: "K", KYCStatus: types.KYCProcessing})
		_, err := e.client.KYC.SimulateStatus(ctx(t), c.ID, to)
		require.NoError(t, err)
		switch to {
		case types.KYCVerified:
			want = append(want, body("CUSTOMER", c.ID.String(), "VERIFIED", `{}`))
		case types.KYCUnverified:
		default:
			want = append(want, body("CUSTOMER", c.ID.String(), "FAILED", `{"failure_reason":"`+string(to)+`"}`))
		}
	}

	for _, to := range []types.BankAccountStatus{types.BankAccountVerified, types.BankAccountFailed} {
		b := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, Status: types.BankAccountProcessing})).(sandbox.BankAccount)
		_, err := e.client.Customers.SimulateBankVerification(ctx(t), e.cust.ID, b.ID, to)
		require.NoError(t, err)
		meta := `{}`
		if to == types.BankAccountFailed {
			meta = `{"failure_reason":"NAME_MISMATCH"}`
		}
		want = append(want, body("BANK", b.ID.String(), string(to), meta))
	}

	p1, p2, p3 := payinOn(t, e), payinOn(t, e), payinOn(t, e)
	for _, step := range []struct {
		id uuid.UUID
		to types.PayinStatus
	}{
		{p1.ID, types.PayinSuccess}, {p2.ID, types.PayinFailed}, {p2.ID, types.PayinRefundInitiated},
		{p2.ID, types.PayinRefunded}, {p3.ID, types.PayinOnHold},
	} {
		_, err := e.client.Payins.SimulateStatus(ctx(t), step.id, step.to)
		require.NoError(t, err)
	}
	want = append(want,
		body("PAYIN", p1.ID.String(), "SUCCESS", `{"utr":"`+p1.UTR+`"}`),
		body("PAYIN", p2.ID.String(), "FAILED", `{"failure_reason":"PAYMENT_NOT_RECEIVED"}`),
		body("PAYIN", p2.ID.String(), "REFUND_INITIATED", `{"refund_reason":"INCORRECT_AMOUNT"}`),
		body("PAYIN", p2.ID.String(), "REFUNDED", `{"refund_reason":"INCORRECT_AMOUNT"}`),
		body("PAYIN", p3.ID.String(), "ON_HOLD", `{}`))

	settle(t, e.sb)
	got := rc.hooks()
	bodies := make([]string, len(got))
	for i, h := range got {
		bodies[i] = h.body
		assert.True(t, signedBy(e.org, h), "signed with the organization's key and secret: %s", h.body)
		assert.Equal(t, strconv.FormatInt(epoch.Unix(), 10), h.header.Get("X-TIMESTAMP"), "stamped by the sandbox clock")
		assert.Equal(t, "application/json", h.header.Get("Content-Type"))
		assert.Empty(t, h.header.Get("X-API-KEY"))
	}
	assert.ElementsMatch(t, want, bodies, "one POST per event, byte for byte")

	log := e.sb.Deliveries()
	require.Len(t, log, len(want))
	for i, d := range log {
		assert.Equal(t, i+1, d.Seq)
		assert.Equal(t, want[i], string(d.Body), "log in event order")
		assert.Equal(t, sandbox.DeliveryDelivered, d.State)
		require.Len(t, d.Attempts, 1)
		assert.Equal(t, http.StatusOK, d.Attempts[0].StatusCode)
		assert.Equal(t, rc.srv.URL+"/hooks", d.URL)
	}
}

func TestWebhookWithoutURL(t *testing.T) {
	e := newEnv(t, fastHooks)
	p := e.payout()
	_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
	require.NoError(t, err)
	settle(t, e.sb)
	log := e.sb.Deliveries()
	require.Len(t, log, 1)
	assert.Equal(t, sandbox.DeliveryNoURL, log[0].State)
	assert.Empty(t, log[0].URL)
}

// bankEvent adds a bank account of the env's customer and moves it to
// status, which sends one BANK event; it returns the account's id.
func (e *env) bankEvent(status types.BankAccountStatus) uuid.UUID {
	e.t.Helper()
	b := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, Status: types.BankAccountProcessing})).(sandbox.BankAccount)
	_, err := e.client.Customers.SimulateBankVerification(ctx(e.t), e.cust.ID, b.ID, status)
	require.NoError(e.t, err)
	return b.ID
}

// Nothing leaves the machine unless asked: a webhook URL elsewhere is
// registered as the service would register it, but its deliveries are
// logged not sent, with why, and never attempted; localhost and loopback
// addresses receive them; Settings.AllowRemoteWebhooks sends anywhere
// (here to a host name the test's client dials on loopback).
func TestWebhookOnlyToThisMachine(t *testing.T) {
	e := newEnv(t, fastHooks)
	registered, err := e.client.Organization.SetWebhookURL(ctx(t), "https://hooks.example.com/fiatramp")
	require.NoError(t, err, "registered as the service would")
	assert.Equal(t, "https://hooks.example.com/fiatramp", registered)
	_, err = e.client.Payouts.SimulateStatus(ctx(t), e.payout().ID, types.PayoutSuccess)
	require.NoError(t, err)
	settle(t, e.sb)
	log := e.sb.Deliveries()
	require.Len(t, log, 1)
	assert.Equal(t, sandbox.DeliveryNotSent, log[0].State)
	assert.Equal(t, `host "hooks.example.com" is not this machine (localhost or a loopback address); Settings.AllowRemoteWebhooks (fiatramp sandbox -allow-remote-webhooks) sends there`, log[0].Reason)
	assert.Empty(t, log[0].Attempts, "never attempted")
	assert.Equal(t, 1, e.sb.DeliveryCounts().States[sandbox.DeliveryNotSent])

	rc := newReceiver(t, nil)
	local := strings.Replace(rc.srv.URL, "127.0.0.1", "localhost", 1) + "/hooks"
	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, local))
	_, err = e.client.Payouts.SimulateStatus(ctx(t), e.payout().ID, types.PayoutFailed)
	require.NoError(t, err)
	settle(t, e.sb)
	require.Len(t, rc.hooks(), 1, "localhost receives")
	assert.Equal(t, sandbox.DeliveryDelivered, e.sb.Deliveries()[1].State)
	assert.Empty(t, e.sb.Deliveries()[1].Reason)

	// Allowed: the host name is tried (dialed on loopback by this test's
	// client, so nothing leaves the machine here either).
	onLoopback := &http.Client{Transport: &http.Transport{DialContext: func(c context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(c, network, rc.srv.Listener.Addr().String())
	}}}
	allowed := newEnv(t, fastHooks, func(st *sandbox.Settings) {
		st.AllowRemoteWebhooks = true
		st.WebhookClient = onLoopback
	})
	require.NoError(t, allowed.sb.SetWebhookURL(allowed.org.ID, "http://hooks.example.com/hooks"))
	_, err = allowed.client.Payouts.SimulateStatus(ctx(t), allowed.payout().ID, types.PayoutSuccess)
	require.NoError(t, err)
	settle(t, allowed.sb)
	require.Len(t, rc.hooks(), 2, "sent when allowed")
	assert.Equal(t, "hooks.example.com", rc.hooks()[1].host)
	assert.Equal(t, sandbox.DeliveryDelivered, allowed.sb.Deliveries()[0].State)
}
