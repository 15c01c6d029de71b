package sandbox

// The webhook delivery queue: per-object ordering, workers, retries with
// backoff on the sandbox clock, and Close.

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/fiatramp/fiatramp-go/internal/loopback"
)

// delivery is a Delivery with what sending it needs.
type delivery struct {
	Delivery
	key            string // orders deliveries per object
	apiKey, secret string
	forgeNext      bool          // next attempt is forged
	dupPending     bool          // an extra copy is still to be sent
	delay          time.Duration // hold before the first attempt
	attempts       int           // attempts counted against the limit
}

// deliverer is the background queue. Its own mutex guards it; a handler
// holding Sandbox.mu may take it (never the other way round).
//
// Waits (a failed attempt's backoff, a delay fault) run on the sandbox
// clock: an object whose head must wait is a job of the sandbox's
// scheduler (scheduler.go), which makes it ready when the clock reaches
// its time.
type deliverer struct {
	mu      sync.Mutex
	log     []*delivery // the newest deliveries, at most size, oldest first
	size    int         // Settings.DeliveryLogSize
	counts  DeliveryCounts
	queues  map[string][]*delivery // pending deliveries per object, oldest first
	ready   []string               // objects whose head may be attempted now
	workers int
	busy    int // attempts under way
	pending int
	closed  bool
	faults  []*deliveryFaultRule
	// epoch counts resets (Sandbox.Reset): an attempt started before one
	// finds it changed and leaves the new log alone.
	epoch int

	ctx    context.Context // ends on Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // workers
	client *http.Client
	own    *http.Transport // closed on Close; nil for Settings.WebhookClient
}

