package sandbox

// The registration of the organization's webhook URL
// (POST /org/api/v1/organizations/api-webhooks).

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// maxWebhookURL is the longest webhook URL the registration accepts.
const maxWebhookURL = 2048

// registerWebhook is POST /org/api/v1/organizations/api-webhooks with
// {"webhook_url": "https://..."}: it sets the organization's one webhook
// URL, replacing any earlier one; events emitted from then on go there. It
// answers the URL as a bare JSON string. A body without webhook_url is
// read from "url", the member an earlier form of the documentation showed,
// so that callers written against it keep working; webhook_url wins when
// both are present. Neither (or null, or blank) is "Webhook URL is
// required"; a URL that is not absolute http or https, carries user info
// or a fragment, or is longer than 2048 bytes is a field error under the
// member it came in. A URL written without its scheme
// ("hooks.example.com/fiatramp", as the service's own example writes one)
// is registered, and answered, with https:// before it.
func (s *Sandbox) registerWebhook(rq *request) reply {
	f := rq.body
	name := "webhook_url"
	raw, ok := f.value(name)
	if !ok {
		if legacy, has := f.value("url"); has {
			name, raw, ok = "url", legacy, true
		}
	}
	if !ok || raw == nil {
		return rule(msgWebhookURLRequired)
	}
	text, isString := raw.(string)
	if !isString {
		return fieldRefusal(map[string][]string{name: {msgString}})
	}
	if strings.TrimSpace(text) == "" {
		return rule(msgWebhookURLRequired)
	}
	if !strings.Contains(text, "://") {
		text = "https://" + text
	}
	if problem := webhookURLProblem(text); problem != "" {
		return fieldRefusal(map[string][]string{name: {problem}})
	}
	rq.org.WebhookURL = text
	return success(http.StatusOK, "Webhook registered successfully", text)
}

// msgWebhookURLRequired refuses a registration without a URL.
const msgWebhookURLRequired = "Webhook URL is required"

// webhookURLProblem says what is wrong with a webhook URL, or "".
func webhookURLProblem(text string) string {
	if strings.TrimSpace(text) == "" {
		return msgBlank
	}
	if len(text) > maxWebhookURL {
		return fmt.Sprintf("Ensure this field has no more than %d characters.", maxWebhookURL)
	}
	u, err := url.Parse(text)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Fragment != "" {
		return "Enter a valid URL."
	}
	return ""
}
