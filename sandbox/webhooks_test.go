package sandbox_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

// hook is one POST a receiver got.
type hook struct {
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
		h := hook{header: r.Header.Clone(), body: string(body), at: time.Now()}
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

func TestWebhookRetriesUntilAccepted(t *testing.T) {
	answers := []int{http.StatusInternalServerError, http.StatusFound, http.StatusTooManyRequests, http.StatusNoContent}
	e, rc := hookEnv(t, func(n int, _ hook, _ *http.Request) int { return answers[min(n, len(answers))-1] })
	p := e.payout()
	_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
	require.NoError(t, err)
	settle(t, e.sb)
	got := rc.hooks()
	require.Len(t, got, 4)
	for _, h := range got[1:] {
		assert.Equal(t, got[0].body, h.body, "the same event each time")
	}
	d := e.sb.Deliveries()[0]
	assert.Equal(t, sandbox.DeliveryDelivered, d.State)
	codes := []int{}
	for _, a := range d.Attempts {
		codes = append(codes, a.StatusCode)
	}
	assert.Equal(t, []int{500, 302, 429, 204}, codes, "a redirect is not followed but retried")
}

func TestWebhookTimeoutIsRetried(t *testing.T) {
	e, rc := hookEnv(t, func(n int, _ hook, r *http.Request) int {
		if n == 1 {
			select { // hold the first answer past the timeout
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}
		return http.StatusOK
	}, func(st *sandbox.Settings) { st.WebhookTimeout = 50 * time.Millisecond })
	p := e.payout()
	_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutFailed)
	require.NoError(t, err)
	settle(t, e.sb)
	assert.Len(t, rc.hooks(), 2)
	d := e.sb.Deliveries()[0]
	require.Len(t, d.Attempts, 2)
	assert.Zero(t, d.Attempts[0].StatusCode)
	assert.Contains(t, d.Attempts[0].Error, "deadline exceeded")
	assert.Equal(t, http.StatusOK, d.Attempts[1].StatusCode)
	assert.Equal(t, sandbox.DeliveryDelivered, d.State)
}

func TestWebhookGivesUpAndKeepsOrder(t *testing.T) {
	// Every FAILED is refused; the refund events of the same payin wait
	// for the FAILED delivery to end, then go.
	e, rc := hookEnv(t, func(_ int, h hook, _ *http.Request) int {
		if strings.Contains(h.body, `"event":"FAILED"`) {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}, func(st *sandbox.Settings) { st.WebhookMaxAttempts = 3 })
	p := payinOn(t, e)
	for _, to := range []types.PayinStatus{types.PayinFailed, types.PayinRefundInitiated, types.PayinRefunded} {
		_, err := e.client.Payins.SimulateStatus(ctx(t), p.ID, to)
		require.NoError(t, err)
	}
	settle(t, e.sb)
	var events []string
	for _, h := range rc.hooks() {
		events = append(events, strings.Split(strings.Split(h.body, `"event":"`)[1], `"`)[0])
	}
	assert.Equal(t, []string{"FAILED", "FAILED", "FAILED", "REFUND_INITIATED", "REFUNDED"}, events, "in order per object")
	log := e.sb.Deliveries()
	assert.Equal(t, sandbox.DeliveryFailed, log[0].State)
	assert.Len(t, log[0].Attempts, 3)
	assert.Equal(t, sandbox.DeliveryDelivered, log[1].State)
	assert.Equal(t, sandbox.DeliveryDelivered, log[2].State)
}

func TestWebhookOrderPerObjectUnderLoad(t *testing.T) {
	// The first attempt of every FAILED fails, so a REFUND_INITIATED sent
	// right after it would overtake it without per-object ordering.
	var mu sync.Mutex
	seen := map[string]bool{}
	e, rc := hookEnv(t, func(_ int, h hook, _ *http.Request) int {
		mu.Lock()
		defer mu.Unlock()
		if strings.Contains(h.body, `"FAILED"`) && !seen[h.body] {
			seen[h.body] = true
			return http.StatusBadGateway
		}
		return http.StatusOK
	})
	const n = 20
	for range n {
		p := payinOn(t, e)
		_, err := e.client.Payins.SimulateStatus(ctx(t), p.ID, types.PayinFailed)
		require.NoError(t, err)
		_, err = e.client.Payins.SimulateStatus(ctx(t), p.ID, types.PayinRefundInitiated)
		require.NoError(t, err)
	}
	settle(t, e.sb)
	last := map[string]string{}
	accepted := 0
	for _, h := range rc.hooks() {
		if h.status != http.StatusOK {
			continue
		}
		accepted++
		id := strings.Split(strings.Split(h.body, `"id":"`)[1], `"`)[0]
		event := strings.Split(strings.Split(h.body, `"event":"`)[1], `"`)[0]
		if event == "REFUND_INITIATED" {
			assert.Equal(t, "FAILED", last[id], "REFUND_INITIATED of %s accepted after its FAILED", id)
		}
		last[id] = event
	}
	assert.Equal(t, 2*n, accepted)
}

func TestWebhookFaults(t *testing.T) {
	t.Run("duplicate", func(t *testing.T) {
		e, rc := hookEnv(t, nil)
		require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultDuplicate, Count: 1}))
		p := e.payout()
		_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
		require.NoError(t, err)
		p2 := e.payout()
		_, err = e.client.Payouts.SimulateStatus(ctx(t), p2.ID, types.PayoutSuccess)
		require.NoError(t, err)
		settle(t, e.sb)
		got := rc.hooks()
		require.Len(t, got, 3, "the first event twice, the second once")
		count := map[string]int{}
		for _, h := range got {
			count[h.body]++
			assert.True(t, signedBy(e.org, h), "a duplicate is genuinely signed")
		}
		assert.Len(t, count, 2)
		log := e.sb.Deliveries()
		assert.Equal(t, sandbox.DeliveryFaultDuplicate, log[0].Fault)
		require.Len(t, log[0].Attempts, 2)
		assert.True(t, log[0].Attempts[1].Duplicate)
		assert.Empty(t, log[1].Fault, "Count 1 spoils one delivery")
	})
	t.Run("drop", func(t *testing.T) {
		e, rc := hookEnv(t, nil)
		require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultDrop, Type: sandbox.EventTypePayout, Event: "FAILED"}))
		ok, dropped := e.payout(), e.payout()
		_, err := e.client.Payouts.SimulateStatus(ctx(t), dropped.ID, types.PayoutFailed)
		require.NoError(t, err)
		_, err = e.client.Payouts.SimulateStatus(ctx(t), ok.ID, types.PayoutSuccess)
		require.NoError(t, err)
		settle(t, e.sb)
		got := rc.hooks()
		require.Len(t, got, 1)
		assert.Contains(t, got[0].body, ok.ID.String())
		log := e.sb.Deliveries()
		assert.Equal(t, sandbox.DeliveryDropped, log[0].State)
		assert.Empty(t, log[0].Attempts)
		assert.Equal(t, sandbox.DeliveryDelivered, log[1].State)
	})
	t.Run("bad signature", func(t *testing.T) {
		var e *env
		e, rc := hookEnv(t, func(_ int, h hook, _ *http.Request) int {
			if !signedBy(e.org, h) {
				return http.StatusUnauthorized
			}
			return http.StatusOK
		})
		require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultBadSignature}))
		b := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, Status: types.BankAccountProcessing})).(sandbox.BankAccount)
		_, err := e.client.Customers.SimulateBankVerification(ctx(t), e.cust.ID, b.ID, types.BankAccountVerified)
		require.NoError(t, err)
		settle(t, e.sb)
		got := rc.hooks()
		require.Len(t, got, 2)
		assert.Equal(t, []int{http.StatusUnauthorized, http.StatusOK}, []int{got[0].status, got[1].status})
		assert.Equal(t, got[0].body, got[1].body)
		d := e.sb.Deliveries()[0]
		assert.True(t, d.Attempts[0].Forged)
		assert.False(t, d.Attempts[1].Forged)
		assert.Equal(t, sandbox.DeliveryDelivered, d.State)
	})
	t.Run("delay", func(t *testing.T) {
		// The delay runs on the sandbox clock: the held event goes once
		// the clock has moved on by the delay, not before.
		e, rc := hookEnv(t, nil)
		const delay = 150 * time.Second
		require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultDelay, Delay: delay, Count: 1}))
		held, other := e.payout(), e.payout()
		_, err := e.client.Payouts.SimulateStatus(ctx(t), held.ID, types.PayoutSuccess)
		require.NoError(t, err)
		_, err = e.client.Payouts.SimulateStatus(ctx(t), other.ID, types.PayoutSuccess)
		require.NoError(t, err)
		require.NoError(t, e.sb.DeliverDue(ctx(t)))
		got := rc.hooks()
		require.Len(t, got, 1)
		assert.Contains(t, got[0].body, other.ID.String(), "another object is not held up")
		next, waiting := e.sb.NextDeliveryDue()
		require.True(t, waiting)
		assert.True(t, next.Equal(epoch.Add(delay)), "due %v", next)

		e.sb.Advance(delay - time.Nanosecond)
		require.NoError(t, e.sb.DeliverDue(ctx(t)))
		assert.Len(t, rc.hooks(), 1, "not yet due")
		e.sb.Advance(time.Nanosecond)
		require.NoError(t, e.sb.DeliverDue(ctx(t)))
		got = rc.hooks()
		require.Len(t, got, 2)
		assert.Contains(t, got[1].body, held.ID.String())
		assert.Equal(t, strconv.FormatInt(epoch.Add(delay).Unix(), 10), got[1].header.Get("X-TIMESTAMP"))
		_, waiting = e.sb.NextDeliveryDue()
		assert.False(t, waiting)
	})
	t.Run("fraction", func(t *testing.T) {
		e, rc := hookEnv(t, nil, func(st *sandbox.Settings) { st.Seed = 7 })
		require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultDrop, Fraction: 0.5}))
		for range 40 {
			b := e.must(e.sb.AddBankAccount(sandbox.BankAccount{CustomerID: e.cust.ID, Status: types.BankAccountProcessing})).(sandbox.BankAccount)
			_, err := e.client.Customers.SimulateBankVerification(ctx(t), e.cust.ID, b.ID, types.BankAccountVerified)
			require.NoError(t, err)
		}
		settle(t, e.sb)
		dropped := 0
		for _, d := range e.sb.Deliveries() {
			if d.State == sandbox.DeliveryDropped {
				dropped++
			}
		}
		assert.Equal(t, 40-dropped, len(rc.hooks()))
		assert.Greater(t, dropped, 5)
		assert.Less(t, dropped, 35)
	})
	t.Run("clear", func(t *testing.T) {
		e, rc := hookEnv(t, nil)
		require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultDrop}))
		e.sb.ClearDeliveryFaults()
		p := e.payout()
		_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
		require.NoError(t, err)
		settle(t, e.sb)
		assert.Len(t, rc.hooks(), 1)
	})
}

