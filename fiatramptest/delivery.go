package fiatramptest

import (
	"net/http"
	"testing"

	"github.com/fiatramp/fiatramp-go/webhook"
)

// NewDelivery returns a POST to url carrying ev as the service delivers
// it, signed with the organization's key and secret at the sandbox's
// clock: what a receiver built with webhook.Handler (and the same key and
// secret) accepts. The receiver checks the timestamp against its own
// clock: give it webhook.WithClock(sb.Now) once the test moves the
// sandbox's (Advance, SetTime). Serve it to the receiver with its ServeHTTP method, or
// send it with an http.Client when url is absolute. It fails the test when
// ev cannot be encoded or url parsed.
func (sb *Sandbox) NewDelivery(t testing.TB, url string, ev webhook.Event) *http.Request {
	t.Helper()
	req, err := webhook.NewTestDelivery(sb.Organization.APIKey, sb.Organization.APISecret, url, ev, sb.Now())
	if err != nil {
		t.Fatalf("fiatramptest: %v", err)
	}
	return req
}
