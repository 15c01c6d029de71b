package webhook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fiatramp/fiatramp-go/webhook"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func fixedClock() func() time.Time { return func() time.Time { return testNow } }

func payoutEvent(id string, name webhook.EventName) webhook.Event {
	utr := "UTR-" + id
	return webhook.Event{Type: webhook.TypePayout, ID: id, Event: name, Timestamp: testNow.Add(-time.Second),
		Metadata: webhook.Metadata{UTR: &utr}}
}

func delivery(t testing.TB, ev webhook.Event) *http.Request {
	t.Helper()
	req, err := webhook.NewTestDelivery(testKey, testSecret, "http://receiver.test/hooks", ev, testNow)
	require.NoError(t, err)
	return req
}

func serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// recorder is a receiver function that counts its runs per dedupe key.
type recorder struct {
	mu   sync.Mutex
	runs map[string]int
	evs  []webhook.Event
}

func (r *recorder) fn(_ context.Context, ev *webhook.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.runs == nil {
		r.runs = map[string]int{}
	}
	r.runs[ev.DedupeKey()]++
	r.evs = append(r.evs, *ev)
	return nil
}

func TestHandlerDeliversOnce(t *testing.T) {
	var rec recorder
	h := webhook.Handler(testKey, testSecret, rec.fn, webhook.WithClock(fixedClock()))
	ev := payoutEvent("p1", webhook.EventSuccess)

	res := serve(h, delivery(t, ev))
	require.Equal(t, http.StatusOK, res.Code)
	require.Len(t, rec.evs, 1)
	got := rec.evs[0]
	assert.Equal(t, ev.Type, got.Type)
	assert.Equal(t, ev.ID, got.ID)
	assert.Equal(t, ev.Event, got.Event)
	assert.True(t, ev.Timestamp.Equal(got.Timestamp))
	assert.Equal(t, *ev.Metadata.UTR, *got.Metadata.UTR)

	// The same event again: acknowledged, not run.
	for range 3 {
		res = serve(h, delivery(t, ev))
		require.Equal(t, http.StatusOK, res.Code)
	}
	assert.Equal(t, 1, rec.runs[ev.DedupeKey()])

	// Another event of the same object, and the same event of another
	// object, are other events.
	require.Equal(t, http.StatusOK, serve(h, delivery(t, payoutEvent("p1", webhook.EventRefunded))).Code)
	require.Equal(t, http.StatusOK, serve(h, delivery(t, payoutEvent("p2", webhook.EventSuccess))).Code)
	other := payoutEvent("p1", webhook.EventSuccess)
	other.Type = webhook.TypePayin
	require.Equal(t, http.StatusOK, serve(h, delivery(t, other)).Code)
	assert.Len(t, rec.evs, 4)
	for k, n := range rec.runs {
		assert.Equal(t, 1, n, k)
	}
}