func TestInjectDeliveryFaultRefusals(t *testing.T) {
	sb := sandbox.New()
	for _, f := range []sandbox.DeliveryFault{
		{Kind: "explode"},
		{Kind: sandbox.DeliveryFaultDelay},
		{Kind: sandbox.DeliveryFaultDrop, Count: -1},
		{Kind: sandbox.DeliveryFaultDrop, Fraction: 1.5},
		{Kind: sandbox.DeliveryFaultDrop, Fraction: -0.1},
	} {
		assert.Error(t, sb.InjectDeliveryFault(f), "%+v", f)
	}
	assert.Len(t, sandbox.DeliveryFaultKind("").Values(), 4)
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

// deliveryGoroutines counts the goroutines running the sandbox's delivery
// code.
func deliveryGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "sandbox.(*Sandbox).deliveryWorker") || strings.Contains(g, "sandbox.(*Sandbox).setAlarm") {
			n++
		}
	}
	return n
}

// leftovers returns the stacks of goroutines running the sandbox's code or
// holding an HTTP connection.
func leftovers() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "fiatramp-go/sandbox.(") || strings.Contains(g, "net/http.(*persistConn)") ||
			strings.Contains(g, "net/http.(*conn).serve") {
			out = append(out, g)
		}
	}
	return out
}

