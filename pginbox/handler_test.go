package pginbox_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/pginbox"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

const (
	testKey    = "org_key_4f1c"
	testSecret = "org_secret_of_the_test"
)

func post(t *testing.T, h http.Handler, body string) *httptest.ResponseRecorder {
	t.Helper()
	hdr, err := webhook.Sign(testKey, testSecret, []byte(body), time.Now())
	require.NoError(t, err)
	r := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body))
	for k, v := range hdr {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestHandlerAnswers(t *testing.T) {
	ib, pool := newInbox(t)
	makeEffects(t, pool)
	fail := true
	var runs atomic.Int32
	h := pginbox.Handler(testKey, testSecret, ib, func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		runs.Add(1)
		if err := insertEffect(ctx, tx, ev.DedupeKey()); err != nil {
			return err
		}
		if fail {
			fail = false
			return errors.New("failed after writing")
		}
		return nil
	})
	body := `{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":"2026-11-27T10:00:00Z","metadata":{}}`
	key := "PAYOUT/SUCCESS/p1"

	assert.Equal(t, http.StatusInternalServerError, post(t, h, body).Code, "the function failed")
	assert.Zero(t, effectCount(t, pool, key), "its writes rolled back")
	assert.Equal(t, http.StatusOK, post(t, h, body).Code)
	assert.Equal(t, http.StatusOK, post(t, h, body).Code, "a repeat is acknowledged")
	assert.Equal(t, int32(2), runs.Load(), "without running")
	assert.Equal(t, 1, effectCount(t, pool, key))

	// A forged delivery is refused before the database is touched.
	r := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body))
	r.Header.Set("X-TIMESTAMP", strconv.FormatInt(time.Now().Unix(), 10))
	r.Header.Set("X-SIGNATURE", "forged")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	assert.Equal(t, http.StatusUnauthorized, w.Code)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/hook", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)

	// The database is down: 503, so the service delivers again.
	pool.Close()
	w = post(t, h, `{"type":"PAYOUT","id":"p2","event":"SUCCESS","timestamp":"2026-11-27T10:00:00Z","metadata":{}}`)
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.NotEmpty(t, w.Header().Get("Retry-After"))
}

func TestHandlerAnswersInProgressWhileHeld(t *testing.T) {
	ib, pool := newInbox(t)
	makeEffects(t, pool)
	inside, release := make(chan struct{}), make(chan struct{})
	var runs atomic.Int32
	h := pginbox.Handler(testKey, testSecret, ib, func(ctx context.Context, tx pgx.Tx, ev *webhook.Event) error {
		if runs.Add(1) == 1 {
			close(inside)
			<-release
		}
		return insertEffect(ctx, tx, ev.DedupeKey())
	})
	body := `{"type":"PAYOUT","id":"p1","event":"SUCCESS","timestamp":"2026-11-27T10:00:00Z","metadata":{}}`
	first := make(chan int, 1)
	go func() { first <- post(t, h, body).Code }()
	<-inside
	w := post(t, h, body)
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.Equal(t, "in progress\n", w.Body.String())
	close(release)
	assert.Equal(t, http.StatusOK, <-first)
	assert.Equal(t, http.StatusOK, post(t, h, body).Code)
	assert.Equal(t, int32(1), runs.Load())
	assert.Equal(t, 1, effectCount(t, pool, "PAYOUT/SUCCESS/p1"))
}

func TestHandlerPanicsOnMisuse(t *testing.T) {
	fn := func(context.Context, pgx.Tx, *webhook.Event) error { return nil }
	assert.PanicsWithValue(t, "pginbox: Handler called with a nil Inbox", func() { pginbox.Handler(testKey, testSecret, nil, fn) })
	ib, err := pginbox.New(&pgxpool.Pool{})
	require.NoError(t, err)
	assert.PanicsWithValue(t, "pginbox: Handler called with a nil function", func() { pginbox.Handler(testKey, testSecret, ib, nil) })
	assert.Panics(t, func() { pginbox.Handler(testKey, "", ib, fn) })
}

