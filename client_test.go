package fiatramp_test

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestNewRequiresConfiguration(t *testing.T) {
	for name, tc := range map[string]struct {
		key, secret string
		opts        []fiatramp.Option
		want        string
	}{
		"no base URL":      {testKey, testSecret, nil, "base URL is required"},
		"empty key":        {"", testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase)}, "API key is empty"},
		"empty secret":     {testKey, "", []fiatramp.Option{fiatramp.WithBaseURL(testBase)}, "API secret is empty"},
		"relative base":    {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL("/api")}, "absolute http or https"},
		"base with query":  {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase + "?x=1")}, "no user info, query"},
		"ftp base":         {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL("ftp://h")}, "absolute http or https"},
		"nil http client":  {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase), fiatramp.WithHTTPClient(nil)}, "nil *http.Client"},
		"nil clock":        {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase), fiatramp.WithClock(nil)}, "nil clock"},
		"negative timeout": {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase), fiatramp.WithTimeout(-1)}, "negative"},
		"bad remittance":   {testKey, testSecret, []fiatramp.Option{fiatramp.WithBaseURL(testBase), fiatramp.WithRemittancePayoutPath("x")}, "not an absolute path"},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := fiatramp.New(tc.key, tc.secret, tc.opts...)
			assert.Nil(t, c)
			require.ErrorContains(t, err, tc.want)
			assert.NotContains(t, err.Error(), testSecret)
		})
	}
}

func TestNewFromEnv(t *testing.T) {
	t.Setenv(fiatramp.EnvAPIKey, testKey)
	t.Setenv(fiatramp.EnvAPISecret, testSecret)
	t.Setenv(fiatramp.EnvBaseURL, "https://env.example/base/")
	c, err := fiatramp.NewFromEnv()
	require.NoError(t, err)
	assert.Equal(t, "https://env.example/base", c.BaseURL())

	c, err = fiatramp.NewFromEnv(fiatramp.WithBaseURL(testBase))
	require.NoError(t, err)
	assert.Equal(t, testBase, c.BaseURL(), "options win over the environment")

	t.Setenv(fiatramp.EnvAPISecret, "")
	_, err = fiatramp.NewFromEnv()
	require.ErrorContains(t, err, fiatramp.EnvAPISecret)
}

func TestConcurrentUse(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), httpmock.NewStringResponder(200, ok(fetchedPayoutData)))
	errs := make(chan error, 32)
	for range 32 {
		go func() {
			_, err := h.client.Payouts.Get(context.Background(), payoutID)
			errs <- err
		}()
	}
	for range 32 {
		require.NoError(t, <-errs)
	}
	assert.Equal(t, 32, h.mock.GetTotalCallCount())
}

func TestZeroClientFormats(t *testing.T) {
	var c fiatramp.Client
	assert.Equal(t, "fiatramp.Client{baseURL: , apiKey: ****, apiSecret: [redacted]}", fmt.Sprintf("%+v", c))
}

// TestServiceInterfacesHaveEveryMethod: each *API interface is the whole
// method set of its service, so that code written against the interface
// (and a fake embedding it) can reach every operation, e.g.
// Customers.ListBankAccountsPage.
func TestServiceInterfacesHaveEveryMethod(t *testing.T) {
	for _, tc := range []struct {
		service, api reflect.Type
	}{
		{reflect.TypeOf(&fiatramp.PayoutsService{}), reflect.TypeOf((*fiatramp.PayoutsAPI)(nil)).Elem()},
		{reflect.TypeOf(&fiatramp.PayinsService{}), reflect.TypeOf((*fiatramp.PayinsAPI)(nil)).Elem()},
		{reflect.TypeOf(&fiatramp.CustomersService{}), reflect.TypeOf((*fiatramp.CustomersAPI)(nil)).Elem()},
		{reflect.TypeOf(&fiatramp.KYCService{}), reflect.TypeOf((*fiatramp.KYCAPI)(nil)).Elem()},
	} {
		for i := range tc.service.NumMethod() {
			m := tc.service.Method(i)
			im, ok := tc.api.MethodByName(m.Name)
			if !assert.True(t, ok, "%s lacks %s", tc.api, m.Name) {
				continue
			}
			// The interface method's type has no receiver.
			in := make([]reflect.Type, 0, m.Type.NumIn()-1)
			for j := 1; j < m.Type.NumIn(); j++ {
				in = append(in, m.Type.In(j))
			}
			out := make([]reflect.Type, 0, m.Type.NumOut())
			for j := range m.Type.NumOut() {
				out = append(out, m.Type.Out(j))
			}
			assert.Equal(t, reflect.FuncOf(in, out, m.Type.IsVariadic()), im.Type, "%s.%s", tc.api, m.Name)
		}
	}
}

