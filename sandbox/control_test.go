package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// ctlEnv is an env whose server also serves the control plane.
type ctlEnv struct {
	*env
	token string
}

func newCtlEnv(t *testing.T, opts ...sandbox.Option) *ctlEnv {
	t.Helper()
	e := newEnv(t, opts...)
	srv, err := sandbox.NewServer(e.sb, sandbox.WithControl(""))
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	e.srv = srv
	e.client = e.clientFor(e.org)
	return &ctlEnv{env: e, token: srv.ControlToken()}
}

// ctlAnswer is one answer of the control plane.
type ctlAnswer struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the answer into a generic value.
func (a ctlAnswer) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(a.body, &m), "body %s", a.body)
	return m
}

func (a ctlAnswer) String() string { return fmt.Sprintf("%d %s", a.status, a.body) }

// call sends one control request with the env's token.
func (e *ctlEnv) call(method, path, body string) ctlAnswer {
	e.t.Helper()
	return ctlRequest(e.t, e.srv.URL, e.token, method, path, body)
}

func ctlRequest(t testing.TB, base, tok, method, path, body string) ctlAnswer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	require.NoError(t, err)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return ctlAnswer{resp.StatusCode, resp.Header, b}
}

// ok asserts status want and returns the decoded body.
func (e *ctlEnv) ok(want int, method, path, body string) map[string]any {
	e.t.Helper()
	a := e.call(method, path, body)
	require.Equal(e.t, want, a.status, "%s %s: %s", method, path, a)
	assert.Equal(e.t, "application/json", a.header.Get("Content-Type"))
	return a.json(e.t.(*testing.T))
}

func TestControlOffByDefault(t *testing.T) {
	e := newEnv(t)
	assert.Empty(t, e.srv.ControlToken())
	a := ctlRequest(t, e.srv.URL, "anything-at-all-here", "GET", "/_sandbox/clock", "")
	assert.Equal(t, http.StatusNotFound, a.status)
	assert.JSONEq(t, `{"status":false,"message":"Not found.","data":null}`, string(a.body), "the service's own 404")
}