// newDeliverer returns the queue of st; it starts no goroutine until an
// event is queued.
func newDeliverer(st Settings) *deliverer {
	d := &deliverer{queues: map[string][]*delivery{}, size: st.DeliveryLogSize}
	d.resetCounts()
	d.ctx, d.cancel = context.WithCancel(context.Background())
	d.client = st.WebhookClient
	if d.client == nil {
		d.own = http.DefaultTransport.(*http.Transport).Clone()
		d.own.Proxy = nil // deliveries go straight to the receiver
		if !st.AllowRemoteWebhooks {
			// The URL's host was checked by name; this checks the
			// address each connection is made to.
			dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: loopback.Control}
			d.own.DialContext = dialer.DialContext
		}
		d.client = &http.Client{
			Transport: d.own,
			// A redirect is an answer other than 2xx: retried, not followed.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return d
}

// WaitDeliveries waits until no delivery is pending (each is delivered,
// failed, dropped or abandoned), or ctx ends, whose error it returns.
// Retries and delay faults wait for the sandbox clock: while it is stopped
// (SetTime), one waiting for a later time is delivered only once the
// clock is moved past it (Advance, SetTime), so WaitDeliveries waits for
// that too.
func (s *Sandbox) WaitDeliveries(ctx context.Context) error {
	return s.waitQueue(ctx, func(d *deliverer) bool { return d.pending == 0 })
}

// DeliverDue attempts every delivery that is due on the sandbox clock now
// (new ones, and those whose retry backoff or delay fault has run out on
// that clock) and returns once each has had its attempts and nothing more
// is due now, or when ctx ends, whose error it returns. A delivery that
// fails again waits for its next backoff and is left pending. Advance and
// SetTime release what comes due at once; DeliverDue is how to wait for
// those attempts without sleeping:
//
//	sb.Advance(time.Second) // past the first backoff
//	err := sb.DeliverDue(ctx)
func (s *Sandbox) DeliverDue(ctx context.Context) error {
	s.runDue()
	return s.waitQueue(ctx, func(d *deliverer) bool { return len(d.ready) == 0 && d.busy == 0 })
}

// NextDeliveryDue returns the earliest time on the sandbox clock at which
// a pending delivery waiting for a retry's backoff or a delay fault comes
// due, and false when none waits: advancing the clock to it, then
// DeliverDue, attempts that delivery.
func (s *Sandbox) NextDeliveryDue() (time.Time, bool) {
	return s.sched.next(jobDelivery)
}

// waitQueue polls until done holds, with d.mu held, or ctx ends.
func (s *Sandbox) waitQueue(ctx context.Context, done func(*deliverer) bool) error {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		d := s.deliveries
		d.mu.Lock()
		idle := done(d)
		d.mu.Unlock()
		if idle {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Close stops everything that waits or works in the background, for good:
// webhook deliveries (an attempt under way is cancelled, pending
// deliveries become DeliveryAbandoned, and later events are logged as
// abandoned too) and the work waiting on the sandbox clock (automatic KYC
// decisions and bank verifications are dropped, and none is scheduled
// after). It returns when every goroutine and timer of the sandbox has
// ended. Server.Close calls it. Serving requests is not affected.
func (s *Sandbox) Close() error {
	s.sched.close()
	d := s.deliveries
	d.mu.Lock()
	if !d.closed {
		d.closed = true
		d.cancel()
		for _, q := range d.queues {
			for _, dv := range q {
				if dv.State == DeliveryPending { // not one delivered whose duplicate is still due
					d.setState(dv, DeliveryAbandoned)
				}
			}
		}
		d.queues, d.ready, d.pending = nil, nil, 0
	}
	d.mu.Unlock()
	d.wg.Wait()
	s.sched.close() // a worker's last wake may have come after the first
	if d.own != nil {
		d.own.CloseIdleConnections()
	}
	return nil
}

// startHead makes the oldest delivery of object key attemptable, after
// its delay (on the sandbox clock, read as now) if it has one, and reports
// whether it waits for the clock; d.mu is held.
func (s *Sandbox) startHead(d *deliverer, key string, now clockReading) bool {
	head := d.queues[key][0]
	if head.delay > 0 {
		delay := head.delay
		head.delay = 0
		s.scheduleDelivery(d, key, now, delay)
		return true
	}
	s.makeReady(d, key)
	return false
}

// makeReady queues object key for a worker, starting one if fewer than
// Settings.WebhookWorkers run; d.mu is held.
func (s *Sandbox) makeReady(d *deliverer, key string) {
	d.ready = append(d.ready, key)
	if d.workers < s.settings.WebhookWorkers {
		d.workers++
		d.wg.Add(1)
		go s.deliveryWorker(d)
	}
}

// scheduleDelivery makes object key ready once the sandbox clock, read as now,
// has moved on by wait: a job of the scheduler; d.mu is held.
func (s *Sandbox) scheduleDelivery(d *deliverer, key string, now clockReading, wait time.Duration) {
	epoch := d.epoch
	s.sched.add(now.at.Add(wait), jobDelivery, d.queues[key][0].Seq, func(time.Time) {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.closed || d.epoch != epoch {
			return
		}
		s.makeReady(d, key)
	}, now)
}

// deliveryWorker attempts ready deliveries until none is ready.
func (s *Sandbox) deliveryWorker(d *deliverer) {
	defer d.wg.Done()
	for {
		d.mu.Lock()
		if d.closed || len(d.ready) == 0 {
			d.workers--
			d.mu.Unlock()
			return
		}
		key := d.ready[0]
		d.ready = d.ready[1:]
		d.busy++
		dv := d.queues[key][0]
		a := DeliveryAttempt{Forged: dv.forgeNext, Duplicate: dv.State == DeliveryDelivered}
		dv.forgeNext = false
		url, body, apiKey, secret := dv.URL, dv.Body, dv.apiKey, dv.secret
		epoch := d.epoch
		d.mu.Unlock()

		a.At = s.Now()
		a.Timestamp = a.At.Unix()
		if a.Forged {
			secret = "forged-" + randomToken(16)
		}
		a.StatusCode, a.Error = s.post(d, url, body, apiKey, secret, a.Timestamp)
		now := s.readClock()

		d.mu.Lock()
		d.busy--
		waits := false
		if !d.closed && d.epoch == epoch {
			dv.Attempts = append(dv.Attempts, a)
			d.counts.Attempts++
			waits = s.settle(d, dv, a, now)
		}
		d.mu.Unlock()
		if waits {
			// The clock may have moved since it was read as now (an
			// Advance that found nothing due yet): read it afresh.
			s.runDue()
		}
	}
}

// settle moves dv on after attempt a, which ended at now on the sandbox
// clock; a retry is due a backoff later on that clock. It reports whether
// the object now waits for the clock. d.mu is held.
func (s *Sandbox) settle(d *deliverer, dv *delivery, a DeliveryAttempt, now clockReading) bool {
	ok := a.StatusCode >= 200 && a.StatusCode <= 299
	switch {
	case a.Duplicate:
		dv.dupPending = false
	case ok:
		d.setState(dv, DeliveryDelivered)
		if dv.dupPending {
			s.makeReady(d, dv.key)
			return false
		}
	default:
		dv.attempts++
		if dv.attempts < s.settings.WebhookMaxAttempts {
			s.scheduleDelivery(d, dv.key, now, s.webhookBackoff(dv.attempts))
			return true
		}
		d.setState(dv, DeliveryFailed)
	}
	// dv is done: the object's next delivery may go.
	q := d.queues[dv.key][1:]
	d.pending--
	if len(q) == 0 {
		delete(d.queues, dv.key)
		return false
	}
	d.queues[dv.key] = q
	return s.startHead(d, dv.key, now)
}

// webhookBackoff is the wait after failed attempt n (from 1):
// WebhookInitialBackoff doubled n-1 times, at most WebhookMaxBackoff.
func (s *Sandbox) webhookBackoff(n int) time.Duration {
	wait := s.settings.WebhookInitialBackoff
	for i := 1; i < n && wait < s.settings.WebhookMaxBackoff; i++ {
		wait *= 2
	}
	return min(wait, s.settings.WebhookMaxBackoff)
}
