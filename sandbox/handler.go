package sandbox

import (
	"bytes"
	"crypto/hmac"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// Path prefixes of the service's three areas: payouts (pos), customers,
// wallets, bank accounts and KYC (cms), payin quotations (pis).
const (
	posBase = "/pos/api/v1"
	cmsBase = "/cms/api/v1"
	pisBase = "/pis/api/v1"
	orgBase = "/org/api/v1"
)

// maxRequestBody caps what the sandbox reads of a request body.
const maxRequestBody = 1 << 20

// Parse caps, so that no body under maxRequestBody costs more than a
// linear pass. maxBodyDepth bounds the nesting of arrays and objects in a
// request body (Python's json gives up at roughly 1000 levels); a deeper
// body is a JSON parse error. maxDecimalLength is the longest text a
// decimal field is parsed from (the REST framework's DecimalField refuses a
// longer one as "String value too large."), and maxDecimalDigits the most
// digits a decimal may have in total once its exponent is written out, so
// that no comparison or sum of amounts grows a number with millions of
// digits.
const (
	maxBodyDepth     = 1000
	maxDecimalLength = 1000
	maxDecimalDigits = 1000
)

// Authentication err_codes (the service's interface description leaves the
// status and body of an authentication failure out; its later edition
// answers 401 with an err_code starting AUTH_).
const (
	CodeMissingHeader    = "AUTH_MISSING_HEADER"
	CodeInvalidAPIKey    = "AUTH_INVALID_API_KEY"
	CodeInvalidTimestamp = "AUTH_INVALID_TIMESTAMP"
	CodeTimestampExpired = "AUTH_TIMESTAMP_EXPIRED"
	CodeBodyNotCanonical = "AUTH_BODY_NOT_CANONICAL"
	CodeInvalidSignature = "AUTH_INVALID_SIGNATURE"
)

// Documented err_codes: CodeFieldMissing answers a 400 for a missing or
// invalid field, CodeInternalError a 500.
const (
	CodeFieldMissing  = "REQ_FIELD_MISSING"
	CodeInternalError = "SYS_INTERNAL_ERROR"
)

// reply is a handler's answer, written after the handler returns (or not
// at all, when a fault drops the connection after the effect).
type reply struct {
	status int
	body   []byte
	header http.Header // extra headers, e.g. Allow on a 405
}

// request is what a handler gets: the authenticated organization, the
// sandbox time of the request, the path parameters and the body.
type request struct {
	r      *http.Request
	org    *org
	now    time.Time
	params []string
	body   *fields // empty for GET
}

// handlerFunc runs one operation with s.mu held.
type handlerFunc func(s *Sandbox, rq *request) reply

// route is one operation: method and path pattern, where a segment "{}"
// matches one path segment (possibly empty) and becomes a parameter.
type route struct {
	method  string
	pattern []string
	handle  handlerFunc
}

// routeTable returns the sandbox's operations. Fixed paths come before the
// parameterised ones that would also match them.
func (s *Sandbox) routeTable() []route {
	r := func(method, pattern string, h handlerFunc) route {
		return route{method: method, pattern: strings.Split(strings.Trim(pattern, "/"), "/"), handle: h}
	}
	return []route{
		r(http.MethodPost, posBase+"/prefunded/payout/initiate", (*Sandbox).createPrefundedPayout),
		r(http.MethodPost, posBase+"/payout/initiate", (*Sandbox).createPayout),
		r(http.MethodPost, s.settings.RemittancePayoutPath, (*Sandbox).createRemittancePayout),
		r(http.MethodGet, posBase+"/payout/balance", (*Sandbox).getBalance),
		r(http.MethodPatch, posBase+"/payout/mock-payout-status", (*Sandbox).simulatePayoutStatus),
		r(http.MethodGet, posBase+"/payout/{}", (*Sandbox).getPayout),
		r(http.MethodPost, cmsBase+"/wallet/add", (*Sandbox).addWalletOp),
		r(http.MethodPatch, cmsBase+"/kyc/mock-kyc-status", (*Sandbox).simulateKYCStatus),
		r(http.MethodGet, cmsBase+"/kyc/configuration/{}", (*Sandbox).getKYCConfiguration),
		r(http.MethodGet, cmsBase+"/bank/list/{}", (*Sandbox).listBankAccounts),
		r(http.MethodGet, cmsBase+"/bank/{}/{}", (*Sandbox).getBankAccount),
		r(http.MethodPost, pisBase+"/payin/quotation", (*Sandbox).createPayinQuotation),
		r(http.MethodGet, pisBase+"/payin/quotation/{}", (*Sandbox).getPayinQuotation),
		r(http.MethodPost, cmsBase+"/bank/mock-bank-verification", (*Sandbox).simulateBankVerification),
		r(http.MethodPatch, pisBase+"/payin/mock-payin-status", (*Sandbox).simulatePayinStatus),
		r(http.MethodPost, orgBase+"/organizations/api-webhooks", (*Sandbox).registerWebhook),
	}
}

// match finds the route of method and path. It returns the route and its
// parameters, or the HTTP status of the miss (404 or 405; allowed lists the
// methods the path does answer). A trailing slash is tolerated, but first
// tried as ending an empty parameter, so that GET /pos/api/v1/payout/
// reaches the operation and is refused as a missing payout id rather than
// as an unknown path, and another method there is a 405.
func match(routes []route, method, path string) (*route, []string, int) {
	trimmed := strings.Split(strings.Trim(path, "/"), "/")
	if p := strings.TrimPrefix(path, "/"); strings.HasSuffix(p, "/") {
		rt, params, miss := matchSegments(routes, method, strings.Split(p, "/"))
		if miss == 0 {
			return rt, params, 0
		}
		if miss == http.StatusMethodNotAllowed {
			// Known with its empty parameter, for other methods.
			if rt, params, miss := matchSegments(routes, method, trimmed); miss == 0 {
				return rt, params, 0
			}
			return nil, nil, http.StatusMethodNotAllowed
		}
	}
	return matchSegments(routes, method, trimmed)
}

// allowed returns the methods that path answers, sorted: the Allow header
// of a 405.
func allowed(routes []route, path string) []string {
	var methods []string
	for i := range routes {
		m := routes[i].method
		if slices.Contains(methods, m) {
			continue
		}
		if _, _, miss := match(routes, m, path); miss == 0 {
			methods = append(methods, m)
		}
	}
	sort.Strings(methods)
	return methods
}

// matchSegments is match on a path split into segments.
func matchSegments(routes []route, method string, segs []string) (*route, []string, int) {
	pathMatched := false
	for i := range routes {
		rt := &routes[i]
		if len(rt.pattern) != len(segs) {
			continue
		}
		var params []string
		ok := true
		for j, p := range rt.pattern {
			if p == "{}" {
				params = append(params, segs[j])
			} else if p != segs[j] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if rt.method != method {
			pathMatched = true
			continue
		}
		return rt, params, 0
	}
	if pathMatched {
		return nil, nil, http.StatusMethodNotAllowed
	}
	return nil, nil, http.StatusNotFound
}

// ServeHTTP serves one request of the interface: fault injection first,
// then authentication (X-API-KEY, X-TIMESTAMP within the window,
// X-SIGNATURE over the canonical body), then the operation.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	now := s.now()
	s.stats.Requests++
	fault, faulted := s.matchFault(r.Method, r.URL.Path)
	s.mu.Unlock()
	w.Header().Set("Date", now.UTC().Format(http.TimeFormat))

	raw, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody+1))
	if err != nil {
		// The body did not arrive: cut off by the server's read timeout,
		// or the caller went away. Nothing was done; say so to a caller
		// that still listens, and end the connection.
		rep := refusal(http.StatusRequestTimeout, "", "Request body not received in time.", nil)
		w.Header().Set("Connection", "close")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		_, _ = w.Write(rep.body)
		return
	}
	if faulted {
		if done := s.applyFault(w, r, fault); done {
			return
		}
	}

	rep := s.serve(r, raw)
	if faulted && fault.Kind == FaultDropAfter {
		panic(http.ErrAbortHandler) // the effect happened; the caller never hears
	}
	for k, v := range rep.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body)
}

