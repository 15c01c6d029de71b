package sandbox

// The control plane: the Go fixture, fault, clock and state methods of a
// Sandbox over HTTP, for tests written in any language. This file holds
// its server (the admin token, the table of control operations, answering
// a request); the strict decoder of request bodies is control_decode.go,
// and the handlers are grouped in control_clock.go, control_faults.go,
// control_fixtures.go and control_state.go.

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
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
	c := &control{sb: sb, next: next, digest: sha256.Sum256([]byte(token)), ops: controlOps(), maxWait: maxWaitSeconds * time.Second}
	if writeTimeout > 0 {
		c.maxWait = min(c.maxWait, writeTimeout-time.Second)
	}
	for _, op := range c.ops {
		c.routes = append(c.routes, route{method: op.method, pattern: splitPath(op.path)})
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
		{method: "PUT", path: p + "/payouts/{}/status", goAPI: "Sandbox.SetPayoutStatus", serve: (*control).setPayoutStatus},
		{method: "POST", path: p + "/customers", goAPI: "Sandbox.AddCustomer", serve: (*control).addCustomer},
		{method: "GET", path: p + "/customers/{}", goAPI: "Sandbox.Customer", serve: (*control).customer},
		{method: "PUT", path: p + "/customers/{}/kyc-status", goAPI: "Sandbox.SetKYCStatus", serve: (*control).setKYCStatus},
		{method: "PUT", path: p + "/customers/{}/flags", goAPI: "Sandbox.SetCustomerFlags", serve: (*control).setCustomerFlags},
		{method: "POST", path: p + "/bank-accounts", goAPI: "Sandbox.AddBankAccount", serve: (*control).addBankAccount},
		{method: "POST", path: p + "/wallets", goAPI: "Sandbox.AddWallet", serve: (*control).addWallet},
		{method: "POST", path: p + "/quotations", goAPI: "Sandbox.AddQuotation", serve: (*control).addQuotation},
		{method: "POST", path: p + "/remitters", goAPI: "Sandbox.AddRemitter", serve: (*control).addRemitter},
		{method: "GET", path: p + "/deliveries", goAPI: "Sandbox.DeliveryLog, Sandbox.Deliveries, Sandbox.DeliveryCounts", serve: (*control).deliveriesLog},
		{method: "POST", path: p + "/deliveries/wait", goAPI: "Sandbox.WaitDeliveries", serve: (*control).waitDeliveries},
		{method: "POST", path: p + "/deliveries/deliver-due", goAPI: "Sandbox.DeliverDue, Sandbox.NextDeliveryDue", serve: (*control).deliverDue},
		{method: "GET", path: p + "/stats", goAPI: "Sandbox.Stats", serve: (*control).stats},
		{method: "GET", path: p + "/settings", goAPI: "Sandbox.Settings", serve: (*control).settings},
		// Configuration, rates, limits and EDD.
		{method: "GET", path: p + "/customers/{}/edds", goAPI: "Sandbox.EDDs", serve: (*control).edds},
		{method: "PUT", path: p + "/edds/{}/status", goAPI: "Sandbox.SetEDDStatus", serve: (*control).setEDDStatus},
		{method: "GET", path: p + "/organizations/{}/widget-sessions", goAPI: "Sandbox.WidgetSessions", serve: (*control).widgetSessions},
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