func TestControlToken(t *testing.T) {
	e := newCtlEnv(t)
	assert.Regexp(t, `^sbx_admin_[0-9a-f]{48}$`, e.token)
	assert.NotEqual(t, e.org.APISecret, e.token)

	other, err := sandbox.NewServer(sandbox.New(), sandbox.WithControl(""))
	require.NoError(t, err)
	defer other.Close()
	assert.NotEqual(t, e.token, other.ControlToken(), "generated afresh")

	for name, header := range map[string]string{
		"none":           "",
		"no scheme":      e.token,
		"other scheme":   "Basic " + e.token,
		"prefix only":    "Bearer " + e.token[:len(e.token)-1],
		"longer":         "Bearer " + e.token + "x",
		"lower-case":     "bearer " + e.token,
		"org secret":     "Bearer " + e.org.APISecret,
		"empty token":    "Bearer ",
		"token with tab": "Bearer\t" + e.token,
	} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", e.srv.URL+"/_sandbox/reset", nil)
			if header != "" {
				req.Header.Set("Authorization", header)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			assert.Contains(t, resp.Header.Get("WWW-Authenticate"), "Bearer")
			assert.Contains(t, string(b), `"error":"missing or wrong admin token`)
		})
	}
	_, ok := e.sb.Organization(e.org.ID)
	assert.True(t, ok, "no refused reset ran")

	short, err := sandbox.NewServer(sandbox.New(), sandbox.WithControl("a-fixed-token-of-some-length"),
		func(s *sandbox.ServerSettings) { s.WriteTimeout = 5 * time.Second })
	require.NoError(t, err)
	defer short.Close()
	a := ctlRequest(t, short.URL, short.ControlToken(), "POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":4.5}`)
	assert.Equal(t, 400, a.status, "a wait the write timeout would cut off: %s", a)
	assert.Contains(t, string(a.body), "at most 4 ")

	fixed, err := sandbox.NewServer(sandbox.New(), sandbox.WithControl("a-fixed-token-of-some-length"))
	require.NoError(t, err)
	defer fixed.Close()
	assert.Equal(t, "a-fixed-token-of-some-length", fixed.ControlToken())
	assert.Equal(t, 200, ctlRequest(t, fixed.URL, "a-fixed-token-of-some-length", "GET", "/_sandbox/clock", "").status)

	_, err = sandbox.NewServer(e.sb, sandbox.WithControl(e.org.APISecret))
	require.Error(t, err, "an organization's secret is no admin token")
	assert.NotContains(t, err.Error(), e.org.APISecret)

	for _, bad := range []string{"short", "has a space in it, long", "tab\tin-the-token-here"} {
		_, err := sandbox.NewServer(sandbox.New(), sandbox.WithControl(bad))
		assert.Error(t, err, "%q", bad)
		if err != nil {
			assert.NotContains(t, err.Error(), bad, "the error does not repeat the token")
		}
	}
}

// notOverHTTP are the exported functions and methods of package sandbox
// the control plane does not serve, and why.
var notOverHTTP = map[string]string{
	"New":                      "construction: the flags of `fiatramp sandbox` set the settings",
	"DefaultSettings":          "read the running values with GET /_sandbox/settings",
	"DefaultServerSettings":    "server flags of `fiatramp sandbox`",
	"Listen":                   "`fiatramp sandbox` is the listening server",
	"NewServer":                "`fiatramp sandbox` is the listening server",
	"WithControl":              "`fiatramp sandbox -control`",
	"Sandbox.ServeHTTP":        "the service itself, served beside the control plane",
	"Sandbox.Close":            "stops deliveries for good: stop the process instead",
	"Server.Client":            "a Go client; other languages sign themselves",
	"Server.Close":             "stop the process (SIGINT or SIGTERM)",
	"Server.Sandbox":           "Go access to the served sandbox: the control plane is that access",
	"Server.ControlToken":      "printed by `fiatramp sandbox -control` at start",
	"LoadError.Error":          "the message of a refused POST /_sandbox/fixtures",
	"LoadError.Unwrap":         "Go error chain",
	"FaultKind.Values":         "listed in the 400 of an unknown kind",
	"DeliveryFaultKind.Values": "listed in the 400 of an unknown kind",
}

// TestControlCoversTheGoAPI reads package sandbox's exported functions and
// methods from its source (what go doc -all shows) and requires each to
// be served by a control operation or listed, with a reason, in
// notOverHTTP; and every name an operation claims to exist.
func TestControlCoversTheGoAPI(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	require.NoError(t, err)
	files := []*ast.File{}
	for _, f := range pkgs["sandbox"].Files {
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/fiatramp/fiatramp-go/sandbox")
	require.NoError(t, err)
	api := map[string]bool{}
	for _, f := range p.Funcs {
		api[f.Name] = true
	}
	for _, ty := range p.Types {
		for _, f := range ty.Funcs {
			api[f.Name] = true
		}
		for _, m := range ty.Methods {
			api[ty.Name+"."+m.Name] = true
		}
	}
	require.Contains(t, api, "Sandbox.InjectFault", "the parse found the API")

	e := newCtlEnv(t)
	ops := e.ok(200, "GET", "/_sandbox", "")["operations"].([]any)
	served := map[string]bool{}
	name := regexp.MustCompile(`[A-Z][A-Za-z]*(\.[A-Z][A-Za-z]*)?`)
	for _, o := range ops {
		op := o.(map[string]any)
		for _, n := range name.FindAllString(op["go_api"].(string), -1) {
			assert.True(t, api[n], "operation %v %v names %s, which package sandbox does not have", op["method"], op["path"], n)
			served[n] = true
		}
	}
	for n := range api {
		_, excused := notOverHTTP[n]
		assert.True(t, served[n] || excused, "%s is neither served by the control plane nor listed in notOverHTTP", n)
		assert.False(t, served[n] && excused, "%s is served and also listed as not served", n)
	}
}

func TestControlClock(t *testing.T) {
	e := newCtlEnv(t)
	m := e.ok(200, "GET", "/_sandbox/clock", "")
	assert.Equal(t, epoch.Format(time.RFC3339Nano), m["now"])
	assert.EqualValues(t, epoch.Unix(), m["unix"])

	m = e.ok(200, "PUT", "/_sandbox/clock", `{"time":"2030-01-02T03:04:05.5+01:00"}`)
	want := time.Date(2030, 1, 2, 2, 4, 5, 5e8, time.UTC)
	assert.True(t, e.sb.Now().Equal(want), "sandbox clock %v", e.sb.Now())
	assert.Equal(t, "2030-01-02T03:04:05.5+01:00", m["now"])

	e.ok(200, "POST", "/_sandbox/clock/advance", `{"seconds":3600.25}`)
	assert.True(t, e.sb.Now().Equal(want.Add(time.Hour+250*time.Millisecond)))
	e.ok(200, "POST", "/_sandbox/clock/advance", `{"seconds":-60}`)
	assert.True(t, e.sb.Now().Equal(want.Add(time.Hour+250*time.Millisecond-time.Minute)), "backwards")

	// The clock moved: a client signing on the real clock is now outside
	// the window, one on the sandbox's is not.
	_, err := e.client.KYC.GetConfiguration(context.Background(), e.cust.ID)
	require.NoError(t, err)
}

func TestControlRequestFaultsEveryKind(t *testing.T) {
	e := newCtlEnv(t)
	plain := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for _, k := range sandbox.FaultKind("").Values() {
		body := fmt.Sprintf(`{"kind":%q,"method":"GET","path":"/pos/api/v1/payout/*","count":1}`, k)
		if k == sandbox.FaultDelay {
			body = fmt.Sprintf(`{"kind":%q,"path":"/pos/api/v1/payout/balance","count":1,"delay_seconds":0.01}`, k)
		}
		if k == sandbox.FaultRateLimit {
			body = fmt.Sprintf(`{"kind":%q,"path":"/pos/api/v1/payout/balance","count":1,"retry_after_seconds":7}`, k)
		}
		got := e.ok(201, "POST", "/_sandbox/faults", body)
		assert.Equal(t, string(k), got["kind"])
		before := e.sb.Stats().Faults[k]
		resp, err := plain.Get(e.srv.URL + "/pos/api/v1/payout/balance")
		if err == nil {
			if k == sandbox.FaultRateLimit {
				assert.Equal(t, 429, resp.StatusCode)
				assert.Equal(t, "7", resp.Header.Get("Retry-After"))
			}
			resp.Body.Close()
		}
		assert.Equal(t, before+1, e.sb.Stats().Faults[k], "kind %s reached the sandbox", k)
		stats := e.ok(200, "GET", "/_sandbox/stats", "")
		assert.EqualValues(t, before+1, stats["faults"].(map[string]any)[string(k)])
	}

	// A fault for every path spares the control plane, which the
	// request count does not count either.
	e.ok(201, "POST", "/_sandbox/faults", `{"kind":"drop_before"}`)
	requests := e.sb.Stats().Requests
	e.ok(200, "GET", "/_sandbox/stats", "")
	assert.Equal(t, requests, e.sb.Stats().Requests)
	e.ok(200, "DELETE", "/_sandbox/faults", "")

	e.ok(201, "POST", "/_sandbox/faults", `{"kind":"unavailable"}`)
	_, err := e.client.Payouts.Balance(context.Background())
	require.ErrorIs(t, err, fiatramp.ErrUnavailable)
	e.ok(200, "DELETE", "/_sandbox/faults", "")
	_, err = e.client.Payouts.Balance(context.Background())
	require.NoError(t, err, "cleared")
}

func TestControlDeliveryFaultsEveryKind(t *testing.T) {
	e := newCtlEnv(t)
	var posts atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer recv.Close()
	e.ok(200, "PUT", "/_sandbox/organizations/"+e.org.ID.String()+"/webhook-url", fmt.Sprintf(`{"webhook_url":%q}`, recv.URL))
	org, _ := e.sb.Organization(e.org.ID)
	require.Equal(t, recv.URL, org.WebhookURL)

	ctx := context.Background()
	for i, k := range sandbox.DeliveryFaultKind("").Values() {
		body := fmt.Sprintf(`{"kind":%q,"type":"CUSTOMER","event":"VERIFIED","count":1}`, k)
		if k == sandbox.DeliveryFaultDelay {
			body = fmt.Sprintf(`{"kind":%q,"count":1,"delay_seconds":0.01}`, k)
		}
		e.ok(201, "POST", "/_sandbox/delivery-faults", body)
		cu := e.ok(201, "POST", "/_sandbox/customers", fmt.Sprintf(`{"organization_id":%q,"name":"c%d","kyc_status":"PROCESSING"}`, e.org.ID, i))
		id := uuid.MustParse(cu["id"].(string))
		_, err := e.client.KYC.SimulateStatus(ctx, id, types.KYCVerified)
		require.NoError(t, err)
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		require.NoError(t, e.sb.WaitDeliveries(wctx))
		cancel()
		log := e.sb.Deliveries()
		assert.Equal(t, k, log[len(log)-1].Fault, "kind %s reached the deliveries", k)
	}

	e.ok(201, "POST", "/_sandbox/delivery-faults", `{"kind":"drop"}`)
	e.ok(200, "DELETE", "/_sandbox/delivery-faults", "")
	_, err := e.client.KYC.SimulateStatus(ctx, e.must(e.sb.AddCustomer(sandbox.Customer{
		OrganizationID: e.org.ID, KYCStatus: types.KYCProcessing})).(sandbox.Customer).ID, types.KYCVerified)
	require.NoError(t, err)
	w := e.ok(200, "POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":10}`)
	assert.EqualValues(t, 0, w["pending"])

	deliveries := e.ok(200, "GET", "/_sandbox/deliveries", "")["deliveries"].([]any)
	require.Len(t, deliveries, 5)
	last := deliveries[4].(map[string]any)
	assert.Equal(t, "delivered", last["state"])
	assert.Nil(t, last["fault"], "cleared: no fault")
	body := last["body"].(map[string]any)
	assert.Equal(t, "CUSTOMER", body["type"], "the body is the JSON object sent, not Base64")
	assert.Equal(t, "VERIFIED", body["event"])
	assert.Equal(t, e.sb.Deliveries()[4].Seq, int(last["seq"].(float64)))
}

