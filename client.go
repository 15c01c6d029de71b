package fiatramp

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"
)

// Client calls the fiatramp service. Each exported field is one of its
// services, whose methods are that service's operations (Operations lists
// them all); Do reaches any other operation.
// A Client is safe for concurrent use. It never prints, logs or formats
// its API secret.
type Client struct {
	Payouts   *PayoutsService
	Payins    *PayinsService
	Customers *CustomersService
	KYC       *KYCService
	// Organization holds the organization's settings (its webhook URL).
	Organization *OrganizationService
	Widget       *WidgetService

	cfg   config
	clock *clockOffset // shared by copies of the Client
}

// New returns a Client that signs requests with apiKey and apiSecret.
// WithBaseURL is required.
func New(apiKey, apiSecret string, opts ...Option) (*Client, error) {
	cfg := config{
		timeout:        DefaultTimeout,
		userAgent:      defaultUserAgent(),
		now:            time.Now,
		remittancePath: DefaultRemittancePayoutPath,
		retry:          RetryPolicy{}.withDefaults(),
		maxResponse:    DefaultMaxResponseBytes,
		maxPages:       DefaultMaxPages,
		newReference:   randomReference,
		jitter:         defaultJitter,
		sleep:          sleepContext,
	}
	for _, opt := range opts {
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	switch {
	case strings.TrimSpace(apiKey) == "":
		return nil, errors.New("fiatramp: API key is empty")
	case apiSecret == "":
		return nil, errors.New("fiatramp: API secret is empty")
	case strings.ContainsAny(apiKey, "\r\n"):
		return nil, errors.New("fiatramp: API key contains a line break")
	case !validHeaderValue(apiKey):
		// net/http would refuse every request, after it was counted as an
		// attempt that may have reached the service.
		return nil, errors.New("fiatramp: API key contains a control character")
	case cfg.baseURL == nil:
		return nil, errors.New("fiatramp: base URL is required (WithBaseURL or " + EnvBaseURL + ")")
	case cfg.baseURL.Scheme == "http" && !cfg.insecureHTTP && !isLoopback(cfg.baseURL.Hostname()):
		return nil, fmt.Errorf("fiatramp: base URL %s: plain http is allowed only on a loopback address (use https, or WithInsecureHTTP)", cfg.baseURL)
	}
	// A copy, so that the caller's client is not changed: signed requests
	// follow no redirects, since net/http would copy X-API-KEY and
	// X-SIGNATURE (and, on 307/308, the body) to wherever the answer points.
	hc := http.Client{}
	if cfg.httpClient != nil {
		hc = *cfg.httpClient
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	cfg.httpClient = &hc
	cfg.creds = newCredentials(apiKey, apiSecret)
	cfg.bucket = newTokenBucket(cfg.budget, cfg.budgetOff)
	c := &Client{cfg: cfg, clock: new(clockOffset)}
	c.Payouts = &PayoutsService{client: c}
	c.Payins = &PayinsService{client: c}
	c.Customers = &CustomersService{client: c}
	c.KYC = &KYCService{client: c}
	c.Organization = &OrganizationService{client: c}
	c.Widget = &WidgetService{client: c}
	return c, nil
}

// NewFromEnv returns a Client configured from FIATRAMP_API_KEY,
// FIATRAMP_API_SECRET and FIATRAMP_BASE_URL. Options given here win over the
// environment.
func NewFromEnv(opts ...Option) (*Client, error) {
	var env []Option
	if base := os.Getenv(EnvBaseURL); base != "" {
		env = append(env, WithBaseURL(base))
	}
	key, secret := os.Getenv(EnvAPIKey), os.Getenv(EnvAPISecret)
	if key == "" || secret == "" {
		return nil, errors.New("fiatramp: " + EnvAPIKey + " and " + EnvAPISecret + " must be set")
	}
	return New(key, secret, append(env, opts...)...)
}

// BaseURL returns the base address the Client sends to.
func (c *Client) BaseURL() string { return c.baseString() }

func (c Client) baseString() string {
	if c.cfg.baseURL == nil {
		return ""
	}
	return c.cfg.baseURL.String()
}

// String describes the Client without its secret.
func (c Client) String() string {
	return "fiatramp.Client{baseURL: " + c.baseString() + ", apiKey: " + c.maskedKey() + ", apiSecret: [redacted]}"
}

// Format prints the Client as String does for every verb, so that neither
// %v, %+v nor %#v of a Client or a *Client can reveal the secret.
func (c Client) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue describes the Client to log/slog without its secret.
func (c Client) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", c.baseString()),
		slog.String("api_key", c.maskedKey()),
	)
}

// maskedKey is the API key's last four bytes behind asterisks.
func (c Client) maskedKey() string {
	if c.cfg.creds == nil {
		return "****"
	}
	k, _ := c.cfg.creds()
	if len(k) <= 4 {
		return "****"
	}
	return "****" + k[len(k)-4:]
}

// credentials returns the API key and secret. The key material lives only
// in the variables this func captured, where no reflection reaches: fmt
// prints a func as its address under every verb (its bad-verb path, which
// prints the unexported fields of a struct raw, included), and so do
// log/slog, go-spew and testify; encoding/json and encoding/gob refuse a
// func. A field holding a string, or a pointer to a struct of strings, would
// be printed by fmt when a caller formats a Client held in an unexported
// field, or a service with a verb that does not fit a pointer.
type credentials func() (apiKey, apiSecret string)

func newCredentials(apiKey, apiSecret string) credentials {
	return func() (string, string) { return apiKey, apiSecret }
}
