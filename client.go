package fiatramp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
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

// Client calls the fiatramp service. Its services (Payouts, Payins,
// Customers, KYC) hold the operations; Do reaches any other operation.
// A Client is safe for concurrent use. It never prints, logs or formats
// its API secret.
type Client struct {
	Payouts   *PayoutsService
	Payins    *PayinsService
	Customers *CustomersService
	KYC       *KYCService

	cfg   config
	clock *clockOffset // shared by copies of the Client
}

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
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// RequestOption changes one call: pass it as the last arguments of any
// operation.
type RequestOption func(*requestConfig) error

type requestConfig struct {
	header     http.Header
	response   *Response
	retry      *RetryPolicy // from WithCallRetry
	timeout    time.Duration
	timeoutSet bool // WithCallTimeout
}

// Response is the HTTP response of one call, as received.
type Response struct {
	StatusCode int
	Header     http.Header
	// Body is the raw response body (the whole envelope).
	Body []byte
}

// CaptureResponse stores the HTTP response of the call's last attempt in
// dst, also when the call returns an error; dst is zero when the last
// attempt got no response.
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
// ignore it; *json.RawMessage for the raw data; anything but nil or a
// non-nil pointer is refused before sending).
//
// A number with a fraction or an exponent in body is refused when the
// service's canonical form would change its value: send amounts as strings.
// Response data holding a run of more than types.MaxDecimalDigits digits
// is refused (ErrMalformedResponse) before it is decoded into out, whose
// decimal.Decimal or big.Int fields would take time quadratic in the
// digits; a *json.RawMessage out receives it as it is.
//
// GET, HEAD, OPTIONS, PUT and DELETE are retried like every operation. A
// POST, PATCH or other method may not be safe to repeat, so it is retried
// only while no attempt can have reached the service (a refused
// connection, a 429); after one that may have (a 3xx answer included), Do
// returns an *OutcomeUnknownError.
func (c *Client) Do(ctx context.Context, method, path string, body, out any, opts ...RequestOption) error {
	if method == "" || strings.IndexFunc(method, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
		return invalid("method", "want an upper-case HTTP method")
	}
	if out != nil {
		if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
			return invalid("out", fmt.Sprintf("want nil or a non-nil pointer, got %T", out))
		}
	}
	op := operation{method: method, path: path, body: body}
	if !idempotent(method) {
		op.safety = oneShot
	}
	return c.send(ctx, op, out, opts)
}

// operation is one call as the request path sees it.
type operation struct {
	method string
	path   string   // from the base address, with an optional query
	url    *url.URL // set instead of path for a pagination link
	body   any
	header http.Header // from WithHeader
	safety safety
	// reference and quotationID identify a payout create in an
	// *OutcomeUnknownError.
	reference   string
	quotationID uuid.UUID
	timeout     time.Duration    // per attempt (WithTimeout, WithCallTimeout)
	obs         *callObservation // nil without an Observer
	retryCost   int              // tokens the last retry took from the budget
}

// call sends one operation that is safe to repeat and returns its decoded
// data: a result only when there is no error, never both.
func call[T any](ctx context.Context, c *Client, method, path string, body any, opts []RequestOption) (*T, error) {
	return callOp[T](ctx, c, operation{method: method, path: path, body: body}, opts)
}

func callOp[T any](ctx context.Context, c *Client, op operation, opts []RequestOption) (*T, error) {
	out := new(T)
	if err := c.send(ctx, op, out, opts); err != nil {
		return nil, err
	}
	return out, nil
}

// idempotent reports whether HTTP gives method no effect beyond the first.
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
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

