package fiatramp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// RequestOption changes one call: pass it as the last arguments of any
// operation.
type RequestOption func(*requestConfig) error

type requestConfig struct {
	header     http.Header
	response   *Response
	retry      *RetryPolicy // from WithCallRetry
	timeout    time.Duration
	timeoutSet bool // WithCallTimeout
	// reconcile: a payout create or payin initiate whose outcome is
	// unknown reconciles before returning (WithReconcile).
	reconcile bool
	// attempts, when set, counts the call's attempts (reconciliation
	// reports its requests).
	attempts *int
	kycRules *types.KYCConfiguration // CheckKYCRules
}

// Response is the HTTP response of one call, as received.
type Response struct {
	// StatusCode is the HTTP status of the last attempt's answer.
	StatusCode int
	// Header holds the answer's headers.
	Header http.Header
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

// reservedHeader reports whether the request path sets the header itself,
// or leaves it to net/http: the encodings too, since the library signs and
// sends the body as it wrote it and reads the answer as net/http hands it
// over (decompressed when net/http asked for compression). Idempotency-Key
// and X-Idempotency-Key make net/http's Transport replay a POST by itself
// when a reused connection breaks after the request was written: a second
// send that the library neither counts nor allows for a create.
func reservedHeader(canonicalKey string) bool {
	switch canonicalKey {
	case "X-Api-Key", "X-Timestamp", "X-Signature", "Content-Type", "Content-Length", "Host",
		"Accept-Encoding", "Content-Encoding", "Idempotency-Key", "X-Idempotency-Key":
		return true
	}
	return false
}

// WithHeader adds a header to the call. The authentication headers, the
// content headers, the encodings (Accept-Encoding, Content-Encoding) and
// Idempotency-Key and X-Idempotency-Key (with which net/http would resend
// a create by itself after it may have reached the service; repeats are
// the library's decision, guarded by client_reference_id) are the
// library's and cannot be set this way, nor spelt with
// underscores (X_API_KEY), which servers that read headers through
// CGI-style names take for the same header. Accept may be replaced only by
// application/json with parameters (a version, say): the answer is read as
// JSON, and a service that answers a create in HTML leaves its outcome
// unknown. A name that is not an HTTP token, or a value with a control
// character other than a tab, is refused: net/http would not send it.
func WithHeader(key, value string) RequestOption {
	return func(rc *requestConfig) error {
		if !validHeaderName(key) || !validHeaderValue(value) {
			return invalid("header "+strconv.Quote(key), "not an HTTP header name, or a control character in the value")
		}
		canon := http.CanonicalHeaderKey(key)
		alias := http.CanonicalHeaderKey(strings.ReplaceAll(key, "_", "-"))
		if reservedHeader(canon) || reservedHeader(alias) {
			return invalid("header "+key, "set by the library")
		}
		if alias == "Accept" && !acceptsJSONOnly(value) {
			return invalid("header "+key, "the answer is read as JSON: want application/json, optionally with parameters")
		}
		if rc.header == nil {
			rc.header = make(http.Header)
		}
		rc.header.Add(canon, value)
		return nil
	}
}

// acceptsJSONOnly reports whether every media range of an Accept value is
// application/json, parameters aside.
func acceptsJSONOnly(v string) bool {
	for _, part := range strings.Split(v, ",") {
		mt, _, err := mime.ParseMediaType(part)
		if err != nil || mt != "application/json" {
			return false
		}
	}
	return true
}

// validHeaderName reports whether name is an HTTP field name, as net/http
// requires of a request's header: a non-empty token of letters, digits and
// !#$%&'*+-.^_`|~.
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// validHeaderValue reports whether net/http sends v as a header value: no
// control character but the tab.
func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// Do calls any operation of the service, signed like every other call:
// method and path (from the base address, e.g. "/pos/api/v1/payout/balance",
// optionally with a query, which is not signed; a path with a "." or ".."
// segment, plain or escaped, is refused before sending, since a gateway that
// normalises it would send the call outside the base path), a body (nil for
// none; a
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
// An out of a response type of package types is checked as the typed
// operations check it: data without a member the result cannot be used
// without (a payout's id or status, say) is refused (ErrMalformedResponse).
// A result type of the caller's own is decoded as it comes.
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
	body   any      // a body of Do's caller, canonicalized by send
	// payload is the canonical body an operation wrote itself: signed and
	// sent as it is.
	payload []byte
	header  http.Header // from WithHeader
	safety  safety
	// row is the operation's row of the index of operations; nil for a
	// call through Do or to a pagination link, which callInfo names by
	// its path.
	row *opRow
	// reference, quotationID and customerID identify a payout create in
	// an *OutcomeUnknownError.
	reference   string
	quotationID uuid.UUID
	customerID  uuid.UUID
	utr         string           // a payin initiate's UTR
	settle      settler          // a create's reconciliation (WithReconcile); nil for other calls
	timeout     time.Duration    // per attempt (WithTimeout, WithCallTimeout)
	obs         *callObservation // nil without an Observer
	retryCost   int              // tokens the last retry took from the budget
}

