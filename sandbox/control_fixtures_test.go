package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
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

func TestControlFixturesAndState(t *testing.T) {
	e := newCtlEnv(t)
	doc, err := os.ReadFile("testdata/fixtures.json")
	if err != nil {
		doc = []byte(`{"organizations":[{"name":"Acme","prefunded":true,"balances":{"USDT":"250"},
			"customers":[{"name":"Asha","bank_accounts":[{"account_number":"1","ifsc":"SBIN0001234","quotations":[{"sending_amount":"10","rate":"88.25"}]}]}]}]}`)
	}
	loaded := e.ok(201, "POST", "/_sandbox/fixtures", string(doc))
	orgs := loaded["organizations"].([]any)
	require.NotEmpty(t, orgs)
	orgID := uuid.MustParse(orgs[0].(map[string]any)["id"].(string))
	_, ok := e.sb.Organization(orgID)
	assert.True(t, ok, "loaded into the sandbox")

	// Every fixture method, one by one.
	o := e.ok(201, "POST", "/_sandbox/organizations", `{"name":"Beta","prefunded":true,"balances":{"usdt":"5.50"}}`)
	oid := o["id"].(string)
	assert.Equal(t, "5.5", e.sb.Balance(uuid.MustParse(oid), "USDT").String())
	c := e.ok(201, "POST", "/_sandbox/customers", fmt.Sprintf(`{"organization_id":%q,"name":"Ravi","kyc_status":"PROCESSING"}`, oid))
	cid := c["id"].(string)
	b := e.ok(201, "POST", "/_sandbox/bank-accounts", fmt.Sprintf(`{"customer_id":%q,"account_number":"42","ifsc":"HDFC0000001"}`, cid))
	e.ok(201, "POST", "/_sandbox/wallets", fmt.Sprintf(`{"customer_id":%q,"wallet_address":"TXYZ"}`, cid))
	q := e.ok(201, "POST", "/_sandbox/quotations", fmt.Sprintf(`{"customer_id":%q,"bank_id":%q,"sending_amount":"10","rate":"88.25","expires_at":"2099-01-01T00:00:00Z"}`, cid, b["id"]))
	assert.Equal(t, "882.5", q["receiving_amount"])
	r := e.ok(201, "POST", "/_sandbox/remitters", fmt.Sprintf(`{"organization_id":%q,"name":"Remit"}`, oid))
	assert.Equal(t, oid, r["organization_id"])

	// Balances.
	e.ok(200, "PUT", "/_sandbox/organizations/"+oid+"/balances/usdc", `{"amount":"12.345"}`)
	assert.Equal(t, "12.345", e.sb.Balance(uuid.MustParse(oid), "USDC").String())
	one := e.ok(200, "GET", "/_sandbox/organizations/"+oid+"/balances/USDC", "")
	assert.Equal(t, map[string]any{"asset": "USDC", "amount": "12.345"}, one)
	all := e.ok(200, "GET", "/_sandbox/organizations/"+oid+"/balances", "")
	assert.Equal(t, map[string]any{"balances": map[string]any{"USDT": "5.5", "USDC": "12.345"}}, all)
	org := e.ok(200, "GET", "/_sandbox/organizations/"+oid, "")
	assert.Equal(t, "Beta", org["name"])

	// Customers: KYC status and flags.
	e.ok(200, "PUT", "/_sandbox/customers/"+cid+"/kyc-status", `{"kyc_status":"FAILED"}`)
	cu, _ := e.sb.Customer(uuid.MustParse(cid))
	assert.Equal(t, types.KYCFailed, cu.KYCStatus)
	e.ok(200, "PUT", "/_sandbox/customers/"+cid+"/flags", `{"aml_failed":true,"edd_required":true}`)
	cu, _ = e.sb.Customer(uuid.MustParse(cid))
	assert.Equal(t, sandbox.CustomerFlags{AMLFailed: true, EDDRequired: true}, cu.CustomerFlags)
	got := e.ok(200, "GET", "/_sandbox/customers/"+cid, "")
	assert.Equal(t, "FAILED", got["kyc_status"])
	assert.Equal(t, true, got["aml_failed"])

	// Payouts: made through the service, read through the control plane.
	demo := e.ok(201, "POST", "/_sandbox/demo", "")
	var d sandbox.Demo
	raw, _ := json.Marshal(demo)
	require.NoError(t, json.Unmarshal(raw, &d))
	cl := e.clientFor(d.Organization)
	ref := "order/1 with space"
	p, err := cl.Payouts.Create(context.Background(), types.CreatePayoutRequest{
		QuotationID: d.Quotations[0].ID, CustomerID: d.Customer.ID, ClientReferenceID: ref, ExchangeOrderID: "ex-1"})
	require.NoError(t, err)
	list := e.ok(200, "GET", "/_sandbox/organizations/"+d.Organization.ID.String()+"/payouts", "")["payouts"].([]any)
	require.Len(t, list, 1)
	assert.Equal(t, p.ID.String(), list[0].(map[string]any)["id"])
	byRef := e.ok(200, "GET", "/_sandbox/organizations/"+d.Organization.ID.String()+"/payouts/by-reference?client_reference_id=order%2F1+with+space", "")
	assert.Equal(t, p.ID.String(), byRef["id"])
	one = e.ok(200, "GET", "/_sandbox/payouts/"+p.ID.String(), "")
	assert.Equal(t, "PROCESSING", one["status"])
	assert.Equal(t, "10", one["sending_amount"], "decimals as exact strings")
	empty := e.ok(200, "GET", "/_sandbox/organizations/"+oid+"/payouts", "")
	assert.Equal(t, map[string]any{"payouts": []any{}}, empty, "an empty list, not null")

	// The service's own moves, along the transition table: FAILED, then
	// REFUNDED; a move the table does not hold is refused by name.
	_, err = cl.Payouts.SimulateStatus(context.Background(), p.ID, types.PayoutFailed)
	require.NoError(t, err)
	bad := e.call("PUT", "/_sandbox/payouts/"+p.ID.String()+"/status", `{"status":"SUCCESS"}`)
	assert.Equal(t, 400, bad.status, "%s", bad)
	assert.Equal(t, map[string]any{"error": "Payout status cannot move from FAILED to SUCCESS.", "field": "status"}, bad.json(t))
	bad = e.call("PUT", "/_sandbox/payouts/"+p.ID.String()+"/status", `{"status":"SETTLED"}`)
	assert.Equal(t, 400, bad.status, "%s", bad)
	assert.Equal(t, "status", bad.json(t)["field"])
	bad = e.call("PUT", "/_sandbox/payouts/"+p.ID.String()+"/status", `{"Status":"REFUNDED"}`)
	assert.Equal(t, 400, bad.status, "%s", bad)
	assert.Equal(t, "Status", bad.json(t)["field"], "an unknown member is refused by name")
	bad = e.call("PUT", "/_sandbox/payouts/"+uuid.NewString()+"/status", `{"status":"REFUNDED"}`)
	assert.Equal(t, 404, bad.status, "%s", bad)
	moved := e.ok(200, "PUT", "/_sandbox/payouts/"+p.ID.String()+"/status", `{"status":"REFUNDED"}`)
	assert.Equal(t, "REFUNDED", moved["status"])
	fetched, err := cl.Payouts.Get(context.Background(), p.ID)
	require.NoError(t, err)
	assert.Equal(t, types.PayoutRefunded, fetched.Status)

	a := e.call("GET", "/_sandbox/organizations/"+d.Organization.ID.String()+"/payouts/by-reference?client_reference_id=nope", "")
	assert.Equal(t, 404, a.status, "%s", a)
	a = e.call("GET", "/_sandbox/payouts/"+uuid.NewString(), "")
	assert.Equal(t, 404, a.status, "%s", a)

	st := e.ok(200, "GET", "/_sandbox/settings", "")
	assert.EqualValues(t, 300, st["timestamp_window_seconds"])
	assert.Equal(t, "2500", st["min_payin_amount"])
	assert.Equal(t, false, st["allow_remote_webhooks"], "nothing leaves the machine unless asked")

	// Reset: nothing left, the clock back to real time, a new demo on
	// request.
	res := e.ok(200, "POST", "/_sandbox/reset", `{"seed_demo":true}`)
	_, ok = e.sb.Organization(e.org.ID)
	assert.False(t, ok, "reset removed the organizations")
	assert.Empty(t, e.sb.Payouts(d.Organization.ID))
	assert.Empty(t, e.sb.Deliveries())
	assert.WithinDuration(t, time.Now(), e.sb.Now(), time.Minute, "the clock runs with real time again")
	newDemo := res["demo"].(map[string]any)["organization"].(map[string]any)
	_, ok = e.sb.Organization(uuid.MustParse(newDemo["id"].(string)))
	assert.True(t, ok)
	_, err = e.client.KYC.GetConfiguration(context.Background(), e.cust.ID)
	assert.ErrorIs(t, err, fiatramp.ErrUnauthorized, "the old keys are gone")
}