// serve authenticates and runs one request, returning its reply.
//
// Only what needs the state holds s.mu: finding the key's organization and
// checking the timestamp, then the operation. Everything that depends on
// the request alone (the body's canonical form, its media type, its JSON,
// the signature) is worked out without it, so a body that is costly to
// parse holds up its own request and no other organization's.
func (s *Sandbox) serve(r *http.Request, raw []byte) reply {
	if len(raw) > maxRequestBody {
		return refusal(http.StatusRequestEntityTooLarge, "", "Request body too large.", nil)
	}
	rt, params, miss := match(s.routes, r.Method, r.URL.Path)
	switch miss {
	case http.StatusNotFound:
		return refusal(http.StatusNotFound, "", "Not found.", nil)
	case http.StatusMethodNotAllowed:
		rep := refusal(http.StatusMethodNotAllowed, "", fmt.Sprintf("Method %q not allowed.", r.Method), nil)
		rep.header = http.Header{"Allow": {strings.Join(allowed(s.routes, r.URL.Path), ", ")}}
		return rep
	}

	in := s.parse(r, raw)

	s.mu.Lock()
	o, cred, rep := s.authenticate(r, s.now())
	s.mu.Unlock()
	if o == nil {
		return rep
	}
	if rep, ok := verify(cred, in); !ok {
		return rep
	}
	if in.refused != nil {
		return *in.refused
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keys[cred.key] != o { // removed meanwhile (a failed Load undone)
		return unauthorized(CodeInvalidAPIKey, "Invalid API key.")
	}
	rq := &request{r: r, org: o, now: s.now(), params: params, body: newFields(in.body)}
	return rt.handle(s, rq)
}

// parsedBody is what a request's body says, worked out without s.mu.
type parsedBody struct {
	// signed is what the signature covers: the body, or {} for a GET or a
	// request without one.
	signed []byte
	// notCanonical is the 401 to answer when the body is not its own
	// canonical form (nil when it is).
	notCanonical *reply
	// refused is the answer (415 or 400) once authentication passes, or
	// nil when body holds the request's JSON object.
	refused *reply
	body    map[string]any
}

// parse checks and decodes raw, the body of r, without s.mu. The work is
// linear in the size of raw: nesting is capped by maxBodyDepth.
func (s *Sandbox) parse(r *http.Request, raw []byte) *parsedBody {
	in := &parsedBody{signed: []byte("{}")}
	if s.parseHook != nil {
		defer s.parseHook(r)
	}
	if r.Method == http.MethodGet || len(raw) == 0 {
		return in
	}
	canonical, err := fiatramp.CanonicalizeJSON(raw)
	switch {
	case err != nil:
		rep := unauthorized(CodeBodyNotCanonical, "Request body is not valid JSON.")
		in.notCanonical = &rep
		return in
	case !bytes.Equal(canonical, raw):
		rep := unauthorized(CodeBodyNotCanonical, "Request body is not in canonical form: keys sorted, no whitespace, non-ASCII escaped.")
		in.notCanonical = &rep
		return in
	}
	in.signed = raw
	// A request with a body must send it as Content-Type application/json;
	// the REST framework answers anything else 415.
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		rep := refusal(http.StatusUnsupportedMediaType, "", fmt.Sprintf("Unsupported media type %q in request.", ct), nil)
		in.refused = &rep
		return in
	}
	in.body, in.refused = decodeBody(raw)
	return in
}