// send is the one request path of every operation: it validates, then
// makes attempts, each signed afresh, until one succeeds, one fails in a
// way no repeat can mend, the retry policy or the context's deadline says
// stop, or (for an operation that must not run twice) an attempt may have
// acted.
func (c *Client) send(ctx context.Context, op operation, out any, opts []RequestOption) (err error) {
	var rc requestConfig
	for _, opt := range opts {
		if err := opt(&rc); err != nil {
			return err
		}
	}
	// A GET always signs "{}" and sends no body (interface.md §5 rule 3).
	// Other methods without a body do the same.
	signed, payload := []byte("{}"), []byte(nil)
	if op.body != nil {
		if op.method == http.MethodGet || op.method == http.MethodHead {
			return invalid("body", "a "+op.method+" request carries no body")
		}
		canonical, err := requestBody(op.body)
		if err != nil {
			return err
		}
		signed, payload = canonical, canonical
	}
	op.header = rc.header
	if op.url == nil {
		u, err := c.resolve(op.path)
		if err != nil {
			return err
		}
		op.url = u
	}

	if err := ctx.Err(); err != nil {
		// Given up before anything was sent: nothing can have happened.
		return fmt.Errorf("fiatramp: %s %s: %w", op.method, op.url.Path, err)
	}

	policy := c.callSettings(&rc, &op)
	if ctx = c.observeCall(ctx, &op); op.obs != nil {
		defer op.obs.endCall(&err)
	}
	var mayHaveActed, corrected bool
	for n := 1; ; n++ {
		res := c.attempt(op.obs.attemptContext(ctx, n), &op, signed, payload)
		if rc.response != nil {
			*rc.response = Response{StatusCode: res.status, Header: res.header, Body: res.body}
		}
		err := c.outcome(&op, &res, out)
		if res.status != 0 {
			err = decodedInTime(ctx, &op, res.status, err)
		}
		attachResponse(err, res.header)
		if err == nil {
			c.logAttempt(ctx, &op, n, &res, nil, -1)
			c.cfg.bucket.succeeded(&op)
			return nil
		}
		v := judge(ctx, &res, err)
		earlier := mayHaveActed
		mayHaveActed = mayHaveActed || v.acted
		final := func(err error) error {
			if mayHaveActed && op.safety != repeatable {
				probably := earlier && (errors.Is(err, ErrClientReferenceExists) || errors.Is(err, ErrQuotationAlreadyLinked))
				return &OutcomeUnknownError{
					ClientReferenceID: op.reference, QuotationID: op.quotationID,
					Method: op.method, Path: op.url.Path,
					Attempts: n, ProbablyCreated: probably, Err: err,
				}
			}
			return err
		}

		if c.cfg.correctClock && !corrected && res.dateOK && errors.Is(err, ErrClockSkew) && ctx.Err() == nil {
			// Refused at the door: nothing ran. Once, re-signed with the
			// clock just learned from the refusal's Date header.
			corrected = true
			c.logAttempt(ctx, &op, n, &res, err, 0)
			continue
		}
		if !v.retry || n >= policy.MaxAttempts || (v.acted && op.safety == oneShot) {
			c.logAttempt(ctx, &op, n, &res, err, -1)
			return final(err)
		}
		delay := policy.backoff(n, c.cfg.jitter)
		if after, ok := retryAfter(res.header, time.Now()); ok {
			delay = min(after, policy.MaxBackoff)
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < delay {
			c.logAttempt(ctx, &op, n, &res, err, -1)
			return final(fmt.Errorf("fiatramp: %s %s: no retry: the context's deadline comes before attempt %d (in %s): %w",
				op.method, op.url.Path, n+1, delay, err))
		}
		if !c.cfg.bucket.spend(&op, &res) {
			c.logAttempt(ctx, &op, n, &res, err, -1)
			return final(budgetError(&op, n, err))
		}
		c.logAttempt(ctx, &op, n, &res, err, delay)
		if serr := c.cfg.sleep(ctx, delay); serr != nil {
			return final(fmt.Errorf("fiatramp: %s %s: no retry after attempt %d: %w: %w", op.method, op.url.Path, n, serr, err))
		}
	}
}

// attemptResult is what one attempt got: a response (status != 0), or a
// transport error.
type attemptResult struct {
	status   int
	header   http.Header
	body     []byte
	err      error     // the transport error, or the error reading the body
	oversize bool      // body is longer than maxResponse (and cut there)
	stamp    time.Time // the time signed into X-TIMESTAMP
	dateOK   bool      // the response carried a readable Date header
	date     time.Time
	duration time.Duration
}

// attempt signs and sends the request once, within the per-attempt timeout,
// and reads at most maxResponse+1 bytes of the answer.
func (c *Client) attempt(ctx context.Context, op *operation, signed, payload []byte) attemptResult {
	if err := c.waitTurn(ctx); err != nil {
		return attemptResult{err: err}
	}
	if op.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, op.timeout)
		defer cancel()
	}
	var reader io.Reader
	if payload != nil {
		reader = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, op.method, op.url.String(), reader)
	if err != nil {
		return attemptResult{err: fmt.Errorf("%w: %w", errNotSendable, err)}
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.cfg.userAgent)
	for k, v := range op.header { // may replace Accept or User-Agent, never the ones below
		req.Header[k] = v
	}
	stamp := c.now()
	ts := stamp.Unix()
	apiKey, apiSecret := c.cfg.creds()
	req.Header.Set("X-API-KEY", apiKey)
	req.Header.Set("X-TIMESTAMP", strconv.FormatInt(ts, 10))
	req.Header.Set("X-SIGNATURE", Sign(apiKey, apiSecret, ts, signed))
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	start := time.Now()
	res := attemptResult{stamp: stamp}
	resp, err := c.cfg.httpClient.Do(req)
	if err != nil {
		res.err, res.duration = err, time.Since(start)
		return res
	}
	res.body, res.err = io.ReadAll(io.LimitReader(resp.Body, c.cfg.maxResponse+1))
	_ = resp.Body.Close()
	res.oversize = int64(len(res.body)) > c.cfg.maxResponse
	res.status, res.header, res.duration = resp.StatusCode, resp.Header, time.Since(start)
	if date, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		res.date, res.dateOK = date, true
		if c.cfg.correctClock {
			c.clock.observe(date, c.cfg.now())
		}
	}
	return res
}