func TestHandlerRefusals(t *testing.T) {
	calls := 0
	var logs bytes.Buffer
	h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error { calls++; return nil },
		webhook.WithClock(fixedClock()), webhook.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))

	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodHead, http.MethodDelete, http.MethodPatch} {
		req := delivery(t, payoutEvent("p1", webhook.EventSuccess))
		req.Method = m
		res := serve(h, req)
		assert.Equal(t, http.StatusMethodNotAllowed, res.Code, m)
		assert.Equal(t, "POST", res.Header().Get("Allow"))
	}
	for _, r := range refusals(t) {
		if len(r.opts) > 0 {
			continue // the cap is tested below
		}
		req, err := http.NewRequest(http.MethodPost, "http://receiver.test/hooks", strings.NewReader(r.body))
		require.NoError(t, err)
		req.Header = r.headers
		res := serve(h, req)
		want := http.StatusBadRequest
		if r.want != webhook.ErrMalformed {
			want = http.StatusUnauthorized
		}
		assert.Equal(t, want, res.Code, r.name)
		assert.NotContains(t, res.Body.String(), testSecret)
	}
	assert.Zero(t, calls, "no refused delivery may reach the function")
	assert.Contains(t, logs.String(), "delivery refused")
	assert.Contains(t, logs.String(), "invalid signature")
	assert.NotContains(t, logs.String(), testSecret)
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func TestHandlerCapsBody(t *testing.T) {
	calls := 0
	h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error { calls++; return nil },
		webhook.WithClock(fixedClock()), webhook.WithMaxBodyBytes(256))

	// A signed event with 10 MB of metadata: refused having read at most
	// the cap and one buffer.
	big := `{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":{"pad":"` + strings.Repeat("x", 10<<20) + `"}}`
	hdr, err := webhook.Sign(testKey, testSecret, []byte(big), testNow)
	require.NoError(t, err)
	body := &countingReader{r: strings.NewReader(big)}
	req, err := http.NewRequest(http.MethodPost, "http://receiver.test/hooks", body)
	require.NoError(t, err)
	req.Header = hdr
	res := serve(h, req)
	assert.Equal(t, http.StatusRequestEntityTooLarge, res.Code)
	assert.Less(t, body.n.Load(), int64(64<<10), "read past the cap")
	assert.Zero(t, calls)

	// Exactly at the cap: accepted.
	small := `{"type":"PAYOUT","id":"p1","event":"SUCCESS","metadata":{"pad":"`
	small += strings.Repeat("x", 256-len(small)-3) + `"}}`
	require.Len(t, small, 256)
	hdr, err = webhook.Sign(testKey, testSecret, []byte(small), testNow)
	require.NoError(t, err)
	req, err = http.NewRequest(http.MethodPost, "http://receiver.test/hooks", strings.NewReader(small))
	require.NoError(t, err)
	req.Header = hdr
	assert.Equal(t, http.StatusOK, serve(h, req).Code)
	assert.Equal(t, 1, calls)
}

func TestHandlerFailureThenSuccessRunsOnce(t *testing.T) {
	var attempts, successes int
	h := webhook.Handler(testKey, testSecret, func(_ context.Context, ev *webhook.Event) error {
		attempts++
		if attempts <= 2 {
			return errors.New("database down")
		}
		successes++
		return nil
	}, webhook.WithClock(fixedClock()))
	ev := payoutEvent("p1", webhook.EventFailed)

	// The service delivers until it gets a 2xx, then a few more times
	// (duplicates).
	var codes []int
	for range 6 {
		codes = append(codes, serve(h, delivery(t, ev)).Code)
	}
	assert.Equal(t, []int{500, 500, 200, 200, 200, 200}, codes)
	assert.Equal(t, 3, attempts)
	assert.Equal(t, 1, successes, "the event must be handled exactly once")
}

func TestHandlerPanicReleasesTheClaim(t *testing.T) {
	runs := 0
	h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error {
		runs++
		if runs == 1 {
			panic("receiver bug")
		}
		return nil
	}, webhook.WithClock(fixedClock()))
	ev := payoutEvent("p1", webhook.EventSuccess)
	func() {
		defer func() { assert.Equal(t, "receiver bug", recover()) }()
		serve(h, delivery(t, ev))
	}()
	assert.Equal(t, http.StatusOK, serve(h, delivery(t, ev)).Code)
	assert.Equal(t, http.StatusOK, serve(h, delivery(t, ev)).Code)
	assert.Equal(t, 2, runs)
}

func TestHandlerConcurrentDuplicatesRunOnce(t *testing.T) {
	for _, firstFails := range []bool{false, true} {
		t.Run(fmt.Sprintf("first fails %v", firstFails), func(t *testing.T) {
			var runs atomic.Int32
			started, release := make(chan struct{}), make(chan struct{})
			h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error {
				if runs.Add(1) == 1 {
					close(started)
					<-release
					if firstFails {
						return errors.New("failed")
					}
				}
				return nil
			}, webhook.WithClock(fixedClock()))
			ev := payoutEvent("p1", webhook.EventSuccess)

			first := make(chan int)
			go func() { first <- serve(h, delivery(t, ev)).Code }()
			<-started
			// 20 repeats while the first runs, concurrently.
			var wg sync.WaitGroup
			codes := make([]int, 20)
			retry := make([]string, 20)
			for i := range codes {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res := serve(h, delivery(t, ev))
					codes[i], retry[i] = res.Code, res.Header().Get("Retry-After")
				}()
			}
			wg.Wait()
			for i := range codes {
				assert.Equal(t, http.StatusServiceUnavailable, codes[i])
				assert.NotEmpty(t, retry[i])
			}
			assert.Equal(t, int32(1), runs.Load(), "a repeat ran while the first was running")
			close(release)
			if firstFails {
				assert.Equal(t, http.StatusInternalServerError, <-first)
				// The service delivers again: now it runs.
				assert.Equal(t, http.StatusOK, serve(h, delivery(t, ev)).Code)
				assert.Equal(t, int32(2), runs.Load())
			} else {
				assert.Equal(t, http.StatusOK, <-first)
				assert.Equal(t, http.StatusOK, serve(h, delivery(t, ev)).Code)
				assert.Equal(t, int32(1), runs.Load())
			}
		})
	}
}

