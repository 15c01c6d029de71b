package webhook

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/fiatramp/fiatramp-go"
)

// Header names of a delivery's signature, as the service spells them.
// Header names are case-insensitive; http.Header holds them as
// "X-Timestamp" and "X-Signature", and Verify also finds them under any
// other spelling in a header map built by hand.
const (
	HeaderTimestamp = "X-TIMESTAMP"
	HeaderSignature = "X-SIGNATURE"
)

// The canonical forms of the header names, which http.Header looks up
// without converting (and allocating) on every call.
const (
	canonicalTimestamp = "X-Timestamp"
	canonicalSignature = "X-Signature"
)

const (
	// DefaultTolerance is how far X-TIMESTAMP may be from the receiver's
	// clock, in the past or the future, unless WithTolerance says otherwise.
	DefaultTolerance = 300 * time.Second
	// DefaultMaxBodyBytes is the largest body accepted unless
	// WithMaxBodyBytes says otherwise. Events are a few hundred bytes.
	DefaultMaxBodyBytes = 1 << 20
	// DefaultDedupeTTL is how long the default Deduper remembers a handled
	// event.
	DefaultDedupeTTL = 72 * time.Hour
)

// Errors of Verify, matched with errors.Is. The error returned wraps one of
// them and says what failed; it never contains the secret or the expected
// signature.
var (
	// ErrInvalidSignature: X-SIGNATURE is missing, repeated, or not the
	// signature of the body and X-TIMESTAMP under the key and secret; or
	// the secret given to Verify is empty.
	ErrInvalidSignature = errors.New("webhook: invalid signature")
	// ErrStaleTimestamp: X-TIMESTAMP is further than the tolerance in the
	// past or in the future.
	ErrStaleTimestamp = errors.New("webhook: timestamp outside the tolerance")
	// ErrMalformed: a header or the body cannot be read: X-TIMESTAMP missing
	// or not decimal seconds, a body that is not one JSON document or is
	// larger than the cap, or an event without its type, id or event.
	ErrMalformed = errors.New("webhook: malformed delivery")
)

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, args...)...)
}

// Option changes how Verify and Handler work. Verify uses only
// WithTolerance and WithMaxBodyBytes and ignores the others.
type Option func(*config)

type config struct {
	tolerance time.Duration
	maxBody   int64
	deduper   Deduper
	clock     func() time.Time
	logger    *slog.Logger
}

func newConfig(opts []Option) config {
	c := config{tolerance: DefaultTolerance, maxBody: DefaultMaxBodyBytes}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithTolerance sets how far X-TIMESTAMP may be from now, in either
// direction (default 300 s, the service's guidance). A value of zero or
// less keeps the default: the check cannot be switched off.
func WithTolerance(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.tolerance = d
		}
	}
}

// WithMaxBodyBytes sets the largest body accepted (default 1 MiB); a larger
// one is refused with ErrMalformed (by Handler with 413) before it is read
// whole. A value of zero or less keeps the default.
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxBody = n
		}
	}
}

// Verify checks one delivery and returns its event. headers are the
// request's headers, body the raw bytes exactly as received, now the
// receiver's clock.
//
// It refuses, in this order: everything when apiSecret is empty (an unset
// setting; anybody can sign with the empty secret) (ErrInvalidSignature);
// an X-TIMESTAMP that is missing, repeated or
// not decimal Unix seconds (ErrMalformed); one further than the tolerance
// (300 s by default) before or after now (ErrStaleTimestamp); a body larger
// than the cap, not one JSON document, or nested deeper than 10,000 levels
// (ErrMalformed); an X-SIGNATURE that is missing, repeated or different
// from the signature the service computes (ErrInvalidSignature); and a signed body without a string
// "type", "id" and "event", or with a "timestamp" or "metadata" that cannot
// be read (ErrMalformed).
//
// The signature is recomputed as the service computes it: the Base64
// HMAC-SHA256, keyed by apiSecret, of apiKey + "|" + X-TIMESTAMP + "|" +
// the canonical JSON of the body (fiatramp.CanonicalizeJSON of the bytes as
// received), and compared in constant time. The event is decoded from the
// same canonical form, so keys match exactly and the last of duplicate keys
// wins, as the service's own JSON reader does.
//
// Verify does not remember deliveries: a repeat, or a copy replayed within
// the tolerance, verifies again. Deduplicate on the event (Handler does,
// through a Deduper).
func Verify(apiKey, apiSecret string, headers http.Header, body []byte, now time.Time, opts ...Option) (*Event, error) {
	cfg := newConfig(opts)
	return cfg.verify(apiKey, apiSecret, headers, body, now)
}

