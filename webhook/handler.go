package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// WithDeduper sets the store that remembers handled events (default: a
// MemoryDeduper of this Handler alone). A receiver running on several
// machines needs a shared one; see Deduper. nil keeps the default.
func WithDeduper(d Deduper) Option {
	return func(c *config) {
		if d != nil {
			c.deduper = d
		}
	}
}

// WithClock sets the clock against which Handler checks X-TIMESTAMP
// (default time.Now). nil keeps the default.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.clock = now
		}
	}
}

// WithLogger makes Handler log each refused delivery (at Warn) and each
// failure of the receiver's function or of the Deduper (at Error), with
// the event's type, id and event when known. Nothing is logged by default.
// The secret and signatures are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// finishTimeout bounds the Deduper's Complete or Release, which runs even
// when the request's context has ended.
const finishTimeout = 10 * time.Second

// Handler returns an http.Handler that receives the service's webhook
// deliveries and runs fn once per event.
//
// For each request it answers:
//   - 405 (with Allow: POST) to any method but POST;
//   - 413 to a body larger than the cap (1 MiB by default, WithMaxBodyBytes),
//     which is not read past the cap;
//   - 401 when Verify refuses the signature or the timestamp
//     (ErrInvalidSignature, ErrStaleTimestamp); 400 when it finds the body
//     or headers malformed (ErrMalformed);
//   - 200 without running fn when the event (type, id and event) was
//     handled before;
//   - 503 with Retry-After when another delivery of the same event is
//     running fn at this moment, or when the Deduper fails: the service
//     delivers again later, and by then the first run has either finished
//     (the repeat is acknowledged) or failed (the repeat runs fn);
//   - otherwise it runs fn with the request's context and the event: 200
//     when fn returns nil, 500 when it returns an error. When fn panics,
//     the claim is released and the panic goes on to the http.Server,
//     which drops the connection without an answer (a failed delivery to
//     the service). A failed run leaves no record, so the service's next
//     delivery runs fn again.
//
// fn should be quick (the service expects 2xx fast): record the event and
// do slow work elsewhere. Serve the handler from an http.Server with a
// ReadTimeout, so that a sender that trickles its body cannot hold a
// connection. A repeat that arrives while fn runs is answered
// 503 at once rather than held until fn ends, so it ties up no connection
// and works the same with a Deduper shared between machines.
//
// The handler holds the secret; printing it with any fmt verb or logging
// it with log/slog shows only the key. Handler panics when fn is nil or
// apiSecret is empty (an unset setting, with which anybody could sign
// events), so that the mistake shows at start-up rather than as deliveries
// refused or forgeries accepted.
func Handler(apiKey, apiSecret string, fn func(ctx context.Context, ev *Event) error, opts ...Option) http.Handler {
	if fn == nil {
		panic("webhook: Handler called with a nil function")
	}
	if apiSecret == "" {
		panic("webhook: Handler called with an empty API secret")
	}
	cfg := newConfig(opts)
	if cfg.deduper == nil {
		cfg.deduper = new(MemoryDeduper)
	}
	if cfg.clock == nil {
		cfg.clock = time.Now
	}
	return &handler{key: apiKey, secret: apiSecret, fn: fn, cfg: cfg}
}

type handler struct {
	key, secret string
	fn          func(context.Context, *Event) error
	cfg         config
}

// String describes the handler without its secret.
func (h *handler) String() string {
	return "webhook.Handler{apiKey: " + maskKey(h.key) + ", apiSecret: [redacted]}"
}

// Format prints the handler as String does for every verb.
func (h *handler) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, h.String()) }

// LogValue describes the handler to log/slog without its secret.
func (h *handler) LogValue() slog.Value {
	return slog.GroupValue(slog.String("api_key", maskKey(h.key)))
}

