package sandbox_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

func TestControlRequestFaultsEveryKind(t *testing.T) {
	e := newCtlEnv(t)
	plain := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for _, k := range sandbox.FaultKind("").Values() {
		body := fmt.Sprintf(`{"kind":%q,"method":"GET","path":"/pos/api/v1/payout/*","count":1}`, k)
		if k == sandbox.FaultDelay || k == sandbox.FaultDelayAfter {
			body = fmt.Sprintf(`{"kind":%q,"path":"/pos/api/v1/payout/balance","count":1,"delay_seconds":0.01}`, k)
		}
		if k == sandbox.FaultRateLimit {
			body = fmt.Sprintf(`{"kind":%q,"path":"/pos/api/v1/payout/balance","count":1,"retry_after_seconds":7}`, k)
		}
		got := e.ok(201, "POST", "/_sandbox/faults", body)
		assert.Equal(t, string(k), got["kind"])
		before := e.sb.Stats().Faults[k]
		resp, err := plain.Get(e.srv.URL + "/pos/api/v1/payout/balance")
		if err == nil {
			if k == sandbox.FaultRateLimit {
				assert.Equal(t, 429, resp.StatusCode)
				assert.Equal(t, "7", resp.Header.Get("Retry-After"))
			}
			resp.Body.Close()
		}
		assert.Equal(t, before+1, e.sb.Stats().Faults[k], "kind %s reached the sandbox", k)
		stats := e.ok(200, "GET", "/_sandbox/stats", "")
		assert.EqualValues(t, before+1, stats["faults"].(map[string]any)[string(k)])
	}

	// A fault for every path spares the control plane, which the
	// request count does not count either.
	e.ok(201, "POST", "/_sandbox/faults", `{"kind":"drop_before"}`)
	requests := e.sb.Stats().Requests
	e.ok(200, "GET", "/_sandbox/stats", "")
	assert.Equal(t, requests, e.sb.Stats().Requests)
	e.ok(200, "DELETE", "/_sandbox/faults", "")

	e.ok(201, "POST", "/_sandbox/faults", `{"kind":"unavailable"}`)
	_, err := e.client.Payouts.GetBalance(context.Background())
	require.ErrorIs(t, err, fiatramp.ErrUnavailable)
	e.ok(200, "DELETE", "/_sandbox/faults", "")
	_, err = e.client.Payouts.GetBalance(context.Background())
	require.NoError(t, err, "cleared")
}