func TestHandlerManyConcurrentDeliveries(t *testing.T) {
	// 30 events, each delivered 8 times at once, through a real server.
	var rec recorder
	srv := httptest.NewServer(webhook.Handler(testKey, testSecret, func(ctx context.Context, ev *webhook.Event) error {
		time.Sleep(time.Millisecond)
		return rec.fn(ctx, ev)
	}))
	defer srv.Close()
	var wg sync.WaitGroup
	var ok atomic.Int32
	for i := range 30 {
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ev := payoutEvent("p"+strconv.Itoa(i), webhook.EventSuccess)
				for {
					req, err := webhook.NewTestDelivery(testKey, testSecret, srv.URL, ev, time.Now())
					if !assert.NoError(t, err) {
						return
					}
					res, err := srv.Client().Do(req)
					if !assert.NoError(t, err) {
						return
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode == http.StatusOK {
						ok.Add(1)
						return
					}
					assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
					time.Sleep(time.Millisecond) // the service's backoff, shortened
				}
			}()
		}
	}
	wg.Wait()
	assert.Equal(t, int32(240), ok.Load())
	assert.Len(t, rec.runs, 30)
	for k, n := range rec.runs {
		assert.Equal(t, 1, n, k)
	}
}

// fakeDeduper is a Deduper whose answers a test sets.
type fakeDeduper struct {
	claim      webhook.ClaimState
	expires    time.Time
	beginErr   error
	finishErr  error
	finishes   []bool // true: Complete, false: Release
	finishCtxE []error
	tokens     []string
}

func (f *fakeDeduper) Begin(_ context.Context, key string) (webhook.Claim, error) {
	return webhook.Claim{Key: key, State: f.claim, Token: "t1", Expires: f.expires}, f.beginErr
}
func (f *fakeDeduper) finish(ctx context.Context, c webhook.Claim, done bool) error {
	f.finishes = append(f.finishes, done)
	f.finishCtxE = append(f.finishCtxE, ctx.Err())
	f.tokens = append(f.tokens, c.Token)
	return f.finishErr
}
func (f *fakeDeduper) Complete(ctx context.Context, c webhook.Claim) error {
	return f.finish(ctx, c, true)
}
func (f *fakeDeduper) Release(ctx context.Context, c webhook.Claim) error {
	return f.finish(ctx, c, false)
}