// TestControlResetWhileDelivering resets while deliveries are delayed and
// being attempted: the log starts over, and the attempts under way, once
// answered, neither reappear in it nor are retried.
func TestControlResetWhileDelivering(t *testing.T) {
	// Retries at once: an attempt from before the reset that was retried
	// would show within the test.
	e := newCtlEnv(t, func(s *sandbox.Settings) { s.WebhookInitialBackoff = time.Millisecond })
	release := make(chan struct{})
	var arrived, answered atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusInternalServerError) // would be retried
		answered.Add(1)
	}))
	defer recv.Close()
	require.NoError(t, e.sb.SetWebhookURL(e.org.ID, recv.URL))
	e.ok(201, "POST", "/_sandbox/delivery-faults", `{"kind":"delay","type":"CUSTOMER","count":1,"delay_seconds":30}`)
	for i := range 3 {
		c := e.customer(e.org, sandbox.Customer{Name: fmt.Sprint(i), KYCStatus: types.KYCProcessing})
		_, err := e.client.KYC.SimulateStatus(context.Background(), c.ID, types.KYCVerified)
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool { return arrived.Load() == 2 }, 10*time.Second, time.Millisecond,
		"two attempts under way, one delayed")
	a := e.call("POST", "/_sandbox/deliveries/wait", `{"timeout_seconds":0.05}`)
	assert.Equal(t, http.StatusGatewayTimeout, a.status, "%s", a)
	assert.Contains(t, a.json(t)["error"], "deliveries still pending")

	e.ok(200, "POST", "/_sandbox/reset", "")
	assert.Empty(t, e.sb.Deliveries())
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	require.NoError(t, e.sb.WaitDeliveries(ctx), "nothing pending after a reset")

	demo := e.must(e.sb.SeedDemo()).(sandbox.Demo)
	cl := e.clientFor(demo.Organization)
	_, err := cl.KYC.SimulateStatus(context.Background(), demo.PendingCustomer.ID, types.KYCVerified)
	require.NoError(t, err)

	close(release)
	require.Eventually(t, func() bool { return answered.Load() == 2 }, 10*time.Second, time.Millisecond)
	time.Sleep(50 * time.Millisecond) // the attempts' ends, and any retry they would schedule
	log := e.sb.Deliveries()
	require.Len(t, log, 1, "only the event after the reset")
	assert.Equal(t, 1, log[0].Seq)
	assert.Equal(t, demo.PendingCustomer.ID.String(), log[0].ID)
	assert.Equal(t, sandbox.DeliveryNoURL, log[0].State)
	assert.Empty(t, log[0].Attempts)
	assert.EqualValues(t, 2, arrived.Load(), "no retry of an attempt from before the reset")
}
