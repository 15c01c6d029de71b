package sandbox

// The control plane: the Go fixture, fault, clock and state methods of a
// Sandbox over HTTP, for tests written in any language.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// ControlPrefix is the path under which a Server started WithControl
// serves its control plane. No operation of the service lives under it.
const ControlPrefix = "/_sandbox"

// Control plane limits.
const (
	// minControlToken is the shortest admin token accepted.
	minControlToken = 16
	// maxControlBody caps a control request body; maxFixturesBody the
	// body of POST /_sandbox/fixtures.
	maxControlBody  = 64 << 10
	maxFixturesBody = 8 << 20
	// maxControlSeconds bounds every duration given in seconds (a year),
	// so none overflows a time.Duration.
	maxControlSeconds = 366 * 24 * 3600
	// maxWaitSeconds bounds POST /_sandbox/deliveries/wait, which must
	// answer within the server's WriteTimeout (less a second).
	maxWaitSeconds = 50
)

// WithControl serves the control plane under ControlPrefix: every fixture,
// fault, clock and state method of the Sandbox as a JSON operation over
// HTTP (GET /_sandbox lists them). Each request must carry
// "Authorization: Bearer TOKEN"; any other is answered 401 (the token is
// compared in constant time). token is the admin token: at least 16
// characters without white space, and not the API secret of an
// organization the sandbox holds (Listen refuses such a token); "" generates
// a random one. Server.ControlToken returns it.
// Without this option nothing is served under ControlPrefix.
func WithControl(token string) ServerOption {
	return func(st *ServerSettings) {
		st.Control = true
		st.ControlToken = token
	}
}

// ControlToken returns the admin token of s's control plane, or "" when s
// serves none (see WithControl).
func (s *Server) ControlToken() string {
	if s.controlToken == nil {
		return ""
	}
	return s.controlToken()
}

// Reset empties the sandbox as if it were new: every organization and all
// it owns (customers, bank accounts, wallets, quotations, remitters,
// payouts, payin quotations), every fault and delivery fault rule, the
// delivery log and the counts of Stats go, and the clock runs with real
// time again. Pending deliveries are dropped unsent; an attempt under way
// finishes but is not logged. The settings stay.
func (s *Sandbox) Reset() {
	s.mu.Lock()
	s.frozen, s.at, s.offset = false, time.Time{}, 0
	s.orgs = map[uuid.UUID]*org{}
	s.keys = map[string]*org{}
	s.customers = map[uuid.UUID]*customer{}
	s.banks = map[uuid.UUID]*bankAccount{}
	s.wallets = map[uuid.UUID]*Wallet{}
	s.quotations = map[uuid.UUID]*quotation{}
	s.remitters = map[uuid.UUID]*Remitter{}
	s.payouts = map[uuid.UUID]*payout{}
	s.payoutsCreated = 0
	s.payinQuotations = map[uuid.UUID]*payinQuotation{}
	s.faults = nil
	s.stats = Stats{}
	s.mu.Unlock()

	d := s.deliveries
	d.mu.Lock()
	defer d.mu.Unlock()
	d.epoch++
	for t := range d.timers {
		if t.Stop() {
			d.wg.Done() // its function will never run
		}
	}
	if !d.closed {
		d.timers = map[*time.Timer]struct{}{}
	}
	d.log, d.queues, d.ready, d.pending, d.faults = nil, map[string][]*delivery{}, nil, 0, nil
}

// control serves the control plane of sb and passes every other request
// to next.
type control struct {
	sb     *Sandbox
	next   http.Handler
	digest [sha256.Size]byte // of the token: compared in constant time
	routes []route           // for match and allowed; handle is unused
	ops    []controlOp       // ops[i] serves routes[i]
	// maxWait is the longest POST /_sandbox/deliveries/wait may wait and
	// still answer within the server's WriteTimeout.
	maxWait time.Duration
}

// controlOp is one control operation.
type controlOp struct {
	method, path string
	// goAPI names the Go API the operation reaches.
	goAPI   string
	maxBody int64
	serve   func(c *control, r *http.Request, params []string, body []byte) (int, any, error)
}

// controlError is a refused control request: its status, the JSON member
// at fault (empty when none is) and what is wrong.
type controlError struct {
	status int
	field  string
	msg    string
}

func (e *controlError) Error() string { return e.msg }