// outcome turns an attempt's result into the call's: nil after decoding a
// successful response into out, else the error.
func (c *Client) outcome(op *operation, res *attemptResult, out any) error {
	switch {
	case res.status == 0 && res.err == nil:
		// "HTTP/1.1 000": net/http reports StatusCode 0, which here would
		// otherwise read as "no response".
		return buildAPIError(0, res.body, nil, "invalid HTTP status code 000", nil, nil)
	case res.status == 0:
		return fmt.Errorf("fiatramp: %s %s: %w", op.method, op.url.Path, res.err)
	case res.err != nil:
		return fmt.Errorf("fiatramp: %s %s: HTTP %d: reading response: %w", op.method, op.url.Path, res.status, res.err)
	case res.oversize:
		problem := fmt.Sprintf("response body exceeds %d bytes", c.cfg.maxResponse)
		return buildAPIError(res.status, res.body[:c.cfg.maxResponse], nil, problem, nil, nil)
	case res.status >= 300 && res.status <= 399:
		return redirectError(res.status, res.header.Get("Location"), res.body)
	case op.method == http.MethodHead && res.status >= 200 && res.status <= 299:
		return nil // a HEAD answer has no body to decode
	}
	err := decodeResponse(res.status, res.body, out, c.cfg.errorMessages)
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.Is(ErrClockSkew) {
		apiErr.hint = skewHint(res, c.cfg.correctClock)
	}
	return err
}

// redirectError refuses a 3xx answer; the target was not contacted.
func redirectError(status int, location string, body []byte) *APIError {
	e := &APIError{StatusCode: status, matched: []error{ErrRedirect}}
	if len(body) > 0 {
		e.RawBody = append([]byte(nil), body[:min(len(body), maxRawBody)]...)
	}
	e.fallback = "redirect to " + strconv.Quote(sanitize(location, maxMessageText)) +
		" not followed: signed requests follow no redirects (is the base address right?)"
	return e
}

// skewHint says plainly that the clocks disagree, and by how much when the
// response carried a Date.
func skewHint(res *attemptResult, correcting bool) string {
	hint := "clock skew: the service refused the request's timestamp; its clock and this machine's must agree within 300 s"
	if res.dateOK {
		d := res.stamp.Sub(res.date).Round(time.Second)
		side := "ahead of"
		if d < 0 {
			d, side = -d, "behind"
		}
		hint = fmt.Sprintf("clock skew: the request was stamped %s, %s %s the service's Date %s; they must agree within 300 s",
			res.stamp.UTC().Format(time.RFC3339), d, side, res.date.UTC().Format(time.RFC3339))
	}
	if !correcting {
		hint += "; correct this machine's clock or use WithClockCorrection"
	}
	return hint
}

// clockOffset is the correction WithClockCorrection learns from Date
// headers, shared by every call of a Client.
type clockOffset struct{ nanos atomic.Int64 }

// observe records the offset between a response's Date and the local clock
// at its arrival. Date has whole seconds, so the middle of its second is
// taken, and changes under a second are ignored as noise.
func (o *clockOffset) observe(date, local time.Time) {
	off := date.Add(500 * time.Millisecond).Sub(local)
	if cur := time.Duration(o.nanos.Load()); (off - cur).Abs() >= time.Second {
		o.nanos.Store(int64(off))
	}
}

// now is the time signed into X-TIMESTAMP.
func (c *Client) now() time.Time {
	t := c.cfg.now()
	if c.cfg.correctClock {
		t = t.Add(time.Duration(c.clock.nanos.Load()))
	}
	return t
}

// logAttempt logs one attempt at debug level. retryIn >= 0 is the wait
// before the next attempt; -1 means none follows.
func (c *Client) logAttempt(ctx context.Context, op *operation, n int, res *attemptResult, err error, retryIn time.Duration) {
	op.obs.endAttempt(n, res, err, retryIn)
	if c.cfg.logger == nil || !c.cfg.logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", op.method),
		slog.String("path", op.url.Path),
		slog.Int("attempt", n),
		slog.Int("status", res.status),
		slog.Duration("duration", res.duration),
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	if retryIn >= 0 {
		attrs = append(attrs, slog.Duration("retry_in", retryIn))
	}
	c.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "fiatramp request", attrs...)
}
