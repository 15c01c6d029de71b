package sandbox_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestRegisterWebhook(t *testing.T) {
	e := newEnv(t)
	const path = "/org/api/v1/organizations/api-webhooks"
	var resp fiatramp.Response
	got, err := e.client.Organization.SetWebhookURL(ctx(t), "https://hooks.example.test/fiatramp?x=1", fiatramp.CaptureResponse(&resp))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "https://hooks.example.test/fiatramp?x=1", got)
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(resp.Body, &env))
	assert.Equal(t, `"https://hooks.example.test/fiatramp?x=1"`, string(env.Data), "the data is a bare string")
	o, ok := e.sb.Organization(e.org.ID)
	require.True(t, ok)
	assert.Equal(t, "https://hooks.example.test/fiatramp?x=1", o.WebhookURL)

	// The member an earlier form of the documentation showed is read when
	// webhook_url is absent; webhook_url wins when both come.
	for body, want := range map[string]string{
		`{"url":"https://old.example.test/h"}`:                                   "https://old.example.test/h",
		`{"url":"https://old.example.test/h","webhook_url":"https://new.test/"}`: "https://new.test/",
	} {
		var data string
		require.NoError(t, e.client.Do(ctx(t), http.MethodPost, path, []byte(body), &data), body)
		assert.Equal(t, want, data, body)
		o, _ = e.sb.Organization(e.org.ID)
		assert.Equal(t, want, o.WebhookURL, body)
	}

	// A URL written without its scheme, as the service's own example
	// writes one, is registered with https:// before it.
	got, err = e.client.Organization.SetWebhookURL(ctx(t), "hooks.example.test/fiatramp")
	require.NoError(t, err)
	assert.Equal(t, "https://hooks.example.test/fiatramp", got)
	o, _ = e.sb.Organization(e.org.ID)
	assert.Equal(t, "https://hooks.example.test/fiatramp", o.WebhookURL)

	// Raw signed requests that skip the client's checks get the service's
	// refusals.
	for body, msg := range map[string]string{
		`{}`:                                   "Webhook URL is required",
		`{"webhook_url":null}`:                 "Webhook URL is required",
		`{"webhook_url":" "}`:                  "Webhook URL is required",
		`{"url":null}`:                         "Webhook URL is required",
		`{"webhook_url":"https://x/","url":7}`: "",
	} {
		err := e.client.Do(ctx(t), http.MethodPost, path, []byte(body), nil)
		if msg == "" {
			require.NoError(t, err, body)
			continue
		}
		apiErr := refused(t, err, http.StatusBadRequest, msg)
		assert.Empty(t, apiErr.FieldErrors, body)
		assert.Empty(t, apiErr.Code, body)
	}
	for body, msg := range map[string]string{
		`{"webhook_url":7}`:                                             "Not a valid string.",
		`{"webhook_url":"ftp://x.test/"}`:                               "Enter a valid URL.",
		`{"webhook_url":"/relative"}`:                                   "Enter a valid URL.",
		`{"webhook_url":"https://u:p@x/"}`:                              "Enter a valid URL.",
		`{"webhook_url":"https://x/#frag"}`:                             "Enter a valid URL.",
		`{"webhook_url":"https://x/` + strings.Repeat("a", 2048) + `"}`: "Ensure this field has no more than 2048 characters.",
	} {
		err := e.client.Do(ctx(t), http.MethodPost, path, []byte(body), nil)
		apiErr := refused(t, err, http.StatusBadRequest, msg, fiatramp.ErrFieldMissing)
		assert.Equal(t, map[string][]string{"webhook_url": {msg}}, apiErr.FieldErrors, body)
	}
	err = e.client.Do(ctx(t), http.MethodPost, path, []byte(`{"url":"ftp://x/"}`), nil)
	apiErr := refused(t, err, http.StatusBadRequest, "Enter a valid URL.", fiatramp.ErrFieldMissing)
	assert.Equal(t, map[string][]string{"url": {"Enter a valid URL."}}, apiErr.FieldErrors, "a legacy body's error names its member")
	o, _ = e.sb.Organization(e.org.ID)
	assert.Equal(t, "https://x/", o.WebhookURL, "refusals change nothing")

	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, ""))
	o, _ = e.sb.Organization(e.org.ID)
	assert.Empty(t, o.WebhookURL)
	require.Error(t, e.sb.SetWebhookURL(e.org.ID, "mailto:x@y"))
	require.Error(t, e.sb.SetWebhookURL(uuid.New(), "https://x.test/"))
	_, err = e.sb.AddOrganization(sandbox.Organization{WebhookURL: "not a url"})
	require.ErrorContains(t, err, "webhook_url")
}

// TestRegisterWebhookTakesEffectForTheNextDelivery: a URL registered
// through the client receives the next event, and a later registration
// moves the events after it, not the ones before.
func TestRegisterWebhookTakesEffectForTheNextDelivery(t *testing.T) {
	e := newEnv(t)
	first, second := newReceiver(t, nil), newReceiver(t, nil)
	_, err := e.client.Organization.SetWebhookURL(ctx(t), first.srv.URL)
	require.NoError(t, err)
	verify := func() uuid.UUID {
		t.Helper()
		added, err := e.client.Customers.AddBankAccount(ctx(t), types.AddBankAccountRequest{CustomerID: e.cust.ID, VPA: uuid.NewString()[:8] + "@upi"})
		require.NoError(t, err)
		_, err = e.client.Customers.SimulateBankVerification(ctx(t), e.cust.ID, added.ID, types.BankAccountVerified)
		require.NoError(t, err)
		return added.ID
	}
	a := verify()
	_, err = e.client.Organization.SetWebhookURL(ctx(t), second.srv.URL)
	require.NoError(t, err)
	b := verify()
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	ds := e.sb.Deliveries()
	require.Len(t, ds, 2)
	assert.Equal(t, first.srv.URL, ds[0].URL)
	assert.Equal(t, a.String(), ds[0].ID)
	assert.Equal(t, second.srv.URL, ds[1].URL)
	assert.Equal(t, b.String(), ds[1].ID)
	require.Len(t, first.hooks(), 1)
	require.Len(t, second.hooks(), 1)
	assert.Contains(t, first.hooks()[0].body, `"id":"`+a.String()+`"`)
	assert.Contains(t, second.hooks()[0].body, `"id":"`+b.String()+`"`)
	assert.True(t, signedBy(e.org, first.hooks()[0]))
	assert.True(t, signedBy(e.org, second.hooks()[0]))
}

// TestRegisterWebhookSignedByHand: the registration signed by hand answers
// the URL as a bare string, and "Webhook URL is required" without one.
func TestRegisterWebhookSignedByHand(t *testing.T) {
	e := newEnv(t)
	const path = "/org/api/v1/organizations/api-webhooks"
	r := authSend(t, e, authReq{method: http.MethodPost, path: path, body: []byte(`{"webhook_url":"https://hand.example/h"}`)})
	authOK(t, r, http.StatusOK)
	assert.Equal(t, `"https://hand.example/h"`, string(r.body.Data))

	r = authSend(t, e, authReq{method: http.MethodPost, path: path, body: []byte(`{}`)})
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.Equal(t, "Webhook URL is required", r.body.Message)
	r = authSend(t, e, authReq{method: http.MethodPost, path: path, body: []byte(`{"webhook_url":"ftp://hand.example/"}`)})
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.JSONEq(t, `{"webhook_url":["Enter a valid URL."]}`, string(r.body.Errors))
}