func badField(field, format string, args ...any) error {
	return &controlError{http.StatusBadRequest, field, fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) error {
	return &controlError{http.StatusNotFound, "", fmt.Sprintf(format, args...)}
}

// newControl returns the control plane of sb guarded by token (generated
// when empty), in front of next, on a server whose answers must be written
// within writeTimeout (0: no limit).
func newControl(sb *Sandbox, token string, next http.Handler, writeTimeout time.Duration) (*control, string, error) {
	if token == "" {
		token = "sbx_admin_" + randomToken(24)
	}
	if len(token) < minControlToken {
		return nil, "", fmt.Errorf("sandbox: control token: %d characters, want at least %d", len(token), minControlToken)
	}
	for _, r := range token {
		if r <= ' ' || r == 0x7f {
			return nil, "", errors.New("sandbox: control token: holds white space or a control character")
		}
	}
	sb.mu.Lock()
	for _, o := range sb.orgs {
		if subtle.ConstantTimeCompare([]byte(o.APISecret), []byte(token)) == 1 {
			sb.mu.Unlock()
			return nil, "", errors.New("sandbox: control token: is an organization's API secret; the admin token must be its own")
		}
	}
	sb.mu.Unlock()
	c := &control{sb: sb, next: next, digest: sha256.Sum256([]byte(token)), ops: controlOps(), maxWait: maxWaitSeconds * time.Second}
	if writeTimeout > 0 {
		c.maxWait = min(c.maxWait, writeTimeout-time.Second)
	}
	for _, op := range c.ops {
		c.routes = append(c.routes, route{method: op.method, pattern: strings.Split(strings.Trim(op.path, "/"), "/")})
	}
	return c, token, nil
}

// isControlPath reports whether path lies under ControlPrefix.
func isControlPath(path string) bool {
	return path == ControlPrefix || strings.HasPrefix(path, ControlPrefix+"/")
}

func (c *control) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !isControlPath(r.URL.Path) {
		c.next.ServeHTTP(w, r)
		return
	}
	status, v, err := c.serve(r)
	if err != nil {
		var ce *controlError
		if !errors.As(err, &ce) {
			ce = &controlError{status: http.StatusInternalServerError, msg: err.Error()}
		}
		if ce.status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="fiatramp sandbox control"`)
		}
		status, v = ce.status, struct {
			Error string `json:"error"`
			Field string `json:"field,omitempty"`
		}{ce.msg, ce.field}
	}
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, mustJSON(map[string]string{"error": err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// serve authenticates r, finds its operation and runs it.
func (c *control) serve(r *http.Request) (int, any, error) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	sum := sha256.Sum256([]byte(token))
	if !ok || subtle.ConstantTimeCompare(sum[:], c.digest[:]) != 1 {
		return 0, nil, &controlError{http.StatusUnauthorized, "",
			"missing or wrong admin token: send the header \"Authorization: Bearer TOKEN\" with the control token the sandbox printed at start"}
	}
	rt, params, miss := match(c.routes, r.Method, r.URL.Path)
	switch miss {
	case http.StatusNotFound:
		return 0, nil, notFound("no control operation at %s (GET %s lists them)", r.URL.Path, ControlPrefix)
	case http.StatusMethodNotAllowed:
		return 0, nil, &controlError{http.StatusMethodNotAllowed, "", fmt.Sprintf("method %s not allowed at %s; allowed: %s",
			r.Method, r.URL.Path, strings.Join(allowed(c.routes, r.URL.Path), ", "))}
	}
	op := c.ops[routeIndex(c.routes, rt)]
	limit := op.maxBody
	if limit == 0 {
		limit = maxControlBody
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return 0, nil, &controlError{http.StatusBadRequest, "", "request body not received: " + err.Error()}
	}
	if int64(len(body)) > limit {
		return 0, nil, &controlError{http.StatusRequestEntityTooLarge, "", fmt.Sprintf("request body larger than %d bytes", limit)}
	}
	return op.serve(c, r, params, body)
}

// routeIndex returns the index of rt in routes.
func routeIndex(routes []route, rt *route) int {
	for i := range routes {
		if &routes[i] == rt {
			return i
		}
	}
	panic("sandbox: control route not in its table")
}

// controlOps is the control plane's table of operations.
func controlOps() []controlOp {
	p := ControlPrefix
	return []controlOp{
		{method: "GET", path: p, goAPI: "(this list)", serve: (*control).index},
		{method: "POST", path: p + "/reset", goAPI: "Sandbox.Reset, Sandbox.SeedDemo", serve: (*control).reset},
		{method: "GET", path: p + "/clock", goAPI: "Sandbox.Now", serve: (*control).now},
		{method: "PUT", path: p + "/clock", goAPI: "Sandbox.SetTime", serve: (*control).setTime},
		{method: "POST", path: p + "/clock/advance", goAPI: "Sandbox.Advance", serve: (*control).advance},
		{method: "POST", path: p + "/faults", goAPI: "Sandbox.InjectFault", serve: (*control).injectFault},
		{method: "DELETE", path: p + "/faults", goAPI: "Sandbox.ClearFaults", serve: (*control).clearFaults},
		{method: "POST", path: p + "/delivery-faults", goAPI: "Sandbox.InjectDeliveryFault", serve: (*control).injectDeliveryFault},
		{method: "DELETE", path: p + "/delivery-faults", goAPI: "Sandbox.ClearDeliveryFaults", serve: (*control).clearDeliveryFaults},
		{method: "POST", path: p + "/fixtures", goAPI: "LoadJSON, Sandbox.Load", maxBody: maxFixturesBody, serve: (*control).load},
		{method: "POST", path: p + "/demo", goAPI: "Sandbox.SeedDemo", serve: (*control).seedDemo},
		{method: "POST", path: p + "/organizations", goAPI: "Sandbox.AddOrganization", serve: (*control).addOrganization},
		{method: "GET", path: p + "/organizations/{}", goAPI: "Sandbox.Organization", serve: (*control).organization},
		{method: "GET", path: p + "/organizations/{}/balances", goAPI: "Sandbox.Organization (balances)", serve: (*control).balances},
		{method: "GET", path: p + "/organizations/{}/balances/{}", goAPI: "Sandbox.Balance", serve: (*control).balance},
		{method: "PUT", path: p + "/organizations/{}/balances/{}", goAPI: "Sandbox.SetBalance", serve: (*control).setBalance},
		{method: "PUT", path: p + "/organizations/{}/webhook-url", goAPI: "Sandbox.SetWebhookURL", serve: (*control).setWebhookURL},
		{method: "GET", path: p + "/organizations/{}/payouts", goAPI: "Sandbox.Payouts", serve: (*control).payouts},
		{method: "GET", path: p + "/organizations/{}/payouts/by-reference", goAPI: "Sandbox.PayoutByReference", serve: (*control).payoutByReference},
		{method: "GET", path: p + "/payouts/{}", goAPI: "Sandbox.Payout", serve: (*control).payout},
		{method: "POST", path: p + "/customers", goAPI: "Sandbox.AddCustomer", serve: (*control).addCustomer},
		{method: "GET", path: p + "/customers/{}", goAPI: "Sandbox.Customer", serve: (*control).customer},
		{method: "PUT", path: p + "/customers/{}/kyc-status", goAPI: "Sandbox.SetKYCStatus", serve: (*control).setKYCStatus},
		{method: "PUT", path: p + "/customers/{}/flags", goAPI: "Sandbox.SetCustomerFlags", serve: (*control).setCustomerFlags},
		{method: "POST", path: p + "/bank-accounts", goAPI: "Sandbox.AddBankAccount", serve: (*control).addBankAccount},
		{method: "POST", path: p + "/wallets", goAPI: "Sandbox.AddWallet", serve: (*control).addWallet},
		{method: "POST", path: p + "/quotations", goAPI: "Sandbox.AddQuotation", serve: (*control).addQuotation},
		{method: "POST", path: p + "/remitters", goAPI: "Sandbox.AddRemitter", serve: (*control).addRemitter},
		{method: "GET", path: p + "/deliveries", goAPI: "Sandbox.Deliveries", serve: (*control).deliveriesLog},
		{method: "POST", path: p + "/deliveries/wait", goAPI: "Sandbox.WaitDeliveries", serve: (*control).waitDeliveries},
		{method: "GET", path: p + "/stats", goAPI: "Sandbox.Stats", serve: (*control).stats},
		{method: "GET", path: p + "/settings", goAPI: "Sandbox.Settings", serve: (*control).settings},
	}
}

// index lists the operations.
func (c *control) index(*http.Request, []string, []byte) (int, any, error) {
	type entry struct {
		Method string `json:"method"`
		Path   string `json:"path"`
		GoAPI  string `json:"go_api"`
	}
	out := make([]entry, len(c.ops))
	for i, op := range c.ops {
		out[i] = entry{op.method, op.path, op.goAPI}
	}
	return http.StatusOK, map[string]any{"operations": out}, nil
}

// decodeStrict decodes body, one JSON object, into v (a pointer to a
// struct): every member must be a field of v spelled exactly (the JSON
// readers of the service are case-sensitive); the last of duplicate
// members wins. It returns the names of the members present. An empty
// body is the empty object.
func decodeStrict(body []byte, v any) (map[string]bool, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil || members == nil {
		return nil, badField("", "the body must be one JSON object: %v", jsonProblem(err))
	}
	if err := checkKeys(body, reflect.TypeOf(v).Elem(), ""); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) && typ.Field != "" {
			field := fieldPath(typ.Field)
			return nil, badField(field, "%s: cannot read a JSON %s as %s", field, typ.Value, typ.Type)
		}
		// A value's own decoder refused it (a decimal, a time): find
		// which member holds it.
		fields := jsonFields(reflect.TypeOf(v).Elem())
		for name, raw := range members {
			if ft, ok := fields[name]; ok {
				if ferr := json.Unmarshal(raw, reflect.New(ft).Interface()); ferr != nil {
					return nil, badField(name, "%s: %v", name, ferr)
				}
			}
		}
		return nil, badField("", "the body is not valid: %v", err)
	}
	present := make(map[string]bool, len(members))
	for k := range members {
		present[k] = true
	}
	return present, nil
}

func jsonProblem(err error) string {
	if err == nil {
		return "got null"
	}
	return err.Error()
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// checkKeys refuses a member of the JSON value raw that type t does not
// name exactly, naming it by its path (path is the prefix, e.g.
// "organizations[0]."). Values of the wrong JSON kind are left to the
// decoder, which names them.
func checkKeys(raw []byte, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil
		}
		names := jsonFields(t)
		for k, v := range m {
			ft, ok := names[k]
			if !ok {
				msg := fmt.Sprintf("unknown field %q", k)
				if path != "" {
					msg = strings.TrimSuffix(path, ".") + ": " + msg
				}
				for name := range names {
					if strings.EqualFold(name, k) {
						msg += fmt.Sprintf(" (names are case-sensitive: %q)", name)
					}
				}
				return badField(path+k, "%s", msg)
			}
			if err := checkKeys(v, ft, path+k+"."); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		base := strings.TrimSuffix(path, ".")
		for i, item := range items {
			if err := checkKeys(item, t.Elem(), fmt.Sprintf("%s[%d].", base, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil
		}
		for k, v := range m {
			if err := checkKeys(v, t.Elem(), path+k+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonFields maps the JSON names of struct type t's fields (those of
// embedded structs included) to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				if _, shadowed := out[k]; !shadowed {
					out[k] = v
				}
			}
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		out[tag] = f.Type
	}
	return out
}

// require refuses the first of names missing from present.
func require(present map[string]bool, names ...string) error {
	for _, n := range names {
		if !present[n] {
			return badField(n, "%s is required", n)
		}
	}
	return nil
}

// pathID parses the id parameter of a path.
func pathID(what, s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil || len(s) != 36 {
		return uuid.Nil, &controlError{http.StatusBadRequest, "", fmt.Sprintf("%s id %q in the path is not a uuid", what, s)}
	}
	return id, nil
}

// seconds converts a duration given in seconds, refusing what no
// time.Duration holds.
func seconds(field string, v float64, allowNegative bool) (time.Duration, error) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > maxControlSeconds:
		return 0, badField(field, "%s: want a number of seconds within ±%d", field, maxControlSeconds)
	case v < 0 && !allowNegative:
		return 0, badField(field, "%s: %v is negative", field, v)
	}
	return time.Duration(math.Round(v * float64(time.Second))), nil
}

// fixtureField names the JSON member a fixture method's error is about,
// from its message.
func fixtureField(err error) string {
	msg := err.Error()
	for _, p := range []struct{ has, field string }{
		{"no organization", "organization_id"},
		{"no customer", "customer_id"},
		{"already exists", "id"},
		{"API key", "api_key"},
		{"webhook", "webhook_url"},
		{"balance", "balances"},
		{"KYC status", "kyc_status"},
		{"bank account to pay to", "bank_id"},
		{"is not customer", "bank_id"},
		{"wallet_address", "wallet_address"},
		{"sending_amount", "sending_amount"},
		{"receiving_amount", "receiving_amount"},
		{"rate", "rate"},
		{"type ", "type"},
		{"unknown status", "status"},
	} {
		if strings.Contains(msg, p.has) {
			return p.field
		}
	}
	return ""
}

func fixtureRefusal(err error) error {
	return badField(fixtureField(err), "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
}

// clockJSON is the answer of the clock operations: the sandbox time, also
// in Unix seconds (what X-TIMESTAMP carries).
type clockJSON struct {
	Now  time.Time `json:"now"`
	Unix int64     `json:"unix"`
}

func clockOf(t time.Time) clockJSON { return clockJSON{t, t.Unix()} }

func (c *control) now(*http.Request, []string, []byte) (int, any, error) {
	return http.StatusOK, clockOf(c.sb.Now()), nil
}

func (c *control) setTime(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in struct {
		Time string `json:"time"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "time"); err != nil {
		return 0, nil, err
	}
	t, err := time.Parse(time.RFC3339Nano, in.Time)
	if err != nil {
		return 0, nil, badField("time", "time %q: want RFC 3339, e.g. 2026-01-02T15:04:05Z", in.Time)
	}
	c.sb.SetTime(t)
	return http.StatusOK, clockOf(c.sb.Now()), nil
}