func TestControlFixturesAndState(t *testing.T) {
	e := newCtlEnv(t)
	doc, err := os.ReadFile("testdata/fixtures.json")
	if err != nil {
		doc = []byte(`{"organizations":[{"name":"Acme","prefunded":true,"balances":{"USDT":"250"},
			"customers":[{"name":"Asha","bank_accounts":[{"account_number":"1","ifsc":"SBIN0001234","quotations":[{"sending_amount":"10","rate":"88.25"}]}]}]}]}`)
	}
	loaded := e.ok(201, "POST", "/_sandbox/fixtures", string(doc))
	orgs := loaded["organizations"].([]any)
	require.NotEmpty(t, orgs)
	orgID := uuid.MustParse(orgs[0].(map[string]any)["id"].(string))
	_, ok := e.sb.Organization(orgID)
	assert.True(t, ok, "loaded into the sandbox")

	// Every fixture method, one by one.
	o := e.ok(201, "POST", "/_sandbox/organizations", `{"name":"Beta","prefunded":true,"balances":{"usdt":"5.50"}}`)
	oid := o["id"].(string)
	assert.Equal(t, "5.5", e.sb.Balance(uuid.MustParse(oid), "USDT").String())
	c := e.ok(201, "POST", "/_sandbox/customers", fmt.Sprintf(`{"organization_id":%q,"name":"Ravi","kyc_status":"PROCESSING"}`, oid))
	cid := c["id"].(string)
	b := e.ok(201, "POST", "/_sandbox/bank-accounts", fmt.Sprintf(`{"customer_id":%q,"account_number":"42","ifsc":"HDFC0000001"}`, cid))
	e.ok(201, "POST", "/_sandbox/wallets", fmt.Sprintf(`{"customer_id":%q,"wallet_address":"TXYZ"}`, cid))
	q := e.ok(201, "POST", "/_sandbox/quotations", fmt.Sprintf(`{"customer_id":%q,"bank_id":%q,"sending_amount":"10","rate":"88.25","expires_at":"2099-01-01T00:00:00Z"}`, cid, b["id"]))
	assert.Equal(t, "882.5", q["receiving_amount"])
	r := e.ok(201, "POST", "/_sandbox/remitters", fmt.Sprintf(`{"organization_id":%q,"name":"Remit"}`, oid))
	assert.Equal(t, oid, r["organization_id"])

	// Balances.
	e.ok(200, "PUT", "/_sandbox/organizations/"+oid+"/balances/usdc", `{"amount":"12.345"}`)
	assert.Equal(t, "12.345", e.sb.Balance(uuid.MustParse(oid), "USDC").String())
	one := e.ok(200, "GET", "/_sandbox/organizations/"+oid+"/balances/USDC", "")
	assert.Equal(t, map[string]any{"asset": "USDC", "amount": "12.345"}, one)
	all := e.ok(200, "GET", "/_sandbox/organizations/"+oid+"/balances", "")
	assert.Equal(t, map[string]any{"balances": map[string]any{"USDT": "5.5", "USDC": "12.345"}}, all)
	org := e.ok(200, "GET", "/_sandbox/organizations/"+oid, "")
	assert.Equal(t, "Beta", org["name"])

	// Customers: KYC status and flags.
	e.ok(200, "PUT", "/_sandbox/customers/"+cid+"/kyc-status", `{"kyc_status":"FAILED"}`)
	cu, _ := e.sb.Customer(uuid.MustParse(cid))
	assert.Equal(t, types.KYCFailed, cu.KYCStatus)
	e.ok(200, "PUT", "/_sandbox/customers/"+cid+"/flags", `{"aml_failed":true,"edd_required":true}`)
	cu, _ = e.sb.Customer(uuid.MustParse(cid))
	assert.Equal(t, sandbox.CustomerFlags{AMLFailed: true, EDDRequired: true}, cu.CustomerFlags)
	got := e.ok(200, "GET", "/_sandbox/customers/"+cid, "")
	assert.Equal(t, "FAILED", got["kyc_status"])
	assert.Equal(t, true, got["aml_failed"])

	// Payouts: made through the service, read through the control plane.
	demo := e.ok(201, "POST", "/_sandbox/demo", "")
	var d sandbox.Demo
	raw, _ := json.Marshal(demo)
	require.NoError(t, json.Unmarshal(raw, &d))
	cl := e.clientFor(d.Organization)
	ref := "order/1 with space"
	p, err := cl.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: d.Quotations[0].ID, CustomerID: d.Customer.ID, ClientReferenceID: ref, ExchangeOrderID: "ex-1"})
	require.NoError(t, err)
	list := e.ok(200, "GET", "/_sandbox/organizations/"+d.Organization.ID.String()+"/payouts", "")["payouts"].([]any)
	require.Len(t, list, 1)
	assert.Equal(t, p.ID.String(), list[0].(map[string]any)["id"])
	byRef := e.ok(200, "GET", "/_sandbox/organizations/"+d.Organization.ID.String()+"/payouts/by-reference?client_reference_id=order%2F1+with+space", "")
	assert.Equal(t, p.ID.String(), byRef["id"])
	one = e.ok(200, "GET", "/_sandbox/payouts/"+p.ID.String(), "")
	assert.Equal(t, "PROCESSING", one["status"])
	assert.Equal(t, "10", one["sending_amount"], "decimals as exact strings")
	empty := e.ok(200, "GET", "/_sandbox/organizations/"+oid+"/payouts", "")
	assert.Equal(t, map[string]any{"payouts": []any{}}, empty, "an empty list, not null")

	a := e.call("GET", "/_sandbox/organizations/"+d.Organization.ID.String()+"/payouts/by-reference?client_reference_id=nope", "")
	assert.Equal(t, 404, a.status, "%s", a)
	a = e.call("GET", "/_sandbox/payouts/"+uuid.NewString(), "")
	assert.Equal(t, 404, a.status, "%s", a)

	st := e.ok(200, "GET", "/_sandbox/settings", "")
	assert.EqualValues(t, 300, st["timestamp_window_seconds"])
	assert.Equal(t, "2500", st["min_payin_amount"])

	// Reset: nothing left, the clock back to real time, a new demo on
	// request.
	res := e.ok(200, "POST", "/_sandbox/reset", `{"seed_demo":true}`)
	_, ok = e.sb.Organization(e.org.ID)
	assert.False(t, ok, "reset removed the organizations")
	assert.Empty(t, e.sb.Payouts(d.Organization.ID))
	assert.Empty(t, e.sb.Deliveries())
	assert.WithinDuration(t, time.Now(), e.sb.Now(), time.Minute, "the clock runs with real time again")
	newDemo := res["demo"].(map[string]any)["organization"].(map[string]any)
	_, ok = e.sb.Organization(uuid.MustParse(newDemo["id"].(string)))
	assert.True(t, ok)
	_, err = e.client.KYC.GetConfiguration(context.Background(), e.cust.ID)
	assert.ErrorIs(t, err, fiatramp.ErrUnauthorized, "the old keys are gone")
}