// TestClientRefusesUnsendableHeaders: an API key or user agent
// with a control character would make net/http refuse every request after
// the library counted it as an attempt (so a create ended in an
// *fiatramp.OutcomeUnknownError); fiatramp.New refuses it instead.
func TestClientRefusesUnsendableHeaders(t *testing.T) {
	_, err := fiatramp.New("key\x00", "secret", fiatramp.WithBaseURL("http://127.0.0.1:1"))
	require.ErrorContains(t, err, "control character")
	_, err = fiatramp.New("key\x7f", "secret", fiatramp.WithBaseURL("http://127.0.0.1:1"))
	require.ErrorContains(t, err, "control character")
	_, err = fiatramp.New(testKey, testSecret, fiatramp.WithBaseURL("http://127.0.0.1:1"), fiatramp.WithUserAgent("acme\x1b[31m"))
	require.ErrorContains(t, err, "control character")
	_, err = fiatramp.New("key\twith tab é", "secret", fiatramp.WithBaseURL("http://127.0.0.1:1"), fiatramp.WithUserAgent("acme/1 (é)"))
	require.NoError(t, err, "net/http sends a tab and non-ASCII bytes")
}

// ---- the secret never prints ----

// TestSecretNeverPrints is the one test of the guarantee that the API
// secret never prints. Every exported value that holds or was made with the
// secret (the Client, its services, the options, the iterators, method
// values, the captured Response and every kind of error a call returns),
// alone and inside every kind of user value, goes through every fmt verb,
// fmt.Sprint, log/slog's text and JSON handlers, encoding/json,
// encoding/gob and testify's diff (go-spew, which walks unexported fields
// and follows pointers); so does the library's own debug log and every
// error of every operation run against the sandbox, succeeding and failing
// in every way. No output may carry an API secret or a whole API key in any
// form, an X-SIGNATURE that was sent, a request body that was sent, or the
// values only a request body carries.
func TestSecretNeverPrints(t *testing.T) {
	ctx := context.Background()

	// A client on a fake service, given every option that takes a value of
	// the caller's, and a call failing in each way.
	mt := httpmock.NewMockTransport()
	sent := &recordingTransport{base: mt}
	var clientLog bytes.Buffer
	var clientLogMu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(&lockedWriter{w: &clientLog, mu: &clientLogMu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := fiatramp.New(testKey, testSecret,
		fiatramp.WithBaseURL(testBase),
		fiatramp.WithHTTPClient(&http.Client{Transport: sent}),
		fiatramp.WithClock(func() time.Time { return testNow }),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}),
		fiatramp.WithErrorMessage("Balance too low", fiatramp.ErrInsufficientBalance),
		fiatramp.WithLogger(logger),
		fiatramp.WithClientReferenceGenerator(func() (string, error) { return "ref-1", nil }))
	require.NoError(t, err)
	mt.RegisterResponder(http.MethodPost, testBase+"/pos/api/v1/payout/initiate",
		httpmock.NewStringResponder(500, fail("Internal Server Error", "SYS_INTERNAL_ERROR", "null")))
	mt.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/"+payoutID.String(), func(req *http.Request) (*http.Response, error) {
		assertSigned(t, req, testNow.Unix(), "")
		return httpmock.NewStringResponse(400, fail("Payout ID is invalid", "REQ_FIELD_MISSING", `{}`)), nil
	})
	mt.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/balance", httpmock.NewErrorResponder(errors.New("connection reset")))
	mt.RegisterNoResponder(func(*http.Request) (*http.Response, error) { return nil, errors.New("no route") })

	var resp fiatramp.Response
	_, outcomeErr := c.Payouts.Create(ctx,
		types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID}, fiatramp.CaptureResponse(&resp))
	require.ErrorIs(t, outcomeErr, fiatramp.ErrOutcomeUnknown)
	_, apiErr := c.Payouts.Get(ctx, payoutID)
	var asAPIError *fiatramp.APIError
	require.ErrorAs(t, apiErr, &asAPIError)
	transportErr := c.Do(ctx, http.MethodGet, "/pos/api/v1/payout/balance", nil, nil)
	require.ErrorContains(t, transportErr, "connection reset")
	_, noRouteErr := c.KYC.GetConfiguration(ctx, customerID)
	require.ErrorContains(t, noRouteErr, "no route")
	validationErr := c.Do(ctx, "get", "/x", nil, nil)
	require.ErrorIs(t, validationErr, fiatramp.ErrInvalidRequest)
	logger.Info("client", "client", c)

	// The same client kinds against the sandbox, every operation in every
	// way of failing.
	run := runLeakScenario(t)

	values := map[string]map[string]any{
		"*Client":                  wrapped(c),
		"Client":                   wrapped(*c),
		"*PayoutsService":          wrapped(c.Payouts),
		"*PayinsService":           wrapped(c.Payins),
		"*CustomersService":        wrapped(c.Customers),
		"*KYCService":              wrapped(c.KYC),
		"PayoutsService":           wrapped(*c.Payouts),
		"PayinsService":            wrapped(*c.Payins),
		"CustomersService":         wrapped(*c.Customers),
		"KYCService":               wrapped(*c.KYC),
		"PayoutsAPI":               wrapped[fiatramp.PayoutsAPI](c.Payouts),
		"CustomersAPI":             wrapped[fiatramp.CustomersAPI](c.Customers),
		"Option":                   wrapped(fiatramp.WithBaseURL(testBase)),
		"RequestOption":            wrapped(fiatramp.WithHeader("X-Trace", "1")),
		"CaptureResponse":          wrapped(fiatramp.CaptureResponse(&resp)),
		"Response":                 wrapped(resp),
		"OutcomeUnknownError":      wrapped(outcomeErr),
		"APIError":                 wrapped(apiErr),
		"transport error":          wrapped(transportErr),
		"error without a route":    wrapped(noRouteErr),
		"ValidationError":          wrapped(validationErr),
		"BankAccounts iterator":    wrapped(c.Customers.BankAccounts(ctx, customerID)),
		"method value Payouts.Get": wrapped(c.Payouts.Get),
		"user structs": {
			"embedded Client":          embedsClient{*c},
			"embedded *Client":         embedsClientPtr{c},
			"embedded *PayoutsService": embedsService{c.Payouts},
			"unexported Client":        hidesClient{*c},
			"unexported *Client":       hidesClientPtr{c},
			"exported *Client":         pipelineDeps{c},
			"unexported service value": hidesServiceBare{*c.Payouts},
			"deep":                     hidesAll{[]map[string]any{{"c": hidesClient{*c}, "p": c.Payouts}}},
			"map keyed by *Client":     map[*fiatramp.Client]string{c: "x"},
		},
	}
	for name, sc := range map[string]*fiatramp.Client{"good": run.good, "wrong": run.wrong, "impatient": run.impatient} {
		values["sandbox *Client "+name] = wrapped(sc)
		values["sandbox Client "+name] = wrapped(*sc)
		values["sandbox services "+name] = map[string]any{
			"*Payouts": sc.Payouts, "*Payins": sc.Payins, "*Customers": sc.Customers, "*KYC": sc.KYC,
			"Payouts": *sc.Payouts, "Payins": *sc.Payins, "Customers": *sc.Customers, "KYC": *sc.KYC,
		}
	}
	sandboxErrs := map[string]any{}
	texts := map[string]string{"the client's log": "", "the sandbox clients' log": run.log}
	var unknown, apiErrs int
	for i, err := range run.errs {
		sandboxErrs[fmt.Sprintf("error %d", i)] = err
		texts[fmt.Sprintf("error %d", i)] = err.Error()
		var ou *fiatramp.OutcomeUnknownError
		if errors.As(err, &ou) {
			unknown++
			sandboxErrs[fmt.Sprintf("error %d outcome", i)] = ou
			sandboxErrs[fmt.Sprintf("error %d outcome value", i)] = *ou
		}
		var ae *fiatramp.APIError
		if errors.As(err, &ae) {
			apiErrs++
			sandboxErrs[fmt.Sprintf("error %d api", i)] = ae
			sandboxErrs[fmt.Sprintf("error %d api value", i)] = *ae
		}
	}
	values["sandbox errors"] = sandboxErrs
	assert.Positive(t, unknown, "some failures are outcome-unknown payout creates")
	assert.Positive(t, apiErrs)
	for _, err := range []error{outcomeErr, apiErr, transportErr, noRouteErr, validationErr} {
		texts["error "+err.Error()] = err.Error()
	}
	clientLogMu.Lock()
	texts["the client's log"] = clientLog.String()
	clientLogMu.Unlock()

	// What must never show: the key material of every client in every
	// form, every signature and body sent, and what only a body carries.
	sent.mu.Lock()
	sigs, bodies := append(run.sigs, sent.sigs...), append(run.bodies, sent.bodies...)
	sent.mu.Unlock()
	require.NotEmpty(t, run.sigs)
	require.NotEmpty(t, run.bodies)
	require.Contains(t, sigs, sign(testNow.Unix(), "{}"), "the GET's signature is among those searched for")
	needles := map[string]string{}
	secretForms(needles, "test", testKey, testSecret)
	secretForms(needles, "sandbox", run.org.APIKey, run.org.APISecret)
	secretForms(needles, "wrong", "", run.wrongSecret)
	for what, v := range run.canaries {
		needles[what] = v
	}
	for i, s := range sigs {
		needles[fmt.Sprintf("signature %d", i)] = s
	}
	for i, b := range bodies {
		needles[fmt.Sprintf("request body %d", i)] = b
	}
	find := newLeakFinder(t, needles)
	check := func(t *testing.T, how, out string) {
		t.Helper()
		if what, ok := find(out); ok {
			t.Errorf("%s shows the %s: %.300s", how, what, out)
		}
	}

	for name, text := range texts {
		check(t, name, text)
	}
	for typ, wraps := range values {
		t.Run(typ, func(t *testing.T) {
			for shape, v := range wraps {
				for _, verb := range fmtVerbs {
					check(t, shape+" "+verb, fmt.Sprintf(verb, v))
				}
				check(t, shape+" Sprint", fmt.Sprint(v)+fmt.Sprintln(v))

				var text, js bytes.Buffer
				opts := &slog.HandlerOptions{Level: slog.LevelDebug}
				slog.New(slog.NewTextHandler(&text, opts)).Info("m", "v", v, slog.Any("any", v), slog.Group("g", "v", v))
				slog.New(slog.NewJSONHandler(&js, opts)).Info("m", "v", v, slog.Any("any", v), slog.Group("g", "v", v))
				check(t, shape+" slog text", text.String())
				check(t, shape+" slog JSON", js.String())

				b, err := json.Marshal(v)
				check(t, shape+" encoding/json", string(b)+fmt.Sprint(err))
				ib, err := json.MarshalIndent(v, "", " ")
				check(t, shape+" encoding/json indent", string(ib)+fmt.Sprint(err))

				var g bytes.Buffer
				func() {
					defer func() { check(t, shape+" gob panic", fmt.Sprint(recover())) }()
					err = gob.NewEncoder(&g).Encode(v)
				}()
				check(t, shape+" encoding/gob", g.String()+fmt.Sprint(err))

				// testify prints both sides of a failed comparison with
				// go-spew, which walks unexported fields and pointers.
				rec := &recordingT{}
				assert.Equal(rec, v, struct{}{})
				check(t, shape+" testify diff", rec.out.String())
			}
		})
	}

	t.Run("control: the checks see a leak", func(t *testing.T) {
		type leaky struct{ cfg struct{ apiSecret string } }
		var l leaky
		l.cfg.apiSecret = testSecret
		for _, verb := range []string{"%+v", "%x", "%d"} {
			out := fmt.Sprintf(verb, l)
			_, found := find(out)
			assert.True(t, found, "%s of a struct holding the secret is caught: %s", verb, out)
		}
		_, found := find("X-SIGNATURE: " + run.sigs[len(run.sigs)-1])
		assert.True(t, found, "a signature sent is caught")
		_, found = find("body: " + bodies[0])
		assert.True(t, found, "a body sent is caught")
	})

	t.Run("the Client says what it is, without the secret", func(t *testing.T) {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			out := fmt.Sprintf(verb, c)
			assert.Contains(t, out, "apiSecret: [redacted]", verb)
			assert.Contains(t, out, "****7Hq2", verb)
		}
	})

	t.Run("the logs say what happened", func(t *testing.T) {
		assert.Contains(t, texts["the client's log"], `"path":"/gateway/pos/api/v1/payout/`+payoutID.String()+`"`)
		assert.Contains(t, texts["the client's log"], `"status":400`)
		records := strings.Count(run.log, `"msg":"fiatramp request"`)
		assert.GreaterOrEqual(t, records, run.trips, "at least one log record per request sent")
		assert.Greater(t, run.trips, run.ops*(run.failModes+1), "retries happened")
	})
}