func maskKey(k string) string {
	if len(k) <= 4 {
		return "****"
	}
	return "****" + k[len(k)-4:]
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		reply(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	src := r.Body
	if src == nil { // a request built by hand with no body
		src = http.NoBody
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, src, h.cfg.maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.warn(r, "body too large", nil, err)
			reply(w, http.StatusRequestEntityTooLarge, "body too large")
			return
		}
		h.warn(r, "body unreadable", nil, err)
		reply(w, http.StatusBadRequest, "body unreadable")
		return
	}
	ev, err := h.cfg.verify(h.key, h.secret, r.Header, body, h.cfg.clock())
	if err != nil {
		h.warn(r, "delivery refused", nil, err)
		switch {
		case errors.Is(err, ErrInvalidSignature):
			reply(w, http.StatusUnauthorized, "invalid signature")
		case errors.Is(err, ErrStaleTimestamp):
			reply(w, http.StatusUnauthorized, "stale timestamp")
		default:
			reply(w, http.StatusBadRequest, "malformed delivery")
		}
		return
	}

	key := ev.DedupeKey()
	claim, err := h.cfg.deduper.Begin(r.Context(), key)
	if err == nil && claim.State != Claimed && claim.State != AlreadyDone && claim.State != InProgress {
		err = fmt.Errorf("webhook: Deduper.Begin answered unknown claim state %d", int(claim.State))
	}
	if err == nil && claim.Key != key {
		err = errors.New("webhook: Deduper.Begin answered a claim of another key")
	}
	switch {
	case err != nil:
		h.fail(r, "deduper failed", ev, err)
		w.Header().Set("Retry-After", "10")
		reply(w, http.StatusServiceUnavailable, "try again")
		return
	case claim.State == AlreadyDone:
		reply(w, http.StatusOK, "ok")
		return
	case claim.State == InProgress:
		w.Header().Set("Retry-After", "10")
		reply(w, http.StatusServiceUnavailable, "in progress")
		return
	}

	if err := h.run(r.Context(), claim, ev); err != nil {
		h.fail(r, "receiver failed", ev, err)
		reply(w, http.StatusInternalServerError, "receiver failed")
		return
	}
	reply(w, http.StatusOK, "ok")
}

// run calls fn under claim and ends the claim: completed when fn returned
// nil, released when it failed or panicked (the panic goes on after the
// release). fn's context ends when the claim's lease does.
func (h *handler) run(ctx context.Context, claim Claim, ev *Event) (err error) {
	if !claim.Expires.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, claim.Expires)
		defer cancel()
	}
	ok := false
	defer func() {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
		defer cancel()
		var ferr error
		if ok {
			ferr = h.cfg.deduper.Complete(fctx, claim)
		} else {
			ferr = h.cfg.deduper.Release(fctx, claim)
		}
		if ferr != nil {
			// fn's outcome stands: a success that cannot be recorded is
			// still a success (answering 5xx would make the service
			// deliver again to a claim that is still held). A lost claim
			// means fn may have run twice: the log says so.
			h.logError(ctx, "deduper finish failed", ev, ferr)
		}
	}()
	err = h.fn(ctx, ev)
	ok = err == nil
	return err
}

func reply(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, msg+"\n")
}

func eventAttrs(ev *Event) []any {
	if ev == nil {
		return nil
	}
	return []any{slog.String("type", string(ev.Type)), slog.String("id", ev.ID), slog.String("event", string(ev.Event))}
}

func (h *handler) warn(r *http.Request, msg string, ev *Event, err error) {
	if h.cfg.logger == nil {
		return
	}
	h.cfg.logger.WarnContext(r.Context(), "webhook: "+msg, append(eventAttrs(ev), slog.String("error", err.Error()))...)
}

func (h *handler) fail(r *http.Request, msg string, ev *Event, err error) {
	h.logError(r.Context(), msg, ev, err)
}

func (h *handler) logError(ctx context.Context, msg string, ev *Event, err error) {
	if h.cfg.logger == nil {
		return
	}
	h.cfg.logger.ErrorContext(ctx, "webhook: "+msg, append(eventAttrs(ev), slog.String("error", err.Error()))...)
}