func (c *config) verify(apiKey, apiSecret string, headers http.Header, body []byte, now time.Time) (*Event, error) {
	if apiSecret == "" {
		// Anybody can sign with the empty secret: accepting what it
		// verifies would accept forgeries.
		return nil, fmt.Errorf("%w: the API secret is empty, so no delivery can be verified", ErrInvalidSignature)
	}
	ts, err := parseTimestampHeader(headers)
	if err != nil {
		return nil, err
	}
	// Compared as times, which cannot overflow as durations would for a
	// timestamp centuries away.
	switch signedAt := time.Unix(ts, 0); {
	case signedAt.Before(now.Add(-c.tolerance)):
		return nil, fmt.Errorf("%w: X-TIMESTAMP is %s old (tolerance %s)", ErrStaleTimestamp, describeGap(now.Unix()-ts), c.tolerance)
	case signedAt.After(now.Add(c.tolerance)):
		return nil, fmt.Errorf("%w: X-TIMESTAMP is %s in the future (tolerance %s)", ErrStaleTimestamp, describeGap(ts-now.Unix()), c.tolerance)
	}
	if int64(len(body)) > c.maxBody {
		return nil, malformed("body of %d bytes is larger than the cap of %d bytes", len(body), c.maxBody)
	}
	canonical, err := fiatramp.CanonicalizeJSON(body)
	if err != nil {
		return nil, fmt.Errorf("%w: body is not JSON: %v", ErrMalformed, err)
	}
	got := headerValues(headers, canonicalSignature)
	switch {
	case len(got) == 0 || got[0] == "":
		return nil, fmt.Errorf("%w: no X-SIGNATURE header", ErrInvalidSignature)
	case len(got) > 1:
		return nil, fmt.Errorf("%w: %d X-SIGNATURE headers", ErrInvalidSignature, len(got))
	}
	want := fiatramp.Sign(apiKey, apiSecret, ts, canonical)
	if subtle.ConstantTimeCompare([]byte(got[0]), []byte(want)) != 1 {
		return nil, fmt.Errorf("%w: X-SIGNATURE does not match the body and X-TIMESTAMP", ErrInvalidSignature)
	}
	return decodeEvent(canonical)
}

// describeGap writes a gap of secs seconds as a duration, or in days when
// it is too long for one.
func describeGap(secs int64) string {
	if secs < int64(math.MaxInt64/time.Second) {
		return (time.Duration(secs) * time.Second).String()
	}
	return strconv.FormatInt(secs/86400, 10) + " days"
}

// parseTimestampHeader reads X-TIMESTAMP: exactly one value, decimal digits
// as the service writes them (no sign, no leading zero), at most 18 digits.
func parseTimestampHeader(h http.Header) (int64, error) {
	vs := headerValues(h, canonicalTimestamp)
	switch {
	case len(vs) == 0 || vs[0] == "":
		return 0, malformed("no X-TIMESTAMP header")
	case len(vs) > 1:
		return 0, malformed("%d X-TIMESTAMP headers", len(vs))
	}
	s := vs[0]
	if len(s) > 18 || (len(s) > 1 && s[0] == '0') {
		return 0, malformed("X-TIMESTAMP is not decimal Unix seconds")
	}
	var ts int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, malformed("X-TIMESTAMP is not decimal Unix seconds")
		}
		ts = ts*10 + int64(s[i]-'0')
	}
	return ts, nil
}

// headerValues returns every value of the header whose canonical name is
// canonical, under any spelling of the name: a server's http.Header holds
// only the canonical one, a map built by hand (from a serverless event,
// say) may hold others, and a value under a second spelling is a second
// header.
func headerValues(h http.Header, canonical string) []string {
	vs := h[canonical]
	for k, v := range h {
		// Equal lengths keep the match to ASCII letters: EqualFold alone
		// would also take "ſ" (U+017F) for "s".
		if len(k) == len(canonical) && k != canonical && strings.EqualFold(k, canonical) {
			vs = append(vs[:len(vs):len(vs)], v...)
		}
	}
	return vs
}
