package sandbox

// The Sandbox itself: its settings, its clock, its state and Reset.

import (
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/shopspring/decimal"
)

// Sandbox is the in-memory service. Create one with New; the zero value is
// not usable.
type Sandbox struct {
	settings Settings
	routes   []route // built once from settings; read-only
	// parseHook, when set (by tests, before serving), runs at the end of
	// each request's body parsing, which holds no lock.
	parseHook func(*http.Request)

	mu sync.Mutex // guards st and rng

	st  *state // the clock, the organizations and all they own (state.go)
	rng *rand.Rand

	// static are the answers that depend on the settings alone, encoded
	// once by New; read-only.
	static struct{ kycConfiguration, configuration, payinConfiguration reply }

	deliveries *deliverer // webhook queue, with its own lock
	sched      scheduler  // the work waiting on the sandbox clock, with its own lock
	requestIDs *requestIDs
}

// New returns an empty Sandbox with DefaultSettings changed by opts. Add
// an organization (AddOrganization, Load or SeedDemo) before calling it.
func New(opts ...Option) *Sandbox {
	st := DefaultSettings()
	for _, o := range opts {
		o(&st)
	}
	if st.PageSize <= 0 {
		st.PageSize = 10
	}
	if st.RemittancePayoutPath == "" {
		st.RemittancePayoutPath = DefaultRemittancePayoutPath
	}
	if st.RetryAfter <= 0 {
		st.RetryAfter = time.Second
	}
	def := DefaultSettings()
	if st.WebhookTimeout <= 0 {
		st.WebhookTimeout = def.WebhookTimeout
	}
	if st.WebhookMaxAttempts <= 0 {
		st.WebhookMaxAttempts = def.WebhookMaxAttempts
	}
	if st.WebhookInitialBackoff <= 0 {
		st.WebhookInitialBackoff = def.WebhookInitialBackoff
	}
	if st.WebhookMaxBackoff < st.WebhookInitialBackoff {
		st.WebhookMaxBackoff = st.WebhookInitialBackoff
	}
	if st.WebhookWorkers <= 0 {
		st.WebhookWorkers = def.WebhookWorkers
	}
	if st.DeliveryLogSize <= 0 {
		st.DeliveryLogSize = def.DeliveryLogSize
	}
	if st.PayoutQuotationLifetime <= 0 {
		st.PayoutQuotationLifetime = def.PayoutQuotationLifetime
	}
	rates := make(map[string]decimal.Decimal, len(st.Rates))
	for k, v := range st.Rates {
		rates[k] = v
	}
	st.Rates = rates
	settleLimitSettings(&st)
	seed := st.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	sb := &Sandbox{
		settings:   st,
		st:         newState(),
		rng:        rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		deliveries: newDeliverer(st),
		requestIDs: newRequestIDs(),
	}
	sb.sched.wake = sb.runDue
	sb.static.kycConfiguration = kycConfigurationReply()
	sb.static.configuration = sb.configurationReply()
	sb.static.payinConfiguration = sb.payinConfigurationReply()
	sb.routes = compileRoutes(st.RemittancePayoutPath)
	return sb
}

// Settings returns the settings the sandbox runs with.
func (s *Sandbox) Settings() Settings {
	st := s.settings
	st.Rates = make(map[string]decimal.Decimal, len(s.settings.Rates))
	for k, v := range s.settings.Rates {
		st.Rates[k] = v
	}
	copyLimitSettings(&st)
	return st
}

// Now returns the sandbox clock's time.
func (s *Sandbox) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now()
}

// now is Now with s.mu held.
func (s *Sandbox) now() time.Time {
	if s.st.frozen {
		return s.st.at
	}
	return time.Now().Add(s.st.offset)
}

// clockReading is the sandbox clock read at one moment: its time, and
// whether it runs with real time (not stopped by SetTime).
type clockReading struct {
	at      time.Time
	running bool
}

// readClock reads the sandbox clock.
func (s *Sandbox) readClock() clockReading {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readClockLocked()
}

// readClockLocked is readClock with s.mu held.
func (s *Sandbox) readClockLocked() clockReading {
	return clockReading{s.now(), !s.st.frozen}
}

// SetTime stops the sandbox clock at t; it moves again only through
// Advance or SetTime. Webhook deliveries whose retry or delay is due by t
// are released at once (DeliverDue waits for their attempts).
func (s *Sandbox) SetTime(t time.Time) {
	s.mu.Lock()
	s.st.frozen, s.st.at = true, t
	s.runDueLocked(true)
	s.mu.Unlock()
}

// Advance moves the sandbox clock forward by d (backward when d is
// negative), stopped or not. Webhook deliveries whose retry or delay is
// due by the new time are released at once (DeliverDue waits for their
// attempts).
func (s *Sandbox) Advance(d time.Duration) {
	s.mu.Lock()
	if s.st.frozen {
		s.st.at = s.st.at.Add(d)
	} else {
		s.st.offset += d
	}
	s.runDueLocked(true)
	s.mu.Unlock()
}

// publicURL parses settings.PublicURL, or returns nil when it is empty.
func (s *Sandbox) publicURL() *url.URL {
	if s.settings.PublicURL == "" {
		return nil
	}
	u, err := url.Parse(s.settings.PublicURL)
	if err != nil {
		return nil
	}
	return u
}

// Reset empties the sandbox as if it were new: every organization and all
// it owns (customers, bank accounts, wallets, quotations, remitters,
// payouts, payin quotations, payins), every fault and delivery fault rule, the
// delivery log with its DeliveryCounts and the counts of Stats go, and the clock runs with real
// time again. Pending deliveries are dropped unsent; an attempt under way
// finishes but is not logged. The settings stay.
func (s *Sandbox) Reset() {
	s.mu.Lock()
	s.st = newState()
	s.sched.clear()
	s.mu.Unlock()

	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	d.epoch++
	d.log, d.queues, d.ready, d.pending, d.faults = nil, map[string][]*delivery{}, nil, 0, nil
	d.resetCounts()
}