// TestControlResetWhileDelivering resets while deliveries are delayed and
// being attempted: the log starts over, and the attempts under way, once
// answered, neither reappear in it nor are retried.
func TestControlResetWhileDelivering(t *testing.T) {
	// Retries at once: an attempt from before the reset that was retried
	// would show within the test.
	e := newCtlEnv(t, func(s *sandbox.Settings) { s.WebhookInitialBackoff = time.Millisecond })
	release := make(chan struct{})
	var arrived, answered atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusInternalServerError) // would be retried
		answered.Add(1)
	}))
	defer recv.Close()
	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, recv.URL))
	e.ok(201, "POST", "/_sandbox/delivery-faults", `{"kind":"delay","type":"CUSTOMER","count":1,"delay_seconds":30}`)
	for i := range 3 {
		c := e.customer(e.org, sandbox.Customer{Name: fmt.Sprint(i), KYCStatus: types.KYCProcessing})
		_, err := e.client.KYC.SimulateStatus(context.Background(), c.ID, types.KYCVerified)
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool { return arrived.Load() == 2 }, 10*time.Second, time.Millisecond,
		"two attempts under way, one delayed")
	a := e.call("POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":0.05}`)
	assert.Equal(t, http.StatusGatewayTimeout, a.status, "%s", a)
	assert.Contains(t, a.json(t)["error"], "deliveries still pending")

	e.ok(200, "POST", "/_sandbox/reset", "")
	assert.Empty(t, e.sb.Deliveries())
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	require.NoError(t, e.sb.WaitDeliveries(ctx), "nothing pending after a reset")

	demo := e.must(e.sb.SeedDemo()).(sandbox.Demo)
	cl := e.clientFor(demo.Organization)
	_, err := cl.KYC.SimulateStatus(context.Background(), demo.PendingCustomer.ID, types.KYCVerified)
	require.NoError(t, err)

	close(release)
	require.Eventually(t, func() bool { return answered.Load() == 2 }, 10*time.Second, time.Millisecond)
	time.Sleep(50 * time.Millisecond) // the attempts' ends, and any retry they would schedule
	log := e.sb.Deliveries()
	require.Len(t, log, 1, "only the event after the reset")
	assert.Equal(t, 1, log[0].Seq)
	assert.Equal(t, demo.PendingCustomer.ID.String(), log[0].ID)
	assert.Equal(t, sandbox.DeliveryNoURL, log[0].State)
	assert.Empty(t, log[0].Attempts)
	assert.EqualValues(t, 2, arrived.Load(), "no retry of an attempt from before the reset")
}

func TestControlRefusals(t *testing.T) {
	e := newCtlEnv(t)
	oid := e.org.ID.String()
	cid := e.cust.ID.String()
	for _, tc := range []struct {
		method, path, body string
		status             int
		field, says        string
	}{
		{"POST", "/_sandbox/faults", `{}`, 400, "kind", "kind is required"},
		{"POST", "/_sandbox/faults", `{"Kind":"rate_limit"}`, 400, "Kind", `names are case-sensitive: "kind"`},
		{"POST", "/_sandbox/faults", `{"kind":"teapot"}`, 400, "kind", "want one of [rate_limit"},
		{"POST", "/_sandbox/faults", `{"kind":"delay"}`, 400, "delay_seconds", "positive delay_seconds"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","delay_seconds":1}`, 400, "delay_seconds", "only a delay fault"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","retry_after_seconds":1}`, 400, "retry_after_seconds", "only a rate_limit fault"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","count":-1}`, 400, "count", "negative"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","count":1.5}`, 400, "count", "cannot read a JSON number"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","fraction":2}`, 400, "fraction", "outside 0..1"},
		{"POST", "/_sandbox/faults", `{"kind":"delay","delay_seconds":1e300}`, 400, "delay_seconds", "within"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable","method":7}`, 400, "method", "cannot read"},
		{"POST", "/_sandbox/faults", `[]`, 400, "", "one JSON object"},
		{"POST", "/_sandbox/faults", `{"kind":"unavailable"} {}`, 400, "", "one JSON object"},
		{"POST", "/_sandbox/delivery-faults", `{"kind":"drop","path":"/x"}`, 400, "path", "unknown field"},
		{"POST", "/_sandbox/delivery-faults", `{"kind":"delay"}`, 400, "delay_seconds", "positive"},
		{"POST", "/_sandbox/delivery-faults", `{"kind":"explode"}`, 400, "kind", "bad_signature"},
		{"PUT", "/_sandbox/clock", `{"time":"yesterday"}`, 400, "time", "RFC 3339"},
		{"PUT", "/_sandbox/clock", `{}`, 400, "time", "required"},
		{"POST", "/_sandbox/clock/advance", `{"seconds":"60"}`, 400, "seconds", "cannot read a JSON string"},
		{"POST", "/_sandbox/clock/advance", `{}`, 400, "seconds", "required"},
		{"POST", "/_sandbox/customers", `{"name":"x"}`, 400, "organization_id", "no organization"},
		{"POST", "/_sandbox/customers", fmt.Sprintf(`{"organization_id":%q,"kyc_status":"MAYBE"}`, oid), 400, "kyc_status", "unknown KYC status"},
		{"POST", "/_sandbox/customers", fmt.Sprintf(`{"organization_id":%q,"onramp_disabled":"yes"}`, oid), 400, "onramp_disabled", "cannot read"},
		{"POST", "/_sandbox/organizations", `{"api_key":"` + e.org.APIKey + `"}`, 400, "api_key", "already in use"},
		{"POST", "/_sandbox/organizations", `{"balances":{"USDT":"-1"}}`, 400, "balances", "negative"},
		{"POST", "/_sandbox/organizations", `{"webhook_url":"ftp://x"}`, 400, "webhook_url", "valid URL"},
		{"POST", "/_sandbox/bank-accounts", fmt.Sprintf(`{"customer_id":%q,"type":"cheque"}`, cid), 400, "type", "neither"},
		{"POST", "/_sandbox/wallets", fmt.Sprintf(`{"customer_id":%q}`, cid), 400, "wallet_address", "empty"},
		{"POST", "/_sandbox/wallets", fmt.Sprintf(`{"customer_id":%q,"wallet_address":"T","wallet_status":"GONE"}`, cid), 400, "wallet_status", "unknown status"},
		{"POST", "/_sandbox/quotations", fmt.Sprintf(`{"customer_id":%q,"sending_amount":"0"}`, cid), 400, "sending_amount", "not positive"},
		{"POST", "/_sandbox/quotations", fmt.Sprintf(`{"customer_id":%q,"sending_amount":"1","expires_at":"soon"}`, cid), 400, "expires_at", "soon"},
		{"POST", "/_sandbox/quotations", fmt.Sprintf(`{"customer_id":%q,"sending_amount":"1","fees":{"Service_Fee":"1"}}`, cid), 400, "fees.Service_Fee", `fees: unknown field "Service_Fee" (names are case-sensitive: "service_fee")`},
		{"POST", "/_sandbox/remitters", `{}`, 400, "organization_id", "no organization"},
		{"PUT", "/_sandbox/organizations/" + oid + "/balances/USDT", `{"amount":"-2"}`, 400, "amount", "negative"},
		{"PUT", "/_sandbox/organizations/" + oid + "/balances/USDT", `{"amount":"lots"}`, 400, "amount", "lots"},
		{"PUT", "/_sandbox/organizations/" + oid + "/balances/USDT", `{}`, 400, "amount", "required"},
		{"PUT", "/_sandbox/organizations/" + oid + "/webhook-url", `{"webhook_url":"not a url"}`, 400, "webhook_url", "valid URL"},
		{"PUT", "/_sandbox/customers/" + cid + "/kyc-status", `{"kyc_status":"verified"}`, 400, "kyc_status", "want one of"},
		{"PUT", "/_sandbox/customers/" + cid + "/flags", `{"aml":true}`, 400, "aml", "unknown field"},
		{"POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":0}`, 400, "timeout_seconds", "at most 50"},
		{"POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":51}`, 400, "timeout_seconds", "at most 50"},
		{"POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":-1}`, 400, "timeout_seconds", "want more than 0"},
		{"POST", "/_sandbox/reset", `{"seed_demo":"yes"}`, 400, "seed_demo", "cannot read"},
		{"POST", "/_sandbox/fixtures", `{"organizations":[{"Name":"x"}]}`, 400, "organizations[0].Name", `organizations[0]: unknown field "Name" (names are case-sensitive: "name")`},
		{"POST", "/_sandbox/fixtures", `{"organizations":[{"customers":[{"kyc_status":"NOPE"}]}]}`, 400, "organizations[0].customers[0]", "unknown KYC status"},
		{"POST", "/_sandbox/fixtures", `{"organizations":`, 400, "", "document ends early"},
		{"GET", "/_sandbox/organizations/" + uuid.NewString(), "", 404, "", "no organization"},
		{"GET", "/_sandbox/organizations/not-a-uuid", "", 400, "", "not a uuid"},
		{"GET", "/_sandbox/customers/" + uuid.NewString(), "", 404, "", "no customer"},
		{"PUT", "/_sandbox/customers/" + uuid.NewString() + "/flags", `{}`, 404, "", "no customer"},
		{"GET", "/_sandbox/organizations/" + oid + "/payouts/by-reference", "", 400, "client_reference_id", "once"},
		{"GET", "/_sandbox/nothing-here", "", 404, "", "GET /_sandbox lists them"},
		{"PATCH", "/_sandbox/faults", "", 405, "", "allowed: DELETE, POST"},
	} {
		t.Run(tc.method+" "+tc.path+" "+tc.body, func(t *testing.T) {
			a := e.call(tc.method, tc.path, tc.body)
			require.Equal(t, tc.status, a.status, "%s", a)
			m := a.json(t)
			assert.Contains(t, m["error"], tc.says)
			if tc.field == "" {
				assert.NotContains(t, m, "field")
			} else {
				assert.Equal(t, tc.field, m["field"])
			}
		})
	}
	// Nothing refused took effect.
	assert.Empty(t, e.sb.Payouts(e.org.ID))
	assert.Equal(t, "1000", e.sb.Balance(e.org.ID, "USDT").String())

	big := `{"kind":"unavailable","path":"` + strings.Repeat("a", 70<<10) + `"}`
	a := e.call("POST", "/_sandbox/faults", big)
	assert.Equal(t, http.StatusRequestEntityTooLarge, a.status, "%s", a)
}

func TestControlFixturesExactKeysAlsoFromFile(t *testing.T) {
	_, err := sandbox.LoadJSON(strings.NewReader(`{"Organizations":[]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown field "Organizations" (names are case-sensitive: "organizations")`)
	f, err := sandbox.LoadJSON(strings.NewReader(`{"organizations":[{"name":"a","balances":{"USDT":"1"}}]}`))
	require.NoError(t, err)
	assert.True(t, f.Organizations[0].Balances["USDT"].Equal(decimal.NewFromInt(1)), "map keys are data, not names")
}