// crashScenario is one run of receivers behind a proxy, fed by the sandbox.
type crashScenario struct {
	receivers int
	events    int
	faults    bool // duplicates, delays, forged first attempts
	crash     bool // SIGKILL one receiver inside a transaction
}

type crashFigures struct {
	events, posts, duplicates, redeliveries, forged int
	answers, copyAnswers                            map[int]int
	effects, distinct                               int
	counter                                         int64
	records                                         int
	elapsed, p50, p99                               time.Duration
	killed                                          string
}

func (f crashFigures) String() string {
	return fmt.Sprintf("%d events in %s (%.0f events/s), handling latency p50 %s p99 %s; %d POSTs (answers %v): %d duplicate copies, %d redeliveries, %d forged; concurrent copies through the proxy answered %v; effects recorded %d (%d distinct events, counter %d); killed inside %q",
		f.events, f.elapsed.Round(time.Millisecond), float64(f.events)/f.elapsed.Seconds(),
		f.p50.Round(10*time.Microsecond), f.p99.Round(10*time.Microsecond),
		f.posts, f.answers, f.duplicates, f.redeliveries, f.forged, f.copyAnswers, f.effects, f.distinct, f.counter, f.killed)
}

// roundRobin is a reverse proxy that sends each request to the next
// receiver in turn, and times each. With copyEvery n, every nth request
// is also sent, at the same moment, to the receiver after it (as a load
// balancer retrying on another replica does), and that copy's answer is
// counted apart and thrown away.
type roundRobin struct {
	proxy     *httputil.ReverseProxy
	targets   []*url.URL
	next      atomic.Uint64
	client    *http.Client
	copyEvery uint64
	copies    sync.WaitGroup

	mu          sync.Mutex
	took        []time.Duration
	answers     map[int]int
	copyAnswers map[int]int
}

func newRoundRobin(addrs []string, copyEvery int) *roundRobin {
	rr := &roundRobin{answers: map[int]int{}, copyAnswers: map[int]int{}, copyEvery: uint64(copyEvery)}
	for _, a := range addrs {
		rr.targets = append(rr.targets, &url.URL{Scheme: "http", Host: a})
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.MaxIdleConnsPerHost = 128
	rr.client = &http.Client{Transport: tr, Timeout: 30 * time.Second}
	rr.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			n, _ := pr.In.Context().Value(targetKey{}).(uint64)
			pr.SetURL(rr.targets[n%uint64(len(rr.targets))])
		},
		Transport: tr,
		ErrorLog:  log.New(io.Discard, "", 0), // a killed receiver: 502, retried
	}
	return rr
}

type targetKey struct{}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := rr.next.Add(1) - 1
	if rr.copyEvery > 0 && n%rr.copyEvery == 0 {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "body unreadable", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		cp, err := http.NewRequest(http.MethodPost, rr.targets[(n+1)%uint64(len(rr.targets))].String()+r.URL.Path, bytes.NewReader(body))
		if err != nil {
			panic(err)
		}
		cp.Header = r.Header.Clone()
		rr.copies.Add(1)
		go func() {
			defer rr.copies.Done()
			status := 0 // no answer: the receiver was killed
			if res, err := rr.client.Do(cp); err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
				status = res.StatusCode
			}
			rr.mu.Lock()
			rr.copyAnswers[status]++
			rr.mu.Unlock()
		}()
	}
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	rr.proxy.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), targetKey{}, n)))
	took := time.Since(start)
	rr.mu.Lock()
	rr.took = append(rr.took, took)
	rr.answers[sw.status]++
	rr.mu.Unlock()
}