// credentials are the signature inputs of an authenticated request.
type credentials struct {
	key, secret, sig string
	ts               int64
}

// authenticate checks the authentication headers that need the state (the
// key) or the clock (the timestamp); s.mu must be held. It returns the
// organization and what verify needs, or nil and the 401 to answer.
func (s *Sandbox) authenticate(r *http.Request, now time.Time) (*org, credentials, reply) {
	for _, h := range []string{"X-API-KEY", "X-TIMESTAMP", "X-SIGNATURE"} {
		if r.Header.Get(h) == "" {
			return nil, credentials{}, unauthorized(CodeMissingHeader, "Authentication header "+h+" is missing.")
		}
	}
	key, stamp, sig := r.Header.Get("X-API-KEY"), r.Header.Get("X-TIMESTAMP"), r.Header.Get("X-SIGNATURE")
	o, ok := s.keys[key]
	if !ok {
		return nil, credentials{}, unauthorized(CodeInvalidAPIKey, "Invalid API key.")
	}
	// Plain decimal digits only: the signature covers the header as sent,
	// so "+17..." or "017..." would sign a different string than the one
	// the sandbox rebuilds from the number.
	ts, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil || strconv.FormatInt(ts, 10) != stamp {
		return nil, credentials{}, unauthorized(CodeInvalidTimestamp, "X-TIMESTAMP must be a Unix time in seconds.")
	}
	// Whole seconds on both sides: the header has no fraction, so a
	// timestamp exactly TimestampWindow away is inside the window whatever
	// the fraction of the sandbox clock.
	window := int64(s.settings.TimestampWindow / time.Second)
	if server := now.Unix(); ts < server-window || ts > server+window {
		return nil, credentials{}, unauthorized(CodeTimestampExpired, fmt.Sprintf(
			"Request timestamp is outside the allowed window of %d seconds (server time %d).",
			window, now.Unix()))
	}
	return o, credentials{key: key, secret: o.APISecret, sig: sig, ts: ts}, reply{}
}