// secretForms adds to forms the renderings of one client's key material
// that would betray it: as text, as hex (what %x and %X make of a string),
// as the decimal and base64 forms of its bytes, and any 10-character window
// of the secret, so that a cut or padded rendering is caught too.
func secretForms(forms map[string]string, client, apiKey, apiSecret string) {
	for name, s := range map[string]string{client + " secret": apiSecret, client + " API key": apiKey} {
		if s == "" {
			continue
		}
		forms[name] = s
		forms[name+" as hex"] = hex.EncodeToString([]byte(s))
		forms[name+" as HEX"] = strings.ToUpper(hex.EncodeToString([]byte(s)))
		forms[name+" as spaced hex"] = fmt.Sprintf("% x", s)
		forms[name+" as bytes"] = strings.Trim(fmt.Sprint([]byte(s)), "[]")
		b64, _ := json.Marshal([]byte(s))
		forms[name+" as base64"] = strings.Trim(string(b64), `"`)
	}
	for i := 0; i+10 <= len(apiSecret); i++ {
		forms[client+" secret window "+strconv.Itoa(i)] = apiSecret[i : i+10]
	}
}

// newLeakFinder returns a function that reports which of needles (what ->
// text, each at least 10 bytes) occurs in a text, in one pass over the
// text: the search runs over some thousands of renderings and needles.
func newLeakFinder(t *testing.T, needles map[string]string) func(text string) (what string, found bool) {
	t.Helper()
	const prefix = 10
	byPrefix := map[string][]string{}
	names := map[string]string{}
	for what, n := range needles {
		require.GreaterOrEqual(t, len(n), prefix, "%s is too short to search for", what)
		if _, dup := names[n]; !dup {
			byPrefix[n[:prefix]] = append(byPrefix[n[:prefix]], n)
		}
		names[n] = what
	}
	return func(text string) (string, bool) {
		for i := 0; i+prefix <= len(text); i++ {
			for _, n := range byPrefix[text[i:i+prefix]] {
				if strings.HasPrefix(text[i:], n) {
					return names[n], true
				}
			}
		}
		return "", false
	}
}

