package fiatramp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

const webhookPath = "/org/api/v1/organizations/api-webhooks"

// TestOrganizationSetWebhookURL: the body is {"webhook_url"}, the answer a
// bare string.
func TestOrganizationSetWebhookURL(t *testing.T) {
	h := newHarness(t)
	calls := h.expect(http.MethodPost, webhookPath, `{"webhook_url":"https://hooks.example.com/fiatramp?t=1&u=2"}`,
		http.StatusOK, ok(`"https://hooks.example.com/fiatramp?t=1&u=2"`))
	got, err := h.client.Organization.SetWebhookURL(context.Background(), "https://hooks.example.com/fiatramp?t=1&u=2")
	require.NoError(t, err)
	assert.Equal(t, "https://hooks.example.com/fiatramp?t=1&u=2", got)
	assert.EqualValues(t, 1, calls.Load())
}

// TestOrganizationSetWebhookURLWithoutScheme: a URL written without its
// scheme, as the service's own example writes one, is sent as given.
func TestOrganizationSetWebhookURLWithoutScheme(t *testing.T) {
	for _, u := range []string{"hooks.example.com/fiatramp", "localhost:8080/h", "127.0.0.1/h", "HTTPS://hooks.example.com/"} {
		h := newHarness(t)
		calls := h.expect(http.MethodPost, webhookPath, `{"webhook_url":"`+u+`"}`, http.StatusOK, ok(`"`+u+`"`))
		got, err := h.client.Organization.SetWebhookURL(context.Background(), u)
		require.NoError(t, err, u)
		assert.Equal(t, u, got)
		assert.EqualValues(t, 1, calls.Load(), u)
	}
}

// TestOrganizationSetWebhookURLWrappedAnswer: an answer that wraps the
// URL in an object is read too.
func TestOrganizationSetWebhookURLWrappedAnswer(t *testing.T) {
	for _, data := range []string{`{"webhook_url":"http://127.0.0.1:8080/h"}`, `{"url":"http://127.0.0.1:8080/h"}`} {
		h := newHarness(t)
		h.expect(http.MethodPost, webhookPath, `{"webhook_url":"http://127.0.0.1:8080/h"}`, http.StatusOK, ok(data))
		got, err := h.client.Organization.SetWebhookURL(context.Background(), "http://127.0.0.1:8080/h")
		require.NoError(t, err, data)
		assert.Equal(t, "http://127.0.0.1:8080/h", got, data)
	}
}

// TestOrganizationSetWebhookURLMalformedAnswer: an answer without the URL
// (null, "", a number) is not a success.
func TestOrganizationSetWebhookURLMalformedAnswer(t *testing.T) {
	for _, data := range []string{`null`, `""`, `7`, `{}`} {
		h := newHarness(t)
		h.expect(http.MethodPost, webhookPath, `{"webhook_url":"https://h.example/"}`, http.StatusOK, ok(data))
		got, err := h.client.Organization.SetWebhookURL(context.Background(), "https://h.example/")
		require.Error(t, err, data)
		assert.ErrorIs(t, err, fiatramp.ErrMalformedResponse, data)
		assert.Empty(t, got)
	}
}

// TestOrganizationSetWebhookURLRefusedBeforeSending: a URL that is not
// absolute http(s) is refused naming webhook_url, and nothing is sent.
func TestOrganizationSetWebhookURLRefusedBeforeSending(t *testing.T) {
	h := newHarness(t)
	for _, u := range []string{
		"", " ", "/hooks", "hooks.example.com", "hooks/h", "hooks .example.com/h", "ftp://hooks.example.com/", "mailto:a@b", "https://",
		"https://user:pw@hooks.example.com/", "https://hooks.example.com/#frag", "https://h.example/" + strings.Repeat("a", 2048),
		"javascript:alert(1)", "http//missing-colon.example",
	} {
		got, err := h.client.Organization.SetWebhookURL(context.Background(), u)
		assert.Empty(t, got)
		require.ErrorIs(t, err, fiatramp.ErrInvalidRequest, u)
		var ve *fiatramp.ValidationError
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, "webhook_url", ve.Field, u)
	}
	assert.Zero(t, h.mock.GetTotalCallCount(), "nothing sent")
}

// TestOrganizationSetWebhookURLRequired: the service's refusal reaches
// the caller with its message.
func TestOrganizationSetWebhookURLRequired(t *testing.T) {
	h := newHarness(t)
	h.mock.RegisterResponder(http.MethodPost, testBase+webhookPath,
		httpmock.NewStringResponder(400, `{"status":false,"message":"Webhook URL is required","data":null}`))
	_, err := h.client.Organization.SetWebhookURL(context.Background(), "https://h.example/")
	var apiErr *fiatramp.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "Webhook URL is required", apiErr.Message)
}

// BenchmarkSetWebhookURLVsFloor compares Organization.SetWebhookURL with
// the hand-written call.
func BenchmarkSetWebhookURLVsFloor(b *testing.B) {
	const u = "https://hooks.example.com/fiatramp"
	compareOnLoopbackAndMemory(b, []byte(ok(`"`+u+`"`)), webhookPath,
		func(ctx context.Context, c *fiatramp.Client) error {
			got, err := c.Organization.SetWebhookURL(ctx, u)
			if err == nil && got != u {
				err = errors.New("library: wrong URL")
			}
			return err
		},
		func(ctx context.Context, hc *http.Client, url string) error {
			body, err := json.Marshal(struct {
				WebhookURL string `json:"webhook_url"`
			}{u})
			if err != nil {
				return err
			}
			var got string
			if err := floorSend(ctx, hc, http.MethodPost, url, body, &got); err != nil {
				return err
			}
			if got != u {
				return errors.New("floor: wrong URL")
			}
			return nil
		})
}
