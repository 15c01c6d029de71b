package fiatramp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
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

func TestSecretNeverFormatted(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h := newHarness(t, fiatramp.WithLogger(logger))
	h.expect(http.MethodGet, "/pos/api/v1/payout/"+payoutID.String(), "", 400, fail("Payout ID is invalid", "REQ_FIELD_MISSING", `{}`))
	_, err := h.client.Payouts.Get(context.Background(), payoutID)
	require.Error(t, err)
	h.mock.RegisterResponder(http.MethodGet, testBase+"/pos/api/v1/payout/balance", httpmock.NewErrorResponder(errors.New("connection reset")))
	err2 := h.client.Do(context.Background(), http.MethodGet, "/pos/api/v1/payout/balance", nil, nil)
	require.Error(t, err2)
	logger.Info("client", "client", h.client)

	signature := sign(testNow.Unix(), "{}")
	outputs := map[string]string{
		"%v": fmt.Sprintf("%v", h.client), "%+v": fmt.Sprintf("%+v", h.client), "%#v": fmt.Sprintf("%#v", h.client),
		"%s": fmt.Sprintf("%s", h.client), "value %+v": fmt.Sprintf("%+v", *h.client), "value %#v": fmt.Sprintf("%#v", *h.client),
		"%+v payouts": fmt.Sprintf("%+v %#v", h.client.Payouts, h.client.Payouts),
		"api error":   err.Error(), "transport error": err2.Error(), "logs": logs.String(),
	}
	for name, out := range outputs {
		assert.NotContains(t, out, testSecret, name)
		assert.NotContains(t, out, signature, name)
	}
	assert.Contains(t, outputs["%#v"], "[redacted]")
	assert.Contains(t, logs.String(), `"path":"/gateway/pos/api/v1/payout/`+payoutID.String()+`"`)
	assert.Contains(t, logs.String(), `"status":400`)
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