// fmtVerbs is every verb and flag combination a careless caller might use:
// fmt prints a value it has no method for by walking its fields, and a verb
// that does not fit a field's kind (%s on a pointer, %d on a string) takes
// fmt's bad-verb path, which prints that field raw, unexported or not.
var fmtVerbs = []string{
	"%v", "%+v", "%#v", "%s", "%q", "%+q", "%#q", "%x", "%X", "% x", "%#x", "% X",
	"%d", "%+d", "%o", "%O", "%b", "%c", "%U", "%#U", "%e", "%E", "%f", "%F", "%g", "%G",
	"%t", "%p", "%#p", "%T", "%w", "%z", "%10.3s", "%-80v", "%.100s", "%08x", "%#+v",
}

// Wrappers a caller's own code puts a library value in.
type (
	embedsClient     struct{ fiatramp.Client }
	embedsClientPtr  struct{ *fiatramp.Client }
	embedsService    struct{ *fiatramp.PayoutsService }
	hidesClient      struct{ c fiatramp.Client }
	hidesClientPtr   struct{ c *fiatramp.Client }
	pipelineDeps     struct{ Client *fiatramp.Client }
	hidesAll         struct{ deps []map[string]any }
	hidesServiceBare struct{ p fiatramp.PayoutsService }
)

