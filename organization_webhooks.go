package fiatramp

import (
	"context"
	"strings"

	"github.com/fiatramp/fiatramp-go/types"
)

// OrganizationAPI is the method set of OrganizationService, for
// substituting a fake. Methods may be added in minor versions: embed
// OrganizationAPI in the fake's struct so that it keeps compiling.
type OrganizationAPI interface {
	SetWebhookURL(ctx context.Context, webhookURL string, opts ...RequestOption) (string, error)
}

var _ OrganizationAPI = (*OrganizationService)(nil)

// OrganizationService holds the settings of the organization the API key
// belongs to, such as its webhook URL. Each method's doc names the HTTP
// call it makes; Operations lists them all.
type OrganizationService struct{ client *Client }

// maxWebhookURL is the longest webhook URL SetWebhookURL sends.
const maxWebhookURL = 2048

var setWebhookURLBody = compileBody[types.SetWebhookURLRequest]()

// SetWebhookURL registers the URL that receives the organization's
// webhooks, replacing any earlier one; deliveries from then on go there:
// POST /org/api/v1/organizations/api-webhooks with {"webhook_url"}. It
// returns the URL the service registered. What is not a URL at all
// (blank, white space inside, a scheme other than http or https, no
// host), a URL with user info or a fragment, and one longer than 2048
// bytes are refused before sending (ErrInvalidRequest); a URL written
// without its scheme ("hooks.example.com/fiatramp", as the service's own
// example writes one) is sent as given. The service
// refuses a missing one with "Webhook URL is required". Registering the
// same URL again changes nothing, so the call is retried like a read.
func (s *OrganizationService) SetWebhookURL(ctx context.Context, webhookURL string, opts ...RequestOption) (string, error) {
	if err := checkWebhookURL(webhookURL); err != nil {
		return "", err
	}
	got, err := call[types.WebhookURL](ctx, s.client, opOrganizationSetWebhookURL.op().with(setWebhookURLBody(types.SetWebhookURLRequest{WebhookURL: webhookURL})), opts)
	if err != nil {
		return "", err
	}
	return string(*got), nil
}

// checkWebhookURL refuses a webhook URL the service could not deliver to.
func checkWebhookURL(text string) error {
	if len(text) > maxWebhookURL {
		return invalid("webhook_url", "is longer than 2048 bytes")
	}
	u, err := checkWebURL("webhook_url", text)
	switch {
	case err != nil:
		return err
	case u.User != nil:
		return invalid("webhook_url", "must not carry user info")
	case u.Fragment != "" || strings.Contains(text, "#"):
		return invalid("webhook_url", "must not carry a fragment")
	}
	return nil
}
