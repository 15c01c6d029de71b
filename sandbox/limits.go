package sandbox

// Customer limits: the daily limits of payouts and of payins (Settings
// PayoutLimits and PayinLimits), what payout creates and payin quotations
// have used of them per UTC day of the sandbox clock and per payment
// method, and the payout and payin limits operations under /ren/api/v1.

import (
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// Refusals of the limits: the documented messages, and the sandbox's own
// wording where the service documents none (a payout beyond a limit an
// EDD already lifted).
const (
	msgPayoutDailyLimit = "Daily payout limit exhausted"
)

// DailyLimits are a customer's daily limits in one direction (payouts or
// payins), in fiat, per UTC day of the sandbox clock.
type DailyLimits struct {
	// Daily is the most a customer may move in a day, every payment
	// method together. It must be positive.
	Daily decimal.Decimal `json:"daily"`
	// PerMethod is the most a customer may move in a day by one payment
	// method; a method not listed (or not positive) has Daily alone.
	PerMethod map[types.PaymentMethod]decimal.Decimal `json:"per_method,omitempty"`
	// PerTransaction is the most one transaction may carry by a payment
	// method; a method not listed (or not positive) has no ceiling of its own.
	// A VERIFIED EDD does not raise it.
	PerTransaction map[types.PaymentMethod]decimal.Decimal `json:"per_transaction,omitempty"`
}

// clone returns l with its own maps.
func (l DailyLimits) clone() DailyLimits {
	c := l
	c.PerMethod = make(map[types.PaymentMethod]decimal.Decimal, len(l.PerMethod))
	for k, v := range l.PerMethod {
		c.PerMethod[k] = v
	}
	c.PerTransaction = make(map[types.PaymentMethod]decimal.Decimal, len(l.PerTransaction))
	for k, v := range l.PerTransaction {
		c.PerTransaction[k] = v
	}
	return c
}

// defaultPayoutLimits: INR 10,000,000 a day (IMPS alike, UPI 1,000,000),
// no ceiling per transaction: generous, so that tests paying out many times
// in one day meet no limit unless they set one.
func defaultPayoutLimits() DailyLimits {
	return DailyLimits{
		Daily: decimal.NewFromInt(10_000_000),
		PerMethod: map[types.PaymentMethod]decimal.Decimal{
			types.PaymentMethodIMPS: decimal.NewFromInt(10_000_000),
			types.PaymentMethodUPI:  decimal.NewFromInt(1_000_000),
		},
	}
}

// defaultPayinLimits: INR 10,000,000 a day (IMPS alike, UPI 1,000,000),
// one transaction at most the payin maxima (IMPS 500,000, UPI 100,000).
func defaultPayinLimits() DailyLimits {
	l := defaultPayoutLimits()
	l.PerTransaction = map[types.PaymentMethod]decimal.Decimal{
		types.PaymentMethodIMPS: decimal.NewFromInt(500_000),
		types.PaymentMethodUPI:  decimal.NewFromInt(100_000),
	}
	return l
}

// limitDirection says whose limits: payouts' or payins'.
type limitDirection uint8

const (
	limitPayout limitDirection = iota + 1
	limitPayin
)

// limitState is what an organization's limits and EDDs hold; s.mu guards
// it.
type limitState struct {
	used     map[usageKey]decimal.Decimal // consumed, per customer, direction, day and method
	exceeded map[dayKey]bool              // a consumption was refused that day
	edds     map[uuid.UUID]*edd
}

type usageKey struct {
	customer uuid.UUID
	dir      limitDirection
	day      string // yyyy-mm-dd, UTC
	method   types.PaymentMethod
}

type dayKey struct {
	customer uuid.UUID
	dir      limitDirection
	day      string
}

// newLimitState returns an empty limitState.
func newLimitState() limitState {
	return limitState{used: map[usageKey]decimal.Decimal{}, exceeded: map[dayKey]bool{}, edds: map[uuid.UUID]*edd{}}
}

// utcDay is the UTC day of t, yyyy-mm-dd.
func utcDay(t time.Time) string { return t.UTC().Format("2006-01-02") }

// customerLimits is what one customer may move in direction dir on the
// UTC day of at: the settings, raised by a VERIFIED EDD.
type customerLimits struct {
	lifted         bool
	daily          decimal.Decimal
	perMethod      map[types.PaymentMethod]decimal.Decimal // raised; absent: daily alone
	perTransaction map[types.PaymentMethod]decimal.Decimal
	usedAll        decimal.Decimal
	used           map[types.PaymentMethod]decimal.Decimal
}

// limitsOf works out customer's limits of dir on the UTC day of at; s.mu
// is held.
func (s *Sandbox) limitsOf(o *org, customer uuid.UUID, dir limitDirection, at time.Time) customerLimits {
	base := s.settings.PayoutLimits
	if dir == limitPayin {
		base = s.settings.PayinLimits
	}
	cl := customerLimits{lifted: eddLifted(o, customer, dir), daily: base.Daily,
		perMethod: map[types.PaymentMethod]decimal.Decimal{}, perTransaction: base.PerTransaction,
		used: map[types.PaymentMethod]decimal.Decimal{}}
	mult := decimal.NewFromInt(1)
	if cl.lifted {
		mult = decimal.NewFromInt(s.settings.EDDLimitMultiplier)
	}
	cl.daily = cl.daily.Mul(mult)
	for m, v := range base.PerMethod {
		if v.IsPositive() {
			cl.perMethod[m] = v.Mul(mult)
		}
	}
	st, day := &o.limits, utcDay(at)
	for _, m := range types.PaymentMethod("").Values() {
		u := st.used[usageKey{customer, dir, day, m}]
		cl.used[m] = u
		cl.usedAll = cl.usedAll.Add(u)
	}
	for k, u := range st.used { // methods the documentation does not list
		if k.customer == customer && k.dir == dir && k.day == day && !k.method.IsKnown() {
			cl.usedAll = cl.usedAll.Add(u)
		}
	}
	return cl
}

// available is what is left of the daily limit, never below zero.
func (cl customerLimits) available() decimal.Decimal {
	return decimal.Max(decimal.Zero, cl.daily.Sub(cl.usedAll))
}

// availableBy is what is left by method m: the day's, and the method's.
func (cl customerLimits) availableBy(m types.PaymentMethod) decimal.Decimal {
	a := cl.available()
	if pm, ok := cl.perMethod[m]; ok {
		a = decimal.Min(a, decimal.Max(decimal.Zero, pm.Sub(cl.used[m])))
	}
	return a
}

// consumeLimit takes amount (fiat, as the transaction's quotation states
// it) from the daily limits of customer in direction dir (limitPayout or
// limitPayin) by payment method, for the UTC day of at (the request's
// sandbox clock); s.mu is held. It consumes only when the amount fits
// every limit, and then returns nil. Otherwise it consumes nothing and
// returns the refusal to answer: "Entered amount exceeds maximum
// transaction amount" beyond the method's ceiling per transaction; beyond
// what is left of the day (overall or by method), "EDD required" while no
// VERIFIED EDD has lifted the customer's limits (the limits then show
// is_edd_required for the rest of the day), else "Daily onramp limit
// exhausted" for a payin and "Daily payout limit exhausted" for a payout.
//
// Call it last among an operation's checks, right before the operation
// stores what it creates: what it takes is not given back (a payout that
// later fails keeps its share of the day, as a quotation that expires
// unused does).
func (s *Sandbox) consumeLimit(o *org, customer uuid.UUID, dir limitDirection, method types.PaymentMethod, amount decimal.Decimal, at time.Time) *reply {
	cl := s.limitsOf(o, customer, dir, at)
	if ceiling, ok := cl.perTransaction[method]; ok && ceiling.IsPositive() && amount.GreaterThan(ceiling) {
		return refuseRule(msgAboveMaximum)
	}
	if amount.GreaterThan(cl.availableBy(method)) {
		st := &o.limits
		switch {
		case !cl.lifted:
			st.exceeded[dayKey{customer, dir, utcDay(at)}] = true
			return refuseRule(msgEDDRequired)
		case dir == limitPayin:
			return refuseRule(msgDailyLimit)
		default:
			return refuseRule(msgPayoutDailyLimit)
		}
	}
	k := usageKey{customer, dir, utcDay(at), method}
	st := &o.limits
	st.used[k] = st.used[k].Add(amount)
	return nil
}

// eddRequired reports whether customer must complete an EDD before moving
// more in direction dir on the UTC day of at: not lifted yet, and the
// day's limit refused a transaction or is used up; s.mu is held.
func (s *Sandbox) eddRequired(o *org, customer uuid.UUID, dir limitDirection, at time.Time) bool {
	cl := s.limitsOf(o, customer, dir, at)
	if cl.lifted {
		return false
	}
	return o.limits.exceeded[dayKey{customer, dir, utcDay(at)}] || !cl.available().IsPositive()
}

// limitsReply answers the limits of the path's customer in dir: amounts
// as JSON numbers, both documented payment methods, the next UTC midnight
// as full_limit_reset_timestamp. A customer that is absent or another
// organization's is refused "Customer not found or access denied". A
// customer flagged EDDRequired shows is_edd_required in both directions
// until an EDD lifts that direction's limits.
func (s *Sandbox) limitsReply(rq *request, dir limitDirection) reply {
	c := s.pathCustomer(rq, rq.params[0])
	if c == nil {
		return rule(msgCustomerNotFound)
	}
	cl := s.limitsOf(rq.org, c.ID, dir, rq.now)
	perTx, total := map[string]any{}, map[string]any{}
	for _, m := range types.PaymentMethod("").Values() {
		ceiling := cl.daily
		if v, ok := cl.perMethod[m]; ok {
			ceiling = v
		}
		if v, ok := cl.perTransaction[m]; ok && v.IsPositive() {
			ceiling = decimal.Min(ceiling, v)
		}
		perTx[string(m)] = num(ceiling)
		total[string(m)] = num(cl.availableBy(m))
	}
	now := rq.now.UTC()
	reset := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
	required := s.eddRequired(rq.org, c.ID, dir, rq.now) || (c.EDDRequired && !cl.lifted)
	return success(http.StatusOK, "Limits fetched successfully", map[string]any{
		"daily_limit":     num(cl.daily),
		"available_limit": num(cl.available()),
		"payment_method_limits": map[string]any{
			"per_transaction_limit": perTx,
			"total_available_limit": total,
		},
		"full_limit_reset_timestamp":  stamp(reset),
		"is_edd_required":             required,
		"is_limit_increase_available": !cl.lifted,
	})
}