// wrapped puts v where user code keeps it: behind a pointer, in exported
// and unexported fields (direct, through an interface and nested), in
// slices, arrays and maps, and as a reflect.Value.
func wrapped[T any](v T) map[string]any {
	return map[string]any{
		"direct":                  v,
		"pointer":                 &v,
		"exported field":          struct{ F T }{v},
		"unexported field":        struct{ f T }{v},
		"pointer to unexported":   &struct{ f T }{v},
		"unexported interface":    struct{ f any }{v},
		"unexported pointer":      struct{ f *T }{&v},
		"slice":                   []T{v},
		"unexported slice":        struct{ f []T }{[]T{v}},
		"array":                   [1]T{v},
		"map value":               map[string]T{"k": v},
		"unexported map":          struct{ f map[string]T }{map[string]T{"k": v}},
		"nested unexported":       struct{ a struct{ b []map[string]*T } }{struct{ b []map[string]*T }{[]map[string]*T{{"k": &v}}}},
		"reflect.Value":           reflect.ValueOf(v),
		"reflect.Value of fields": reflect.ValueOf(struct{ f T }{v}).Field(0),
	}
}

// recordingT collects what a testify assertion reports.
type recordingT struct{ out strings.Builder }

func (r *recordingT) Errorf(format string, args ...any) { fmt.Fprintf(&r.out, format, args...) }