func TestWebhookCloseStopsDeliveries(t *testing.T) {
	release := make(chan struct{})
	e, rc := hookEnv(t, func(n int, h hook, r *http.Request) int {
		if strings.Contains(h.body, "SUCCESS") {
			select { // hang until the sandbox gives up
			case <-r.Context().Done():
			case <-release:
			}
		}
		return http.StatusInternalServerError // FAILED events wait for a retry
	}, func(st *sandbox.Settings) {
		st.WebhookInitialBackoff, st.WebhookMaxBackoff = time.Hour, time.Hour
	})
	defer close(release)
	hanging, retrying := e.payout(), e.payout()
	_, err := e.client.Payouts.SimulateStatus(ctx(t), hanging.ID, types.PayoutSuccess)
	require.NoError(t, err)
	_, err = e.client.Payouts.SimulateStatus(ctx(t), retrying.ID, types.PayoutFailed)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(rc.hooks()) == 2 }, 5*time.Second, time.Millisecond)
	assert.Positive(t, deliveryGoroutines(), "a worker is in flight")

	require.NoError(t, e.srv.Close())
	// Close returns once each goroutine has called its last wg.Done; the
	// goroutine itself ends a moment later.
	assert.Eventually(t, func() bool { return deliveryGoroutines() == 0 }, time.Second, time.Millisecond,
		"Close waits for every delivery goroutine")
	for _, d := range e.sb.Deliveries() {
		assert.Equal(t, sandbox.DeliveryAbandoned, d.State)
	}
	// Events after Close are logged, not sent, also when the sandbox is
	// served again.
	srv2, err := sandbox.NewServer(e.sb)
	require.NoError(t, err)
	c2, err := srv2.Client(e.org, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)
	late := e.payout2(c2)
	_, err = c2.Payouts.SimulateStatus(ctx(t), late.ID, types.PayoutSuccess)
	require.NoError(t, err)
	log := e.sb.Deliveries()
	require.Len(t, log, 3)
	assert.Equal(t, sandbox.DeliveryAbandoned, log[2].State)
	assert.Len(t, rc.hooks(), 2, "nothing sent after Close")
	require.NoError(t, srv2.Close())
	require.NoError(t, e.sb.Close(), "Close twice is fine")
	rc.srv.Close()
	// Nothing of the sandbox, and no HTTP connection, is left running.
	// (runtime.NumGoroutine also counts runtime helpers that come and go.)
	assert.Eventually(t, func() bool { return len(leftovers()) == 0 }, 5*time.Second, 5*time.Millisecond,
		"left running: %v", leftovers())
}

