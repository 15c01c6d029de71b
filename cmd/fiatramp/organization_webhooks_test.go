package main

// fiatramp organization set-webhook-url, run as a user runs it.

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCLIOrgWebhookURL(t *testing.T) {
	w := newWorld(t)
	r := cli(t, w.env, "", "organization", "set-webhook-url", "http://127.0.0.1:8080/webhooks/fiatramp")
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, "\"http://127.0.0.1:8080/webhooks/fiatramp\"\n", r.stdout)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/org/api/v1/organizations/api-webhooks", reqs[0].Path)
	assert.Equal(t, `{"webhook_url":"http://127.0.0.1:8080/webhooks/fiatramp"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	o, ok := w.sb.Organization(w.demo.Organization.ID)
	require.True(t, ok)
	assert.Equal(t, "http://127.0.0.1:8080/webhooks/fiatramp", o.WebhookURL)

	r = cli(t, w.env, "", "organization", "set-webhook-url", "-o", "table", "http://127.0.0.1:9/h")
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, "http://127.0.0.1:9/h\n", r.stdout)

	w.requests()
	for _, u := range []string{"ftp://x/", "/relative", "https://x/#f"} {
		r = cli(t, w.env, "", "organization", "set-webhook-url", u)
		assert.Equal(t, 2, r.code, "%s: %s", u, r)
		assert.Contains(t, r.stderr, "webhook_url")
	}
	r = cli(t, w.env, "", "organization", "set-webhook-url")
	assert.Equal(t, 2, r.code, r)
	assert.Empty(t, w.requests(), "bad input sends nothing")
}