func (c *control) advance(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in struct {
		Seconds float64 `json:"seconds"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "seconds"); err != nil {
		return 0, nil, err
	}
	d, err := seconds("seconds", in.Seconds, true)
	if err != nil {
		return 0, nil, err
	}
	c.sb.Advance(d)
	return http.StatusOK, clockOf(c.sb.Now()), nil
}

// faultJSON is a request fault over HTTP: Fault with its durations in
// seconds.
type faultJSON struct {
	Kind              FaultKind `json:"kind"`
	Method            string    `json:"method,omitempty"`
	Path              string    `json:"path,omitempty"`
	Count             int       `json:"count,omitempty"`
	Fraction          float64   `json:"fraction,omitempty"`
	RetryAfterSeconds float64   `json:"retry_after_seconds,omitempty"`
	DelaySeconds      float64   `json:"delay_seconds,omitempty"`
}

// checkRule checks what request and delivery fault rules share, naming
// the JSON members: a known kind, count and fraction, and delay_seconds
// given to (and only to) the kind that delays. It returns the delay.
func checkRule[K ~string](present map[string]bool, kind K, kinds []K, delayKind K, count int, fraction, delaySeconds float64) (time.Duration, error) {
	if err := require(present, "kind"); err != nil {
		return 0, err
	}
	if !slices.Contains(kinds, kind) {
		return 0, badField("kind", "kind %q: want one of %v", kind, kinds)
	}
	if count < 0 {
		return 0, badField("count", "count %d is negative", count)
	}
	if math.IsNaN(fraction) || fraction < 0 || fraction > 1 {
		return 0, badField("fraction", "fraction %v is outside 0..1", fraction)
	}
	delay, err := seconds("delay_seconds", delaySeconds, false)
	switch {
	case err != nil:
		return 0, err
	case kind == delayKind && delay <= 0:
		return 0, badField("delay_seconds", "a delay fault needs a positive delay_seconds")
	case kind != delayKind && present["delay_seconds"]:
		return 0, badField("delay_seconds", "only a delay fault takes delay_seconds")
	}
	return delay, nil
}

func (c *control) injectFault(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in faultJSON
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	f := Fault{Kind: in.Kind, Method: in.Method, Path: in.Path, Count: in.Count, Fraction: in.Fraction}
	if f.Delay, err = checkRule(present, f.Kind, f.Kind.Values(), FaultDelay, in.Count, in.Fraction, in.DelaySeconds); err != nil {
		return 0, nil, err
	}
	if f.RetryAfter, err = seconds("retry_after_seconds", in.RetryAfterSeconds, false); err != nil {
		return 0, nil, err
	}
	if f.Kind != FaultRateLimit && present["retry_after_seconds"] {
		return 0, nil, badField("retry_after_seconds", "only a rate_limit fault takes retry_after_seconds")
	}
	if err := c.sb.InjectFault(f); err != nil {
		return 0, nil, badField("", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusCreated, in, nil
}

func (c *control) clearFaults(*http.Request, []string, []byte) (int, any, error) {
	c.sb.ClearFaults()
	return http.StatusOK, struct{}{}, nil
}

// deliveryFaultJSON is a delivery fault over HTTP: DeliveryFault with its
// delay in seconds.
type deliveryFaultJSON struct {
	Kind         DeliveryFaultKind `json:"kind"`
	Type         string            `json:"type,omitempty"`
	Event        string            `json:"event,omitempty"`
	Count        int               `json:"count,omitempty"`
	Fraction     float64           `json:"fraction,omitempty"`
	DelaySeconds float64           `json:"delay_seconds,omitempty"`
}

func (c *control) injectDeliveryFault(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in deliveryFaultJSON
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	f := DeliveryFault{Kind: in.Kind, Type: in.Type, Event: in.Event, Count: in.Count, Fraction: in.Fraction}
	if f.Delay, err = checkRule(present, f.Kind, f.Kind.Values(), DeliveryFaultDelay, in.Count, in.Fraction, in.DelaySeconds); err != nil {
		return 0, nil, err
	}
	if err := c.sb.InjectDeliveryFault(f); err != nil {
		return 0, nil, badField("", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusCreated, in, nil
}

func (c *control) clearDeliveryFaults(*http.Request, []string, []byte) (int, any, error) {
	c.sb.ClearDeliveryFaults()
	return http.StatusOK, struct{}{}, nil
}

func (c *control) reset(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in struct {
		SeedDemo bool `json:"seed_demo"`
	}
	if _, err := decodeStrict(body, &in); err != nil {
		return 0, nil, err
	}
	c.sb.Reset()
	out := struct {
		Demo *Demo `json:"demo,omitempty"`
	}{}
	if in.SeedDemo {
		demo, err := c.sb.SeedDemo()
		if err != nil {
			return 0, nil, err
		}
		out.Demo = &demo
	}
	return http.StatusOK, out, nil
}

func (c *control) load(_ *http.Request, _ []string, body []byte) (int, any, error) {
	f, err := LoadJSON(bytes.NewReader(body))
	if err == nil {
		f, err = c.sb.Load(f)
	}
	if err != nil {
		var le *LoadError
		field := ""
		if errors.As(err, &le) {
			field = le.Path
			var ce *controlError
			if errors.As(le.Err, &ce) {
				field = ce.field
			}
		}
		return 0, nil, badField(field, "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusCreated, f, nil
}

func (c *control) seedDemo(*http.Request, []string, []byte) (int, any, error) {
	demo, err := c.sb.SeedDemo()
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, demo, nil
}

// addFixture decodes body into a T and adds it with add.
func addFixture[T any](body []byte, add func(T) (T, error)) (int, any, error) {
	var in T
	if _, err := decodeStrict(body, &in); err != nil {
		return 0, nil, err
	}
	out, err := add(in)
	if err != nil {
		return 0, nil, fixtureRefusal(err)
	}
	return http.StatusCreated, out, nil
}

func (c *control) addOrganization(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddOrganization)
}

func (c *control) addCustomer(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddCustomer)
}

func (c *control) addBankAccount(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddBankAccount)
}

func (c *control) addWallet(_ *http.Request, _ []string, body []byte) (int, any, error) {
	status, v, err := addFixture(body, c.sb.AddWallet)
	var ce *controlError
	if errors.As(err, &ce) && ce.field == "status" {
		ce.field = "wallet_status"
	}
	return status, v, err
}

func (c *control) addQuotation(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddQuotation)
}

func (c *control) addRemitter(_ *http.Request, _ []string, body []byte) (int, any, error) {
	return addFixture(body, c.sb.AddRemitter)
}

// organizationOf returns the organization of the path's first parameter.
func (c *control) organizationOf(params []string) (Organization, error) {
	id, err := pathID("organization", params[0])
	if err != nil {
		return Organization{}, err
	}
	o, ok := c.sb.Organization(id)
	if !ok {
		return Organization{}, notFound("no organization %s", id)
	}
	return o, nil
}

// customerOf returns the customer of the path's first parameter.
func (c *control) customerOf(params []string) (Customer, error) {
	id, err := pathID("customer", params[0])
	if err != nil {
		return Customer{}, err
	}
	cu, ok := c.sb.Customer(id)
	if !ok {
		return Customer{}, notFound("no customer %s", id)
	}
	return cu, nil
}

func (c *control) organization(_ *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, o, nil
}

func (c *control) balances(_ *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	if o.Balances == nil {
		o.Balances = map[string]decimal.Decimal{}
	}
	return http.StatusOK, struct {
		Balances map[string]decimal.Decimal `json:"balances"`
	}{o.Balances}, nil
}

// balanceJSON is one asset's prefunded balance.
type balanceJSON struct {
	Asset  string          `json:"asset"`
	Amount decimal.Decimal `json:"amount"`
}

func (c *control) balance(_ *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	asset := strings.ToUpper(params[1])
	return http.StatusOK, balanceJSON{asset, c.sb.Balance(o.ID, asset)}, nil
}

func (c *control) setBalance(_ *http.Request, params []string, body []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	var in struct {
		Amount decimal.Decimal `json:"amount"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "amount"); err != nil {
		return 0, nil, err
	}
	asset := strings.ToUpper(params[1])
	if strings.TrimSpace(asset) == "" {
		return 0, nil, &controlError{http.StatusBadRequest, "", "the asset in the path is empty"}
	}
	if in.Amount.IsNegative() {
		return 0, nil, badField("amount", "amount %s is negative", in.Amount)
	}
	if err := c.sb.SetBalance(o.ID, asset, in.Amount); err != nil {
		return 0, nil, badField("amount", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusOK, balanceJSON{asset, c.sb.Balance(o.ID, asset)}, nil
}

func (c *control) setWebhookURL(_ *http.Request, params []string, body []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	var in struct {
		WebhookURL string `json:"webhook_url"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "webhook_url"); err != nil {
		return 0, nil, err
	}
	if err := c.sb.SetWebhookURL(o.ID, in.WebhookURL); err != nil {
		return 0, nil, badField("webhook_url", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	return http.StatusOK, in, nil
}

func (c *control) payouts(_ *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	ps := c.sb.Payouts(o.ID)
	if ps == nil {
		ps = []Payout{}
	}
	return http.StatusOK, struct {
		Payouts []Payout `json:"payouts"`
	}{ps}, nil
}

func (c *control) payoutByReference(r *http.Request, params []string, _ []byte) (int, any, error) {
	o, err := c.organizationOf(params)
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	refs, ok := q["client_reference_id"]
	if !ok || len(refs) != 1 {
		return 0, nil, badField("client_reference_id", "give the query parameter client_reference_id once")
	}
	p, ok := c.sb.PayoutByReference(o.ID, refs[0])
	if !ok {
		return 0, nil, notFound("organization %s has no payout with client_reference_id %q", o.ID, refs[0])
	}
	return http.StatusOK, p, nil
}

func (c *control) payout(_ *http.Request, params []string, _ []byte) (int, any, error) {
	id, err := pathID("payout", params[0])
	if err != nil {
		return 0, nil, err
	}
	p, ok := c.sb.Payout(id)
	if !ok {
		return 0, nil, notFound("no payout %s", id)
	}
	return http.StatusOK, p, nil
}

func (c *control) customer(_ *http.Request, params []string, _ []byte) (int, any, error) {
	cu, err := c.customerOf(params)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, cu, nil
}

func (c *control) setKYCStatus(_ *http.Request, params []string, body []byte) (int, any, error) {
	cu, err := c.customerOf(params)
	if err != nil {
		return 0, nil, err
	}
	var in struct {
		KYCStatus types.KYCStatus `json:"kyc_status"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "kyc_status"); err != nil {
		return 0, nil, err
	}
	if !in.KYCStatus.IsKnown() {
		return 0, nil, badField("kyc_status", "kyc_status %q: want one of %v", in.KYCStatus, in.KYCStatus.Values())
	}
	if err := c.sb.SetKYCStatus(cu.ID, in.KYCStatus); err != nil {
		return 0, nil, badField("kyc_status", "%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	cu, _ = c.sb.Customer(cu.ID)
	return http.StatusOK, cu, nil
}

func (c *control) setCustomerFlags(_ *http.Request, params []string, body []byte) (int, any, error) {
	cu, err := c.customerOf(params)
	if err != nil {
		return 0, nil, err
	}
	var in CustomerFlags
	if _, err := decodeStrict(body, &in); err != nil {
		return 0, nil, err
	}
	if err := c.sb.SetCustomerFlags(cu.ID, in); err != nil {
		return 0, nil, notFound("%s", strings.TrimPrefix(err.Error(), "sandbox: "))
	}
	cu, _ = c.sb.Customer(cu.ID)
	return http.StatusOK, cu, nil
}

// deliveryJSON is a Delivery with its body as the JSON object it is.
type deliveryJSON struct {
	Delivery
	Body json.RawMessage `json:"body"`
}

func (c *control) deliveriesLog(*http.Request, []string, []byte) (int, any, error) {
	log := c.sb.Deliveries()
	out := make([]deliveryJSON, len(log))
	for i, d := range log {
		out[i] = deliveryJSON{Delivery: d, Body: d.Body}
	}
	return http.StatusOK, struct {
		Deliveries []deliveryJSON `json:"deliveries"`
	}{out}, nil
}

func (c *control) waitDeliveries(r *http.Request, _ []string, body []byte) (int, any, error) {
	var in struct {
		TimeoutSeconds float64 `json:"timeout_seconds"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "timeout_seconds"); err != nil {
		return 0, nil, err
	}
	d, err := seconds("timeout_seconds", in.TimeoutSeconds, false)
	if err != nil || d <= 0 || d > c.maxWait {
		return 0, nil, badField("timeout_seconds", "timeout_seconds %v: want more than 0 and at most %v seconds",
			in.TimeoutSeconds, c.maxWait.Seconds())
	}
	ctx, cancel := context.WithTimeout(r.Context(), d)
	defer cancel()
	if err := c.sb.WaitDeliveries(ctx); err != nil {
		return 0, nil, &controlError{http.StatusGatewayTimeout, "", fmt.Sprintf("deliveries still pending after %v", d)}
	}
	return http.StatusOK, struct {
		Pending int `json:"pending"`
	}{0}, nil
}

func (c *control) stats(*http.Request, []string, []byte) (int, any, error) {
	st := c.sb.Stats()
	faults := map[FaultKind]int{}
	for _, k := range FaultKind("").Values() {
		faults[k] = st.Faults[k]
	}
	return http.StatusOK, struct {
		Requests int               `json:"requests"`
		Faults   map[FaultKind]int `json:"faults"`
	}{st.Requests, faults}, nil
}

// settingsJSON is Settings over HTTP: durations in seconds, amounts as
// decimal strings (WebhookClient, a Go value, is left out).
type settingsJSON struct {
	TimestampWindowSeconds         float64                    `json:"timestamp_window_seconds"`
	MinPayinAmount                 decimal.Decimal            `json:"min_payin_amount"`
	MaxIMPSAmount                  decimal.Decimal            `json:"max_imps_amount"`
	MaxUPIAmount                   decimal.Decimal            `json:"max_upi_amount"`
	DailyOnrampLimit               decimal.Decimal            `json:"daily_onramp_limit"`
	PayinQuotationValiditySeconds  float64                    `json:"payin_quotation_validity_seconds"`
	PayoutQuotationValiditySeconds float64                    `json:"payout_quotation_validity_seconds"`
	PageSize                       int                        `json:"page_size"`
	RemittancePayoutPath           string                     `json:"remittance_payout_path"`
	Rates                          map[string]decimal.Decimal `json:"rates"`
	PayinServiceFee                decimal.Decimal            `json:"payin_service_fee"`
	PayinGSTRate                   decimal.Decimal            `json:"payin_gst_rate"`
	DepositAccount                 DepositAccount             `json:"deposit_account"`
	RetryAfterSeconds              float64                    `json:"retry_after_seconds"`
	Seed                           uint64                     `json:"seed"`
	PublicURL                      string                     `json:"public_url"`
	WebhookTimeoutSeconds          float64                    `json:"webhook_timeout_seconds"`
	WebhookMaxAttempts             int                        `json:"webhook_max_attempts"`
	WebhookInitialBackoffSeconds   float64                    `json:"webhook_initial_backoff_seconds"`
	WebhookMaxBackoffSeconds       float64                    `json:"webhook_max_backoff_seconds"`
	WebhookWorkers                 int                        `json:"webhook_workers"`
}

func (c *control) settings(*http.Request, []string, []byte) (int, any, error) {
	st := c.sb.Settings()
	return http.StatusOK, settingsJSON{
		TimestampWindowSeconds: st.TimestampWindow.Seconds(),
		MinPayinAmount:         st.MinPayinAmount, MaxIMPSAmount: st.MaxIMPSAmount, MaxUPIAmount: st.MaxUPIAmount,
		DailyOnrampLimit:               st.DailyOnrampLimit,
		PayinQuotationValiditySeconds:  st.PayinQuotationValidity.Seconds(),
		PayoutQuotationValiditySeconds: st.PayoutQuotationValidity.Seconds(),
		PageSize:                       st.PageSize, RemittancePayoutPath: st.RemittancePayoutPath,
		Rates: st.Rates, PayinServiceFee: st.PayinServiceFee, PayinGSTRate: st.PayinGSTRate,
		DepositAccount: st.DepositAccount, RetryAfterSeconds: st.RetryAfter.Seconds(),
		Seed: st.Seed, PublicURL: st.PublicURL,
		WebhookTimeoutSeconds:        st.WebhookTimeout.Seconds(),
		WebhookMaxAttempts:           st.WebhookMaxAttempts,
		WebhookInitialBackoffSeconds: st.WebhookInitialBackoff.Seconds(),
		WebhookMaxBackoffSeconds:     st.WebhookMaxBackoff.Seconds(),
		WebhookWorkers:               st.WebhookWorkers,
	}, nil
}