// A receiver that answers with an endless body, or hangs up without an
// answer, costs the queue a bounded read or one failed attempt.
func TestWebhookHostileReceiver(t *testing.T) {
	t.Run("endless answer", func(t *testing.T) {
		e, _ := hookEnv(t, nil)
		endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			chunk := []byte(strings.Repeat("x", 32<<10))
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}))
		defer endless.Close()
		require.NoError(t, e.sb.SetWebhookURL(e.org.ID, endless.URL))
		p := e.payout()
		_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
		require.NoError(t, err)
		settle(t, e.sb)
		d := e.sb.Deliveries()[0]
		assert.Equal(t, sandbox.DeliveryDelivered, d.State)
		assert.Len(t, d.Attempts, 1)
	})
	t.Run("hang up", func(t *testing.T) {
		e, _ := hookEnv(t, nil)
		var calls sync.Mutex
		n := 0
		rude := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Lock()
			n++
			first := n == 1
			calls.Unlock()
			if first {
				panic(http.ErrAbortHandler) // the connection closes without an answer
			}
			w.WriteHeader(http.StatusAccepted)
		}))
		defer rude.Close()
		require.NoError(t, e.sb.SetWebhookURL(e.org.ID, rude.URL))
		p := e.payout()
		_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
		require.NoError(t, err)
		settle(t, e.sb)
		d := e.sb.Deliveries()[0]
		require.Len(t, d.Attempts, 2)
		assert.Zero(t, d.Attempts[0].StatusCode)
		assert.NotEmpty(t, d.Attempts[0].Error)
		assert.Equal(t, http.StatusAccepted, d.Attempts[1].StatusCode)
		assert.Equal(t, sandbox.DeliveryDelivered, d.State)
	})
}

// An event the receiver acknowledged stays delivered in the log when the
// sandbox closes while its duplicate copy (DeliveryFaultDuplicate) is still
// on its way.
func TestWebhookCloseKeepsWhatWasDelivered(t *testing.T) {
	release := make(chan struct{})
	e, rc := hookEnv(t, func(n int, _ hook, r *http.Request) int {
		if n == 2 { // the duplicate copy hangs until the sandbox gives up
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}
		return http.StatusOK
	})
	defer close(release)
	require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultDuplicate, Count: 1}))
	p := e.payout()
	_, err := e.client.Payouts.SimulateStatus(ctx(t), p.ID, types.PayoutSuccess)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(rc.hooks()) == 2 }, 5*time.Second, time.Millisecond)
	require.NoError(t, e.sb.Close())
	d := e.sb.Deliveries()[0]
	assert.Equal(t, sandbox.DeliveryDelivered, d.State, "the receiver answered 200 before Close")
	require.Len(t, d.Attempts, 1)
	assert.Equal(t, http.StatusOK, d.Attempts[0].StatusCode)
}

func TestRegisterWebhook(t *testing.T) {
	e := newEnv(t)
	const path = "/org/api/v1/organizations/api-webhooks"
	var resp fiatramp.Response
	got, err := e.client.Organization.SetWebhookURL(ctx(t), "https://hooks.example.test/fiatramp?x=1", fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "https://hooks.example.test/fiatramp?x=1", got)
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(resp.Body, &env))
	assert.Equal(t, `"https://hooks.example.test/fiatramp?x=1"`, string(env.Data), "the data is a bare string")
	o, ok := e.sb.Organization(e.org.ID)
	require.True(t, ok)
	assert.Equal(t, "https://hooks.example.test/fiatramp?x=1", o.WebhookURL)

	// The member an earlier form of the documentation showed is read when
	// webhook_url is absent; webhook_url wins when both come.
	for body, want := range map[string]string{
		`{"url":"https://old.example.test/h"}`:                                   "https://old.example.test/h",
		`{"url":"https://old.example.test/h","webhook_url":"https://new.test/"}`: "https://new.test/",
	} {
		var data string
		require.NoError(t, e.client.Do(ctx(t), http.MethodPost, path, []byte(body), &data), body)
		assert.Equal(t, want, data, body)
		o, _ = e.sb.Organization(e.org.ID)
		assert.Equal(t, want, o.WebhookURL, body)
	}

	// Raw signed requests that skip the client's checks get the service's
	// refusals.
	for body, msg := range map[string]string{
		`{}`:                                   "Webhook URL is required",
		`{"webhook_url":null}`:                 "Webhook URL is required",
		`{"webhook_url":" "}`:                  "Webhook URL is required",
		`{"url":null}`:                         "Webhook URL is required",
		`{"webhook_url":"https://x/","url":7}`: "",
	} {
		err := e.client.Do(ctx(t), http.MethodPost, path, []byte(body), nil)
		if msg == "" {
			require.NoError(t, err, body)
			continue
		}
		apiErr := refused(t, err, http.StatusBadRequest, msg)
		assert.Empty(t, apiErr.FieldErrors, body)
		assert.Empty(t, apiErr.Code, body)
	}
	for body, msg := range map[string]string{
		`{"webhook_url":7}`:                                             "Not a valid string.",
		`{"webhook_url":"ftp://x.test/"}`:                               "Enter a valid URL.",
		`{"webhook_url":"/relative"}`:                                   "Enter a valid URL.",
		`{"webhook_url":"https://u:p@x/"}`:                              "Enter a valid URL.",
		`{"webhook_url":"https://x/#frag"}`:                             "Enter a valid URL.",
		`{"webhook_url":"https://x/` + strings.Repeat("a", 2048) + `"}`: "Ensure this field has no more than 2048 characters.",
	} {
		err := e.client.Do(ctx(t), http.MethodPost, path, []byte(body), nil)
		apiErr := refused(t, err, http.StatusBadRequest, msg, fiatramp.ErrFieldMissing)
		assert.Equal(t, map[string][]string{"webhook_url": {msg}}, apiErr.FieldErrors, body)
	}
	err = e.client.Do(ctx(t), http.MethodPost, path, []byte(`{"url":"ftp://x/"}`), nil)
	apiErr := refused(t, err, http.StatusBadRequest, "Enter a valid URL.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"url": {"Enter a valid URL."}}, apiErr.FieldErrors, "a legacy body's error names its member")
	o, _ = e.sb.Organization(e.org.ID)
	assert.Equal(t, "https://x/", o.WebhookURL, "refusals change nothing")

	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, ""))
	o, _ = e.sb.Organization(e.org.ID)
	assert.Empty(t, o.WebhookURL)
	require.Error(t, e.sb.SetWebhookURL(e.org.ID, "mailto:x@y"))
	require.Error(t, e.sb.SetWebhookURL(uuid.New(), "https://x.test/"))
	_, err = e.sb.AddOrganization(sandbox.Organization{WebhookURL: "not a url"})
	require.ErrorContains(t, err, "webhook_url")
}