// verify finishes authentication without s.mu: the body must be canonical
// and the signature must cover it. It returns the 401 to answer and false,
// or true.
func verify(c credentials, in *parsedBody) (reply, bool) {
	if in.notCanonical != nil {
		return *in.notCanonical, false
	}
	// Compared as text, in constant time: standard Base64 with padding is
	// the one accepted spelling (a lenient decoder would also take other
	// spellings of the same bytes, which the service need not).
	want := fiatramp.Sign(c.key, c.secret, c.ts, in.signed)
	if !hmac.Equal([]byte(c.sig), []byte(want)) {
		return unauthorized(CodeInvalidSignature, "Invalid Signature"), false
	}
	return reply{}, true
}

// decodeBody decodes a request body that must be a JSON object, nested no
// deeper than maxBodyDepth.
func decodeBody(raw []byte) (map[string]any, *reply) {
	if jsonDepth(raw) > maxBodyDepth {
		rep := refusal(http.StatusBadRequest, "", "JSON parse error.", nil)
		return nil, &rep
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		rep := refusal(http.StatusBadRequest, "", "JSON parse error.", nil)
		return nil, &rep
	}
	m, ok := v.(map[string]any)
	if !ok {
		rep := fieldRefusal(map[string][]string{"non_field_errors": {
			fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", jsonKind(v))}})
		return nil, &rep
	}
	return m, nil
}

// jsonDepth returns the deepest nesting of arrays and objects in the JSON
// text raw (brackets inside strings do not count), in one pass.
func jsonDepth(raw []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > deepest {
				deepest = depth
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// jsonKind names the Python type of a decoded JSON value, as the service's
// messages do.
func jsonKind(v any) string {
	switch t := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case json.Number:
		if strings.ContainsAny(t.String(), ".eE") {
			return "float"
		}
		return "int"
	case []any:
		return "list"
	}
	return "dict"
}

// envelope is the body of every answer: status, message, data (null on
// error), and on errors err_code and errors.
type envelope struct {
	Status  bool   `json:"status"`
	Message string `json:"message"`
	ErrCode string `json:"err_code,omitempty"`
	Errors  any    `json:"errors,omitempty"`
	Data    any    `json:"data"`
}

// success answers status with data.
func success(status int, message string, data any) reply {
	return reply{status: status, body: mustJSON(envelope{Status: true, Message: message, Data: data})}
}

// refusal answers an error. code is the err_code, empty where the
// service documents none; errs the errors member or nil.
func refusal(status int, code, message string, errs any) reply {
	return reply{status: status, body: mustJSON(envelope{Message: message, ErrCode: code, Errors: errs})}
}

// unauthorized answers an authentication failure.
func unauthorized(code, message string) reply {
	return refusal(http.StatusUnauthorized, code, message, nil)
}

// rule answers a refused business rule: HTTP 400 with the documented
// message. The service documents no err_code for these, so none is sent.
func rule(message string) reply {
	return refusal(http.StatusBadRequest, "", message, nil)
}

// fieldRefusal answers field errors (HTTP 400, REQ_FIELD_MISSING, and
// errors.<field> holding the messages); the message is the first field's first message.
func fieldRefusal(errs map[string][]string) reply {
	names := make([]string, 0, len(errs))
	for k := range errs {
		names = append(names, k)
	}
	sort.Strings(names)
	return refusal(http.StatusBadRequest, CodeFieldMissing, errs[names[0]][0], errs)
}

// mustJSON marshals what the sandbox itself builds; it cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("sandbox: marshal: " + err.Error())
	}
	return b
}

// num writes d as a JSON number, with d's own digits.
func num(d decimal.Decimal) json.Number { return json.Number(d.String()) }

// stamp writes t as the service does: UTC with microseconds.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z07:00") }

// Field error messages, in the REST framework's words, as the service
// sends them.
const (
	msgRequired = "This field is required."
	msgNull     = "This field may not be null."
	msgBlank    = "This field may not be blank."
	msgString   = "Not a valid string."
	msgUUID     = "Must be a valid UUID."
	msgNumber   = "A valid number is required."
	msgBool     = "Must be a valid boolean."
	msgTooLong  = "Ensure this field has no more than 255 characters."
	// msgDecimalText and msgDecimalDigits are the REST framework's
	// DecimalField refusals of an over-long text and of too many digits.
	msgDecimalText   = "String value too large."
	msgDecimalDigits = "Ensure that there are no more than %d digits in total."
)

// fields reads a JSON object's members and collects field errors under
// their dotted names (customer.sender.id).
type fields struct {
	prefix string
	m      map[string]any
	errs   map[string][]string // shared with nested fields
}

func newFields(m map[string]any) *fields {
	return &fields{m: m, errs: map[string][]string{}}
}

// fail files msg under field name.
func (f *fields) fail(name, msg string) {
	f.errs[f.prefix+name] = append(f.errs[f.prefix+name], msg)
}

// value returns member name; a null member counts as present.
func (f *fields) value(name string) (any, bool) {
	v, ok := f.m[name]
	return v, ok
}

// str reads a string member. A required one must be present, not null and
// not blank; an optional one may be absent or null (ok false).
func (f *fields) str(name string, required bool) (s string, ok bool) {
	v, present := f.value(name)
	switch {
	case !present && required:
		f.fail(name, msgRequired)
		return "", false
	case !present:
		return "", false
	case v == nil && required:
		f.fail(name, msgNull)
		return "", false
	case v == nil:
		return "", false
	}
	switch t := v.(type) {
	case string:
		s = t
	case json.Number:
		s = t.String() // the REST framework's CharField takes numbers
	default:
		f.fail(name, msgString)
		return "", false
	}
	if strings.TrimSpace(s) == "" && required {
		f.fail(name, msgBlank)
		return "", false
	}
	if moreRunesThan(s, 255) {
		f.fail(name, msgTooLong)
		return "", false
	}
	return s, true
}

// uuid reads a required uuid member.
func (f *fields) uuid(name string) uuid.UUID {
	v, present := f.value(name)
	if !present {
		f.fail(name, msgRequired)
		return uuid.Nil
	}
	if v == nil {
		f.fail(name, msgNull)
		return uuid.Nil
	}
	s, ok := v.(string)
	if !ok {
		f.fail(name, msgUUID)
		return uuid.Nil
	}
	id, err := uuid.Parse(s)
	if err != nil || len(s) != 36 && len(s) != 32 {
		f.fail(name, msgUUID)
		return uuid.Nil
	}
	return id
}

// decimal reads a required decimal member, from a string or a number.
func (f *fields) decimal(name string) decimal.Decimal {
	v, present := f.value(name)
	if !present {
		f.fail(name, msgRequired)
		return decimal.Zero
	}
	var s string
	switch t := v.(type) {
	case nil:
		f.fail(name, msgNull)
		return decimal.Zero
	case string:
		s = strings.TrimSpace(t)
	case json.Number:
		s = t.String()
	default:
		f.fail(name, msgNumber)
		return decimal.Zero
	}
	if len(s) > maxDecimalLength {
		f.fail(name, msgDecimalText)
		return decimal.Zero
	}
	d, err := decimal.NewFromString(s)
	if err != nil || s == "" {
		f.fail(name, msgNumber)
		return decimal.Zero
	}
	if decimalDigits(d) > maxDecimalDigits {
		f.fail(name, fmt.Sprintf(msgDecimalDigits, maxDecimalDigits))
		return decimal.Zero
	}
	return d
}

// decimalDigits counts d's digits in total as the REST framework's
// DecimalField does: the digits of its coefficient, plus the zeros its
// exponent adds before the point or after it.
func decimalDigits(d decimal.Decimal) int64 {
	n := int64(len(d.Coefficient().Text(10)))
	if d.Sign() < 0 {
		n-- // the sign
	}
	exp := int64(d.Exponent())
	switch {
	case exp >= 0:
		return n + exp
	case -exp > n:
		return -exp
	}
	return n
}

// moreRunesThan reports whether s has more than n characters, reading no
// further than character n+1.
func moreRunesThan(s string, n int) bool {
	if len(s) <= n {
		return false
	}
	count := 0
	for range s {
		if count++; count > n {
			return true
		}
	}
	return false
}

// boolean reads an optional boolean member; absent and null are false.
func (f *fields) boolean(name string) bool {
	v, present := f.value(name)
	if !present || v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		f.fail(name, msgBool)
	}
	return b
}

// object reads an object member. A required one must be present and not
// null. It returns nil when there is no usable object.
func (f *fields) object(name string, required bool) *fields {
	v, present := f.value(name)
	if !present || v == nil {
		switch {
		case !present && required:
			f.fail(name, msgRequired)
		case required:
			f.fail(name, msgNull)
		}
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		f.fail(name, fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", jsonKind(v)))
		return nil
	}
	return &fields{prefix: f.prefix + name + ".", m: m, errs: f.errs}
}

// refused returns the field refusal of what was read so far, or nil.
func (f *fields) refused() *reply {
	if len(f.errs) == 0 {
		return nil
	}
	rep := fieldRefusal(f.errs)
	return &rep
}
