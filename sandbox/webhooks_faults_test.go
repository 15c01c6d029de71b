package sandbox_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
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
