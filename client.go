package fiatramp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Version is the library's version, sent in the User-Agent header.
const Version = "0.1.0"

// Path prefixes of the service's three groups of operations (interface.md §1).
const (
	posBase = "/pos/api/v1"
	cmsBase = "/cms/api/v1"
	pisBase = "/pis/api/v1"
)

// DefaultRemittancePayoutPath is the path of the remittance payout operation.
// The interface document does not show it; this one comes from the service's
// public documentation. Override it with WithRemittancePayoutPath.
const DefaultRemittancePayoutPath = posBase + "/remittance-payout/initiate"

// DefaultTimeout bounds one call, so that no call hangs forever.
const DefaultTimeout = 30 * time.Second

// maxResponseBytes caps how much of a response body is read.
const maxResponseBytes = 8 << 20

// Environment variables read by NewFromEnv.
const (
	EnvAPIKey    = "FIATRAMP_API_KEY"
	EnvAPISecret = "FIATRAMP_API_SECRET"
	EnvBaseURL   = "FIATRAMP_BASE_URL"
)

// Client calls the fiatramp service. Its services (Payouts, Payins,
// Customers, KYC) hold the operations; Do reaches any other operation.
// A Client is safe for concurrent use. It never prints, logs or formats
// its API secret.
type Client struct {
	Payouts   *PayoutsService
	Payins    *PayinsService
	Customers *CustomersService
	KYC       *KYCService

	cfg config
}

type config struct {
	apiKey         string
	apiSecret      string
	baseURL        *url.URL
	httpClient     *http.Client
	timeout        time.Duration
	userAgent      string
	logger         *slog.Logger
	now            func() time.Time
	remittancePath string
	errorMessages  map[string]error
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

// WithTimeout bounds each call, from the first byte sent to the last byte of
// the response read. Zero means no bound beyond the caller's context. The
// default is DefaultTimeout.
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
		c.userAgent = strings.TrimSpace(product + " " + defaultUserAgent())
		return nil
	}
}

// WithLogger logs every request at debug level: method, path, status and
// duration. It never logs the secret, the signature or a body. By default
// nothing is logged.
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
// stops ignored). It is for messages the interface document does not show,
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

// New returns a Client that signs requests with apiKey and apiSecret.
// WithBaseURL is required.
func New(apiKey, apiSecret string, opts ...Option) (*Client, error) {
	cfg := config{
		apiKey:         apiKey,
		apiSecret:      apiSecret,
		timeout:        DefaultTimeout,
		userAgent:      defaultUserAgent(),
		now:            time.Now,
		remittancePath: DefaultRemittancePayoutPath,
	}
	for _, opt := range opts {
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	switch {
	case strings.TrimSpace(cfg.apiKey) == "":
		return nil, errors.New("fiatramp: API key is empty")
	case cfg.apiSecret == "":
		return nil, errors.New("fiatramp: API secret is empty")
	case strings.ContainsAny(cfg.apiKey, "\r\n"):
		return nil, errors.New("fiatramp: API key contains a line break")
	case cfg.baseURL == nil:
		return nil, errors.New("fiatramp: base URL is required (WithBaseURL or " + EnvBaseURL + ")")
	}
	if cfg.httpClient == nil {
		cfg.httpClient = &http.Client{}
	}
	c := &Client{cfg: cfg}
	c.Payouts = &PayoutsService{client: c}
	c.Payins = &PayinsService{client: c}
	c.Customers = &CustomersService{client: c}
	c.KYC = &KYCService{client: c}
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
	return "fiatramp.Client{baseURL: " + c.baseString() + ", apiKey: " + maskKey(c.cfg.apiKey) + ", apiSecret: [redacted]}"
}

// Format prints the Client as String does for every verb, so that neither
// %v, %+v nor %#v of a Client or a *Client can reveal the secret.
func (c Client) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue describes the Client to log/slog without its secret.
func (c Client) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", c.baseString()),
		slog.String("api_key", maskKey(c.cfg.apiKey)),
	)
}

func maskKey(k string) string {
	if len(k) <= 4 {
		return "****"
	}
	return "****" + k[len(k)-4:]
}