func TestControlDeliveryFaultsEveryKind(t *testing.T) {
	e := newCtlEnv(t)
	var posts atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer recv.Close()
	e.ok(200, "PUT", "/_sandbox/organizations/"+e.org.ID.String()+"/webhook-url", fmt.Sprintf(`{"webhook_url":%q}`, recv.URL))
	org, _ := e.sb.Organization(e.org.ID)
	require.Equal(t, recv.URL, org.WebhookURL)

	ctx := context.Background()
	for i, k := range sandbox.DeliveryFaultKind("").Values() {
		body := fmt.Sprintf(`{"kind":%q,"type":"CUSTOMER","event":"VERIFIED","count":1}`, k)
		if k == sandbox.DeliveryFaultDelay {
			body = fmt.Sprintf(`{"kind":%q,"count":1,"delay_seconds":0.01}`, k)
		}
		e.ok(201, "POST", "/_sandbox/delivery-faults", body)
		cu := e.ok(201, "POST", "/_sandbox/customers", fmt.Sprintf(`{"organization_id":%q,"name":"c%d","kyc_status":"PROCESSING"}`, e.org.ID, i))
		id := uuid.MustParse(cu["id"].(string))
		_, err := e.client.KYC.SimulateStatus(ctx, id, types.KYCVerified)
		require.NoError(t, err)
		// A delay waits on the sandbox clock (stopped here): move it to
		// the due time.
		w := e.ok(200, "POST", "/_sandbox/deliveries/deliver-due", `{"timeout_seconds":10}`)
		if k == sandbox.DeliveryFaultDelay {
			assert.EqualValues(t, 1, w["pending"], "kind %s waits for the clock", k)
			next, err := time.Parse(time.RFC3339Nano, w["next_due"].(string))
			require.NoError(t, err)
			assert.True(t, next.After(e.sb.Now()), "kind %s: due %v", k, next)
			e.ok(200, "PUT", "/_sandbox/clock", fmt.Sprintf(`{"time":%q}`, next.Format(time.RFC3339Nano)))
			w = e.ok(200, "POST", "/_sandbox/deliveries/deliver-due", `{"timeout_seconds":10}`)
		}
		assert.EqualValues(t, 0, w["pending"], "kind %s", k)
		assert.Nil(t, w["next_due"])
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		require.NoError(t, e.sb.WaitDeliveries(wctx))
		cancel()
		log := e.sb.Deliveries()
		assert.Equal(t, k, log[len(log)-1].Fault, "kind %s reached the deliveries", k)
	}

	e.ok(201, "POST", "/_sandbox/delivery-faults", `{"kind":"drop"}`)
	e.ok(200, "DELETE", "/_sandbox/delivery-faults", "")
	_, err := e.client.KYC.SimulateStatus(ctx, e.must(e.sb.AddCustomer(sandbox.Customer{
		OrganizationID: e.org.ID, KYCStatus: types.KYCProcessing})).(sandbox.Customer).ID, types.KYCVerified)
	require.NoError(t, err)
	w := e.ok(200, "POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":10}`)
	assert.EqualValues(t, 0, w["pending"])

	deliveries := e.ok(200, "GET", "/_sandbox/deliveries", "")["deliveries"].([]any)
	require.Len(t, deliveries, 5)
	last := deliveries[4].(map[string]any)
	assert.Equal(t, "delivered", last["state"])
	assert.Nil(t, last["fault"], "cleared: no fault")
	body := last["body"].(map[string]any)
	assert.Equal(t, "CUSTOMER", body["type"], "the body is the JSON object sent, not Base64")
	assert.Equal(t, "VERIFIED", body["event"])
	assert.Equal(t, e.sb.Deliveries()[4].Seq, int(last["seq"].(float64)))
}

// TestControlDeliveryLogAndClock: GET /_sandbox/deliveries answers the
// bounded log with its exact counts and size; a retry waits on the
// sandbox clock until POST /_sandbox/clock/advance moves it past the
// backoff, and POST /_sandbox/deliveries/deliver-due attempts it.
func TestControlDeliveryLogAndClock(t *testing.T) {
	e := newCtlEnv(t, func(s *sandbox.Settings) {
		s.DeliveryLogSize = 2
		s.WebhookInitialBackoff, s.WebhookMaxBackoff = 5*time.Second, time.Minute
	})
	var posts atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if posts.Add(1) == 1 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer recv.Close()
	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, recv.URL))
	assert.EqualValues(t, 2, e.ok(200, "GET", "/_sandbox/settings", "")["delivery_log_size"])

	for i := range 3 {
		c := e.customer(e.org, sandbox.Customer{Name: fmt.Sprint(i), KYCStatus: types.KYCProcessing})
		_, err := e.client.KYC.SimulateStatus(context.Background(), c.ID, types.KYCVerified)
		require.NoError(t, err)
	}
	w := e.ok(200, "POST", "/_sandbox/deliveries/deliver-due", `{"timeout_seconds":10}`)
	assert.EqualValues(t, 1, w["pending"], "the first delivery waits for its retry")
	assert.Equal(t, epoch.Add(5*time.Second).Format(time.RFC3339Nano), w["next_due"])
	a := e.call("POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":0.05}`)
	assert.Equal(t, http.StatusGatewayTimeout, a.status, "the stopped clock holds the retry")
	assert.Contains(t, a.json(t)["error"], "due at 2026-11-21T09:30:05Z on the sandbox clock")

	e.ok(200, "POST", "/_sandbox/clock/advance", `{"seconds":4.999}`)
	w = e.ok(200, "POST", "/_sandbox/deliveries/deliver-due", `{"timeout_seconds":10}`)
	assert.EqualValues(t, 1, w["pending"], "short of the backoff")
	assert.EqualValues(t, 3, posts.Load())
	e.ok(200, "POST", "/_sandbox/clock/advance", `{"seconds":0.001}`)
	w = e.ok(200, "POST", "/_sandbox/deliveries/deliver-due", `{"timeout_seconds":10}`)
	assert.EqualValues(t, 0, w["pending"])
	assert.Nil(t, w["next_due"])
	assert.EqualValues(t, 4, posts.Load(), "retried once the clock reached it")

	m := e.ok(200, "GET", "/_sandbox/deliveries", "")
	assert.EqualValues(t, 2, m["log_size"])
	log := m["deliveries"].([]any)
	require.Len(t, log, 2, "bounded: the oldest went")
	assert.EqualValues(t, 2, log[0].(map[string]any)["seq"])
	assert.EqualValues(t, 3, log[1].(map[string]any)["seq"])
	assert.Equal(t, map[string]any{
		"total": 3.0, "logged": 2.0, "evicted": 1.0, "attempts": 4.0,
		"states": map[string]any{"pending": 0.0, "delivered": 3.0, "failed": 0.0, "dropped": 0.0, "no_url": 0.0, "abandoned": 0.0, "not_sent": 0.0},
		"faults": map[string]any{"duplicate": 0.0, "delay": 0.0, "drop": 0.0, "bad_signature": 0.0},
	}, m["counts"], "the evicted delivery's retry is counted")

	for _, body := range []string{`{}`, `{"timeout_seconds":0}`, `{"timeout_seconds":51}`} {
		a := e.call("POST", "/_sandbox/deliveries/deliver-due", body)
		assert.Equal(t, http.StatusBadRequest, a.status, "%s: %s", body, a)
		assert.Equal(t, "timeout_seconds", a.json(t)["field"], body)
	}
}
