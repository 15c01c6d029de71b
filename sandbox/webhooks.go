package sandbox

// Webhook deliveries: every state change that has an event is sent to the
// organization's webhook URL as a signed POST from a background queue; and
// the registration of that URL (POST /org/api/v1/organizations/api-webhooks).

import (
	"bytes"
	"container/heap"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// Webhook event types (the body's "type").
const (
	EventTypePayout   = "PAYOUT"
	EventTypePayin    = "PAYIN"
	EventTypeCustomer = "CUSTOMER"
	EventTypeBank     = "BANK"
)

// rfiLinkBase is where the sandbox's rfi_link of an IN_REVIEW payout
// points: the .invalid top-level domain marks it as not a real page.
const rfiLinkBase = "https://rfi.sandbox.invalid/payouts/"

// DeliveryState is where a webhook delivery stands.
type DeliveryState string

// Delivery states.
const (
	// DeliveryPending: queued, being attempted or waiting for a retry.
	DeliveryPending DeliveryState = "pending"
	// DeliveryDelivered: the receiver answered 2xx.
	DeliveryDelivered DeliveryState = "delivered"
	// DeliveryFailed: every attempt (Settings.WebhookMaxAttempts) failed.
	DeliveryFailed DeliveryState = "failed"
	// DeliveryDropped: a DeliveryFaultDrop kept it from being sent at all.
	DeliveryDropped DeliveryState = "dropped"
	// DeliveryNoURL: the organization had no webhook URL at the time.
	DeliveryNoURL DeliveryState = "no_url"
	// DeliveryAbandoned: the sandbox was closed before it was delivered.
	DeliveryAbandoned DeliveryState = "abandoned"
)

// deliveryStates returns every delivery state.
func deliveryStates() []DeliveryState {
	return []DeliveryState{DeliveryPending, DeliveryDelivered, DeliveryFailed, DeliveryDropped, DeliveryNoURL, DeliveryAbandoned}
}

// DeliveryFaultKind is what an injected delivery fault does.
type DeliveryFaultKind string

// Delivery fault kinds.
const (
	// DeliveryFaultDuplicate sends the event once more after it was
	// delivered: the same body, signed afresh. A receiver must handle it
	// once (deduplicate on id + event).
	DeliveryFaultDuplicate DeliveryFaultKind = "duplicate"
	// DeliveryFaultDelay holds the event for DeliveryFault.Delay, on the
	// sandbox clock, before its first attempt; later events of the same
	// object wait behind it.
	DeliveryFaultDelay DeliveryFaultKind = "delay"
	// DeliveryFaultDrop never sends the event: a receiver learns the state
	// only by fetching the object (e.g. fiatramp's Payouts.Wait).
	DeliveryFaultDrop DeliveryFaultKind = "drop"
	// DeliveryFaultBadSignature signs the first attempt with a wrong
	// secret. A receiver must refuse it (401); the sandbox then retries
	// with the right signature.
	DeliveryFaultBadSignature DeliveryFaultKind = "bad_signature"
)

// Values returns every delivery fault kind.
func (DeliveryFaultKind) Values() []DeliveryFaultKind {
	return []DeliveryFaultKind{DeliveryFaultDuplicate, DeliveryFaultDelay, DeliveryFaultDrop, DeliveryFaultBadSignature}
}

// DeliveryFault is a rule for spoiling some webhook deliveries. A delivery
// meets at most one fault: the first rule, in the order they were
// injected, that matches it and still has deliveries to spoil.
type DeliveryFault struct {
	Kind DeliveryFaultKind `json:"kind"`
	// Type limits the fault to one event type (PAYOUT, ...); empty
	// matches every type.
	Type string `json:"type,omitempty"`
	// Event limits the fault to one event (SUCCESS, ...); empty matches
	// every event.
	Event string `json:"event,omitempty"`
	// Count spoils the next Count matching deliveries. Zero with a zero
	// Fraction means every matching delivery, until ClearDeliveryFaults.
	Count int `json:"count,omitempty"`
	// Fraction spoils each matching delivery with this probability (0 to
	// 1), drawn from the sandbox's seeded source; with Count set too, it
	// stops after Count spoiled deliveries.
	Fraction float64 `json:"fraction,omitempty"`
	// Delay is how long a DeliveryFaultDelay holds the event, on the
	// sandbox clock (see Settings.WebhookInitialBackoff).
	Delay time.Duration `json:"delay,omitempty"`
}

// Delivery is one event's delivery, as the delivery log holds it.
type Delivery struct {
	// Seq numbers deliveries from 1 in the order their events happened,
	// since New or the last Reset; it goes on past the log's size, so the
	// log's first entry has Seq DeliveryCounts.Evicted+1.
	Seq   int    `json:"seq"`
	URL   string `json:"url"`
	Type  string `json:"type"`
	ID    string `json:"id"`
	Event string `json:"event"`
	// Body is the JSON body sent, in canonical form (what is signed).
	Body  []byte            `json:"body"`
	Fault DeliveryFaultKind `json:"fault,omitempty"`
	State DeliveryState     `json:"state"`
	// Attempts are the POSTs made, in order; a duplicate's extra copy is
	// the last one.
	Attempts []DeliveryAttempt `json:"attempts"`
}

// DeliveryCounts counts the deliveries since New or the last Reset,
// those dropped from the delivery log included: dropping the oldest
// entries to keep the log within Settings.DeliveryLogSize changes none of
// these counts except Logged and Evicted.
type DeliveryCounts struct {
	// Total is every delivery so far (the Seq of the newest one);
	// Logged of them are in the log and Evicted were dropped from it,
	// oldest first (Total = Logged + Evicted). An evicted delivery still
	// pending is still attempted and still counted below.
	Total   int `json:"total"`
	Logged  int `json:"logged"`
	Evicted int `json:"evicted"`
	// States counts the deliveries in each state now (each state is
	// present, zero or not); the counts add up to Total.
	States map[DeliveryState]int `json:"states"`
	// Faults counts the deliveries each delivery fault kind spoiled (each
	// kind is present).
	Faults map[DeliveryFaultKind]int `json:"faults"`
	// Attempts counts every POST made, duplicates' extra copies included.
	Attempts int `json:"attempts"`
}

// DeliveryAttempt is one POST of a delivery.
type DeliveryAttempt struct {
	// At is the sandbox clock's time of the attempt; Timestamp the
	// X-TIMESTAMP it carried.
	At        time.Time `json:"at"`
	Timestamp int64     `json:"timestamp"`
	// Forged says the attempt was signed with a wrong secret
	// (DeliveryFaultBadSignature).
	Forged bool `json:"forged,omitempty"`
	// Duplicate says the attempt was the extra copy of a
	// DeliveryFaultDuplicate.
	Duplicate bool `json:"duplicate,omitempty"`
	// StatusCode is the receiver's answer; 0 when none arrived.
	StatusCode int `json:"status_code,omitempty"`
	// Error says why no answer arrived (connection error, timeout).
	Error string `json:"error,omitempty"`
}

// DefaultDeliveryLogSize is the default of Settings.DeliveryLogSize: the
// most deliveries the delivery log keeps.
const DefaultDeliveryLogSize = 10000

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

// deliveryFaultRule is an injected delivery fault and how many deliveries
// it has left.
type deliveryFaultRule struct {
	DeliveryFault
	left int
}

// deliverer is the background queue. Its own mutex guards it; a handler
// holding Sandbox.mu may take it (never the other way round).
//
// Waits (a failed attempt's backoff, a delay fault) run on the sandbox
// clock: an object whose head must wait is in due with the clock time it
// may go at. Every move of the clock (Advance, SetTime) releases what has
// come due; while the clock runs with real time, alarm wakes the queue at
// the earliest due time. due is a heap, so that thousands of objects
// waiting at once cost a logarithm each, not a scan.
type deliverer struct {
	mu      sync.Mutex
	log     []*delivery // the newest deliveries, at most size, oldest first
	size    int         // Settings.DeliveryLogSize
	counts  DeliveryCounts
	queues  map[string][]*delivery // pending deliveries per object, oldest first
	ready   []string               // objects whose head may be attempted now
	due     dueHeap                // objects whose head waits, and until when (sandbox clock)
	alarm   *time.Timer            // wakes the queue at alarmAt; nil when none is set
	alarmAt time.Time
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
	wg     sync.WaitGroup // workers and the alarm
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
		d.client = &http.Client{
			Transport: d.own,
			// A redirect is an answer other than 2xx: retried, not followed.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return d
}

// InjectDeliveryFault adds f to the delivery fault rules.
func (s *Sandbox) InjectDeliveryFault(f DeliveryFault) error {
	switch f.Kind {
	case DeliveryFaultDuplicate, DeliveryFaultDrop, DeliveryFaultBadSignature:
	case DeliveryFaultDelay:
		if f.Delay <= 0 {
			return fmt.Errorf("sandbox: delivery fault: a %s fault needs a positive Delay", f.Kind)
		}
	default:
		return fmt.Errorf("sandbox: delivery fault: unknown kind %q", f.Kind)
	}
	if err := checkQuota("delivery fault", f.Count, f.Fraction); err != nil {
		return err
	}
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults = append(d.faults, &deliveryFaultRule{DeliveryFault: f, left: f.Count})
	return nil
}

// ClearDeliveryFaults removes every delivery fault rule.
func (s *Sandbox) ClearDeliveryFaults() {
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults = nil
}

// Deliveries returns the delivery log: the newest deliveries, at most
// Settings.DeliveryLogSize of them (default DefaultDeliveryLogSize), in the
// order their events happened, with their state and attempts. Past that
// size each new delivery drops the oldest from the log (a pending one is
// still attempted); DeliveryCounts keeps counting them all. The result
// shares nothing with the sandbox.
func (s *Sandbox) Deliveries() []Delivery {
	log, _ := s.deliveryLog()
	return log
}

// DeliveryCounts returns the counts of every delivery since New or the
// last Reset, those dropped from the delivery log included.
func (s *Sandbox) DeliveryCounts() DeliveryCounts {
	_, counts := s.deliveryLog()
	return counts
}

// deliveryLog returns the log and its counts, read at one moment.
func (s *Sandbox) deliveryLog() ([]Delivery, DeliveryCounts) {
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Delivery, len(d.log))
	for i, dv := range d.log {
		out[i] = dv.Delivery
		out[i].Body = bytes.Clone(dv.Body)
		out[i].Attempts = slices.Clone(dv.Attempts)
	}
	counts := d.counts
	counts.States = maps.Clone(d.counts.States)
	counts.Faults = maps.Clone(d.counts.Faults)
	return out, counts
}

// resetCounts zeroes the counts, with every state and fault kind present;
// d.mu is held or d is new.
func (d *deliverer) resetCounts() {
	d.counts = DeliveryCounts{States: map[DeliveryState]int{}, Faults: map[DeliveryFaultKind]int{}}
	for _, st := range deliveryStates() {
		d.counts.States[st] = 0
	}
	for _, k := range DeliveryFaultKind("").Values() {
		d.counts.Faults[k] = 0
	}
}

// setState moves dv to state st, keeping the counts; d.mu is held.
func (d *deliverer) setState(dv *delivery, st DeliveryState) {
	d.counts.States[dv.State]--
	d.counts.States[st]++
	dv.State = st
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
	s.wakeDeliveries()
	return s.waitQueue(ctx, func(d *deliverer) bool { return len(d.ready) == 0 && d.busy == 0 })
}

// NextDeliveryDue returns the earliest time on the sandbox clock at which
// a pending delivery waiting for a retry's backoff or a delay fault comes
// due, and false when none waits: advancing the clock to it, then
// DeliverDue, attempts that delivery.
func (s *Sandbox) NextDeliveryDue() (time.Time, bool) {
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.due) == 0 {
		return time.Time{}, false
	}
	return d.due[0].at, true
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

// Close stops webhook deliveries for good: an attempt under way is
// cancelled, pending deliveries become DeliveryAbandoned, and later events
// are logged as abandoned too. It returns when every delivery goroutine
// has ended. Server.Close calls it. Serving requests is not affected.
func (s *Sandbox) Close() error {
	d := s.deliveries
	d.mu.Lock()
	if !d.closed {
		d.closed = true
		d.cancel()
		d.stopAlarm()
		for _, q := range d.queues {
			for _, dv := range q {
				if dv.State == DeliveryPending { // not one delivered whose duplicate is still due
					d.setState(dv, DeliveryAbandoned)
				}
			}
		}
		d.queues, d.ready, d.due, d.pending = nil, nil, nil, 0
	}
	d.mu.Unlock()
	d.wg.Wait()
	if d.own != nil {
		d.own.CloseIdleConnections()
	}
	return nil
}

// emit records an event of the request's organization and queues its
// delivery; s.mu is held. meta holds the metadata members (may be empty).
func (s *Sandbox) emit(rq *request, typ, id, event string, meta map[string]any) {
	raw := mustJSON(map[string]any{
		"type": typ, "id": id, "event": event,
		"timestamp": stamp(rq.now), "metadata": meta,
	})
	body, err := fiatramp.CanonicalizeJSON(raw)
	if err != nil {
		panic("sandbox: canonical webhook body: " + err.Error()) // built from strings only
	}
	o := rq.org
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	d.counts.Total++
	dv := &delivery{
		Delivery: Delivery{
			Seq: d.counts.Total, URL: o.WebhookURL,
			Type: typ, ID: id, Event: event, Body: body,
			State: DeliveryPending, Attempts: []DeliveryAttempt{},
		},
		key:    o.ID.String() + "/" + typ + "/" + id,
		apiKey: o.APIKey, secret: o.APISecret,
	}
	d.counts.States[DeliveryPending]++
	d.appendLog(dv)
	switch {
	case d.closed:
		d.setState(dv, DeliveryAbandoned)
		return
	case o.WebhookURL == "":
		d.setState(dv, DeliveryNoURL)
		return
	}
	if f, ok := s.matchDeliveryFault(d, typ, event); ok {
		dv.Fault = f.Kind
		d.counts.Faults[f.Kind]++
		switch f.Kind {
		case DeliveryFaultDrop:
			d.setState(dv, DeliveryDropped)
			return
		case DeliveryFaultDuplicate:
			dv.dupPending = true
		case DeliveryFaultBadSignature:
			dv.forgeNext = true
		case DeliveryFaultDelay:
			dv.delay = f.Delay
		}
	}
	d.pending++
	d.queues[dv.key] = append(d.queues[dv.key], dv)
	if len(d.queues[dv.key]) == 1 {
		s.startHead(d, dv.key, s.readClockLocked())
	}
}

// appendLog adds dv to the log, dropping the oldest entry when the log
// is full; d.mu is held.
func (d *deliverer) appendLog(dv *delivery) {
	if len(d.log) >= d.size {
		d.log[0] = nil // let it go: the backing array outlives the slice
		d.log = d.log[1:]
		d.counts.Evicted++
	}
	d.log = append(d.log, dv)
	d.counts.Logged = len(d.log)
}

// matchDeliveryFault picks the fault for a delivery, if any; s.mu and d.mu
// are held (s.rng is s.mu's).
func (s *Sandbox) matchDeliveryFault(d *deliverer, typ, event string) (DeliveryFault, bool) {
	for i, rule := range d.faults {
		if rule.Type != "" && rule.Type != typ || rule.Event != "" && rule.Event != event {
			continue
		}
		hit, spent := s.draw(rule.Count, rule.Fraction, &rule.left)
		if !hit {
			continue
		}
		if spent {
			d.faults = append(d.faults[:i:i], d.faults[i+1:]...)
		}
		return rule.DeliveryFault, true
	}
	return DeliveryFault{}, false
}

// startHead makes the oldest delivery of object key attemptable, after
// its delay (on the sandbox clock, read as now) if it has one, and reports
// whether it waits for the clock; d.mu is held.
func (s *Sandbox) startHead(d *deliverer, key string, now clockReading) bool {
	head := d.queues[key][0]
	if head.delay > 0 {
		delay := head.delay
		head.delay = 0
		s.schedule(d, key, now, delay)
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

// schedule makes object key ready once the sandbox clock, read as now,
// has moved on by wait; d.mu is held.
func (s *Sandbox) schedule(d *deliverer, key string, now clockReading, wait time.Duration) {
	heap.Push(&d.due, waiting{key: key, at: now.at.Add(wait), seq: d.queues[key][0].Seq})
	if d.alarm == nil || d.due[0].at.Before(d.alarmAt) {
		s.setAlarm(d, now) // an alarm set for an earlier time stays
	}
}

// waiting is an object whose head waits until at on the sandbox clock;
// seq is the head's Seq.
type waiting struct {
	key string
	at  time.Time
	seq int
}

// dueHeap orders the waiting objects by due time, then by the order of
// their events: the same moves of the clock give the same order of
// attempts.
type dueHeap []waiting

func (h dueHeap) Len() int { return len(h) }
func (h dueHeap) Less(i, j int) bool {
	if c := h[i].at.Compare(h[j].at); c != 0 {
		return c < 0
	}
	return h[i].seq < h[j].seq
}
func (h dueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any)   { *h = append(*h, x.(waiting)) }
func (h *dueHeap) Pop() any {
	old := *h
	w := old[len(old)-1]
	*h = old[:len(old)-1]
	return w
}

// wakeDeliveries reads the sandbox clock and makes ready every object
// whose wait is over by it. It runs after each move of the clock and when
// the alarm goes off; s.mu must not be held.
func (s *Sandbox) wakeDeliveries() {
	now := s.readClock()
	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	for len(d.due) > 0 && !d.due[0].at.After(now.at) {
		s.makeReady(d, heap.Pop(&d.due).(waiting).key)
	}
	s.setAlarm(d, now)
}

// setAlarm sets the alarm afresh for the earliest due time, when the
// sandbox clock (read as now) runs with real time; a stopped clock moves
// only by Advance and SetTime, which wake the queue themselves. d.mu is
// held.
func (s *Sandbox) setAlarm(d *deliverer, now clockReading) {
	d.stopAlarm()
	if !now.running || len(d.due) == 0 {
		return
	}
	next := d.due[0].at
	d.wg.Add(1)
	d.alarmAt = next
	d.alarm = time.AfterFunc(max(next.Sub(now.at), 0), func() {
		defer d.wg.Done()
		s.wakeDeliveries()
	})
}

// stopAlarm stops the alarm, if one is set; d.mu is held.
func (d *deliverer) stopAlarm() {
	if d.alarm != nil && d.alarm.Stop() {
		d.wg.Done() // its function will never run
	}
	d.alarm = nil
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
			s.wakeDeliveries()
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
			s.schedule(d, dv.key, now, s.webhookBackoff(dv.attempts))
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

// maxReceiverAnswer is how much of a receiver's answer is read (and
// thrown away) so the connection can be reused.
const maxReceiverAnswer = 64 << 10

// post sends one signed delivery and returns the receiver's status, or 0
// and why no answer came.
func (s *Sandbox) post(d *deliverer, url string, body []byte, apiKey, secret string, ts int64) (int, string) {
	ctx, cancel := context.WithTimeout(d.ctx, s.settings.WebhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "fiatramp-sandbox-webhooks")
	req.Header.Set("X-TIMESTAMP", strconv.FormatInt(ts, 10))
	req.Header.Set("X-SIGNATURE", signature(apiKey, secret, ts, body))
	resp, err := d.client.Do(req)
	if err != nil {
		return 0, err.Error() // a transport error carries no header
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxReceiverAnswer))
	return resp.StatusCode, ""
}

// payoutEventMeta is the metadata of a payout event.
func payoutEventMeta(p *payout) map[string]any {
	meta := map[string]any{}
	if p.ClientReferenceID != nil {
		meta["client_reference_id"] = *p.ClientReferenceID
	}
	if p.UTR != nil {
		meta["utr"] = *p.UTR
	}
	if p.FailureReason != nil {
		meta["failure_reason"] = *p.FailureReason
	}
	return meta
}

// maxWebhookURL is the longest webhook URL the registration accepts.
const maxWebhookURL = 2048

// registerWebhook is POST /org/api/v1/organizations/api-webhooks with
// {"webhook_url": "https://..."}: it sets the organization's one webhook
// URL, replacing any earlier one; events emitted from then on go there. It
// answers the URL as a bare JSON string. A body without webhook_url is
// read from "url", the member an earlier form of the documentation showed,
// so that callers written against it keep working; webhook_url wins when
// both are present. Neither (or null, or blank) is "Webhook URL is
// required"; a URL that is not absolute http or https, carries user info
// or a fragment, or is longer than 2048 bytes is a field error under the
// member it came in.
func (s *Sandbox) registerWebhook(rq *request) reply {
	f := rq.body
	name := "webhook_url"
	raw, ok := f.value(name)
	if !ok {
		if legacy, has := f.value("url"); has {
			name, raw, ok = "url", legacy, true
		}
	}
	if !ok || raw == nil {
		return rule(msgWebhookURLRequired)
	}
	text, isString := raw.(string)
	if !isString {
		return fieldRefusal(map[string][]string{name: {msgString}})
	}
	if strings.TrimSpace(text) == "" {
		return rule(msgWebhookURLRequired)
	}
	if problem := webhookURLProblem(text); problem != "" {
		return fieldRefusal(map[string][]string{name: {problem}})
	}
	rq.org.WebhookURL = text
	return success(http.StatusOK, "Webhook registered successfully", text)
}

// msgWebhookURLRequired refuses a registration without a URL.
const msgWebhookURLRequired = "Webhook URL is required"

// webhookURLProblem says what is wrong with a webhook URL, or "".
func webhookURLProblem(text string) string {
	if strings.TrimSpace(text) == "" {
		return msgBlank
	}
	if len(text) > maxWebhookURL {
		return fmt.Sprintf("Ensure this field has no more than %d characters.", maxWebhookURL)
	}
	u, err := url.Parse(text)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Fragment != "" {
		return "Enter a valid URL."
	}
	return ""
}
