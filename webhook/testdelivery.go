package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/fiatramp/fiatramp-go"
)

// Sign returns the headers the service sends with body at time at:
// X-TIMESTAMP (at in Unix seconds), X-SIGNATURE (the Base64 HMAC-SHA256,
// keyed by apiSecret, of apiKey + "|" + X-TIMESTAMP + "|" + the canonical
// JSON of body) and Content-Type: application/json. It fails when body is
// not one JSON document. It is meant for tests of a receiver: Verify
// accepts body with these headers.
func Sign(apiKey, apiSecret string, body []byte, at time.Time) (http.Header, error) {
	canonical, err := fiatramp.CanonicalizeJSON(body)
	if err != nil {
		return nil, fmt.Errorf("webhook: Sign: body is not JSON: %w", err)
	}
	ts := at.Unix()
	h := make(http.Header, 3)
	h.Set("Content-Type", "application/json")
	h.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
	h.Set(HeaderSignature, fiatramp.Sign(apiKey, apiSecret, ts, canonical))
	return h, nil
}

// NewTestDelivery returns a POST request to url carrying ev as the service
// delivers it (see Event.MarshalJSON), signed at time at with apiKey and
// apiSecret (see Sign). Serve it to a receiver with its ServeHTTP method,
// or send it with an http.Client when url is absolute. It fails when ev
// cannot be encoded or url cannot be parsed.
func NewTestDelivery(apiKey, apiSecret, url string, ev Event, at time.Time) (*http.Request, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("webhook: NewTestDelivery: %w", err)
	}
	h, err := Sign(apiKey, apiSecret, body, at)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("webhook: NewTestDelivery: %w", err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	return req, nil
}