func defaultUserAgent() string {
	return "fiatramp-go/" + Version + " (" + runtime.Version() + ")"
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
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// RequestOption changes one call: pass it as the last arguments of any
// operation.
type RequestOption func(*requestConfig) error

type requestConfig struct {
	header   http.Header
	response *Response
}

// Response is the HTTP response of one call, as received.
type Response struct {
	StatusCode int
	Header     http.Header
	// Body is the raw response body (the whole envelope).
	Body []byte
}

// CaptureResponse stores the call's HTTP response in dst, also when the call
// returns an error after a response arrived.
func CaptureResponse(dst *Response) RequestOption {
	return func(rc *requestConfig) error {
		rc.response = dst
		return nil
	}
}

// reservedHeader reports whether the request path sets the header itself.
func reservedHeader(canonicalKey string) bool {
	switch canonicalKey {
	case "X-Api-Key", "X-Timestamp", "X-Signature", "Content-Type", "Content-Length", "Host":
		return true
	}
	return false
}

// WithHeader adds a header to the call. The authentication headers and the
// content headers are the library's and cannot be set this way.
func WithHeader(key, value string) RequestOption {
	return func(rc *requestConfig) error {
		canon := http.CanonicalHeaderKey(key)
		if reservedHeader(canon) {
			return invalid("header "+key, "set by the library")
		}
		if canon == "" || strings.ContainsAny(key+value, "\r\n") {
			return invalid("header "+key, "empty name or line break")
		}
		if rc.header == nil {
			rc.header = make(http.Header)
		}
		rc.header.Add(canon, value)
		return nil
	}
}

// Do calls any operation of the service, signed like every other call:
// method and path (from the base address, e.g. "/pos/api/v1/payout/balance",
// optionally with a query, which is not signed), a body (nil for none; a
// []byte or json.RawMessage is taken as JSON text, anything else goes through
// encoding/json) and out, into which the envelope's data is decoded (nil to
// ignore it; *json.RawMessage for the raw data).
//
// A number with a fraction or an exponent in body is refused when the
// service's canonical form would change its value: send amounts as strings.
func (c *Client) Do(ctx context.Context, method, path string, body, out any, opts ...RequestOption) error {
	if method == "" || strings.IndexFunc(method, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
		return invalid("method", "want an upper-case HTTP method")
	}
	return c.call(ctx, method, path, body, out, opts)
}

// call sends one operation and returns its decoded data: a result only
// when there is no error, never both.
func call[T any](ctx context.Context, c *Client, method, path string, body any, opts []RequestOption) (*T, error) {
	out := new(T)
	if err := c.call(ctx, method, path, body, out, opts); err != nil {
		return nil, err
	}
	return out, nil
}

// call is the one request path of every operation.
func (c *Client) call(ctx context.Context, method, path string, body, out any, opts []RequestOption) error {
	u, err := c.resolve(path)
	if err != nil {
		return err
	}
	return c.send(ctx, method, u, body, out, opts)
}

// resolve joins a path (with an optional query) to the base address.
func (c *Client) resolve(path string) (*url.URL, error) {
	if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
		return nil, invalid("path", "want a path from the base address starting with /")
	}
	ref, err := url.Parse(path)
	if err != nil || ref.Fragment != "" {
		return nil, invalid("path", "not a valid path")
	}
	u := *c.cfg.baseURL
	u.Path = c.cfg.baseURL.Path + ref.Path
	u.RawPath = ""
	if ref.RawPath != "" {
		u.RawPath = c.cfg.baseURL.EscapedPath() + ref.RawPath
	}
	u.RawQuery = ref.RawQuery
	return &u, nil
}

// requestBody returns the canonical bytes of body, which are both signed and
// sent.
func requestBody(body any) ([]byte, error) {
	var raw []byte
	switch b := body.(type) {
	case json.RawMessage:
		raw = b
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return nil, invalid("body", err.Error())
		}
	}
	canonical, err := canonicalizeExact(raw)
	if err != nil {
		return nil, invalid("body", err.Error())
	}
	return canonical, nil
}

func (c *Client) send(ctx context.Context, method string, u *url.URL, body, out any, opts []RequestOption) error {
	var rc requestConfig
	for _, opt := range opts {
		if err := opt(&rc); err != nil {
			return err
		}
	}
	// A GET always signs "{}" and sends no body (interface.md §5 rule 3).
	// Other methods without a body do the same.
	signed, payload := []byte("{}"), []byte(nil)
	if body != nil {
		if method == http.MethodGet || method == http.MethodHead {
			return invalid("body", "a "+method+" request carries no body")
		}
		canonical, err := requestBody(body)
		if err != nil {
			return err
		}
		signed, payload = canonical, canonical
	}

	if c.cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.timeout)
		defer cancel()
	}
	var reader io.Reader
	if payload != nil {
		reader = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), reader)
	if err != nil {
		return fmt.Errorf("fiatramp: %s %s: %w", method, u.Path, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.cfg.userAgent)
	for k, v := range rc.header { // may replace Accept or User-Agent, never the ones below
		req.Header[k] = v
	}
	ts := c.cfg.now().Unix()
	req.Header.Set("X-API-KEY", c.cfg.apiKey)
	req.Header.Set("X-TIMESTAMP", strconv.FormatInt(ts, 10))
	req.Header.Set("X-SIGNATURE", Sign(c.cfg.apiKey, c.cfg.apiSecret, ts, signed))
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	start := time.Now()
	resp, err := c.cfg.httpClient.Do(req)
	if err != nil {
		c.log(ctx, method, u.Path, 0, start, err)
		return fmt.Errorf("fiatramp: %s %s: %w", method, u.Path, err)
	}
	respBody, readErr := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	_ = resp.Body.Close()
	c.log(ctx, method, u.Path, resp.StatusCode, start, readErr)
	if rc.response != nil {
		*rc.response = Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: respBody}
	}
	if readErr != nil {
		return fmt.Errorf("fiatramp: %s %s: reading response: %w", method, u.Path, readErr)
	}
	if len(respBody) > maxResponseBytes {
		return oversizedResponse(resp.StatusCode, respBody[:maxResponseBytes])
	}
	return decodeResponse(resp.StatusCode, respBody, out, c.cfg.errorMessages)
}

func (c *Client) log(ctx context.Context, method, path string, status int, start time.Time, err error) {
	if c.cfg.logger == nil {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", method),
		slog.String("path", path),
		slog.Int("status", status),
		slog.Duration("duration", time.Since(start)),
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	c.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "fiatramp request", attrs...)
}

// oversizedResponse refuses a body larger than maxResponseBytes.
func oversizedResponse(statusCode int, head []byte) error {
	problem := fmt.Sprintf("response body exceeds %d bytes", maxResponseBytes)
	return buildAPIError(statusCode, head, nil, problem, nil, nil)
}