// TestRegisterWebhookTakesEffectForTheNextDelivery: a URL registered
// through the client receives the next event, and a later registration
// moves the events after it, not the ones before.
func TestRegisterWebhookTakesEffectForTheNextDelivery(t *testing.T) {
	e := newEnv(t)
	first, second := newReceiver(t, nil), newReceiver(t, nil)
	_, err := e.client.Organization.SetWebhookURL(ctx(t), first.srv.URL)
	require.NoError(t, err)
	verify := func() uuid.UUID {
		t.Helper()
		added, err := e.client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: e.cust.ID, VPA: uuid.NewString()[:8] + "@upi"})
		require.NoError(t, err)
		_, err = e.client.Customers.SimulateBankVerification(ctx(t), e.cust.ID, added.ID, types.BankAccountVerified)
		require.NoError(t, err)
		return added.ID
	}
	a := verify()
	_, err = e.client.Organization.SetWebhookURL(ctx(t), second.srv.URL)
	require.NoError(t, err)
	b := verify()
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	ds := e.sb.Deliveries()
	require.Len(t, ds, 2)
	assert.Equal(t, first.srv.URL, ds[0].URL)
	assert.Equal(t, a.String(), ds[0].ID)
	assert.Equal(t, second.srv.URL, ds[1].URL)
	assert.Equal(t, b.String(), ds[1].ID)
	require.Len(t, first.hooks(), 1)
	require.Len(t, second.hooks(), 1)
	assert.Contains(t, first.hooks()[0].body, `"id":"`+a.String()+`"`)
	assert.Contains(t, second.hooks()[0].body, `"id":"`+b.String()+`"`)
	assert.True(t, signedBy(e.org, first.hooks()[0]))
	assert.True(t, signedBy(e.org, second.hooks()[0]))
}

// TestRegisterWebhookSignedByHand: the registration signed by hand answers
// the URL as a bare string, and "Webhook URL is required" without one.
func TestRegisterWebhookSignedByHand(t *testing.T) {
	e := newEnv(t)
	const path = "/org/api/v1/organizations/api-webhooks"
	r := authSend(t, e, authReq{method: http.MethodPost, path: path, body: []byte(`{"webhook_url":"https://hand.example/h"}`)})
	authOK(t, r, http.StatusOK)
	assert.Equal(t, `"https://hand.example/h"`, string(r.body.Data))

	r = authSend(t, e, authReq{method: http.MethodPost, path: path, body: []byte(`{}`)})
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.Equal(t, "Webhook URL is required", r.body.Message)
	r = authSend(t, e, authReq{method: http.MethodPost, path: path, body: []byte(`{"webhook_url":"ftp://hand.example/"}`)})
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.JSONEq(t, `{"webhook_url":["Enter a valid URL."]}`, string(r.body.Errors))
}

// statusRecorder keeps the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// e2eFigures are what the end-to-end run counts.
type e2eFigures struct {
	payouts      int
	faults       map[sandbox.DeliveryFaultKind]int
	posts        int         // POSTs the receiver got
	answers      map[int]int // receiver's answers by status
	handled      int         // runs of the receiver's function that succeeded
	failedRuns   int         // runs that failed on purpose (answered 500)
	duplicates   int         // deliveries acknowledged without running the function
	reconciled   int         // payouts settled by Payouts.Wait after a dropped event
	exactlyOnce  int         // payouts whose final event the receiver handled exactly once
	settledTwice int
}

// TestWebhooksEndToEndUnderFaults settles payouts through webhooks while a
// fifth of the deliveries are spoiled (duplicated, delayed, dropped or
// forged, a twentieth each) and the receiver's own function fails the
// first time for every tenth payout. Every payout must be settled exactly
// once: by its webhook, or, when the event was dropped, by Payouts.Wait.
// FIATRAMP_E2E_PAYOUTS sets the number of payouts (default 60); the
// measured run in the README uses 1000.
func TestWebhooksEndToEndUnderFaults(t *testing.T) {
	n := 60
	if v := os.Getenv("FIATRAMP_E2E_PAYOUTS"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(t, err)
	}
	start := time.Now()
	f := runWebhooksEndToEnd(t, n)
	t.Logf("%d payouts in %s: faults %v; %d POSTs, answers %v; handled %d, failed on purpose %d, duplicates ignored %d, reconciled by polling %d; settled exactly once %d, more than once %d",
		f.payouts, time.Since(start).Round(time.Millisecond), f.faults, f.posts, f.answers, f.handled, f.failedRuns, f.duplicates, f.reconciled, f.exactlyOnce, f.settledTwice)
	assert.Equal(t, n, f.exactlyOnce, "every payout settled exactly once")
	assert.Zero(t, f.settledTwice)
	assert.Equal(t, f.faults[sandbox.DeliveryFaultBadSignature], f.answers[http.StatusUnauthorized], "every forged delivery refused, nothing else")
	assert.Equal(t, f.faults[sandbox.DeliveryFaultDrop], f.reconciled, "dropped events settled by polling")
	if n >= 500 { // at 60, a kind may not occur (0.95^60 = 5%); TestWebhookFaults covers each
		for _, k := range sandbox.DeliveryFaultKind("").Values() {
			assert.Positive(t, f.faults[k], "fault %s occurred", k)
		}
	}
}