// recordingTransport records every X-SIGNATURE and request body that leaves
// the client, without changing the request.
type recordingTransport struct {
	base   http.RoundTripper
	mu     sync.Mutex
	sigs   []string
	bodies []string
	trips  int
}

// sandboxRun is what runLeakScenario leaves behind for TestSecretNeverPrints
// to search: the clients, every error, the debug log and what was sent.
type sandboxRun struct {
	org                    sandbox.Organization
	wrongSecret            string
	canaries               map[string]string // values that only a request body carries
	good, wrong, impatient *fiatramp.Client
	errs                   []error
	log                    string
	sigs, bodies           []string
	trips, ops, failModes  int
}

// runLeakScenario runs every operation against the sandbox, succeeding and
// failing in every way (400, 401, 500 with retries, dropped connections, a
// redirect, a timeout), with a debug logger and a transport that records
// every X-SIGNATURE and request body sent.
func runLeakScenario(t *testing.T) *sandboxRun {
	t.Helper()
	sb := sandbox.New()
	demo, err := sb.SeedDemo()
	require.NoError(t, err)
	org := demo.Organization
	const (
		wrongSecret  = "sk_WRONG-secret-0123456789"
		canaryWallet = "TQn9Y2khEsLJW1ChVWFMcanaryWallet"
		canaryHash   = "0xfeedcanaryhash"
		canaryIP     = "203.0.113.77"
		canaryDevice = "device-canary-42"
	)

	var redirecting atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if redirecting.Load() {
			http.Redirect(w, r, "/moved"+r.URL.Path, http.StatusTemporaryRedirect)
			return
		}
		sb.ServeHTTP(w, r)
	}))
	defer srv.Close()

	var logs bytes.Buffer
	var logMu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(&lockedWriter{w: &logs, mu: &logMu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rec := &recordingTransport{base: srv.Client().Transport}
	newClient := func(secret string, opts ...fiatramp.Option) *fiatramp.Client {
		c, err := fiatramp.New(org.APIKey, secret, append([]fiatramp.Option{
			fiatramp.WithBaseURL(srv.URL),
			fiatramp.WithClock(sb.Now),
			fiatramp.WithHTTPClient(&http.Client{Transport: rec}),
			fiatramp.WithLogger(logger),
			fiatramp.WithRetry(fiatramp.RetryPolicy{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}),
		}, opts...)...)
		require.NoError(t, err)
		return c
	}
	good := newClient(org.APISecret)
	wrong := newClient(wrongSecret)
	impatient := newClient(org.APISecret, fiatramp.WithTimeout(20*time.Millisecond),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 2, InitialBackoff: time.Millisecond}))

	var payout, payinQuotation uuid.UUID
	id := func(bad bool, real uuid.UUID) uuid.UUID {
		if bad {
			return uuid.New()
		}
		return real
	}
	ops := []leakOp{
		{"Payouts.Create", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			p, err := c.Payouts.Create(ctx, types.CreatePayoutRequest{
				QuotationID: id(bad, demo.Quotations[0].ID), CustomerID: demo.Customer.ID, ClientReferenceID: "leak-1",
			})
			if err == nil {
				payout = p.ID
			}
			return err
		}},
		{"Payouts.CreatePrefunded", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payouts.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{
				QuotationID: id(bad, demo.Quotations[1].ID),
				Customer: types.PrefundedCustomer{
					Sender: types.CustomerRef{ID: demo.Customer.ID}, Receiver: types.CustomerRef{ID: demo.Customer.ID},
				},
				ClientReferenceID: "leak-2",
			})
			return err
		}},
		{"Payouts.CreateRemittance", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payouts.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{
				QuotationID: id(bad, demo.Quotations[2].ID), CustomerID: demo.Customer.ID,
				RemitterID: demo.Remitter.ID, ClientReferenceID: "leak-3", TransactionHash: canaryHash,
			})
			return err
		}},
		{"Payouts.Get", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payouts.Get(ctx, id(bad, payout))
			return err
		}},
		{"Payouts.SimulateStatus", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payouts.SimulateStatus(ctx, id(bad, payout), types.PayoutSuccess)
			return err
		}},
		{"Payins.CreateQuotation", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			q, err := c.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{
				Asset: "USDT", Fiat: "INR", SendingAmount: decimal.NewFromInt(5000),
				CustomerID: id(bad, demo.Customer.ID), BankID: demo.VPA.ID, PaymentMethod: types.PaymentMethodUPI,
				RiskParameters: types.RiskParameters{IPAddress: canaryIP, DeviceID: canaryDevice},
			})
			if err == nil {
				payinQuotation = q.ID
			}
			return err
		}},
		{"Payins.GetQuotation", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Payins.GetQuotation(ctx, id(bad, payinQuotation))
			return err
		}},
		{"Customers.AddWallet", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Customers.AddWallet(ctx, types.AddWalletRequest{
				CustomerID: id(bad, demo.Customer.ID), WalletAddress: canaryWallet,
			})
			return err
		}},
		{"Customers.GetBankAccount", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Customers.GetBankAccount(ctx, demo.Customer.ID, id(bad, demo.BankAccount.ID))
			return err
		}},
		{"Customers.ListBankAccounts", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.Customers.ListBankAccounts(ctx, id(bad, demo.Customer.ID))
			return err
		}},
		{"Customers.BankAccounts", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			n := 0
			for _, err := range c.Customers.BankAccounts(ctx, id(bad, demo.Customer.ID)) {
				if err != nil {
					return err
				}
				n++
			}
			if n == 0 {
				return errors.New("no bank accounts")
			}
			return nil
		}},
		{"KYC.GetConfiguration", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.KYC.GetConfiguration(ctx, id(bad, demo.Customer.ID))
			return err
		}},
		{"KYC.SimulateStatus", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			_, err := c.KYC.SimulateStatus(ctx, id(bad, demo.PendingCustomer.ID), types.KYCVerified)
			return err
		}},
		{"Do", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			path := "/pos/api/v1/payout/balance"
			if bad {
				path = "/pos/api/v1/payout/" + uuid.NewString()
			}
			return c.Do(ctx, http.MethodGet, path, nil, nil)
		}},
		{"Do POST", func(ctx context.Context, c *fiatramp.Client, bad bool) error {
			var out map[string]any
			return c.Do(ctx, http.MethodPost, "/cms/api/v1/wallet/add", map[string]string{
				"customer_id": id(bad, demo.Customer.ID).String(), "wallet_address": canaryWallet + "-do",
			}, &out)
		}},
	}

	ctx := context.Background()
	var errs []error
	for _, op := range ops {
		require.NoError(t, op.run(ctx, good, false), "%s succeeds", op.name)
	}
	failing := []struct {
		mode   string
		client *fiatramp.Client
		bad    bool
		setup  func()
	}{
		{"400 unknown ids", good, true, nil},
		{"401 wrong secret", wrong, false, nil},
		{"500 with retries", good, false, func() { require.NoError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultInternalError})) }},
		{"dropped before", good, false, func() { require.NoError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropBefore})) }},
		{"dropped after", good, true, func() { require.NoError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter})) }},
		{"redirect", good, false, func() { redirecting.Store(true) }},
		{"timeout", impatient, false, func() {
			require.NoError(t, sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDelay, Delay: 10 * time.Second}))
		}},
	}
	for _, f := range failing {
		if f.setup != nil {
			f.setup()
		}
		for _, op := range ops {
			err := op.run(ctx, f.client, f.bad)
			if !assert.Error(t, err, "%s: %s", f.mode, op.name) {
				continue
			}
			errs = append(errs, err)
			if f.mode == "401 wrong secret" {
				assert.ErrorIs(t, err, fiatramp.ErrUnauthorized, op.name)
			}
			if f.mode == "redirect" {
				var ou *fiatramp.OutcomeUnknownError
				if errors.As(err, &ou) { // a create or a Do POST
					err = ou.Err
				}
				assert.ErrorIs(t, err, fiatramp.ErrRedirect, op.name)
			}
		}
		sb.ClearFaults()
		redirecting.Store(false)
	}

	logger.Debug("the client itself", "client", good, "ptr", *wrong)
	logMu.Lock()
	defer logMu.Unlock()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return &sandboxRun{
		org: org, wrongSecret: wrongSecret,
		canaries: map[string]string{"wallet address": canaryWallet, "transaction hash": canaryHash, "IP address": canaryIP, "device id": canaryDevice},
		good:     good, wrong: wrong, impatient: impatient,
		errs: errs, log: logs.String(), sigs: rec.sigs, bodies: rec.bodies,
		trips: rec.trips, ops: len(ops), failModes: len(failing),
	}
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.GetBody != nil {
		if rc, err := r.GetBody(); err == nil {
			body, _ = io.ReadAll(rc)
			_ = rc.Close()
		}
	}
	rt.mu.Lock()
	rt.trips++
	if s := r.Header.Get("X-SIGNATURE"); s != "" {
		rt.sigs = append(rt.sigs, s)
	}
	if len(body) > 0 {
		rt.bodies = append(rt.bodies, string(body))
	}
	rt.mu.Unlock()
	return rt.base.RoundTrip(r)
}

// leakOp is one operation of the client, with good or unknown ids.
type leakOp struct {
	name string
	run  func(ctx context.Context, c *fiatramp.Client, bad bool) error
}

// lockedWriter serialises writes to a shared buffer.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
