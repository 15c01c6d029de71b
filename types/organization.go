package types

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// SetWebhookURLRequest is the body of register the webhook URL, POST
// /org/api/v1/organizations/api-webhooks: {"webhook_url": "https://..."}.
type SetWebhookURLRequest struct {
	// WebhookURL is the absolute http or https URL that receives the
	// organization's webhooks from then on.
	WebhookURL string `json:"webhook_url"`
}

// WebhookURL is the organization's registered webhook URL, the data of
// POST /org/api/v1/organizations/api-webhooks. The service answers it as
// a bare JSON string; an object carrying it as webhook_url or url (in
// that order of preference) is read too, so that an edition that wraps it
// still decodes. null leaves u unchanged; any other JSON value is an
// error.
type WebhookURL string

// webhookURLObject is the wrapped form of a WebhookURL.
type webhookURLObject struct {
	WebhookURL string `json:"webhook_url" fiatramp:"alias=url"`
}

var webhookURLObjectPlan = compilePlan[webhookURLObject]()

// UnmarshalJSON decodes a bare string, or an object {"webhook_url"} or
// {"url"}; null leaves u unchanged, and on error u is unchanged.
func (u *WebhookURL) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) > 0 && data[0] == '{':
		var o webhookURLObject
		if err := decodeWith(webhookURLObjectPlan, &o, data); err != nil {
			return err
		}
		*u = WebhookURL(o.WebhookURL)
		return nil
	case bytes.Equal(data, []byte("null")):
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return &json.UnmarshalTypeError{Value: "non-string", Type: reflect.TypeFor[WebhookURL](), Field: "data"}
	}
	*u = WebhookURL(s)
	return nil
}