func runWebhooksEndToEnd(t *testing.T, n int) e2eFigures {
	e := newEnv(t, fastHooks, func(st *sandbox.Settings) {
		st.Seed = 20261123
		st.WebhookWorkers = 8
	})
	// Each of four rules takes 5% of all deliveries: a rule sees only what
	// the rules before it left.
	for i, k := range []sandbox.DeliveryFaultKind{sandbox.DeliveryFaultDuplicate, sandbox.DeliveryFaultDelay, sandbox.DeliveryFaultDrop, sandbox.DeliveryFaultBadSignature} {
		require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: k, Fraction: 0.05 / (1 - 0.05*float64(i)), Delay: 20 * time.Millisecond}))
	}

	var (
		mu       sync.Mutex
		settled  = map[string][]webhook.EventName{} // payout id -> final events handled or reconciled
		answers  = map[int]int{}
		posts    int
		handled  int
		failFor  = map[string]bool{} // payout ids whose first run fails
		failRuns int
	)
	fn := func(_ context.Context, ev *webhook.Event) error {
		mu.Lock()
		defer mu.Unlock()
		if failFor[ev.ID] {
			failFor[ev.ID] = false
			failRuns++
			return assert.AnError
		}
		handled++
		settled[ev.ID] = append(settled[ev.ID], ev.Event)
		return nil
	}
	h := webhook.Handler(e.org.APIKey, e.org.APISecret, fn, webhook.WithClock(e.sb.Now))
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		mu.Lock()
		posts++
		answers[rec.status]++
		mu.Unlock()
	}))
	defer recv.Close()
	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, recv.URL))

	// Payouts are created concurrently, then simulated one by one in index
	// order, so that with a fixed seed the faults fall on the same
	// deliveries in every run.
	ids := make([]uuid.UUID, n)
	targets := make([]types.PayoutStatus, n)
	want := map[string]types.PayoutStatus{}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sem := make(chan struct{}, 8)
	for i := range n {
		q := e.quotation(func(q *sandbox.Quotation) { q.SendingAmount = decimal.NewFromInt(int64(10 + i)) })
		targets[i] = types.PayoutSuccess
		if i%5 == 4 {
			targets[i] = types.PayoutFailed
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			p, err := e.client.Payouts.Create(ctx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: e.cust.ID})
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			ids[i] = p.ID
			want[p.ID.String()] = targets[i]
			failFor[p.ID.String()] = i%10 == 3
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	for i, id := range ids {
		_, err := e.client.Payouts.SimulateStatus(ctx(t), id, targets[i])
		require.NoError(t, err)
	}
	settle(t, e.sb)

	// Reconcile: a payout whose final event never came is fetched.
	f := e2eFigures{payouts: n, faults: map[sandbox.DeliveryFaultKind]int{}}
	for _, id := range ids {
		mu.Lock()
		_, seen := settled[id.String()]
		mu.Unlock()
		if seen {
			continue
		}
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		p, err := e.client.Payouts.Wait(c, id, fiatramp.WithPollInterval(time.Millisecond, 10*time.Millisecond))
		cancel()
		require.NoError(t, err)
		mu.Lock()
		settled[id.String()] = append(settled[id.String()], webhook.EventName(p.Status))
		mu.Unlock()
		f.reconciled++
	}

	for _, d := range e.sb.Deliveries() {
		if d.Fault != "" {
			f.faults[d.Fault]++
		}
		if d.State != sandbox.DeliveryDelivered && d.State != sandbox.DeliveryDropped {
			t.Errorf("delivery %d ended %s: %+v", d.Seq, d.State, d.Attempts)
		}
		for _, a := range d.Attempts {
			if a.Forged && a.StatusCode != http.StatusUnauthorized {
				t.Errorf("delivery %d: forged attempt answered %d", d.Seq, a.StatusCode)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	f.posts, f.answers, f.handled, f.failedRuns = posts, answers, handled, failRuns
	f.duplicates = answers[http.StatusOK] - handled
	for id, status := range want {
		got := settled[id]
		switch {
		case len(got) == 1 && string(got[0]) == string(status):
			f.exactlyOnce++
		case len(got) > 1:
			f.settledTwice++
		default:
			t.Errorf("payout %s: want %s once, settled %v", id, status, got)
		}
	}
	return f
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

// zeroCounts is DeliveryCounts with every state and fault kind at zero,
// changed by the pairs given.
func zeroCounts(states map[sandbox.DeliveryState]int, faults map[sandbox.DeliveryFaultKind]int) (map[sandbox.DeliveryState]int, map[sandbox.DeliveryFaultKind]int) {
	s := map[sandbox.DeliveryState]int{}
	for _, st := range []sandbox.DeliveryState{sandbox.DeliveryPending, sandbox.DeliveryDelivered, sandbox.DeliveryFailed,
		sandbox.DeliveryDropped, sandbox.DeliveryNoURL, sandbox.DeliveryAbandoned} {
		s[st] = states[st]
	}
	f := map[sandbox.DeliveryFaultKind]int{}
	for _, k := range sandbox.DeliveryFaultKind("").Values() {
		f[k] = faults[k]
	}
	return s, f
}

// The delivery log keeps the newest Settings.DeliveryLogSize deliveries,
// dropping the oldest first, while DeliveryCounts counts every delivery
// exactly, by state and fault, those dropped from the log included.
func TestDeliveryLogBounded(t *testing.T) {
	assert.Equal(t, sandbox.DefaultDeliveryLogSize, sandbox.DefaultSettings().DeliveryLogSize)
	assert.Equal(t, 10000, sandbox.New(func(st *sandbox.Settings) { st.DeliveryLogSize = 0 }).Settings().DeliveryLogSize, "zero takes the default")

	const size = 5
	e, rc := hookEnv(t, func(_ int, h hook, _ *http.Request) int {
		if strings.Contains(h.body, `"event":"FAILED"`) {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	}, func(st *sandbox.Settings) {
		st.DeliveryLogSize = size
		st.WebhookMaxAttempts = 1 // a refused event fails at once
	})
	require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultDrop, Type: sandbox.EventTypeBank, Event: "VERIFIED", Count: 2}))
	// 12 events: every third FAILED (refused: failed), the rest VERIFIED,
	// of which the first two are dropped and six delivered.
	var ids []uuid.UUID
	for i := range 12 {
		status := types.BankAccountVerified
		if i%3 == 0 {
			status = types.BankAccountFailed
		}
		ids = append(ids, e.bankEvent(status))
	}
	settle(t, e.sb)

	log := e.sb.Deliveries()
	require.Len(t, log, size, "bounded")
	for i, d := range log {
		assert.Equal(t, 8+i, d.Seq, "the newest kept, in order")
		assert.Equal(t, ids[7+i].String(), d.ID)
	}
	states, faults := zeroCounts(
		map[sandbox.DeliveryState]int{sandbox.DeliveryDelivered: 6, sandbox.DeliveryFailed: 4, sandbox.DeliveryDropped: 2},
		map[sandbox.DeliveryFaultKind]int{sandbox.DeliveryFaultDrop: 2})
	assert.Equal(t, sandbox.DeliveryCounts{
		Total: 12, Logged: size, Evicted: 7, States: states, Faults: faults, Attempts: 10,
	}, e.sb.DeliveryCounts(), "exact after dropping the oldest seven")
	assert.Len(t, rc.hooks(), 10, "every attempt counted")

	e.bankEvent(types.BankAccountVerified)
	settle(t, e.sb)
	log = e.sb.Deliveries()
	require.Len(t, log, size)
	assert.Equal(t, 9, log[0].Seq, "the oldest went")
	assert.Equal(t, 13, log[size-1].Seq)
	c := e.sb.DeliveryCounts()
	assert.Equal(t, []int{13, size, 8, 7, 11}, []int{c.Total, c.Logged, c.Evicted, c.States[sandbox.DeliveryDelivered], c.Attempts})

	// The counts handed out are copies; Reset zeroes them.
	c.States[sandbox.DeliveryDelivered] = 99
	assert.Equal(t, 7, e.sb.DeliveryCounts().States[sandbox.DeliveryDelivered])
	e.sb.Reset()
	states, faults = zeroCounts(nil, nil)
	assert.Equal(t, sandbox.DeliveryCounts{States: states, Faults: faults}, e.sb.DeliveryCounts())
	assert.Empty(t, e.sb.Deliveries())
}

// A pending delivery dropped from the log is still retried and delivered,
// and its outcome still counted.
func TestDeliveryLogEvictsPendingStillDelivered(t *testing.T) {
	e, rc := hookEnv(t, func(n int, _ hook, _ *http.Request) int {
		if n == 1 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}, func(st *sandbox.Settings) {
		st.DeliveryLogSize = 1
		st.WebhookInitialBackoff, st.WebhookMaxBackoff = 10*time.Second, time.Minute
	})
	first := e.bankEvent(types.BankAccountVerified)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	second := e.bankEvent(types.BankAccountVerified)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	log := e.sb.Deliveries()
	require.Len(t, log, 1)
	assert.Equal(t, second.String(), log[0].ID)
	c := e.sb.DeliveryCounts()
	assert.Equal(t, []int{2, 1, 1, 1, 2}, []int{c.Total, c.Evicted, c.States[sandbox.DeliveryPending], c.States[sandbox.DeliveryDelivered], c.Attempts})

	e.sb.Advance(10 * time.Second)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	got := rc.hooks()
	require.Len(t, got, 3)
	assert.Contains(t, got[2].body, first.String(), "the evicted delivery was retried")
	c = e.sb.DeliveryCounts()
	assert.Equal(t, []int{0, 2, 3}, []int{c.States[sandbox.DeliveryPending], c.States[sandbox.DeliveryDelivered], c.Attempts})
	assert.Equal(t, second.String(), e.sb.Deliveries()[0].ID, "the log is unchanged")
}

// A failed attempt's retry is due a backoff later on the sandbox clock:
// with the clock stopped, nothing is retried until the clock is moved to
// the due time, and moving it there delivers (no sleeping).
func TestWebhookRetryRunsOnSandboxClock(t *testing.T) {
	e, rc := hookEnv(t, func(n int, _ hook, _ *http.Request) int {
		if n <= 2 {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	}, func(st *sandbox.Settings) {
		st.WebhookInitialBackoff, st.WebhookMaxBackoff = 10*time.Second, time.Minute
	})
	e.bankEvent(types.BankAccountVerified)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	require.Len(t, rc.hooks(), 1, "the first attempt")
	next, waiting := e.sb.NextDeliveryDue()
	require.True(t, waiting)
	assert.True(t, next.Equal(epoch.Add(10*time.Second)), "due %v", next)

	e.sb.Advance(10*time.Second - time.Nanosecond)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	assert.Len(t, rc.hooks(), 1, "short of the backoff: nothing")
	assert.Equal(t, sandbox.DeliveryPending, e.sb.Deliveries()[0].State)

	e.sb.Advance(time.Nanosecond)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	require.Len(t, rc.hooks(), 2, "at the backoff: retried (and refused again)")
	next, _ = e.sb.NextDeliveryDue()
	assert.True(t, next.Equal(epoch.Add(30*time.Second)), "the second backoff doubles: due %v", next)

	e.sb.Advance(19 * time.Second)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	assert.Len(t, rc.hooks(), 2)
	e.sb.SetTime(epoch.Add(time.Hour)) // SetTime past the due time releases it too
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	got := rc.hooks()
	require.Len(t, got, 3)
	d := e.sb.Deliveries()[0]
	assert.Equal(t, sandbox.DeliveryDelivered, d.State)
	var at []time.Time
	for _, a := range d.Attempts {
		at = append(at, a.At)
	}
	assert.Equal(t, []time.Time{epoch, epoch.Add(10 * time.Second), epoch.Add(time.Hour)}, at, "stamped by the sandbox clock")
	assert.Equal(t, strconv.FormatInt(epoch.Add(time.Hour).Unix(), 10), got[2].header.Get("X-TIMESTAMP"))
	_, waiting = e.sb.NextDeliveryDue()
	assert.False(t, waiting)
}

// While the sandbox clock runs with real time, a retry comes due as real
// time passes; Advance brings it forward.
func TestWebhookRetryOnRunningClock(t *testing.T) {
	run := func(t *testing.T, backoff time.Duration) (*sandbox.Sandbox, *receiver, func()) {
		sb := sandbox.New(func(st *sandbox.Settings) { st.WebhookInitialBackoff, st.WebhookMaxBackoff = backoff, backoff })
		demo, err := sb.SeedDemo()
		require.NoError(t, err)
		srv, err := sandbox.NewServer(sb)
		require.NoError(t, err)
		t.Cleanup(func() { _ = srv.Close() })
		rc := newReceiver(t, func(n int, _ hook, _ *http.Request) int {
			if n == 1 {
				return http.StatusBadGateway
			}
			return http.StatusOK
		})
		require.NoError(t, sb.SetWebhookURL(demo.Organization.ID, rc.srv.URL))
		cl, err := srv.Client(demo.Organization)
		require.NoError(t, err)
		return sb, rc, func() {
			_, err := cl.KYC.SimulateStatus(ctx(t), demo.PendingCustomer.ID, types.KYCVerified)
			require.NoError(t, err)
		}
	}
	t.Run("real time", func(t *testing.T) {
		const backoff = 20 * time.Millisecond
		sb, rc, event := run(t, backoff)
		event()
		settleCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, sb.WaitDeliveries(settleCtx), "the alarm fires without a move of the clock")
		require.Len(t, rc.hooks(), 2)
		d := sb.Deliveries()[0]
		assert.Equal(t, sandbox.DeliveryDelivered, d.State)
		assert.GreaterOrEqual(t, d.Attempts[1].At.Sub(d.Attempts[0].At), backoff)
	})
	t.Run("advanced", func(t *testing.T) {
		sb, rc, event := run(t, time.Hour)
		event()
		require.NoError(t, sb.DeliverDue(ctx(t)))
		require.Len(t, rc.hooks(), 1)
		sb.Advance(time.Hour)
		require.NoError(t, sb.DeliverDue(ctx(t)))
		require.Len(t, rc.hooks(), 2, "an hour's backoff, passed by Advance")
		assert.Equal(t, sandbox.DeliveryDelivered, sb.Deliveries()[0].State)
	})
	t.Run("advanced part way", func(t *testing.T) {
		// 10 s of backoff, 9.9 s of it passed by Advance: the alarm is set
		// afresh for the 0.1 s left, not left at 10 s.
		sb, rc, event := run(t, 10*time.Second)
		event()
		require.NoError(t, sb.DeliverDue(ctx(t)))
		require.Len(t, rc.hooks(), 1)
		sb.Advance(9900 * time.Millisecond)
		wctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, sb.WaitDeliveries(wctx))
		assert.Len(t, rc.hooks(), 2)
	})
}