func TestHandlerDeduperFailures(t *testing.T) {
	calls := 0
	fn := func(context.Context, *webhook.Event) error { calls++; return nil }
	ev := payoutEvent("p1", webhook.EventSuccess)
	var logs bytes.Buffer
	log := webhook.WithLogger(slog.New(slog.NewTextHandler(&logs, nil)))

	// The store is down: 503, nothing runs.
	d := &fakeDeduper{beginErr: errors.New("connection refused")}
	res := serve(webhook.Handler(testKey, testSecret, fn, webhook.WithClock(fixedClock()), webhook.WithDeduper(d), log), delivery(t, ev))
	assert.Equal(t, http.StatusServiceUnavailable, res.Code)
	assert.NotEmpty(t, res.Header().Get("Retry-After"))
	assert.Zero(t, calls)
	assert.Contains(t, logs.String(), "connection refused")

	// A store that answers no known claim: 503, nothing runs.
	d = &fakeDeduper{}
	res = serve(webhook.Handler(testKey, testSecret, fn, webhook.WithClock(fixedClock()), webhook.WithDeduper(d)), delivery(t, ev))
	assert.Equal(t, http.StatusServiceUnavailable, res.Code)
	assert.Zero(t, calls)

	// Already done: 200, nothing runs, no Finish.
	d = &fakeDeduper{claim: webhook.AlreadyDone}
	res = serve(webhook.Handler(testKey, testSecret, fn, webhook.WithClock(fixedClock()), webhook.WithDeduper(d)), delivery(t, ev))
	assert.Equal(t, http.StatusOK, res.Code)
	assert.Zero(t, calls)
	assert.Empty(t, d.finishes)

	// Finish fails after a success: the event was handled, so 200, and the
	// failure is logged.
	d = &fakeDeduper{claim: webhook.Claimed, finishErr: errors.New("write timeout")}
	res = serve(webhook.Handler(testKey, testSecret, fn, webhook.WithClock(fixedClock()), webhook.WithDeduper(d), log), delivery(t, ev))
	assert.Equal(t, http.StatusOK, res.Code)
	assert.Equal(t, 1, calls)
	assert.Equal(t, []bool{true}, d.finishes)
	assert.Equal(t, []string{"t1"}, d.tokens, "the claim's token goes back to the store")
	assert.Contains(t, logs.String(), "write timeout")

	// The claim was lost (its lease ran out and another receiver took the
	// event): the run stands, and the log says so.
	d = &fakeDeduper{claim: webhook.Claimed, finishErr: webhook.ErrClaimLost}
	res = serve(webhook.Handler(testKey, testSecret, fn, webhook.WithClock(fixedClock()), webhook.WithDeduper(d), log), delivery(t, ev))
	assert.Equal(t, http.StatusOK, res.Code)
	assert.Contains(t, logs.String(), "claim lost")
}

func TestHandlerEndsTheFunctionWithTheLease(t *testing.T) {
	expires := time.Now().Add(time.Hour)
	d := &fakeDeduper{claim: webhook.Claimed, expires: expires}
	var deadline time.Time
	var hasDeadline bool
	h := webhook.Handler(testKey, testSecret, func(ctx context.Context, _ *webhook.Event) error {
		deadline, hasDeadline = ctx.Deadline()
		return errors.New("failed")
	}, webhook.WithClock(fixedClock()), webhook.WithDeduper(d))
	res := serve(h, delivery(t, payoutEvent("p1", webhook.EventSuccess)))
	assert.Equal(t, http.StatusInternalServerError, res.Code)
	require.True(t, hasDeadline)
	assert.True(t, deadline.Equal(expires), "the function's context ends with the lease")
	assert.Equal(t, []bool{false}, d.finishes, "a failed run releases its claim")
	assert.Equal(t, []string{"t1"}, d.tokens)

	// No lease: no deadline of the Handler's own.
	d = &fakeDeduper{claim: webhook.Claimed}
	h = webhook.Handler(testKey, testSecret, func(ctx context.Context, _ *webhook.Event) error {
		_, hasDeadline = ctx.Deadline()
		return nil
	}, webhook.WithClock(fixedClock()), webhook.WithDeduper(d))
	assert.Equal(t, http.StatusOK, serve(h, delivery(t, payoutEvent("p1", webhook.EventSuccess))).Code)
	assert.False(t, hasDeadline)
}

// otherKeyDeduper answers a claim of a key it was not asked for.
type otherKeyDeduper struct{ fakeDeduper }

func (o *otherKeyDeduper) Begin(ctx context.Context, _ string) (webhook.Claim, error) {
	return o.fakeDeduper.Begin(ctx, "some other key")
}

func TestHandlerRefusesAClaimOfAnotherKey(t *testing.T) {
	calls := 0
	d := &otherKeyDeduper{fakeDeduper{claim: webhook.Claimed}}
	h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error { calls++; return nil },
		webhook.WithClock(fixedClock()), webhook.WithDeduper(d))
	res := serve(h, delivery(t, payoutEvent("p1", webhook.EventSuccess)))
	assert.Equal(t, http.StatusServiceUnavailable, res.Code)
	assert.Zero(t, calls)
	assert.Empty(t, d.finishes)
}

