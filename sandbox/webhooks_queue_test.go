package sandbox_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

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