// call sends op, the call of a row of the index of operations (opID.op)
// with its payload (its canonical body, nil for none), and returns its
// decoded data: a result only when there is no error, never both.
func call[T any](ctx context.Context, c *Client, op operation, opts []RequestOption) (*T, error) {
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
	if hasDotSegment(ref.Path) {
		// Sent as written, but a gateway that normalises the path would
		// resolve it outside the base path, with the key and a signature.
		return nil, invalid("path", `a "." or ".." segment (also escaped) is refused: it can leave the base path`)
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
	// A GET always signs "{}" and sends no body. Other methods without a
	// body do the same.
	signed, payload := emptyObject, op.payload
	if op.body != nil || payload != nil {
		if op.method == http.MethodGet || op.method == http.MethodHead {
			return invalid("body", "a "+op.method+" request carries no body")
		}
		if op.body != nil {
			canonical, err := requestBody(op.body)
			if err != nil {
				return err
			}
			payload = canonical
		}
		signed = payload
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
	if rc.reconcile && op.settle != nil {
		// Settled before the Observer hears the call end, so that it ends
		// as what the reconciliation found.
		settle, obs := op.settle, op.obs
		defer func() { err = c.settleOutcome(ctx, settle, obs, err, out) }()
	}
	var mayHaveActed, corrected bool
	var started time.Time // the first attempt's signed time
	for n := 1; ; n++ {
		if rc.attempts != nil {
			*rc.attempts++
		}
		res := c.attempt(op.obs.attemptContext(ctx, n), &op, signed, payload)
		if n == 1 {
			started = res.stamp
		}
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
		stop := stopped{op: op, attempts: n, acted: mayHaveActed, actedBefore: earlier, started: started, ended: res.stamp.Add(res.duration)}

		if c.cfg.correctClock && !corrected && !v.acted && errors.Is(err, ErrClockSkew) && ctx.Err() == nil {
			if _, ok := res.responseDate(); ok {
				// Refused at the door (v.acted is false: an answer that may
				// come after the operation ran is no such refusal): nothing
				// ran. Once, re-signed with the clock just learned from the
				// refusal's Date header.
				corrected = true
				c.logAttempt(ctx, &op, n, &res, err, 0)
				continue
			}
		}
		if !v.retry || n >= policy.MaxAttempts || (v.acted && op.safety == oneShot) {
			c.logAttempt(ctx, &op, n, &res, err, -1)
			return stop.final(err)
		}
		delay := policy.backoff(n, c.cfg.jitter)
		if after, ok := retryAfter(res.header, time.Now()); ok {
			delay = min(after, policy.MaxBackoff)
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < delay {
			c.logAttempt(ctx, &op, n, &res, err, -1)
			return stop.final(fmt.Errorf("fiatramp: %s %s: no retry: the context's deadline comes before attempt %d (in %s): %w",
				op.method, op.url.Path, n+1, delay, err))
		}
		if !c.cfg.bucket.spend(&op, &res) {
			c.logAttempt(ctx, &op, n, &res, err, -1)
			return stop.final(budgetError(&op, n, err))
		}
		c.logAttempt(ctx, &op, n, &res, err, delay)
		if serr := c.cfg.sleep(ctx, delay); serr != nil {
			return stop.final(fmt.Errorf("fiatramp: %s %s: no retry after attempt %d: %w: %w", op.method, op.url.Path, n, serr, err))
		}
	}
}

// emptyObject is what a request without a body signs.
var emptyObject = []byte("{}")

// stopped is where a call's attempts ended: after attempts, acted tells
// whether any of them may have reached the service, actedBefore whether one
// before the last did.
type stopped struct {
	op          operation // a copy: a pointer would move the call's operation to the heap
	attempts    int
	acted       bool
	actedBefore bool
	started     time.Time // the first attempt's signed time
	ended       time.Time // when the last attempt ended, on the same clock
}

// final returns the call's error, err, or, when an attempt may have acted
// and the operation is not safe to repeat, an *OutcomeUnknownError.
func (s stopped) final(err error) error {
	if !s.acted || s.op.safety == repeatable {
		return err
	}
	probably := s.actedBefore && (errors.Is(err, ErrClientReferenceExists) || errors.Is(err, ErrQuotationAlreadyLinked) || errors.Is(err, ErrUTRInUse))
	ou := &OutcomeUnknownError{
		ClientReferenceID: s.op.reference, QuotationID: s.op.quotationID, CustomerID: s.op.customerID, UTR: s.op.utr,
		Method: s.op.method, Path: s.op.url.Path,
		Attempts: s.attempts, ProbablyCreated: probably, Err: err,
		Started: s.started, Ended: s.ended,
	}
	if row := s.op.row; row != nil {
		ou.operation, ou.created = row.name, row.creates
	}
	return ou
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
	duration time.Duration
}

// responseDate returns the response's Date header, if it has a readable
// one.
func (r *attemptResult) responseDate() (time.Time, bool) {
	date, err := http.ParseTime(r.header.Get("Date"))
	return date, err == nil && r.header != nil
}

// attempt signs and sends the request once, within the per-attempt timeout,
// and reads at most maxResponse+1 bytes of the answer.
func (c *Client) attempt(ctx context.Context, op *operation, signed, payload []byte) attemptResult {
	if err := c.waitTurn(ctx); err != nil {
		return attemptResult{err: err}
	}
	if t := op.timeout; t > 0 {
		// No timer when the context's own deadline comes first.
		if deadline, ok := ctx.Deadline(); !ok || time.Until(deadline) > t {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, t)
			defer cancel()
		}
	}
	stamp := c.now()
	ts := stamp.Unix()
	apiKey, apiSecret := c.cfg.creds()
	// The header is written with canonical keys, as Header.Set would store
	// them, and its values share one backing array.
	vals := make([]string, 6)
	vals[0], vals[1], vals[2] = "application/json", c.cfg.userAgent, apiKey
	vals[3], vals[4] = strconv.FormatInt(ts, 10), Sign(apiKey, apiSecret, ts, signed)
	header := make(http.Header, 6+len(op.header))
	header["Accept"], header["User-Agent"] = vals[0:1:1], vals[1:2:2]
	for k, v := range op.header { // may replace Accept or User-Agent, never the ones below
		header[k] = v
	}
	header["X-Api-Key"], header["X-Timestamp"], header["X-Signature"] = vals[2:3:3], vals[3:4:4], vals[4:5:5]
	req := &http.Request{
		Method: op.method, URL: op.url, Header: header, Host: op.url.Host,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
	}
	if payload != nil {
		vals[5] = "application/json"
		header["Content-Type"] = vals[5:6:6]
		req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(payload)), int64(len(payload))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(payload)), nil }
	}
	req = req.WithContext(ctx)

	start := time.Now()
	res := attemptResult{stamp: stamp}
	resp, err := c.cfg.httpClient.Do(req)
	if err != nil {
		res.err, res.duration = err, time.Since(start)
		return res
	}
	res.body, res.err = readBody(resp, c.cfg.maxResponse+1)
	_ = resp.Body.Close()
	res.oversize = int64(len(res.body)) > c.cfg.maxResponse
	res.status, res.header, res.duration = resp.StatusCode, resp.Header, time.Since(start)
	if c.cfg.correctClock {
		if date, ok := res.responseDate(); ok {
			c.clock.observe(date, c.cfg.now())
		}
	}
	return res
}

// maxPresize is the most of a declared Content-Length that readBody
// allocates before the bytes arrive: the declaration is the server's word
// (or a proxy's), and with the size cap raised it could name any size.
const maxPresize = DefaultMaxResponseBytes

// readBody reads at most limit bytes of resp's body, into a buffer sized by
// Content-Length (up to maxPresize) when the response declares one.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	r := io.LimitReader(resp.Body, limit)
	if n := resp.ContentLength; n >= 0 && n < limit && n < maxPresize {
		// One more byte, so that a body longer than declared still
		// reaches the limit check and EOF is seen without growing.
		buf := make([]byte, 0, n+1)
		for {
			m, err := r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+m]
			if err == io.EOF {
				return buf, nil
			}
			if err != nil {
				return buf, err
			}
			if len(buf) == cap(buf) {
				rest, err := io.ReadAll(r)
				return append(buf, rest...), err
			}
		}
	}
	return io.ReadAll(r)
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
