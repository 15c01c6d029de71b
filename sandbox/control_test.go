package sandbox_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io"
	"net"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
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

// rawRequest sends path as written on the request line, unparsed by Go's
// client (which would clean or escape it).
func rawRequest(t *testing.T, base, method, path, auth string) int {
	t.Helper()
	host := strings.TrimPrefix(base, "http://")
	conn, err := net.Dial("tcp", host)
	require.NoError(t, err)
	defer conn.Close()
	req := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nContent-Length: 0\r\nConnection: close\r\n", method, path, host)
	if auth != "" {
		req += "Authorization: " + auth + "\r\n"
	}
	_, err = conn.Write([]byte(req + "\r\n"))
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

// TestControlPathTricksNeedToken: no spelling of a control path reaches
// an operation without the token.
func TestControlPathTricksNeedToken(t *testing.T) {
	e := newCtlEnv(t)
	for _, p := range []string{
		"/_sandbox/reset", "//_sandbox/reset", "/_sandbox//reset", "/_sandbox/reset/",
		"/_sandbox/./reset", "/_sandbox/x/../reset", "/_sandbox%2Freset", "/%5Fsandbox/reset",
		"/_SANDBOX/reset", "/pos/../_sandbox/reset", "http://x/_sandbox/reset", "/_sandbox/reset?x=1",
		"/_sandbox/reset#", "/_sandbox/reset%00", "/_sandbox;/reset",
	} {
		for _, m := range []string{"POST", "GET", "HEAD", "OPTIONS", "post"} {
			st := rawRequest(t, e.srv.URL, m, p, "")
			assert.NotEqual(t, http.StatusOK, st, "%s %s", m, p)
			assert.NotEqual(t, http.StatusCreated, st, "%s %s", m, p)
		}
	}
	_, ok := e.sb.Organization(e.org.ID)
	assert.True(t, ok, "the sandbox was reset without the token")
}

// TestControlResetWhileRequestsInFlight: control operations run while the
// service's operations are served (run with -race).
func TestControlResetWhileRequestsInFlight(t *testing.T) {
	e := newCtlEnv(t)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = e.client.Payouts.GetBalance(context.Background())
				_, _ = e.client.Customers.ListBankAccounts(context.Background(), e.cust.ID)
			}
		}()
	}
	for i := 0; i < 30; i++ {
		e.call("POST", "/_sandbox/reset", `{"seed_demo":true}`)
		e.call("POST", "/_sandbox/clock/advance", `{"seconds":1}`)
		e.call("GET", "/_sandbox/stats", "")
		e.call("POST", "/_sandbox/faults", `{"kind":"internal_error","count":1}`)
		e.call("DELETE", "/_sandbox/faults", "")
	}
	close(stop)
	wg.Wait()
}

// TestControlTokenNeverPrints: a test that logs its server
// (t.Logf("%+v", srv)) must not put the admin token in CI logs.
func TestControlTokenNeverPrints(t *testing.T) {
	srv, err := sandbox.NewServer(sandbox.New(), sandbox.WithControl(""))
	require.NoError(t, err)
	// Closed first: fmt walks the http.Server its serving goroutine writes.
	require.NoError(t, srv.Close())
	tok := srv.ControlToken()
	require.NotEmpty(t, tok)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
		assert.NotContains(t, fmt.Sprintf(verb, srv), tok, verb)
		assert.NotContains(t, fmt.Sprintf(verb, *srv), tok, verb)
		assert.NotContains(t, fmt.Sprintf(verb, srv), fmt.Sprintf("%x", tok), verb)
		assert.NotContains(t, fmt.Sprintf(verb, *srv), fmt.Sprintf("%x", tok), verb)
	}
}

// settingsNotShown are the fields of Settings that GET /_sandbox/settings
// cannot show, and why.
var settingsNotShown = map[string]string{
	"WebhookClient": "a Go value (an *http.Client)",
}

// snakeCase is a Settings field's name in snake case: WebhookMaxAttempts
// is webhook_max_attempts, KYCAutoDecision kyc_auto_decision.
func snakeCase(name string) string {
	var b strings.Builder
	for i, r := range name {
		upper := unicode.IsUpper(r)
		if upper && i > 0 {
			prevLower := unicode.IsLower(rune(name[i-1]))
			nextLower := i+1 < len(name) && unicode.IsLower(rune(name[i+1]))
			if prevLower || nextLower && unicode.IsUpper(rune(name[i-1])) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// settingsMembers are the members GET /_sandbox/settings must have for
// the fields of Settings: the field's name in snake case, with _seconds
// for a duration.
func settingsMembers() map[string]string {
	out := map[string]string{}
	typ := reflect.TypeFor[sandbox.Settings]()
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if _, skip := settingsNotShown[f.Name]; skip {
			continue
		}
		name := snakeCase(f.Name)
		if f.Type == reflect.TypeFor[time.Duration]() {
			name += "_seconds"
		}
		out[f.Name] = name
	}
	return out
}

// TestControlSettingsShowsEverySetting: GET /_sandbox/settings has a
// member for every field of Settings (found by reflection, so a new
// setting the answer forgets fails here), a duration in seconds.
func TestControlSettingsShowsEverySetting(t *testing.T) {
	e := newCtlEnv(t, func(s *sandbox.Settings) { s.KYCAutoDecision = 90 * time.Second })
	got := e.ok(200, "GET", "/_sandbox/settings", "")
	members := settingsMembers()
	require.Equal(t, "kyc_auto_decision_seconds", members["KYCAutoDecision"])
	require.Equal(t, "edd_limit_multiplier", members["EDDLimitMultiplier"])
	for field, name := range members {
		assert.Contains(t, got, name, "Settings.%s", field)
	}
	assert.EqualValues(t, 90, got["kyc_auto_decision_seconds"])
	assert.Len(t, got, len(members), "one member per setting")
}