// runCrashScenario runs receiver processes behind a round-robin proxy,
// has the sandbox emit sc.events payout events whose signed deliveries go
// to the proxy, waits until every delivery is settled and reads what the
// receivers recorded.
func runCrashScenario(t *testing.T, sc crashScenario) crashFigures {
	dsn := newDatabase(t)
	pool := newPool(t, dsn)
	ctx := testCtx(t)
	require.NoError(t, makeUserTables(ctx, pool))

	sbClient := &http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: 128, IdleConnTimeout: 30 * time.Second},
		// A redirect is an answer other than 2xx, as in the sandbox's own.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	t.Cleanup(sbClient.CloseIdleConnections)
	sb := sandbox.New(func(st *sandbox.Settings) {
		st.Seed = 20261127
		st.WebhookWorkers = 32
		st.WebhookInitialBackoff = 20 * time.Millisecond
		st.WebhookMaxBackoff = 200 * time.Millisecond
		st.WebhookMaxAttempts = 200
		st.WebhookClient = sbClient
		// Thousands of payouts of one customer in one day: the daily
		// limits are not what this test is about.
		st.PayoutLimits = sandbox.DailyLimits{Daily: decimal.New(1, 15)}
	})
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	org, err := sb.AddOrganization(sandbox.Organization{
		Name: "Acme Payouts", Prefunded: true,
		Balances: map[string]decimal.Decimal{"USDT": decimal.NewFromInt(1_000_000_000)},
	})
	require.NoError(t, err)
	cust, err := sb.AddCustomer(sandbox.Customer{OrganizationID: org.ID, Name: "Asha Rao"})
	require.NoError(t, err)
	bank, err := sb.AddBankAccount(sandbox.BankAccount{CustomerID: cust.ID, AccountName: "Asha Rao"})
	require.NoError(t, err)
	client, err := srv.Client(org, fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)

	// Receivers first migrate the inbox; the first one, told to, hangs
	// inside its transaction halfway through its share.
	procs := make([]*receiverProc, sc.receivers)
	addrs := make([]string, sc.receivers)
	for i := range procs {
		crashAfter := 0
		if sc.crash && i == 0 {
			crashAfter = sc.events / (2 * sc.receivers)
		}
		procs[i] = startReceiver(t, i, dsn, org.APIKey, org.APISecret, crashAfter)
		addrs[i] = procs[i].addr
	}
	copyEvery := 0
	if sc.faults {
		copyEvery = 10
	}
	rr := newRoundRobin(addrs, copyEvery)
	t.Cleanup(rr.client.CloseIdleConnections)
	proxy := httptest.NewServer(rr)
	t.Cleanup(proxy.Close)
	require.NoError(t, sb.SetWebhookURL(org.ID, proxy.URL))
	if sc.faults {
		for _, f := range []sandbox.DeliveryFault{
			{Kind: sandbox.DeliveryFaultDuplicate, Fraction: 0.15},
			{Kind: sandbox.DeliveryFaultDelay, Fraction: 0.05, Delay: 30 * time.Millisecond},
			{Kind: sandbox.DeliveryFaultBadSignature, Fraction: 0.03},
		} {
			require.NoError(t, sb.InjectDeliveryFault(f))
		}
	}
	var killed atomic.Value
	killedDone := make(chan struct{})
	go func() {
		defer close(killedDone)
		select {
		case key := <-procs[0].intx:
			assert.NoError(t, procs[0].cmd.Process.Signal(syscall.SIGKILL))
			killed.Store(key)
		case <-procs[0].dead:
		case <-ctx.Done():
		}
	}()

	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, sc.events)
	sem := make(chan struct{}, 16)
	for i := range sc.events {
		q, err := sb.AddQuotation(sandbox.Quotation{
			CustomerID: cust.ID, BankID: bank.ID,
			SendingAmount: decimal.NewFromInt(int64(10 + i%100)),
			Rate:          decimal.RequireFromString("88.25"),
			Fees:          sandbox.Fees{ServiceFee: decimal.RequireFromString("4.5"), ServiceGST: decimal.RequireFromString("0.81"), TDS: decimal.RequireFromString("9.27")},
		})
		require.NoError(t, err)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			p, err := client.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: cust.ID})
			if err == nil {
				_, err = client.Payouts.SimulateStatus(ctx, p.ID, types.PayoutSuccess)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	require.NoError(t, sb.WaitDeliveries(wctx))
	f := crashFigures{elapsed: time.Since(start)}
	if sc.crash {
		select {
		case <-killedDone:
		case <-time.After(5 * time.Second):
		}
		k, _ := killed.Load().(string)
		require.NotEmpty(t, k, "the receiver told to crash was killed inside its transaction")
		f.killed = k
	}

	// What the service sent.
	want := map[string]bool{}
	for _, d := range sb.Deliveries() {
		want[d.Type+"/"+d.Event+"/"+d.ID] = true
		if d.State != sandbox.DeliveryDelivered {
			t.Errorf("delivery %d ended %s", d.Seq, d.State)
		}
		for i, a := range d.Attempts {
			switch {
			case a.Duplicate:
				f.duplicates++
			case a.Forged:
				f.forged++
				if a.StatusCode != http.StatusUnauthorized && a.StatusCode != http.StatusBadGateway {
					t.Errorf("delivery %d: a forged attempt answered %d", d.Seq, a.StatusCode)
				}
			case i > 0:
				f.redeliveries++
			}
		}
	}
	f.events = len(want)
	rr.copies.Wait()
	rr.mu.Lock()
	f.answers, f.copyAnswers = rr.answers, rr.copyAnswers
	took := slices.Clone(rr.took)
	rr.mu.Unlock()
	f.posts = len(took)
	slices.Sort(took)
	f.p50, f.p99 = took[len(took)/2], took[len(took)*99/100]

	// What the receivers recorded.
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT event_key) FROM effects`).Scan(&f.effects, &f.distinct))
	require.NoError(t, pool.QueryRow(ctx, `SELECT sum(n) FROM counters`).Scan(&f.counter))
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM fiatramp_webhook_inbox WHERE done`).Scan(&f.records))
	rows, err := pool.Query(ctx, `SELECT event_key FROM effects`)
	require.NoError(t, err)
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	for _, k := range got {
		if !want[k] {
			t.Errorf("effect of an event never sent: %q", k)
		}
	}
	return f
}