func TestHandlerFinishOutlivesTheRequest(t *testing.T) {
	// The service hangs up while the function runs: the function sees its
	// context end, and the claim is still released with a live context.
	d := &fakeDeduper{claim: webhook.Claimed}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "request value"))
	var seen any
	h := webhook.Handler(testKey, testSecret, func(fctx context.Context, _ *webhook.Event) error {
		seen = fctx.Value(ctxKey{})
		cancel()
		return fctx.Err()
	}, webhook.WithClock(fixedClock()), webhook.WithDeduper(d))
	res := serve(h, delivery(t, payoutEvent("p1", webhook.EventSuccess)).WithContext(ctx))
	assert.Equal(t, http.StatusInternalServerError, res.Code)
	assert.Equal(t, "request value", seen, "the function gets the request's context")
	assert.Equal(t, []bool{false}, d.finishes)
	assert.Equal(t, []error{nil}, d.finishCtxE)
}

type ctxKey struct{}

func TestHandlerNeverPrintsTheSecret(t *testing.T) {
	h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error { return nil })
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%T"} {
		out := fmt.Sprintf(verb, h)
		assert.NotContains(t, out, testSecret, verb)
		assert.NotContains(t, out, fmt.Sprintf("%x", testSecret), verb)
	}
	assert.Contains(t, fmt.Sprint(h), "****4f1c")
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("receiver", "handler", h)
	assert.NotContains(t, buf.String(), testSecret)
	assert.Contains(t, buf.String(), "****4f1c")
}

func TestHandlerEdges(t *testing.T) {
	assert.PanicsWithValue(t, "webhook: Handler called with a nil function", func() {
		webhook.Handler(testKey, testSecret, nil)
	})
	// An empty secret would accept whatever anybody signs with it: the
	// mistake shows at start-up, not as forged events accepted.
	assert.PanicsWithValue(t, "webhook: Handler called with an empty API secret", func() {
		webhook.Handler(testKey, "", func(context.Context, *webhook.Event) error { return nil })
	})
	h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error { return nil },
		webhook.WithClock(fixedClock()))
	req := delivery(t, payoutEvent("p1", webhook.EventSuccess))
	req.Body = nil
	res := serve(h, req)
	assert.Equal(t, http.StatusBadRequest, res.Code)
	assert.Equal(t, "malformed delivery\n", res.Body.String())
	assert.Equal(t, "text/plain; charset=utf-8", res.Header().Get("Content-Type"))
}

// erroringBody fails mid-read, as a connection the service drops does.
type erroringBody struct{ n int }

func (e *erroringBody) Read(p []byte) (int, error) {
	if e.n == 0 {
		e.n++
		return copy(p, `{"type":`), nil
	}
	return 0, io.ErrUnexpectedEOF
}
func (e *erroringBody) Close() error { return nil }

func TestHandlerBrokenBody(t *testing.T) {
	calls := 0
	h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error { calls++; return nil },
		webhook.WithClock(fixedClock()))
	req := delivery(t, payoutEvent("p1", webhook.EventSuccess))
	req.Body = &erroringBody{}
	res := serve(h, req)
	assert.Equal(t, http.StatusBadRequest, res.Code)
	assert.Equal(t, "body unreadable\n", res.Body.String())
	assert.Zero(t, calls)
}

// BenchmarkHandlerDuplicate measures the Handler's answer to a repeated
// delivery (verified, found done, acknowledged), the cost a burst of
// duplicates puts on a receiver.
func BenchmarkHandlerDuplicate(b *testing.B) {
	h := webhook.Handler(testKey, testSecret, func(context.Context, *webhook.Event) error { return nil },
		webhook.WithClock(fixedClock()))
	ev := payoutEvent("p1", webhook.EventSuccess)
	serve(h, delivery(b, ev))
	req := delivery(b, ev)
	b.ReportAllocs()
	for range b.N {
		req.Body, _ = req.GetBody()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}
