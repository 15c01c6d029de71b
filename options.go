package fiatramp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Version is the library's version, sent in the User-Agent header.
const Version = "0.1.0"

// Path prefixes of the service's groups of operations.
const (
	posBase = "/pos/api/v1"
	cmsBase = "/cms/api/v1"
	pisBase = "/pis/api/v1"
	orgBase = "/org/api/v1"
)

// DefaultRemittancePayoutPath is the path of the remittance payout operation.
// The service's interface description leaves it out; this one comes from
// the service's public documentation. Override it with WithRemittancePayoutPath.
const DefaultRemittancePayoutPath = posBase + "/remittance-payout/initiate"

// DefaultTimeout bounds each attempt of a call, so that no call hangs
// forever.
const DefaultTimeout = 30 * time.Second

// DefaultMaxResponseBytes caps how much of a response body is read: far
// above any answer of the service, far below what would hurt a process.
const DefaultMaxResponseBytes = 4 << 20

// Environment variables read by NewFromEnv.
const (
	EnvAPIKey    = "FIATRAMP_API_KEY"
	EnvAPISecret = "FIATRAMP_API_SECRET"
	EnvBaseURL   = "FIATRAMP_BASE_URL"
)

type config struct {
	creds          credentials
	baseURL        *url.URL
	httpClient     *http.Client
	timeout        time.Duration
	userAgent      string
	logger         *slog.Logger
	now            func() time.Time
	remittancePath string
	errorMessages  map[string]error
	retry          RetryPolicy
	maxResponse    int64
	maxPages       int
	insecureHTTP   bool
	correctClock   bool
	newReference   func() (string, error)
	jitter         func(n int64) int64
	sleep          func(ctx context.Context, d time.Duration) error
	observer       Observer
	server         CallInfo // the base address's part of every CallInfo
	limiter        RateLimiter
	budget         RetryBudget // settings, from WithRetryBudget
	budgetOff      bool
	bucket         *tokenBucket // the Client's retry budget; nil when off
}

// Option configures a Client in New or NewFromEnv.
type Option func(*config) error

// WithBaseURL sets the service's base address, e.g. the sandbox or the
// production environment. It is required: the library does not guess which
// environment money should move in. A path on the base address (a gateway
// prefix) is kept in front of every operation's path.
func WithBaseURL(rawURL string) Option {
	return func(c *config) error {
		u, err := parseBaseURL(rawURL)
		if err != nil {
			return err
		}
		c.baseURL = u
		c.server = serverInfo(u)
		return nil
	}
}

// WithHTTPClient sets the HTTP client that sends requests (its Transport is
// where a proxy, mTLS or a test double goes). The default is a new
// http.Client with http.DefaultTransport.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) error {
		if hc == nil {
			return errors.New("fiatramp: WithHTTPClient: nil *http.Client")
		}
		c.httpClient = hc
		return nil
	}
}

// WithTimeout bounds each attempt of a call, from the first byte sent to
// the last byte of the response read; an attempt that runs out is retried
// like a broken connection. Zero means no bound beyond the caller's
// context. The default is DefaultTimeout.
func WithTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("fiatramp: WithTimeout: negative duration %s", d)
		}
		c.timeout = d
		return nil
	}
}

// WithUserAgent puts the caller's product token in front of the library's
// own in the User-Agent header, e.g. "acme-payouts/2.1 fiatramp-go/0.1.0".
func WithUserAgent(product string) Option {
	return func(c *config) error {
		if strings.ContainsAny(product, "\r\n") {
			return errors.New("fiatramp: WithUserAgent: line break in user agent")
		}
		if !validHeaderValue(product) {
			return errors.New("fiatramp: WithUserAgent: control character in user agent")
		}
		c.userAgent = strings.TrimSpace(product + " " + defaultUserAgent())
		return nil
	}
}

// WithLogger logs every attempt at debug level: method, path, attempt,
// status, duration, error and the delay before the next attempt. It never
// logs the secret, the signature, a header or a body. By default nothing is
// logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		c.logger = l
		return nil
	}
}

// WithClock sets the clock that stamps X-TIMESTAMP. The service refuses a
// timestamp more than 300 seconds away from its own time.
func WithClock(now func() time.Time) Option {
	return func(c *config) error {
		if now == nil {
			return errors.New("fiatramp: WithClock: nil clock")
		}
		c.now = now
		return nil
	}
}

// WithClockCorrection makes the Client set its clock by the service's: the
// Date header of every response gives the offset added to X-TIMESTAMP, and
// a request refused for its timestamp (ErrClockSkew) is sent once more,
// re-signed with the corrected time. Use it where the local clock cannot be
// trusted to stay within the service's 300-second window. It trusts the
// Date header of whatever answers, a proxy included.
func WithClockCorrection() Option {
	return func(c *config) error {
		c.correctClock = true
		return nil
	}
}

// WithMaxResponseBytes caps how much of a response body is read; a longer
// body gives an *APIError matching ErrMalformedResponse. The default is
// DefaultMaxResponseBytes.
func WithMaxResponseBytes(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("fiatramp: WithMaxResponseBytes: %d is not positive", n)
		}
		c.maxResponse = min(n, math.MaxInt64-1) // attempt reads maxResponse+1
		return nil
	}
}

// WithInsecureHTTP allows a plain-http base address on a host other than a
// loopback address. Without it such a base address is refused, since the
// signed requests would travel in clear text.
func WithInsecureHTTP() Option {
	return func(c *config) error {
		c.insecureHTTP = true
		return nil
	}
}

// WithClientReferenceGenerator sets how a payout create without a
// ClientReferenceID gets one. The default is a random UUID. nil switches
// generation off: a create sent without a reference is then not repeated
// after an attempt that may have reached the service, since nothing would
// stop the service from paying twice.
func WithClientReferenceGenerator(gen func() (string, error)) Option {
	return func(c *config) error {
		c.newReference = gen
		return nil
	}
}

// WithRemittancePayoutPath overrides DefaultRemittancePayoutPath, the path
// (from the base address) of the remittance payout operation.
func WithRemittancePayoutPath(path string) Option {
	return func(c *config) error {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "?#") {
			return fmt.Errorf("fiatramp: WithRemittancePayoutPath: %q is not an absolute path", path)
		}
		c.remittancePath = path
		return nil
	}
}

// WithErrorMessage makes errors.Is(err, sentinel) true for every APIError
// whose body carries message (case, surrounding space and trailing full
// stops ignored). It is for messages the service does not document,
// such as the exact text of the prefunded insufficient-balance refusal.
func WithErrorMessage(message string, sentinel error) Option {
	return func(c *config) error {
		key := normalizeMessage(message)
		if key == "" || sentinel == nil {
			return errors.New("fiatramp: WithErrorMessage: empty message or nil sentinel")
		}
		if c.errorMessages == nil {
			c.errorMessages = make(map[string]error)
		}
		c.errorMessages[key] = sentinel
		return nil
	}
}

func defaultUserAgent() string {
	return "fiatramp-go/" + Version + " (" + runtime.Version() + ")"
}

// isLoopback reports whether host (without port) is localhost or a loopback
// IP address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// randomReference is the default client_reference_id generator.
func randomReference() (string, error) {
	id, err := uuid.NewRandom()
	if err != nil {
		return "", err
	}
	return id.String(), nil
}

func parseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("fiatramp: base URL: %w", err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("fiatramp: base URL %q: want an absolute http or https URL", raw)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("fiatramp: base URL %q: no user info, query or fragment allowed", raw)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("fiatramp: base URL %q: port %q is not between 1 and 65535", raw, p)
		}
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}