// TestHandlerExactlyOnceAcrossCrashingReceivers is the inbox's promise
// under fire: four receiver processes behind a round-robin proxy, the
// sandbox delivering thousands of payout events with duplicates, delays,
// forged first attempts and redeliveries, every tenth delivery also sent
// at the same moment to a second receiver, and one receiver killed with
// SIGKILL inside its transaction, after writing its effect. In the end
// every event's effect is recorded exactly once.
func TestHandlerExactlyOnceAcrossCrashingReceivers(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 600
	}
	if v := os.Getenv("PGINBOX_CRASH_EVENTS"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(t, err)
	}
	f := runCrashScenario(t, crashScenario{receivers: 4, events: n, faults: true, crash: true})
	t.Log(f)
	assert.Equal(t, n, f.events)
	assert.Equal(t, n, f.effects, "one effect row per event")
	assert.Equal(t, n, f.distinct)
	assert.Equal(t, int64(n), f.counter, "the counter moved once per event")
	assert.Equal(t, n, f.records, "every event recorded as done")
	assert.Positive(t, f.duplicates)
	assert.Positive(t, f.redeliveries, "the killed receiver's deliveries were delivered again")
	assert.Positive(t, f.copyAnswers[http.StatusServiceUnavailable], "some concurrent copies found their event in progress")
	assert.Positive(t, f.forged, "forged attempts were refused (401, or 502 from the killed receiver)")
}

// TestHandlerThroughput prints events per second and the p99 handling
// latency (through the proxy) with 1, 2 and 4 receiver processes, without
// faults or crashes. It runs only when PGINBOX_MEASURE=1 (events:
// PGINBOX_MEASURE_EVENTS, default 3000):
//
//	cd pginbox && PGINBOX_MEASURE=1 go test -run Throughput -v .
func TestHandlerThroughput(t *testing.T) {
	if os.Getenv("PGINBOX_MEASURE") != "1" {
		t.Skip("a measurement: set PGINBOX_MEASURE=1")
	}
	n := 3000
	if v := os.Getenv("PGINBOX_MEASURE_EVENTS"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(t, err)
	}
	for _, r := range []int{1, 2, 4} {
		t.Run(strconv.Itoa(r)+"receivers", func(t *testing.T) {
			f := runCrashScenario(t, crashScenario{receivers: r, events: n})
			t.Logf("%d receivers: %s", r, f)
			assert.Equal(t, n, f.effects)
			assert.Equal(t, n, f.distinct)
		})
	}
}
